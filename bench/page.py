"""The Mini App's figures (issue 25): what a phone downloads to open the page, how long a move takes from the
confirm button to the new board on the mover's page, how soon a spectator's page shows it, and what a move
made on the page costs the group in Telegram calls.

For each game a real bot (its own process and Redis, the Mini App on) plays through the sandbox (Telegram's
clock ten times as fast, the bot's budgets alike: the pages' own timings do not depend on it); two players
(three in رکب) and a spectator open the board's «صفحهٔ بازی» link as Telegram opens it, each in a browser
context of its own (Debian's Chromium, 390 px wide), and the players make ``--moves`` moves by tapping the
page at random (bot/dev/page_driver.py). Printed per game:

- first load: the bytes transferred (compressed, as sent) for everything the acting player's page fetched
  to show the board: the page, its script and style, the game, the pictures;
- round trip: confirm pressed → the mover's page shows the next version's board, loaded (p50, p95, max);
- spectator: confirm pressed → the spectator's page shows it (p95, max);
- group edits per action: the bot's edits of messages in the group from one page move until the next,
  the board's redraw (target 1.00), and any other calls the group got.

    python bench/page.py [--moves 30] [--game splendor ...]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Page, Request

from bot.dev import page_driver
from bot.dev.harness import TEST_TIME_SCALE, Harness, mini_app_env
from bot.dev.simulate import buttons, settled, start_game, table
from sandbox.control_client import ControlClient

ORDER = ("coin_age", "conqueror", "splendor", "carcassonne", "condottiere")
PLAYERS = {"condottiere": 3}
EDITS = ("editMessageMedia", "editMessageCaption", "editMessageReplyMarkup", "editMessageText")
FIRST_LOAD_LIMIT = 300 * 1024
ROUND_TRIP_LIMIT = 0.300


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def first_load(page: Page, url: str) -> int:
    """Bytes transferred while ``page`` opens ``url`` and draws its board."""
    finished: list[Request] = []
    page.on("requestfinished", lambda request: finished.append(request))
    await page.goto(url)
    await page.wait_for_function("document.querySelector('#board').dataset.version")
    await page.wait_for_function("!Number(document.body.dataset.drawing || 0)")
    total = 0
    for request in finished:
        sizes = await request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    return total


async def group_calls(client: ControlClient, chat_id: int, after: int) -> tuple[int, int, int]:
    """The group's edits and other calls logged after ``after``, and where the log ends."""
    log = await client.log(after=after)
    calls = [item for item in log["items"] if item["chat_id"] == chat_id and item["status"] == 200]
    edits = sum(1 for item in calls if item["method"] in EDITS)
    return edits, len(calls) - edits, int(log["next"])


async def one_game(game: str, moves: int) -> dict[str, Any]:
    env = mini_app_env()
    rng = random.Random(f"bench-page-{game}")
    scale = TEST_TIME_SCALE  # Telegram's budgets ten times as fast: a move need not wait 3 s for the group's
    with tempfile.TemporaryDirectory() as folder, Harness(Path(folder), bot_env=env, time_scale=scale) as harness:
        async with ControlClient(harness.url) as client, page_driver.browser() as browser:
            t = await table(client, players=PLAYERS.get(game, 2))
            board = await start_game(client, t, game=game)
            link = next(b["url"] for b in buttons(board) if "startapp=" in b.get("url", ""))
            pages, loads = [], []
            for user in [*t.players, t.outsider]:
                url = await client.open_link(user["id"], t.chat_id, link)
                context = await browser.new_context(viewport=page_driver.PHONE, device_scale_factor=2)
                page = await context.new_page()
                loads.append(await first_load(page, url))
                pages.append(page)
            *players, spectator = pages
            acting = [load for page, load in zip(players, loads, strict=False) if await page_driver.acting(page)]
            trips: list[float] = []
            lags: list[float] = []
            edits = others = 0
            seq = (await client.log())["next"]
            for _ in range(moves):
                movers = [page for page in players if await page_driver.acting(page)]
                if not movers or "پایان بازی" in await spectator.inner_text("#caption"):
                    break
                mover = rng.choice(movers)
                _, _, seq = await group_calls(client, t.chat_id, seq)  # what came before this move: not its cost
                made = await page_driver.make_move(mover, rng)
                new = made["version"] + 1
                await page_driver.wait_version(mover, new, 10)
                trips.append(time.perf_counter() - made["confirmed"])
                await page_driver.wait_version(spectator, new, 10)
                lags.append(time.perf_counter() - made["confirmed"])
                await settled(client, harness)  # the board redrawn, the hands and notices sent
                edit, other, seq = await group_calls(client, t.chat_id, seq)
                edits, others = edits + edit, others + other
                for page in [*players, spectator]:
                    await page_driver.wait_version(page, new, 10)
    return {
        "load": max(acting or loads),
        "trips": trips,
        "lags": lags,
        "edits": edits / max(1, len(trips)),
        "others": others / max(1, len(trips)),
    }


def report(game: str, found: dict[str, Any]) -> None:
    trips, lags = found["trips"], found["lags"]
    load = found["load"]
    print(
        f"{game:12} first load {load / 1024:6.1f} KB {'ok' if load <= FIRST_LOAD_LIMIT else 'OVER'}"
        f" | round trip (n={len(trips)}) p50 {statistics.median(trips) * 1000:4.0f} ms"
        f" p95 {quantile(trips, 0.95) * 1000:4.0f} ms max {max(trips) * 1000:4.0f} ms"
        f" {'ok' if quantile(trips, 0.95) <= ROUND_TRIP_LIMIT else 'OVER'}"
        f" | spectator p95 {quantile(lags, 0.95) * 1000:4.0f} ms max {max(lags) * 1000:4.0f} ms"
        f" | group edits/action {found['edits']:.2f}, other calls {found['others']:.2f}",
        flush=True,
    )


async def main(moves: int, games: list[str]) -> None:
    print(f"Mini App: {moves} page moves a game; targets: first load ≤ 300 KB, round trip p95 ≤ 300 ms, 1.00 edit")
    for game in games:
        report(game, await one_game(game, moves))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--game", action="append", choices=ORDER)
    args = parser.parse_args()
    asyncio.run(main(args.moves, args.game or list(ORDER)))
