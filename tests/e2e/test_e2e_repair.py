"""End to end, real processes: nothing stays stale after a crash of the bot or of Redis.

The moment between the group's board and the private hands, or between a game's last board and its result,
is reached deterministically with a stop point (``bot.plumbing.stop_points``): the bot stops itself there, and
the test kills it, or kills Redis and lets the bot go on. Then every hand must show what a freshly requested
hand shows, and the result must be out once, with nobody pressing anything: the bot's log shows that its own
check (at start-up, or when Redis answered again) redrew them. How soon is bench/recovery.py's figure: a wait
here is bounded only so that a chat that is never repaired fails the test.
"""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    Table,
    board_of,
    bot_says,
    buttons,
    hand_of,
    hands_redrawn,
    log_lines,
    play_move,
    press_a_move,
    reply_to,
    start_game,
    start_in_topic,
    table,
    wait_log,
)
from bot.plumbing.stop_points import STOP_AT
from sandbox.control_client import ControlClient

Shown = tuple[str, list[tuple[str, str]], bytes]  # caption, buttons, picture bytes


def _shown(harness: Harness, hand: dict[str, Any]) -> Shown:
    """What a player sees of a private message: caption, buttons, picture bytes."""
    photo = httpx.get(harness.url + hand["photo"]).content
    return hand["caption"], [(b["text"], b.get("data", b.get("url", ""))) for b in buttons(hand)], photo


async def _hands(sandbox: ControlClient, harness: Harness, t: Table) -> list[Shown]:
    shown = []
    for player in t.players:
        hand = await hand_of(sandbox, player)
        assert hand is not None
        shown.append(_shown(harness, hand))
    return shown


async def _fresh_hands(sandbox: ControlClient, harness: Harness, t: Table) -> list[Shown]:
    """Each player asks for their hand again (the group's «open my hand» link): the current one, drawn anew."""
    fresh = []
    for player in t.players:
        old = await hand_of(sandbox, player)
        assert old is not None
        await sandbox.send(player["id"], player["id"], f"/start h{abs(t.chat_id)}")
        newer = await sandbox.wait_for(
            player["id"],
            lambda ms, old=old: next(
                (m for m in reversed(ms) if m["from_bot"] and m.get("photo") and m["message_id"] > old["message_id"]),
                None,
            ),
        )
        fresh.append(_shown(harness, newer))
    return fresh


async def _game_in_progress(sandbox: ControlClient, settle: Settle, players: int = 3) -> Table:
    t = await table(sandbox, players=players)
    await start_game(sandbox, t, game="condottiere")
    await settle()
    rng = random.Random(21)
    for _ in range(3):
        await play_move(sandbox, t, rng)
    return t


def _healed_by_itself(harness: Harness, chat_id: int, what: str) -> bool:
    """Whether the bot's recovery (bot/flow/recovery.py) found ``what`` of the chat behind its record in this
    run of the bot, and redrew it: nobody pressed anything for it."""
    assert harness.bot is not None
    return any(f"chat {chat_id}: behind the record" in line and what in line for line in harness.bot.run_log())


@pytest.fixture(autouse=True)
def _leaves_the_system_running(harness: Harness) -> Iterator[None]:
    """Whatever happens in a test here, the session's system goes on for the next tests: Redis answering, and
    the bot running normally (not stopped at a stop point, not with one armed)."""
    yield
    if harness.redis is not None and not harness.redis.running:
        harness.start_redis()
    assert harness.bot is not None
    if STOP_AT in harness.bot.extra_env or harness.bot.stopped():
        harness.restart_bot(kill=True, env={STOP_AT: None})


async def test_a_bot_killed_between_the_board_and_the_hands_brings_every_hand_up_to_date(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    t = await _game_in_progress(sandbox, settle)
    harness.restart_bot(kill=False, env={STOP_AT: f"board-drawn@{t.chat_id}"})
    before = await _hands(sandbox, harness, t)
    await press_a_move(sandbox, t, random.Random(5))  # the board is redrawn, then the bot stops
    board = board_of(await sandbox.messages(t.chat_id))
    assert harness.bot is not None
    harness.bot.wait_stopped()
    assert await _hands(sandbox, harness, t) == before, "the hands must still be the old ones here"
    mark = (await sandbox.log())["next"]
    harness.restart_bot(kill=True, env={STOP_AT: None})
    await hands_redrawn(sandbox, harness, t, mark)
    assert _healed_by_itself(harness, t.chat_id, "hand of seat")  # the start-up check, not a press
    healed = await _hands(sandbox, harness, t)
    assert healed != before, "the crash left no hand behind: the test did not reach its moment"
    assert healed == await _fresh_hands(sandbox, harness, t)
    assert board_of(await sandbox.messages(t.chat_id))["message_id"] == board["message_id"]
    rng = random.Random(6)
    for _ in range(3):  # and the game goes on
        await play_move(sandbox, t, rng)


async def test_redis_killed_while_hands_are_redrawn_every_hand_is_current_soon_after_it_is_back(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    t = await _game_in_progress(sandbox, settle)
    harness.restart_bot(kill=False, env={STOP_AT: f"board-drawn@{t.chat_id}"})
    before = await _hands(sandbox, harness, t)
    unavailable = len(log_lines(harness, "Redis is unavailable"))
    waited, answered = (
        len(log_lines(harness, "redraw waits for Redis")),
        len(log_lines(harness, "Redis answers again")),
    )
    await press_a_move(sandbox, t, random.Random(5))
    assert harness.bot is not None and harness.bot.process is not None
    harness.bot.wait_stopped()
    harness.kill_redis()
    harness.bot.process.send_signal(signal.SIGCONT)  # the hands' redraw meets the outage
    await wait_log(harness, "redraw waits for Redis", more_than=waited)
    await wait_log(harness, "Redis is unavailable", more_than=unavailable)  # the deadline poll met it too
    assert await _hands(sandbox, harness, t) == before
    mark = (await sandbox.log())["next"]
    harness.start_redis()
    await hands_redrawn(sandbox, harness, t, mark)
    await wait_log(harness, "Redis answers again", more_than=answered)
    assert _healed_by_itself(harness, t.chat_id, "hand of seat")  # the outage's end, not a press
    healed = await _hands(sandbox, harness, t)
    assert healed != before
    assert healed == await _fresh_hands(sandbox, harness, t)
    # the outage was logged once and its end once, not a traceback every poll
    assert len(log_lines(harness, "Redis is unavailable")) == unavailable + 1
    assert not log_lines(harness, "could not poll the deadlines")
    harness.restart_bot(kill=False, env={STOP_AT: None})
    rng = random.Random(6)
    for _ in range(3):
        await play_move(sandbox, t, rng)


def _results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["from_bot"] and "🏁" in (m["text"] or "")]


async def test_a_bot_killed_before_a_finished_game_s_result_announces_it_once_after_the_restart(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    """The last board is drawn and the game is over, but nobody was told who won: after the restart the result
    comes, once, and the game is counted once."""
    t = await table(sandbox)
    await start_game(sandbox, t)
    harness.restart_bot(kill=False, env={STOP_AT: f"result-due@{t.chat_id}"})
    quitter, stayer = t.players
    confirm = await bot_says(sandbox, t.chat_id, quitter["id"], "/leave")
    answer = await sandbox.press(t.chat_id, confirm["message_id"], quitter["id"], buttons(confirm)[0]["data"])
    assert answer["answered"]
    assert harness.bot is not None
    harness.bot.wait_stopped()
    messages = await sandbox.messages(t.chat_id)
    assert not buttons(board_of(messages)), "the last board must be out here"
    assert not _results(messages), "and the result not yet"
    harness.restart_bot(kill=True, env={STOP_AT: None})
    result = await sandbox.wait_for(t.chat_id, lambda ms: next(iter(_results(ms)), None))
    assert _healed_by_itself(harness, t.chat_id, "result")  # announced by the start-up check
    assert stayer["first_name"] in result["text"]
    stats = await reply_to(sandbox, t.chat_id, stayer["id"], "/stats")
    assert stats.count("از ۱ بازی") == 2  # counted once, for each player
    harness.restart_bot(kill=False, env={})  # a second start-up finds nothing left to announce
    await settle()
    assert len(_results(await sandbox.messages(t.chat_id))) == 1


async def test_a_result_that_meets_a_closed_topic_is_announced_when_the_topic_reopens(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    """The game ends as an admin closes its topic: the result (a new message) cannot be sent there, and the
    game waits, announced and counted once the topic reopens."""
    t = await table(sandbox)
    host, guest = t.players
    forum = await sandbox.group("انجمن پایان", [host["id"], guest["id"]], [host["id"]], is_forum=True)
    thread = (await sandbox.topic(forum["id"], guest["id"], "میز آخر"))["message_thread_id"]
    await start_in_topic(sandbox, forum["id"], thread, host, guest)
    harness.restart_bot(kill=False, env={STOP_AT: f"result-due@{forum['id']}"})
    closed = len(log_lines(harness, "topic is closed"))
    confirm = await bot_says(sandbox, forum["id"], guest["id"], "/leave", message_thread_id=thread)
    await sandbox.press(forum["id"], confirm["message_id"], guest["id"], buttons(confirm)[0]["data"])
    assert harness.bot is not None and harness.bot.process is not None
    harness.bot.wait_stopped()
    await sandbox.close_topic(forum["id"], thread, host["id"])
    harness.bot.process.send_signal(signal.SIGCONT)  # the result meets the closed topic
    await wait_log(harness, "topic is closed", more_than=closed)
    await settle()
    assert not _results(await sandbox.messages(forum["id"]))
    await sandbox.close_topic(forum["id"], thread, host["id"], closed=False)
    result = await sandbox.wait_for(forum["id"], lambda ms: next(iter(_results(ms)), None))
    assert result["message_thread_id"] == thread and host["first_name"] in result["text"]
    await settle()
    assert len(_results(await sandbox.messages(forum["id"]))) == 1
