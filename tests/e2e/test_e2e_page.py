"""End to end in a real browser: the Mini App. Players open the board's «صفحهٔ بازی» link as Telegram opens it
(the sandbox signs the launch data), each on a phone of their own, and play whole games by tapping the page,
mixed with presses on the buttons; a spectator's page follows every move."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.dev import page_driver
from bot.dev.harness import TEST_TIME_SCALE, Harness, free_port
from bot.dev.simulate import Table, board_of, buttons, finished, game_record, play_move, start_game, table
from sandbox.control_client import ControlClient

SPECTATOR_SECONDS = 2.0  # a move shows on a spectator's page within this
PRESSED_SHARE = 0.25  # of the moves, those made with the buttons instead of the page
PLAYERS = {"coin_age": 2, "conqueror": 2, "carcassonne": 2, "splendor": 2, "condottiere": 3}
MOVES_LIMIT = 1500


@pytest.fixture(scope="module")
def page_harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    """A bot with its Mini App turned on (the other tests' bot has none: their boards stay as they were)."""
    port = free_port()
    env = {
        "WEBAPP_URL": f"http://127.0.0.1:{port}/app/",
        "WEBAPP_NAME": "play",
        "WEBAPP_LISTEN": "127.0.0.1",
        "WEBAPP_PORT": str(port),
    }
    with Harness(tmp_path_factory.mktemp("page"), bot_env=env, time_scale=TEST_TIME_SCALE) as running:
        yield running


@pytest.fixture
async def sandbox(page_harness: Harness) -> AsyncIterator[ControlClient]:
    async with ControlClient(page_harness.url) as client:
        yield client


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with page_driver.browser() as launched:
        yield launched


async def _version(harness: Harness, t: Table) -> int:
    record = await game_record(harness, t.chat_id)
    assert record is not None
    return record.version


def page_link(board: dict[str, Any]) -> str:
    found = [b["url"] for b in buttons(board) if "url" in b and "startapp=" in b["url"]]
    assert len(found) == 1, buttons(board)
    return str(found[0])


async def open_pages(sandbox: ControlClient, browser: Browser, t: Table, board: dict[str, Any]) -> list[Page]:
    """Each player's page, then the spectator's, opened from the board's link as Telegram opens it."""
    pages = []
    for user in [*t.players, t.outsider]:
        opened = await sandbox.open_link(user["id"], t.chat_id, page_link(board))
        pages.append(await page_driver.open_page(browser, opened["url"]))
    return pages


@pytest.mark.parametrize("game", sorted(PLAYERS))
async def test_a_whole_game_through_the_page_mixed_with_presses(
    sandbox: ControlClient, browser: Browser, page_harness: Harness, game: str
) -> None:
    rng = random.Random(f"page-{game}")
    t = await table(sandbox, players=PLAYERS[game])
    board = await start_game(sandbox, t, game=game)
    *players, spectator = await open_pages(sandbox, browser, t, board)
    assert not await page_driver.acting(spectator)
    by_page = 0
    for _ in range(MOVES_LIMIT):
        version = await _version(page_harness, t)
        for page in [*players, spectator]:  # every page shows the game as it is, however it moved
            await page_driver.wait_version(page, version, SPECTATOR_SECONDS)
        if "پایان بازی" in await spectator.inner_text("#caption"):
            break
        movers = [page for page in players if await page_driver.acting(page)]
        if movers and rng.random() >= PRESSED_SHARE:
            await page_driver.make_move(rng.choice(movers), rng)
            by_page += 1
        else:  # presses on the buttons, in the group or a private chat, until one of them is a move
            while await _version(page_harness, t) == version:
                await play_move(sandbox, t, rng)
        await page_driver.wait_version(spectator, version + 1, SPECTATOR_SECONDS)
    else:
        raise AssertionError(f"{game} did not end in {MOVES_LIMIT} moves")
    assert by_page >= 10
    board = board_of(await sandbox.messages(t.chat_id))
    assert finished(board) and not [b for b in buttons(board) if "url" in b]  # no page to open any more
    for page in players:
        await page.wait_for_function("document.querySelector('#caption').textContent.includes('پایان بازی')")
        assert not await page_driver.acting(page)
