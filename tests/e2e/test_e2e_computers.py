"""End to end: computer players. A group game of two people and two computer players, added in the lobby by
its creator, played to the result; one person against computer players in their private chat with the bot, to
the result; the bot killed (kill -9) while a computer player is to move, and the game still finishes.

Computer players here are at the easiest level (a move in well under a second) and the groups choose no pause
before their moves (/settings), so that whole games take seconds. The group game is قلعه رودخان, a game without
private hands: a scripted player looks at the screen and presses at once, and a hand about to be redrawn after
a computer's move would show it buttons that are going away (a person would be told the button is stale)."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    Table,
    add_computer,
    board_of,
    button,
    buttons,
    choose,
    choose_setting,
    eventually,
    finished,
    lobby_of,
    lobby_showing,
    no_pause_in_private,
    play_move,
    reply_to,
    set_computer_pause,
    set_timer,
    someone_can_act,
    start_with_computers,
    table,
)
from bot.flow import computers
from bot.messages import texts
from bot.plumbing.stop_points import STOP_AT
from bot.plumbing.store import GameRecord, Store
from sandbox.control_client import ControlClient

FIRST, SECOND = "رایانه ۱ (آسان)", "رایانه ۲ (آسان)"


def _plain(text: str | None) -> str:
    """What a player reads, without the bidi isolation marks around names."""
    return (text or "").replace("\u2068", "").replace("\u2069", "")


async def _play_to_the_end(sandbox: ControlClient, t: Table, seed: int, limit: int) -> list[str]:
    """Press for the people whenever one of them may act, let the computer players move in between; returns
    every caption the board showed (to see the computers named), once the result is out."""
    rng = random.Random(seed)
    captions: list[str] = []
    for _ in range(limit):
        board = await someone_can_act(sandbox, t)
        captions.append(_plain(board["caption"]))
        if finished(board):
            await sandbox.wait_for(t.chat_id, lambda ms: "تمام شد" in (ms[-1]["text"] or ""))
            return captions
        await play_move(sandbox, t, rng)
    raise AssertionError("the game did not end")


async def _answer_in_private(sandbox: ControlClient, user_id: int, text: str) -> str:
    """Send ``text`` in the user's private chat and return the bot's next message there (a reply in a private
    chat does not quote the message it answers)."""
    sent = await sandbox.send(user_id, user_id, text)
    found = await sandbox.wait_for(
        user_id,
        lambda ms: next((m for m in ms if m["from_bot"] and m["message_id"] > sent["message_id"] and m["text"]), None),
    )
    return _plain(found["text"])


def _captions(calls: list[dict[str, Any]]) -> list[str]:
    """The captions these calls gave pictures (sent, or edited in)."""
    found = []
    for call in calls:
        media = call["params"].get("media")
        caption = media.get("caption") if isinstance(media, dict) else call["params"].get("caption")
        if caption:
            found.append(_plain(str(caption)))
    return found


async def _calls_to(sandbox: ControlClient, after: int, chats: set[int]) -> list[dict[str, Any]]:
    """The bot's Bot API calls since log entry ``after`` that name one of ``chats``."""
    found: list[dict[str, Any]] = []
    while True:
        page = await sandbox.log(after=after)
        found += [item for item in page["items"] if item["chat_id"] in chats]
        if not page["items"]:
            return found
        after = page["next"]


async def test_two_people_and_two_computer_players_play_a_group_game_to_the_result(sandbox: ControlClient) -> None:
    mark = (await sandbox.log())["next"]
    t = await table(sandbox, players=2)
    host, guest = t.players
    await set_computer_pause(sandbox, t, 0)
    await sandbox.send(t.chat_id, host["id"], "/new carcassonne")
    lobby = await sandbox.wait_for(t.chat_id, lobby_of)
    refused = await sandbox.press(t.chat_id, lobby["message_id"], guest["id"], button(lobby, ":add")["data"])
    assert (refused["text"], refused["show_alert"]) == (texts.NOT_ALLOWED, True)  # only the creator or an admin
    await start_with_computers(sandbox, t, "carcassonne", ["easy", "easy"], lobby_opened=True)

    captions = await _play_to_the_end(sandbox, t, seed=8, limit=400)
    assert any(f"نوبت {FIRST}" in c for c in captions) or any(FIRST in c.split("👈")[0] for c in captions)
    result = _plain((await sandbox.messages(t.chat_id))[-1]["text"])
    assert all(name in result for name in (host["first_name"], guest["first_name"], FIRST, SECOND))
    # a computer player has no chat: nothing was ever sent to its seat's id
    assert not await _calls_to(sandbox, mark, {-1, -2})

    stats = _plain(await reply_to(sandbox, t.chat_id, host["id"], "/stats"))
    assert texts.STATS_WITH_COMPUTERS in stats and host["first_name"] in stats and FIRST not in stats
    mine = await _answer_in_private(sandbox, host["id"], "/mystats")
    assert "در برابر رایانه" in mine and "آسان: " in mine and " برد از ۱ بازی" in mine  # won or not: one game counted


async def test_a_lobby_counts_computer_players_and_needs_a_person(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=1)
    host = t.players[0]
    await sandbox.send(t.chat_id, host["id"], "/new coin_age")
    lobby = await add_computer(sandbox, t.chat_id, host, "hard")
    assert "رایانه ۱ (سخت)" in _plain(lobby["text"])
    offered = [b.get("data", "") for b in buttons(lobby)]
    assert not [d for d in offered if d.endswith((":add", ":join"))]  # two seats, both taken: nothing to join or add
    answer = await sandbox.press(t.chat_id, lobby["message_id"], host["id"], button(lobby, ":leave")["data"])
    assert answer["text"] == texts.LEFT_ALERT
    lobby = await sandbox.wait_for(t.chat_id, lobby_showing(host["first_name"], present=False))
    answer = await sandbox.press(t.chat_id, lobby["message_id"], host["id"], button(lobby, ":start")["data"])
    assert (answer["text"], answer["show_alert"]) == (texts.TOO_FEW.format(min="۲"), True)
    answer = await sandbox.press(t.chat_id, lobby["message_id"], host["id"], button(lobby, ":rm:1")["data"])
    assert answer["text"] == texts.COMPUTER_REMOVED.format(name="رایانه ۱ (سخت)")
    lobby = await sandbox.wait_for(t.chat_id, lobby_showing("رایانه ۱", present=False))
    lobby = await add_computer(sandbox, t.chat_id, host, "easy")
    assert not [b for b in buttons(lobby) if b.get("data", "").endswith(":add")]  # the last seat is a person's


async def test_players_timed_out_are_replaced_by_computer_players_until_no_person_is_left(
    sandbox: ControlClient,
) -> None:
    mark = (await sandbox.log())["next"]
    t = await table(sandbox, players=3)
    await set_timer(sandbox, t, 2)
    await set_computer_pause(sandbox, t, 0)
    await choose_setting(sandbox, t, "s:x:easy")
    await start_with_computers(sandbox, t, "carcassonne", [])  # nobody presses anything from here on
    messages = await sandbox.wait_for(t.chat_id, lambda ms: ms if "تمام شد" in (ms[-1]["text"] or "") else None)
    result = _plain(messages[-1]["text"])
    assert texts.NO_PERSON_LEFT in result  # the last person was taken out: only computers were left
    board = "\n".join(_captions(await _calls_to(sandbox, mark, {t.chat_id})))  # every caption the board had
    for n, person in ((1, t.players[0]), (2, t.players[1])):
        assert (
            _plain(texts.STANDS_IN.format(computer=f"رایانه {'۱۲'[n - 1]} (آسان)", who=person["first_name"])) in board
        )
    assert t.players[2]["first_name"] in result  # the last person, taken out: nobody replaces them


async def test_one_person_plays_against_computer_players_in_their_private_chat(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    t = await table(sandbox, players=1)
    person = t.players[0]
    private = Table(person["id"], [person], t.outsider, t.newcomer)
    await no_pause_in_private(harness, person["id"])
    group_before = await sandbox.messages(t.chat_id)
    await start_with_computers(sandbox, private, "splendor", ["easy", "easy"], private=True)
    await settle()
    messages = await sandbox.messages(person["id"])
    hand = [m for m in messages if m["from_bot"] and f"— {texts.YOUR_HAND}" in (m["caption"] or "")]
    assert len(hand) == 1 and not hand[0]["buttons"]  # the hand is shown; its choices are on the board
    assert any(b.get("data", "").startswith("g:splendor:") for row in board_of(messages)["buttons"] for b in row)
    await _play_to_the_end(sandbox, private, seed=11, limit=600)
    result = _plain((await sandbox.messages(person["id"]))[-1]["text"])
    assert "اسپلندور" in result and FIRST in result and SECOND in result and person["first_name"] in result
    assert await sandbox.messages(t.chat_id) == group_before  # nothing of it in the group
    mine = await _answer_in_private(sandbox, person["id"], "/mystats")
    assert "آسان: " in mine and " برد از ۱ بازی" in mine  # won or not: one game counted


async def test_a_bot_killed_while_a_computer_player_is_to_move_finishes_the_game(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox, players=1)
    person = t.players[0]
    private = Table(person["id"], [person], t.outsider, t.newcomer)
    await no_pause_in_private(harness, person["id"])
    harness.restart_bot(kill=False, env={STOP_AT: f"computer-to-move@{person['id']}"})
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        assert harness.bot is not None
        await start_with_computers(sandbox, private, "coin_age", ["easy"], private=True)
        rng = random.Random(3)
        bot = harness.bot

        async def playable_or_stopped() -> dict[str, Any] | bool:
            """The board once the person has a button on it, or True once the bot stopped itself."""
            board = board_of(await sandbox.messages(person["id"]))
            return bot.stopped() or (
                board if any(b.get("data", "").startswith(("g:", "n:")) for b in buttons(board)) else False
            )

        # the person plays until the computer is to move: the bot stops itself there
        while isinstance(board := await eventually(playable_or_stopped, "the person's turn or the stop"), dict):
            answer = await sandbox.press(person["id"], board["message_id"], person["id"], choose(board, rng))
            assert answer["answered"] and not answer["text"], answer

            async def moved_on(board: dict[str, Any] = board) -> bool:
                return bot.stopped() or board_of(await sandbox.messages(person["id"])) != board

            await eventually(moved_on, "the board showing the press, or the stop")
        record = await store.load(person["id"])
        assert record is not None and computers.computer_to_act(record) is not None
        log = harness.bot.log_path
        taken_back = len(re.findall("took back [0-9]+ deadline", log.read_text()))
        harness.restart_bot(kill=True, env={STOP_AT: None})  # its deadline claimed, the move not thought of yet

        async def moved() -> GameRecord | None:  # the computer's move, made after the restart: no lease to run out
            now = await store.load(person["id"])
            return now if now is not None and now.version > record.version else None

        now = await eventually(moved, "the computer's move after the restart")
        assert now.recent != record.recent
        assert len(re.findall("took back [0-9]+ deadline", log.read_text())) == taken_back + 1
        await _play_to_the_end(sandbox, private, seed=4, limit=400)
    finally:
        await store.close()
        assert harness.bot is not None
        if STOP_AT in harness.bot.extra_env or harness.bot.stopped():
            harness.restart_bot(kill=True, env={STOP_AT: None})
