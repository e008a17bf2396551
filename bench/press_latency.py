"""Button press → board edited, through sandbox + bot process + Redis, with many games played at once.

Prints p50/p95/p99 latency from the moment a user presses until the bot's edit of that chat's board reaches
the sandbox (timestamps from the sandbox's call log, same clock), and presses per second overall, under
Telegram's real limits (the sandbox's defaults): a group's edits share its 20 a minute, so players who press
faster than that wait for the group's budget (``real_limits.py`` measures ten groups of people).

Players think before each press for a random time (exponential, mean ``--think`` seconds), as people at a
table do; the default 4 s is 15 presses a minute, within a group's budget. ``--no-limits`` switches the
sandbox's limits off to measure the bot alone (its saturation throughput with ``--think 0``; latency is then
queueing).

    python bench/press_latency.py [--games 50] [--moves 30] [--think 4.0] [--no-limits]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from live_games import following, pct, play_all, set_up

from bot.dev.harness import Harness
from sandbox.control_client import ControlClient


async def main(games: int, moves: int, think: float, limits: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp, Harness(Path(tmp), sandbox_process=True) as harness:
        async with ControlClient(harness.url, timeout=60) as client:
            if not limits:
                await client.config(rate_limits={"enabled": False})
            tables = await set_up(client, ["coin_age"] * games)
            async with following(client) as watcher:
                results, elapsed = await play_all(client, watcher, tables, moves, think)
        latencies = [x for r in results for x in r.latencies]
        print(
            f"games at once: {games}, mean think time {think} s, Telegram's limits {'on' if limits else 'off'}, "
            f"presses: {len(latencies)}, wall {elapsed:.1f} s"
        )
        print(f"presses per second: {len(latencies) / elapsed:.1f}")
        print(
            f"press → board edited: p50 {pct(latencies, 50):.1f} ms, p95 {pct(latencies, 95):.1f} ms, "
            f"p99 {pct(latencies, 99):.1f} ms, max {max(latencies) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--think", type=float, default=4.0, help="mean seconds a player thinks before a press")
    parser.add_argument("--no-limits", action="store_true", help="the sandbox's limits off: the bot alone")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves, args.think, not args.no_limits))
