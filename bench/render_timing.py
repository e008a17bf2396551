"""Timing a picture the way the bot makes it: draw, then encode; p50/p95 of wall and CPU time, and bytes."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(
    label: str,
    draw: Callable[[], Image.Image],
    encode: Callable[[Image.Image], bytes],
    n: int,
    fmt: str,
    out: Path | None = None,
) -> None:
    """Print the cold first call, then p50/p95 over ``n`` warm runs of drawing, encoding and both."""
    started = time.perf_counter()
    data = encode(draw())  # cold: fonts, static layers, sprites
    first = (time.perf_counter() - started) * 1000
    render_ms: list[float] = []
    encode_ms: list[float] = []
    total_ms: list[float] = []
    cpu_ms: list[float] = []  # process CPU time: steadier than wall time on a shared machine
    image = draw()
    for _ in range(n):
        c0, t0 = time.process_time(), time.perf_counter()
        image = draw()
        t1 = time.perf_counter()
        data = encode(image)
        t2 = time.perf_counter()
        render_ms.append((t1 - t0) * 1000)
        encode_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
        cpu_ms.append((time.process_time() - c0) * 1000)
    print(f"{label}: {image.width}×{image.height}, {n} runs, first call (cold caches) {first:.1f} ms")
    rows = (("render", render_ms), (f"encode {fmt}", encode_ms), ("total", total_ms), ("total cpu", cpu_ms))
    for name, values in rows:
        print(f"{name:>12}: p50 {statistics.median(values):6.2f} ms   p95 {percentile(values, 0.95):6.2f} ms")
    print(f"{'bytes':>12}: {len(data)}")
    if out is not None:
        out.write_bytes(data)
