"""Button press → board edited, through sandbox + bot process + Redis, with many games played at once.

Prints p50/p95/p99 latency from the moment a user presses until the bot's edit of that chat's board reaches
the sandbox (timestamps from the sandbox's call log, same clock), and presses per second overall.

Players think before each press for a random time (exponential, mean ``--think`` seconds), as people at a
table do; ``--think 0`` presses as fast as the bot answers, which measures the bot's saturation throughput
instead (latency is then queueing).

    python bench/press_latency.py [--games 50] [--moves 30] [--think 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bot.harness import Harness
from bot.simulate import Table, board_of, choose, finished, player_to_act, start_game, table
from sandbox.control_client import ControlClient

EDITS = {"editMessageMedia", "editMessageReplyMarkup", "editMessageCaption", "sendPhoto"}


class EditWatcher:
    """Follows the sandbox's call log and wakes the game waiting for its chat's next board edit."""

    def __init__(self, client: ControlClient) -> None:
        self.client = client
        self.edits: dict[int, list[float]] = defaultdict(list)
        self.waiters: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.after = 0

    async def run(self) -> None:
        while True:
            page = await self.client.log(after=self.after, wait=1.0)
            self.after = page["next"]
            for item in page["items"]:
                if item["method"] in EDITS and item["chat_id"] is not None and item["status"] == 200:
                    self.edits[item["chat_id"]].append(item["t"])
                    self.waiters[item["chat_id"]].set()

    async def next_edit(self, chat_id: int, since: float, timeout: float = 30) -> float:
        deadline = time.monotonic() + timeout
        while True:
            later = [t for t in self.edits[chat_id] if t >= since]
            if later:
                return later[0]
            event = self.waiters[chat_id]
            event.clear()
            await asyncio.wait_for(event.wait(), max(0.01, deadline - time.monotonic()))


async def play(
    client: ControlClient, watcher: EditWatcher, t: Table, moves: int, think: float, seed: int
) -> list[float]:
    rng = random.Random(seed)
    latencies = []
    board = board_of(await client.messages(t.chat_id))
    for _ in range(moves):
        if finished(board):
            break
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        player = player_to_act(t, board)
        data = choose(board, rng)
        pressed = time.monotonic()
        answer = await client.press(t.chat_id, board["message_id"], player["id"], data)
        assert answer["answered"] and not answer["text"], answer
        edited = await watcher.next_edit(t.chat_id, pressed)
        latencies.append(edited - pressed)
        board = board_of(await client.messages(t.chat_id))
    return latencies


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000


async def main(games: int, moves: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp, Harness(Path(tmp), sandbox_process=True) as harness:
        async with ControlClient(harness.url, timeout=60) as client:
            await client.config(rate_limits={"enabled": False})
            tables = [await table(client) for _ in range(games)]
            for t in tables:
                await start_game(client, t)
            watcher = EditWatcher(client)
            follower = asyncio.create_task(watcher.run())
            started = time.monotonic()
            results = await asyncio.gather(*(play(client, watcher, t, moves, think, i) for i, t in enumerate(tables)))
            elapsed = time.monotonic() - started
            follower.cancel()
        latencies = [x for r in results for x in r]
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
