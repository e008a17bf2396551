"""Benchmark: render and encode قلعه رودخان pictures N times; print p50/p95 in ms and the picture's bytes.

    /work/venv/bin/python bench/render_carcassonne.py [-n 200] [--players 4] [--seed 3] [--format png|jpeg]
        [--out board.jpg]

Times three pictures of a seeded random game with farmers: the full board of 72 tiles with the result, the
opening board, and a late turn with a meeple spot chosen (a closer view when the board is large).
Target: full board render + encode p50 <= 80 ms on the 2-core build machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

from render_timing import measure

from rendering.carcassonne import Pending, render
from rendering.encode import encode_jpeg, encode_png
from rules.carcassonne import Carcassonne, CarcassonneOptions
from rules.carcassonne.model import CarcassonneView

NAMES = ("علی", "سارا", "مریم‌السادات حسینی‌نژاد", "Reza", "پدرام")


def played(players: int, seed: int) -> tuple[CarcassonneView, CarcassonneView, CarcassonneView]:
    """The opening, a view ten turns before the end, and the finished game of seeded random play (a meeple
    put down on half the turns that allow one)."""
    game = Carcassonne()
    state = game.setup(players, seed, CarcassonneOptions(farmers=True))
    chooser = random.Random(seed)
    views = [game.view(state, None)]
    while game.outcome(state) is None:
        seat = state.turn
        actions = game.legal_actions(state, seat)
        with_meeple = [a for a in actions if a.spot != "n"]
        action = chooser.choice(with_meeple if with_meeple and chooser.random() < 0.5 else actions)
        state = game.apply(state, seat, action).state
        views.append(game.view(state, None))
    late = next(v for v in reversed(views) if v.tiles_left >= 10 and v.candidates)
    return views[0], late, views[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="renders to time (default 200)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4, 5), default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--format", choices=("png", "jpeg"), default="jpeg")
    parser.add_argument("--out", type=Path, help="also write the full board's encoded picture here")
    args = parser.parse_args()

    encode = encode_png if args.format == "png" else encode_jpeg
    names = NAMES[: args.players]
    opening, late, finished = played(args.players, args.seed)
    candidate = max(late.candidates, key=lambda c: len(c.rotations))
    placement = max(candidate.rotations, key=lambda p: len(p.spots))
    pending = Pending(candidate.x, candidate.y, placement.rotation)

    label = f"full board: {len(finished.tiles)} tiles, {len(finished.meeples)} meeples, {args.players} players"
    measure(label, lambda: render(finished, names=names), encode, args.n, args.format, args.out)
    measure("opening board", lambda: render(opening, names=names), encode, args.n, args.format)
    label = f"late turn, spots shown: {len(late.tiles)} tiles, {len(late.candidates)} candidates"
    measure(label, lambda: render(late, names=names, pending=pending), encode, args.n, args.format)


if __name__ == "__main__":
    main()
