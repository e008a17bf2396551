"""Many games at once under Telegram's limits: random players, turn timers on, the sandbox enforcing its
flood limits (Telegram's, as the sandbox models them), the bot as a real process with its own Redis.

Prints presses per second, p50/p99 from a press until its board was redrawn (sandbox clock), Redis memory
per game (INFO memory before the tables and with every game running, divided), and the most new messages and
edits a group got in any minute (Telegram counts both against the group's 20), with the 429s met.

Coin Age and Conqueror alternate (the two games played on the group's board alone). Players think before
each press (exponential, mean ``--think`` seconds); the turn timer (``--turn`` seconds, reminder at half
time) moves a player on who thinks too long, and its reminders are new messages that count.
The sandbox keeps its defaults, Telegram's rules.

    python bench/scale_games.py [--games 200] [--moves 30] [--think 4.0] [--turn 30]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import time
from pathlib import Path

import redis.asyncio as aioredis
from live_games import following, pct, play_all, set_up

from bot.dev.harness import Harness
from bot.dev.simulate import most_in_a_window, settled
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

GAMES = ("coin_age", "conqueror")


async def used_memory(client: aioredis.Redis) -> int:
    return int((await client.info("memory"))["used_memory"])


async def main(games: int, moves: int, think: float, turn: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, Harness(Path(tmp), sandbox_process=True) as harness:
        redis = aioredis.Redis.from_url(harness.redis_url)
        store = Store.from_url(harness.redis_url, harness.keys)
        async with ControlClient(harness.url, timeout=60) as client:
            limits = (await client.config())["rate_limits"]
            memory_before = await used_memory(redis)
            names = list(itertools.islice(itertools.cycle(GAMES), games))
            set_up_at = time.monotonic()
            tables = await set_up(client, names, store, turn_seconds=turn)
            set_up_seconds = time.monotonic() - set_up_at
            memory_with_games = await used_memory(redis)
            async with following(client) as watcher:
                results, elapsed = await play_all(client, watcher, tables, moves, think)
                await settled(client, harness)
                await asyncio.sleep(1.5)  # the watcher reads the log's last page
        await store.close()
        await redis.aclose()

    latencies = [x for r in results for x in r.latencies]
    stale = sum(r.stale for r in results)
    lost = sum(r.never_redrawn for r in results)
    groups = {t.chat_id for t in tables}
    messages = [most_in_a_window(watcher.messages.get(chat, []), 60.0) for chat in groups]
    edits = [most_in_a_window(watcher.edits.get(chat, []), 60.0) for chat in groups]
    both = [most_in_a_window(watcher.messages.get(c, []) + watcher.edits.get(c, []), 60.0) for c in groups]
    limit = limits["group_per_minute"]
    print(
        f"games at once: {games} ({', '.join(f'{g} {names.count(g)}' for g in GAMES)}), turn timer {turn} s, "
        f"mean think {think} s; sandbox limits {'on' if limits['enabled'] else 'off'}: group {limit}/min, "
        f"private {limits['private_per_second']}/s, global {limits['global_per_second']}/s, "
        f"edits count as messages: {'yes' if limits['edits_count_as_messages'] else 'no'}; "
        f"tables set up in {set_up_seconds:.1f} s"
    )
    print(
        f"presses: {len(latencies)} redrawn + {stale} overtaken by a turn timer + {lost} never redrawn, "
        f"in {elapsed:.1f} s"
    )
    print(f"presses per second: {(len(latencies) + stale + lost) / elapsed:.1f}")
    print(
        f"press → board redrawn: p50 {pct(latencies, 50):.1f} ms, p99 {pct(latencies, 99):.1f} ms "
        f"(p95 {pct(latencies, 95):.1f} ms, max {max(latencies) * 1000:.1f} ms)"
    )
    print(
        f"Redis memory per game: {(memory_with_games - memory_before) / games / 1024:.1f} KiB "
        f"(used_memory {memory_before / 2**20:.2f} MiB before the tables, {memory_with_games / 2**20:.2f} MiB "
        f"with {games} games running)"
    )
    verdict = "within" if max(both) <= limit else "OVER"
    print(
        f"new messages and edits per group in any minute: max {max(both)}, mean {statistics.mean(both):.1f} "
        f"({verdict} the limit of {limit}); new messages alone: max {max(messages)}"
    )
    print(
        f"board edits per group in any minute: max {max(edits)}, mean {statistics.mean(edits):.1f}; "
        f"429s from the sandbox: {watcher.refused}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="presses per game")
    parser.add_argument("--think", type=float, default=4.0, help="mean seconds a player thinks before a press")
    parser.add_argument("--turn", type=int, default=30, help="turn timer in seconds (reminder at half time)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves, args.think, args.turn))
