"""Benchmark: render and encode a mid-game Coin Age board N times; print p50/p95 in ms and the picture's bytes.

    /work/venv/bin/python bench/render_coin_age.py [-n 200] [--seed 3] [--format png|jpeg] [--out board.png]

Target: render + encode p50 <= 30 ms on the 2-core build machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

from render_timing import measure

from rendering.coin_age import render
from rendering.encode import encode_jpeg, encode_png
from rules.coin_age.engine import CoinAge
from rules.coin_age.model import CoinAgeState, CoinAgeView

NAMES = ("آرمان دلاوری‌نژاد خراسانی", "رایانه ۱ (سخت)")  # a long name and a computer player's, as players have them


def mid_game(seed: int) -> CoinAgeView:
    """Play seeded random actions (mostly placements) and keep the busiest unfinished position."""
    game = CoinAge()
    state: CoinAgeState = game.setup(2, seed)
    chooser = random.Random(seed)
    best, best_coins = state, 0
    for _ in range(400):
        if state.finished:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        places = [a for a in actions if a.kind == "place"]
        action = chooser.choice(places) if places and chooser.random() < 0.85 else chooser.choice(actions)
        state = game.apply(state, seat, action).state
        coins = sum(len(stack) for stack in state.stacks)
        if not state.finished and coins >= best_coins:
            best, best_coins = state, coins
    return game.view(best, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="renders to time (default 200)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--format", choices=("png", "jpeg"), default="jpeg")
    parser.add_argument("--out", type=Path, help="also write the encoded picture here")
    args = parser.parse_args()

    encode = encode_png if args.format == "png" else encode_jpeg
    view = mid_game(args.seed)
    coins = sum(len(space.stack) for space in view.spaces)
    measure(
        f"mid-game board, {coins} coins on the board", lambda: render(view, names=NAMES), encode, args.n, args.format,
        args.out,
    )  # fmt: skip


if __name__ == "__main__":
    main()
