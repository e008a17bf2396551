"""Benchmark: render and encode a mid-game Coin Age board N times; print p50/p95 in ms and the picture's bytes.

    /work/venv/bin/python bench/render_coin_age.py [-n 200] [--seed 3] [--format png|jpeg] [--out board.png]

Target: render + encode p50 <= 30 ms on the 2-core build machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

from rendering.coin_age import render
from rendering.encode import encode_jpeg, encode_png
from rules.coin_age.engine import CoinAge
from rules.coin_age.model import CoinAgeState, CoinAgeView

NAMES = ("علی", "سارا")


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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200, help="renders to time (default 200)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--format", choices=("png", "jpeg"), default="jpeg")
    parser.add_argument("--out", type=Path, help="also write the encoded picture here")
    args = parser.parse_args()

    encode = encode_png if args.format == "png" else encode_jpeg
    view = mid_game(args.seed)
    started = time.perf_counter()
    data = encode(render(view, names=NAMES))  # warm-up: fonts, static layer, coin sprites
    first = (time.perf_counter() - started) * 1000

    render_ms: list[float] = []
    encode_ms: list[float] = []
    total_ms: list[float] = []
    cpu_ms: list[float] = []  # process CPU time: steadier than wall time on a shared machine
    for _ in range(args.n):
        c0 = time.process_time()
        t0 = time.perf_counter()
        image = render(view, names=NAMES)
        t1 = time.perf_counter()
        data = encode(image)
        t2 = time.perf_counter()
        render_ms.append((t1 - t0) * 1000)
        encode_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
        cpu_ms.append((time.process_time() - c0) * 1000)

    coins = sum(len(space.stack) for space in view.spaces)
    print(f"mid-game board: {coins} coins on the board, {image.width}×{image.height}, {args.n} runs")
    print(f"first call (cold caches): {first:.1f} ms")
    rows = (("render", render_ms), (f"encode {args.format}", encode_ms), ("total", total_ms), ("total cpu", cpu_ms))
    for label, values in rows:
        print(f"{label:>12}: p50 {statistics.median(values):6.2f} ms   p95 {percentile(values, 0.95):6.2f} ms")
    print(f"{'bytes':>12}: {len(data)}")
    if args.out:
        args.out.write_bytes(data)


if __name__ == "__main__":
    main()
