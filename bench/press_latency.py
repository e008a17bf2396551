"""Button press → board edited, through sandbox + bot process + Redis, with many games played at once.

Prints p50/p95/p99 latency from the moment a user presses until the bot's edit of that chat's board reaches
the sandbox (timestamps from the sandbox's call log, same clock), and presses per second overall. The
sandbox's flood limits are off here: this measures the bot (``scale_games.py`` measures it under them).

Players think before each press for a random time (exponential, mean ``--think`` seconds), as people at a
table do; ``--think 0`` presses as fast as the bot answers, which measures the bot's saturation throughput
instead (latency is then queueing).

    python bench/press_latency.py [--games 50] [--moves 30] [--think 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from live_games import following, pct, play_all, set_up

from bot.dev.harness import Harness
from sandbox.control_client import ControlClient


async def main(games: int, moves: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp, Harness(Path(tmp), sandbox_process=True) as harness:
        async with ControlClient(harness.url, timeout=60) as client:
            await client.config(rate_limits={"enabled": False})
            tables = await set_up(client, ["coin_age"] * games)
            async with following(client) as watcher:
                results, elapsed = await play_all(client, watcher, tables, moves, think)
        latencies = [x for r in results for x in r.latencies]
        print(f"games at once: {games}, mean think time {think} s, presses: {len(latencies)}, wall {elapsed:.1f} s")
        print(f"presses per second: {len(latencies) / elapsed:.1f}")
        print(
            f"press → board edited: p50 {pct(latencies, 50):.1f} ms, p95 {pct(latencies, 95):.1f} ms, "
            f"p99 {pct(latencies, 99):.1f} ms, max {max(latencies) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds a player thinks before a press")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves, args.think))
