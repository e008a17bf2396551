"""End to end: the bot's ``/metrics`` (bot/plumbing/figures.py) scraped while a game is played through the
sandbox; every counter the game should move moves, by exactly what the game did where that is known.

The bot runs in a system of its own (its Redis, sandbox and process), so that the figures start from nothing
and no other test's game or timer can move them meanwhile.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from bot.dev.harness import TEST_TIME_SCALE, Figures, Harness, figure, moved
from bot.dev.simulate import (
    Table,
    all_of,
    board_of,
    button,
    buttons,
    drawn_version,
    eventually,
    game_record,
    leaving_no_task,
    no_pause_in_private,
    player_to_act,
    settled,
    start_game,
    start_with_computers,
    table,
)
from bot.flow.computers import computer_to_act
from bot.messages import texts
from sandbox.control_client import ControlClient

GAME = "coin_age"
END_TURN = ":x"  # عصر سکه‌ها's «end the turn»: a move on the board's first level


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    with Harness(tmp_path_factory.mktemp("metrics"), time_scale=TEST_TIME_SCALE) as running:
        yield running


@pytest.fixture
async def sandbox(system: Harness) -> AsyncIterator[ControlClient]:
    async with ControlClient(system.url) as client, leaving_no_task():
        yield client


async def scrape(system: Harness) -> Figures:
    assert system.bot is not None
    async with httpx.AsyncClient(trust_env=False) as http:
        return await system.bot.figures(http)


async def test_a_game_moves_the_counters(sandbox: ControlClient, system: Harness) -> None:
    before = await scrape(system)
    assert figure(before, "dorehami_redis_up") == 1
    assert figure(before, "process_resident_memory_bytes") > 0  # the client's own process figures

    t = await table(sandbox)
    board = await start_game(sandbox, t, GAME)  # a /new, one join and the start pressed in the lobby
    await settled(sandbox, system)
    started = await scrape(system)
    assert figure(started, "dorehami_active_games", game=GAME, phase="playing") == 1
    assert figure(started, "dorehami_active_games", game=GAME, phase="lobby") == 0  # counted before, none now

    for _ in range(2):  # two turns, each ended by two presses at once: one moves, the other is stale
        mover = player_to_act(t, board)
        data = button(board, END_TURN)["data"]
        answers = await all_of(*(sandbox.press(t.chat_id, board["message_id"], mover["id"], data) for _ in "ab"))
        assert sorted(answer["text"] or "" for answer in answers) == ["", texts.STALE], answers
        await settled(sandbox, system)
        board = board_of(await sandbox.messages(t.chat_id))
    after = await scrape(system)

    assert moved(before, after, "dorehami_updates_total", type="callback_query") == 2 + 4
    assert moved(before, after, "dorehami_updates_total", type="message") >= 1  # the /new at least
    assert moved(before, after, "dorehami_handler_seconds_count", handler="play.on_action") == 4
    assert moved(before, after, "dorehami_handler_seconds_count", handler="lobby.on_lobby_press") == 2
    assert moved(before, after, "dorehami_moves_total", game=GAME, by="person") == 2
    assert moved(before, after, "dorehami_presses_refused_total", game=GAME, reason="stale") == 2
    assert figure(after, "dorehami_active_games", game=GAME, phase="playing") == 1

    # the board's edits and the presses' answers reached Telegram, timed, and the edits waited in their lane
    assert moved(before, after, "dorehami_telegram_requests_total", method="editMessageMedia", outcome="ok") >= 2
    assert moved(before, after, "dorehami_telegram_request_seconds_count", method="editMessageMedia") >= 2
    assert moved(before, after, "dorehami_telegram_requests_total", method="answerCallbackQuery", outcome="ok") >= 6
    assert moved(before, after, "dorehami_telegram_requests_total", method="sendPhoto", outcome="ok") >= 1
    assert moved(before, after, "dorehami_pacing_wait_seconds_count", lane="edit") >= 2
    assert moved(before, after, "dorehami_redis_seconds_count", operation="save") >= 2 + 2  # the lobby's, moves'
    assert moved(before, after, "dorehami_redis_seconds_count", operation="claim") >= 1  # the deadline poll
    assert figure(after, "dorehami_work_in_hand", kind="update") == 0
    assert figure(after, "dorehami_task_down", task="deadlines") == 0


async def test_a_computer_players_move_is_timed_in_the_pool_and_its_deadline_on_time(
    sandbox: ControlClient, system: Harness
) -> None:
    before = await scrape(system)
    t = await table(sandbox, players=1)
    person = t.players[0]
    private = Table(person["id"], [person], t.outsider, t.newcomer)  # a game against a computer, in private
    await no_pause_in_private(system, person["id"])
    await start_with_computers(sandbox, private, GAME, ["easy"], private=True)
    await settled(sandbox, system)
    board = board_of(await sandbox.messages(person["id"]))
    if any(b["data"].endswith(END_TURN) for b in buttons(board)):  # the person's turn first: ended at once
        answer = await sandbox.press(person["id"], board["message_id"], person["id"], button(board, END_TURN)["data"])
        assert answer["answered"] and not answer["text"], answer

    async def computer_moved() -> Figures | None:
        now = await scrape(system)
        return now if moved(before, now, "dorehami_moves_total", game=GAME, by="computer") >= 1 else None

    after = await eventually(computer_moved, "a computer player's move on /metrics")
    assert moved(before, after, "dorehami_thinking_seconds_count", game=GAME, level="easy") >= 1
    assert moved(before, after, "dorehami_thinking_wait_seconds_count") >= 1
    assert moved(before, after, "dorehami_deadline_lateness_seconds_count", kind="computer") >= 1

    async def persons_turn() -> bool:
        """The computer's turn over (it may take several moves), and the board drawn for it: no move is asked."""
        record = await game_record(system, person["id"])
        board = board_of(await sandbox.messages(person["id"]))
        return record is not None and computer_to_act(record) is None and drawn_version(board) == record.version

    await eventually(persons_turn, "the person's turn again")
    await settled(sandbox, system)
    assert figure(await scrape(system), "dorehami_thinking_in_pool") == 0
