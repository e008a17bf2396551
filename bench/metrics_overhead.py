"""What the figures on /metrics cost (bot/plumbing/figures.py): microseconds added to a Bot API request and to a
handler's run, and a scrape's time and size with many games active in a real (embedded) Redis.

    .venv/bin/python bench/metrics_overhead.py [--calls 100000] [--games 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

from prometheus_client import REGISTRY, generate_latest
from telegram.request import HTTPXRequest

from bot.plumbing import metrics
from bot.plumbing.activity import timed
from bot.plumbing.bot_api import MeasuredRequest
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.keys import Keys
from bot.plumbing.store import GameRecord, Player, Store

URL = "http://127.0.0.1:1/bot1:x/editMessageMedia"
REPEATS = 5


class Answering(HTTPXRequest):
    """PTB's client with Telegram's answer given at once, so that only the bot's own work is timed."""

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        return 200, b'{"ok":true,"result":true}'


class MeasuredAnswering(MeasuredRequest, Answering):
    """The same, counted and timed as the bot's requests are."""


async def per_call(call: Callable[[], Awaitable[Any]], calls: int) -> float:
    """Microseconds per ``call``, the median of ``REPEATS`` runs of ``calls``."""
    runs = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        for _ in range(calls):
            await call()
        runs.append((time.perf_counter() - started) / calls * 1e6)
    return statistics.median(runs)


async def handler(update: object, context: object) -> None:
    return None


async def requests_and_handlers(calls: int) -> None:
    plain, measured = Answering(), MeasuredAnswering()
    bare = await per_call(lambda: plain.do_request(URL, "POST"), calls)
    counted = await per_call(lambda: measured.do_request(URL, "POST"), calls)
    print(f"Bot API request: {bare:.2f} µs without the figures, {counted:.2f} µs with: +{counted - bare:.2f} µs")
    wrapped = timed("bench.handler", handler)
    bare = await per_call(lambda: handler(None, None), calls)
    counted = await per_call(lambda: wrapped(None, None), calls)
    print(f"handler run:     {bare:.2f} µs without the figures, {counted:.2f} µs with: +{counted - bare:.2f} µs")


async def scrape(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder, EmbeddedServer(Path(folder)) as server:
        store = Store.from_url(server.url, Keys("dh:bench"))
        try:
            host = Player(user_id=1, name="علی")
            kinds = ("coin_age", "conqueror", "condottiere", "splendor", "carcassonne")
            for n in range(games):
                record = GameRecord(chat_id=-1_000_000 - n, game_id=kinds[n % 5], creator=host, players=[host])
                record.phase = "playing" if n % 3 else "lobby"
                await store.save(record, expected=0)
            seconds = []
            for _ in range(20):
                started = time.perf_counter()
                assert await metrics.refresh(store)
                page = generate_latest(REGISTRY)
                seconds.append((time.perf_counter() - started) * 1000)
            print(
                f"scrape with {games} active games: p50 {statistics.median(seconds):.2f} ms, "
                f"max {max(seconds):.2f} ms, {len(page)} bytes"
            )
        finally:
            await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    await requests_and_handlers(args.calls)
    await scrape(args.games)


if __name__ == "__main__":
    asyncio.run(main())
