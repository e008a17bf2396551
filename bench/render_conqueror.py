"""Benchmark: render and encode a busy کشورگشا board N times; print p50/p95 in ms and the picture's bytes.

    /work/venv/bin/python bench/render_conqueror.py [-n 200] [--seed 3] [--random-board] [--format png|jpeg]
        [--out board.jpg]

Target: render + encode p50 <= 40 ms on the 2-core build machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a plain script

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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


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
    started = time.perf_counter()
    data = encode(render(view, names=NAMES))  # warm-up: fonts, static layer, sprites
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

    castles = sum(c is not None for c in view.castles)
    pieces = sum(map(sum, view.pieces))
    owned = sum(o is not None for o in view.owners)
    print(
        f"board: {len(view.cells)} camps, {castles} castles, {len(view.walls)} walls, {pieces} pieces in camps,"
        f" {owned} owned; {image.width}×{image.height}, {args.n} runs"
    )
    print(f"first call (cold caches): {first:.1f} ms")
    rows = (("render", render_ms), (f"encode {args.format}", encode_ms), ("total", total_ms), ("total cpu", cpu_ms))
    for label, values in rows:
        print(f"{label:>12}: p50 {statistics.median(values):6.2f} ms   p95 {percentile(values, 0.95):6.2f} ms")
    print(f"{'bytes':>12}: {len(data)}")
    if args.out:
        args.out.write_bytes(data)


if __name__ == "__main__":
    main()
