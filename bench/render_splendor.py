"""Benchmark: render and encode a busy اسپلندور table N times; print p50/p95 in ms and the picture's bytes.

    /work/venv/bin/python bench/render_splendor.py [-n 200] [--players 4] [--seed 3] [--format png|jpeg]
        [--out table.jpg] [--reserved]

``--reserved`` times the private picture of the player in turn instead of the table.
Target: table render + encode p50 <= 40 ms for 4 players on the 2-core build machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

from PIL import Image
from render_timing import measure

from rendering.encode import encode_jpeg, encode_png
from rendering.splendor import render, render_reserved
from rules.splendor.engine import Splendor
from rules.splendor.model import SplendorState, SplendorView

NAMES = ("علی", "سارا", "مریم‌السادات حسینی‌نژاد", "Reza")


def busy_position(players: int, seed: int) -> tuple[SplendorView, SplendorView]:
    """Play seeded random actions (buying and reserving when possible) and keep the busiest unfinished
    position: the most reserved and bought cards and tokens in hand, so the most to draw. Returns its
    public view and the view of the seat in turn."""
    game = Splendor()
    state: SplendorState = game.setup(players, seed)
    chooser = random.Random(seed)
    best, best_load = state, -1
    for _ in range(400):
        if state.finished:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        buys = [a for a in actions if a.kind in ("b", "bg")]
        reserves = [a for a in actions if a.kind == "r"]
        if buys and chooser.random() < 0.7:
            action = chooser.choice(buys)
        elif reserves and chooser.random() < 0.3:
            action = chooser.choice(reserves)
        else:
            action = chooser.choice(actions)
        state = game.apply(state, seat, action).state
        load = 3 * sum(map(len, state.reserved)) + sum(map(len, state.cards)) + sum(map(sum, state.tokens))
        load += 2 * sum(map(len, state.visitors))
        if not state.finished and load >= best_load:
            best, best_load = state, load
    return game.view(best, None), game.view(best, best.turn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="renders to time (default 200)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--format", choices=("png", "jpeg"), default="jpeg")
    parser.add_argument("--reserved", action="store_true", help="the private picture instead of the table")
    parser.add_argument("--out", type=Path, help="also write the encoded picture here")
    args = parser.parse_args()

    encode = encode_png if args.format == "png" else encode_jpeg
    public, private = busy_position(args.players, args.seed)

    def draw() -> Image.Image:
        return render_reserved(private) if args.reserved else render(public, names=NAMES[: args.players])

    reserved = sum(len(p.reserved) for p in public.players)
    hidden = sum(r.card is None for p in public.players for r in p.reserved)
    bought = sum(len(p.cards) for p in public.players)
    picture = "private picture" if args.reserved else "table"
    label = (
        f"{picture}: {args.players} players, round {public.round}, {bought} cards bought, {reserved} reserved"
        f" ({hidden} from a deck)"
    )
    measure(label, draw, encode, args.n, args.format, args.out)


if __name__ == "__main__":
    main()
