"""End to end: the player whose turn it is gets one real notification, and it is taken back when the turn moves.

The board is edited at every move and an edit notifies nobody, so the next player gets a private message with
a link back to the group's board; the previous one is deleted when the turn moves on, the half-time reminder
takes its place, a player the bot cannot write to is mentioned in the group instead, a player can turn these off
and on, and in رکب a hand sent anew is the notification when the move is made in private. A player who pressed in
the game a moment ago is at the screen: their turn is no new message."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    Table,
    board_in,
    board_of,
    button,
    buttons,
    changed_board,
    hand_of,
    let_time_pass,
    player_to_act,
    reply_to,
    set_timer,
    someone_can_act,
    start_game,
    start_with_computers,
    table,
)
from bot.messages import texts
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

TURN = "نوبت شماست"
AWAY = 25  # Telegram seconds: more than AWAY_AFTER_SECONDS (20) since a player's press, so they may be away


@pytest.fixture
async def store(harness: Harness) -> AsyncIterator[Store]:
    s = Store(aioredis.Redis.from_url(harness.redis_url, decode_responses=True), harness.keys)
    try:
        yield s
    finally:
        await s.close()


def notices(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bot's turn notices in a private chat (text messages; a hand is a picture)."""
    return [m for m in messages if m["from_bot"] and TURN in (m["text"] or "") and not m.get("photo")]


def live(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if not m["deleted"]]


def board_link(t: Table, board: dict[str, Any]) -> str:
    """Telegram's link to a private supergroup's message: t.me/c/<its id without -100>/<message id>."""
    return f"https://t.me/c/{-t.chat_id - 10**12}/{board['message_id']}"


def _other_buttons(messages: list[dict[str, Any]], than: dict[str, Any]) -> dict[str, Any] | None:
    """The board once its buttons differ from ``than``'s: a menu level opened."""
    now = board_of(messages)
    return now if now["buttons"] != than["buttons"] else None


def _newer(messages: list[dict[str, Any]], than: int) -> dict[str, Any] | None:
    now = board_of(messages)
    return now if version_of(now) > than else None


def version_of(board: dict[str, Any]) -> int:
    return max(
        (int(b["data"].split(":")[2]) for b in buttons(board) if b.get("data", "")[:2] in ("g:", "n:")), default=0
    )


async def end_turns_until(sandbox: ControlClient, t: Table, target: dict[str, Any]) -> dict[str, Any]:
    """Whoever is to act ends their turn, until it is ``target``'s (a turn whose toss allows nothing is skipped
    at once in عصر سکه‌ها, so the turn may come straight back); returns the board then."""
    board = board_of(await sandbox.messages(t.chat_id))
    while True:
        mover, version = player_to_act(t, board), version_of(board)
        answer = await sandbox.press(t.chat_id, board["message_id"], mover["id"], button(board, ":x")["data"])
        assert answer["answered"] and not answer["text"], answer
        board = await sandbox.wait_for(t.chat_id, functools.partial(_newer, than=version))
        if player_to_act(t, board) is target:
            return board


async def notice_of(sandbox: ControlClient, player: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = await sandbox.wait_for(player["id"], lambda ms: (live(notices(ms)) or [None])[-1])
    return found


async def test_the_next_player_is_told_in_private_with_a_link_and_the_old_notice_goes(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    first = player_to_act(t, board)
    other = next(p for p in t.players if p is not first)
    notice = await notice_of(sandbox, first)
    assert "عصر سکه‌ها" in notice["text"] and "گروه" in notice["text"]  # the game and the group, by name
    links = [b["url"] for b in buttons(notice) if "url" in b]
    assert links == [board_link(t, board)] and any(b.get("text") == texts.GO_TO_GAME for b in buttons(notice))
    assert button(notice, "u:off")["text"] == texts.NOTICES_OFF
    assert not notices(await sandbox.messages(other["id"]))

    await end_turns_until(sandbox, t, other)
    told = await notice_of(sandbox, other)
    assert [b["url"] for b in buttons(told) if "url" in b] == [board_link(t, board)]  # the same board, edited
    gone = await sandbox.wait_for(
        first["id"], lambda ms: next((m for m in ms if m["message_id"] == notice["message_id"] and m["deleted"]), None)
    )
    assert gone and not live(notices(await sandbox.messages(first["id"])))  # they never pile up
    group = await sandbox.messages(t.chat_id)
    assert not [m for m in group if m["from_bot"] and TURN in (m["text"] or "")]  # the group's budget is spared


async def act_once(sandbox: ControlClient, t: Table, player: dict[str, Any]) -> dict[str, Any]:
    """``player`` presses through the board's menus to its first action that is not ending the turn; returns
    the board once the bot has drawn that action."""
    board = board_of(await sandbox.messages(t.chat_id))
    while True:
        actions = [
            b["data"] for b in buttons(board) if b.get("data", "").startswith("g:") and not b["data"].endswith(":x")
        ]
        if actions:
            break
        menu = next(
            b["data"] for b in buttons(board) if b.get("data", "").startswith("n:") and "بازگشت" not in b["text"]
        )
        await sandbox.press(t.chat_id, board["message_id"], player["id"], menu)
        board = await sandbox.wait_for(t.chat_id, functools.partial(_other_buttons, than=board))
    version = int(actions[0].split(":")[2])
    answer = await sandbox.press(t.chat_id, board["message_id"], player["id"], actions[0])
    assert answer["answered"] and not answer["text"], answer

    def drawn(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = board_of(messages)
        versions = [int(b["data"].split(":")[2]) for b in buttons(now) if b.get("data", "")[:2] in ("g:", "n:")]
        return now if not versions or min(versions) > version else None

    found: dict[str, Any] = await sandbox.wait_for(t.chat_id, drawn)
    return found


async def test_no_second_notice_while_the_turn_stays_with_the_player_who_just_moved(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    """In کشورگشا a turn is up to three actions: a player who just took one is at the screen, and telling them
    again would only buzz their phone for what they are doing."""
    t = await table(sandbox)
    board = await start_game(sandbox, t, game="conqueror")
    first = player_to_act(t, board)
    other = next(p for p in t.players if p is not first)
    opening = await notice_of(sandbox, first)
    await act_once(sandbox, t, first)  # the opening: each places a first castle, one after the other
    await notice_of(sandbox, other)
    await let_time_pass(harness, AWAY)  # the first player looked away meanwhile: their turn is told again
    await act_once(sandbox, t, other)
    notice = await sandbox.wait_for(
        first["id"], lambda ms: next((m for m in live(notices(ms)) if m["message_id"] != opening["message_id"]), None)
    )
    board = await act_once(sandbox, t, first)  # the first of up to three actions of the turn
    assert player_to_act(t, board) is first
    await settle()
    assert [m["message_id"] for m in live(notices(await sandbox.messages(first["id"])))] == [notice["message_id"]]


async def test_no_notice_for_a_player_who_pressed_a_moment_ago(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    """Their turn comes back within ``AWAY_AFTER_SECONDS`` of their own press: they are at the screen, so no new
    message buzzes them, and the notice they answered is gone. (A window of minutes here, so that a busy machine
    cannot make the press look old; the other tests show the notice that comes after a pause.)"""
    assert harness.bot is not None
    usual = harness.bot.extra_env.get("AWAY_AFTER_SECONDS")
    harness.restart_bot(kill=False, env={"AWAY_AFTER_SECONDS": "600"})
    try:
        t = await table(sandbox)
        board = await start_game(sandbox, t)
        first = player_to_act(t, board)
        other = next(p for p in t.players if p is not first)
        told = await notice_of(sandbox, first)  # they never pressed: they may be away
        await end_turns_until(sandbox, t, other)
        await notice_of(sandbox, other)
        mark = (await sandbox.log())["next"]
        await end_turns_until(sandbox, t, first)
        await settle()
        assert not live(notices(await sandbox.messages(first["id"])))
        assert next(m for m in await sandbox.messages(first["id"]) if m["message_id"] == told["message_id"])["deleted"]
        sent = [i for i in (await sandbox.log(after=mark))["items"] if i["method"] == "sendMessage"]
        assert not [i for i in sent if i["chat_id"] == first["id"]]
    finally:
        harness.restart_bot(kill=False, env={"AWAY_AFTER_SECONDS": usual})


async def test_the_reminder_takes_the_notices_place(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 3)
    board = await start_game(sandbox, t)
    mover = player_to_act(t, board)
    notice = await notice_of(sandbox, mover)

    def reminded(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in live(messages) if m["from_bot"] and "مانده" in (m["text"] or "")), None)

    reminder = await sandbox.wait_for(mover["id"], reminded)
    assert "عصر سکه‌ها" in reminder["text"] and [b["url"] for b in buttons(reminder) if "url" in b]
    private = await sandbox.messages(mover["id"])
    assert next(m for m in private if m["message_id"] == notice["message_id"])["deleted"]
    group = await sandbox.messages(t.chat_id)
    assert not [m for m in group if m["from_bot"] and "مانده" in (m["text"] or "")]


async def test_a_player_the_bot_cannot_write_to_is_mentioned_in_the_group_until_the_turn_moves(
    sandbox: ControlClient, settle: Settle, store: Store, harness: Harness
) -> None:
    """The newcomer never opened the bot; the bot believes otherwise (a stale record of who can be reached), so
    they are seated, and Telegram refuses the private notice (403 "bot can't initiate conversation")."""
    t = await table(sandbox)
    host, newcomer = t.players[0], t.newcomer
    await store.mark_reachable(newcomer["id"])
    seated = Table(t.chat_id, [host, newcomer], t.outsider, t.newcomer)
    board = await start_game(sandbox, seated)
    if player_to_act(seated, board) is host:
        await notice_of(sandbox, host)
        await settle()
        # the group's budget fills again (five at once, then one every 3 s): a mention there never waits for it
        await let_time_pass(harness, 15)
        board = await end_turns_until(sandbox, seated, newcomer)

    def mentioned(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in live(messages) if m["from_bot"] and TURN in (m["text"] or "")), None)

    told = await sandbox.wait_for(t.chat_id, mentioned)
    assert newcomer["first_name"] in told["text"] and f"tg://user?id={newcomer['id']}" in told["html"]
    assert not await store.is_reachable(newcomer["id"])  # the next notices go to the group straight away
    await settle()
    await end_turns_until(sandbox, seated, host)
    await sandbox.wait_for(
        t.chat_id, lambda ms: next((m for m in ms if m["message_id"] == told["message_id"] and m["deleted"]), None)
    )


async def test_a_player_turns_notices_off_from_a_notice_and_on_again_with_notify(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    first = player_to_act(t, board)
    other = next(p for p in t.players if p is not first)
    notice = await notice_of(sandbox, first)
    answer = await sandbox.press(first["id"], notice["message_id"], first["id"], "u:off")
    assert answer["text"] == texts.NOTICES_TURNED_OFF and answer["show_alert"]
    notice = await sandbox.wait_for(
        first["id"], lambda ms: next((m for m in ms if m["message_id"] == notice["message_id"] and m["edits"]), None)
    )
    assert button(notice, "u:on")["text"] == texts.NOTICES_ON and [b for b in buttons(notice) if "url" in b]

    await end_turns_until(sandbox, t, other)  # the turn goes round: back to the one who turned them off
    await end_turns_until(sandbox, t, first)
    await settle()
    assert not live(notices(await sandbox.messages(first["id"])))

    await sandbox.send(first["id"], first["id"], "/notify")
    state = await sandbox.wait_for(
        first["id"], lambda ms: next((m for m in ms if m["from_bot"] and m["text"] == texts.NOTICES_ARE_OFF), None)
    )
    answer = await sandbox.press(first["id"], state["message_id"], first["id"], button(state, "u:on")["data"])
    assert answer["text"] == texts.NOTICES_TURNED_ON
    await sandbox.wait_for(
        first["id"], lambda ms: next((m for m in ms if m["from_bot"] and m["text"] == texts.NOTICES_ARE_ON), None)
    )
    await end_turns_until(sandbox, t, other)
    await let_time_pass(harness, AWAY)  # they pressed a moment ago: away now, they are told again
    await end_turns_until(sandbox, t, first)
    assert "عصر سکه‌ها" in (await notice_of(sandbox, first))["text"]


async def test_in_condottiere_the_hand_sent_anew_is_the_notice_when_the_move_is_made_in_private(
    sandbox: ControlClient,
    settle: Settle,
) -> None:
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="condottiere")
    await settle()
    chooser = player_to_act(t, board)  # where the first battle is fought: chosen on the board
    assert any(b.get("data", "").startswith(("g:", "n:")) for b in buttons(board))
    await notice_of(sandbox, chooser)
    hands_before = {p["id"]: await hand_of(sandbox, p) for p in t.players}
    while not any(b.get("data", "").startswith("g:") for b in buttons(board)):
        menu = next(b["data"] for b in buttons(board) if b.get("data", "").startswith("n:"))
        await sandbox.press(t.chat_id, board["message_id"], chooser["id"], menu)
        board = await sandbox.wait_for(t.chat_id, functools.partial(_other_buttons, than=board))
    site = next(b["data"] for b in buttons(board) if b.get("data", "").startswith("g:"))
    await sandbox.press(t.chat_id, board["message_id"], chooser["id"], site)

    def in_private(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = board_of(messages)  # now a card is played, in private, from the hand: the board only points there
        return now if not any(b.get("data", "")[:2] in ("g:", "n:") for b in buttons(now)) else None

    board = await sandbox.wait_for(t.chat_id, in_private)
    while (player := player_to_act(t, board)) is chooser:  # pressed a moment ago: their hand is only edited
        hand = await sandbox.wait_for(chooser["id"], lambda ms: next(_playable_hands(ms), None))
        card = next(b["data"] for b in buttons(hand) if b.get("data", "").startswith("h:"))
        await sandbox.press(chooser["id"], hand["message_id"], chooser["id"], card)
        board = await changed_board(sandbox, t, board, card)
    old = hands_before[player["id"]]
    assert old is not None

    def anew(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        pictures = [m for m in live(messages) if m["from_bot"] and m.get("photo")]
        newest = pictures[-1] if pictures else None
        playable = newest is not None and any(b.get("data", "").startswith(("h:", "k:")) for b in buttons(newest))
        return newest if playable and newest["message_id"] > old["message_id"] else None

    hand = await sandbox.wait_for(player["id"], anew)
    assert hand["caption"].startswith(texts.YOUR_MOVE_HERE)  # what the notification shows first
    await sandbox.wait_for(  # one hand, at the bottom: the old one is deleted once the new one is out
        player["id"], lambda ms: next((m for m in ms if m["message_id"] == old["message_id"] and m["deleted"]), None)
    )
    await settle()
    assert not live(notices(await sandbox.messages(player["id"])))  # no second message


def _playable_hands(messages: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The bot's pictures in a private chat that offer a card to play, newest first."""
    for m in reversed(live(messages)):
        if m["from_bot"] and m.get("photo") and any(b.get("data", "").startswith("h:") for b in buttons(m)):
            yield m


async def test_a_reminder_is_said_again_as_a_notice_when_the_timer_stops(sandbox: ControlClient) -> None:
    """/pause stops the clock: «⏰ … مانده» would no longer be true, so the reminder says again, in place (an edit
    notifies nobody), only that it is their turn."""
    t = await table(sandbox)
    await set_timer(sandbox, t, 10)
    board = await start_game(sandbox, t)
    mover = player_to_act(t, board)

    def reminded(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in live(messages) if m["from_bot"] and "مانده" in (m["text"] or "")), None)

    reminder = await sandbox.wait_for(mover["id"], reminded)
    assert await reply_to(sandbox, t.chat_id, t.players[0]["id"], "/pause") == texts.PAUSED
    calm = await sandbox.wait_for(
        mover["id"], lambda ms: next((m for m in ms if m["message_id"] == reminder["message_id"] and m["edits"]), None)
    )
    assert "مانده" not in calm["text"] and TURN in calm["text"] and not calm["deleted"]
    assert button(calm, "u:off")  # still a notice: its switch stays


async def test_after_board_a_notice_leads_to_the_board_posted_anew(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    mover = player_to_act(t, board)
    notice = await notice_of(sandbox, mover)
    assert [b["url"] for b in buttons(notice) if "url" in b] == [board_link(t, board)]
    await sandbox.send(t.chat_id, t.players[0]["id"], "/board")
    fresh = await sandbox.wait_for(
        t.chat_id, lambda ms: board_of(ms) if board_of(ms)["message_id"] != board["message_id"] else None
    )

    def leads_to_fresh(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = next(m for m in messages if m["message_id"] == notice["message_id"])
        return now if [b.get("url") for b in buttons(now) if "url" in b] == [board_link(t, fresh)] else None

    await sandbox.wait_for(mover["id"], leads_to_fresh)  # the same notice, its button edited: no new buzz


async def test_a_game_in_one_s_private_chat_keeps_its_board_below_other_games_notices(sandbox: ControlClient) -> None:
    """A person plays a computer player in their private chat and a friend in a group: the group game's turn
    notice comes below the private game's board; the private board's next drawing is a new message below it,
    never buried."""
    t = await table(sandbox)
    person, _friend = t.players
    solo = Table(person["id"], [person], t.outsider, t.newcomer)
    await start_with_computers(sandbox, solo, "coin_age", ["easy"], private=True)
    board = await start_game(sandbox, t)
    if player_to_act(t, board) is not person:
        board = await end_turns_until(sandbox, t, person)
    notice = await notice_of(sandbox, person)
    own = await someone_can_act(sandbox, solo)
    assert own["message_id"] < notice["message_id"]  # buried under the group's notice
    data = next(b["data"] for b in buttons(own) if b.get("data", "").endswith(":x"))
    answer = await sandbox.press(person["id"], own["message_id"], person["id"], data)
    assert answer["answered"] and not answer["text"]
    moved = await sandbox.wait_for(
        person["id"], lambda ms: board_in(ms) if board_in(ms)["message_id"] > notice["message_id"] else None
    )
    assert moved["message_id"] > notice["message_id"]  # posted anew, below the notice
    await sandbox.wait_for(  # the buried one has no buttons left to confuse
        person["id"], lambda ms: next((m for m in ms if m["message_id"] == own["message_id"] and not buttons(m)), None)
    )
