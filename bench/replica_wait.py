"""What waiting for a replica costs a press: press → board edited on Valkey behind Sentinel, each save waiting
for one replica's acknowledgement (``WAIT 1``, the default behind Sentinel) or not (``REDIS_REPLICAS=0``).

One Sentinel setup of real processes (bot/dev/replicated.py: a primary, a replica, three Sentinels, all on
this machine, so the network's share of a real deployment's wait is not in it); on it, fresh systems (sandbox
+ bot process) in the order A B B A … (A: no wait, B: wait), each playing ``--games`` games of عصر سکه‌ها at
once, ``--moves`` presses each, players thinking ``--think`` s (exponential mean) between presses, with the
sandbox's rate limits off and presses within a group's budget (15 a minute at the default 4 s), so that
no queue hides the milliseconds looked for. Prints p50 / p95 / p99 of each and the difference of their
medians. First, the save alone: ``--saves`` compare-and-set writes of a game record, alternately waiting and
not, timed one by one (the part of a press the wait changes, without the rest's noise).

    python bench/replica_wait.py [--saves 2000] [--games 10] [--moves 30] [--think 4.0] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from live_games import following, pct, play_all, set_up

from bot.dev.harness import Harness
from bot.dev.replicated import SentinelSetup
from bot.plumbing.keys import Keys
from bot.plumbing.store import GameRecord, Player, Store
from sandbox.control_client import ControlClient


async def time_saves(setup: SentinelSetup, saves: int) -> dict[int, list[float]]:
    """``saves`` saves of one record by each of two stores on ``setup``, in turn: one waiting for a replica,
    one not; the seconds of each save by the replicas waited for."""
    stores = {n: Store.from_url(setup.url, Keys(f"dh:bench{n}"), replicas=n) for n in (0, 1)}
    host = Player(user_id=1, name="علی")
    records = {n: GameRecord(chat_id=-1, game_id="coin_age", creator=host, players=[host]) for n in stores}
    found: dict[int, list[float]] = {0: [], 1: []}
    try:
        for _ in range(saves):
            for n, store in stores.items():
                started = time.perf_counter()
                records[n] = await store.save(records[n], expected=records[n].version)
                found[n].append(time.perf_counter() - started)
    finally:
        for store in stores.values():
            await store.close()
    return found


async def measure(
    setup: SentinelSetup, workdir: Path, replicas: int, games: int, moves: int, think: float
) -> list[float]:
    """One fresh sandbox and bot on ``setup``; the latencies of every press."""
    env = {"REDIS_REPLICAS": str(replicas)}
    await asyncio.to_thread(workdir.mkdir)
    with setup.primary.client() as primary:  # a fresh sandbox numbers its chats from the start again
        primary.flushall()
    with Harness(workdir, sandbox_process=True, bot_env=env, redis_url=setup.url) as harness:
        async with ControlClient(harness.url, timeout=60) as client:
            await client.config(rate_limits={"enabled": False})  # the bot's own latency, not the group's budget
            tables = await set_up(client, ["coin_age"] * games)
            async with following(client) as watcher:
                results, _ = await play_all(client, watcher, tables, moves, think)
    return [x for r in results for x in r.latencies]


def line(latencies: list[float]) -> str:
    return f"p50 {pct(latencies, 50):.1f} ms, p95 {pct(latencies, 95):.1f} ms, p99 {pct(latencies, 99):.1f} ms"


async def main(saves: int, games: int, moves: int, think: float, rounds: int) -> None:
    order = [kind for r in range(rounds) for kind in ((0, 1) if r % 2 == 0 else (1, 0))]
    found: dict[int, list[float]] = {0: [], 1: []}
    with tempfile.TemporaryDirectory() as tmp, SentinelSetup(Path(tmp) / "valkey") as setup:
        alone = await time_saves(setup, saves)
        print(f"a save alone, {saves} each: not waiting {line(alone[0])}; waiting {line(alone[1])}", flush=True)
        if not order:  # --rounds 0: the saves alone
            return
        for run, replicas in enumerate(order):
            latencies = await measure(setup, Path(tmp) / f"run{run}", replicas, games, moves, think)
            found[replicas] += latencies
            print(f"run {run} (REDIS_REPLICAS={replicas}): {len(latencies)} presses, {line(latencies)}", flush=True)
    print(f"{games} games at once, mean think {think} s, {rounds} round(s) of each")
    print(f"saves not waiting:           {line(found[0])}")
    print(f"saves waiting for a replica: {line(found[1])}")
    print(f"the wait's cost at the median: {pct(found[1], 50) - pct(found[0], 50):+.1f} ms a press")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--saves", type=int, default=2000, help="saves timed alone, each way")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--think", type=float, default=4.0, help="mean seconds a player thinks before a press")
    parser.add_argument("--rounds", type=int, default=2, help="A B (1), A B B A (2), …; 0: saves only")
    args = parser.parse_args()
    asyncio.run(main(args.saves, args.games, args.moves, args.think, args.rounds))
