"""Benchmark: render and encode a busy کشورگشا board N times; print p50/p95 in ms and the picture's bytes.

    /work/venv/bin/python bench/render_conqueror.py [-n 200] [--seed 3] [--random-board] [--format png|jpeg]
        [--out board.jpg]

Target: render + encode p50 <= 40 ms on the 2-core build machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

from render_timing import measure

from rendering.conqueror import render
from rendering.encode import encode_jpeg, encode_png
from rules.conqueror.engine import Conqueror
from rules.conqueror.model import ConquerorOptions, ConquerorState, ConquerorView

NAMES = ("علی", "سارا")


def busy_position(seed: int, options: ConquerorOptions) -> ConquerorView:
    """Play seeded random actions (rarely ending a turn early) and keep the busiest unfinished position:
    the most castles, walls and pieces on the board, so the most to draw."""
    game = Conqueror()
    state: ConquerorState = game.setup(2, seed, options)
    chooser = random.Random(seed)
    best, best_load = state, -1
    for _ in range(600):
        if state.finished:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        busy = [a for a in actions if a.kind != "end"]
        action = chooser.choice(busy) if busy and chooser.random() < 0.9 else chooser.choice(actions)
        state = game.apply(state, seat, action).state
        load = sum(c >= 0 for c in state.castles) + sum(w >= 0 for w in state.walls) + sum(map(sum, state.pieces))
        load += sum(o >= 0 for o in state.owners)
        if not state.finished and load >= best_load:
            best, best_load = state, load
    return game.view(best, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="renders to time (default 200)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--random-board", action="store_true", help="a random board of 12 tiles")
    parser.add_argument("--format", choices=("png", "jpeg"), default="jpeg")
    parser.add_argument("--out", type=Path, help="also write the encoded picture here")
    args = parser.parse_args()

    options = ConquerorOptions(random_board=True, random_board_tiles=12) if args.random_board else ConquerorOptions()
    encode = encode_png if args.format == "png" else encode_jpeg
    view = busy_position(args.seed, options)
    castles = sum(c is not None for c in view.castles)
    pieces = sum(map(sum, view.pieces))
    label = f"board: {len(view.cells)} camps, {castles} castles, {len(view.walls)} walls, {pieces} pieces in camps"
    measure(label, lambda: render(view, names=NAMES), encode, args.n, args.format, args.out)


if __name__ == "__main__":
    main()
