"""End to end: a group that becomes a supergroup mid-game or mid-lobby, the bot removed, muted or blocked,
messages on behalf of the group or a channel, deleted messages, and a bot that is not an admin."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    Table,
    board_of,
    button,
    buttons,
    changed_board,
    open_lobby,
    play_move,
    play_to_end,
    reply_to,
    set_timer,
    start_game,
    table,
)
from bot.messages import texts
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

_names = itertools.count(1)


@pytest.fixture
async def store(harness: Harness) -> AsyncIterator[Store]:
    s = Store(aioredis.Redis.from_url(harness.redis_url, decode_responses=True), harness.keys)
    try:
        yield s
    finally:
        await s.close()


async def basic_table(sandbox: ControlClient, settle: Settle) -> Table:
    """Two players who started the bot, in a basic group (the kind that migrates) whose creator is the first."""
    n = next(_names)
    players = [await sandbox.user(f"عضو{n}-{i}", f"m{n}_{i}") for i in range(2)]
    outsider = await sandbox.user(f"همسایه{n}")
    for user in players:
        await sandbox.send(user["id"], user["id"], "/start")
    members = [u["id"] for u in (*players, outsider)]
    group = await sandbox.group(f"گروه ساده {n}", members, [players[0]["id"]], type="group")
    await settle()
    return Table(group["id"], players, outsider, outsider)


def moved(t: Table, chat_id: int) -> Table:
    return Table(chat_id, t.players, t.outsider, t.newcomer)


def boards(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["from_bot"] and m.get("photo") and not m["deleted"]]


# §2 A group that becomes a supergroup -----------------------------------------------------------------------


async def test_a_game_migrated_mid_game_goes_on_to_the_end_in_the_new_chat(
    sandbox: ControlClient, settle: Settle, store: Store
) -> None:
    t = await basic_table(sandbox, settle)
    await set_timer(sandbox, t, 120)
    await start_game(sandbox, t)
    rng = random.Random(7)
    for _ in range(3):
        await play_move(sandbox, t, rng)
    before = await store.load(t.chat_id)
    assert before is not None and before.phase == "playing"

    new = await sandbox.migrate(t.chat_id)  # Telegram sends both service messages
    there = moved(t, new["id"])
    board = await sandbox.wait_for(new["id"], lambda ms: boards(ms)[-1] if boards(ms) else None)
    await settle()
    assert len(boards(await sandbox.messages(new["id"]))) == 1  # both signals came: the board is posted once
    record = await store.load(new["id"])
    assert record is not None and record.version == before.version and record.state == before.state
    assert (await store.group_settings(new["id"])).turn_seconds == 120  # the settings came along
    assert await store.load(t.chat_id) is None
    assert set(await Deadlines(store.redis, store.keys).pending(str(new["id"]))) == {
        f"timeout|{new['id']}|{before.version}",
        f"remind|{new['id']}|{before.version}",
    }
    assert buttons(board)
    await play_to_end(sandbox, there, seed=8)
    assert "تمام شد" in str((await sandbox.messages(new["id"]))[-1]["text"])
    stats = await reply_to(sandbox, new["id"], t.players[0]["id"], "/stats")
    assert t.players[0]["first_name"] in stats  # the finished game counts in the new chat


async def test_a_lobby_migrated_unannounced_follows_when_a_send_is_refused(
    sandbox: ControlClient, settle: Settle, store: Store
) -> None:
    t = await basic_table(sandbox, settle)
    guest = t.players[1]
    # the bot (no admin) knows the guest is a member once it hears from them: in privacy mode, by a command
    await reply_to(sandbox, t.chat_id, guest["id"], "/games")
    lobby = await open_lobby(sandbox, t)
    new = await sandbox.migrate(t.chat_id, service_messages=False)  # the bot hears nothing of it
    link = next(b["url"] for b in buttons(lobby) if "url" in b)
    await sandbox.send(guest["id"], guest["id"], f"/start {link.split('start=', 1)[1]}")

    def lobby_there(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        found = [m for m in messages if m["from_bot"] and "اتاق انتظار" in (m["text"] or "")]
        return found[-1] if found else None

    def joined(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        found = lobby_there(messages)
        return found if found is not None and guest["first_name"] in found["text"] else None

    moved_lobby = await sandbox.wait_for(new["id"], joined)  # the lobby follows the group, and the guest joins
    await settle()
    assert texts.PRIVATE_JOINED.split("{", 1)[0] in (await sandbox.messages(guest["id"]))[-1]["text"]
    assert await store.moved_to(t.chat_id) == new["id"]
    answer = await sandbox.press(
        new["id"], moved_lobby["message_id"], t.players[0]["id"], button(moved_lobby, ":start")["data"]
    )
    assert answer["answered"] and not answer["text"], answer
    board = await sandbox.wait_for(new["id"], lambda ms: boards(ms)[-1] if boards(ms) else None)
    assert buttons(board)


# §6 The bot removed, muted or blocked -----------------------------------------------------------------------


async def test_a_group_that_removes_the_bot_has_its_game_stopped_and_can_start_clean(
    sandbox: ControlClient, settle: Settle, store: Store
) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 120)  # a deadline to drop, too far off to fire (and draw) while the test runs
    await start_game(sandbox, t)
    await settle()  # the start's last edits are out
    assert await Deadlines(store.redis, store.keys).pending(str(t.chat_id)) != {}
    seq = (await sandbox.log())["next"]
    await sandbox.bot_status(t.chat_id, "kicked", by=t.players[0]["id"])
    await settle()
    record = await store.load(t.chat_id)
    assert record is not None and record.phase == "cancelled"
    assert str(t.chat_id) not in await store.active_tags()
    assert await Deadlines(store.redis, store.keys).pending(str(t.chat_id)) == {}  # nothing left to fire or retry
    calls = [c for c in (await sandbox.log(after=seq))["items"] if c["chat_id"] == t.chat_id]
    assert calls == []  # it did not even try to write there
    await sandbox.bot_status(t.chat_id, "member", by=t.players[0]["id"])
    lobby = await open_lobby(sandbox, t)
    assert "اتاق انتظار" in (lobby["text"] or "") and buttons(lobby)


async def test_a_muted_bot_noticed_by_a_refused_reminder_stops_the_game_without_retrying(
    sandbox: ControlClient, settle: Settle, store: Store
) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 3)
    await start_game(sandbox, t)
    for player in t.players:  # the bot cannot remind them in private: the reminder mentions them in the group
        await sandbox.block(player["id"])
    seq = (await sandbox.log())["next"]
    await sandbox.bot_status(t.chat_id, "restricted", by=t.players[0]["id"], notify=False)

    def refused(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [c for c in items if c["chat_id"] == t.chat_id and c["method"] == "sendMessage" and c["status"] == 400]

    found: list[dict[str, Any]] = []
    while not found:  # the half-time reminder is the first send: refused, "not enough rights"
        page = await sandbox.log(after=seq, wait=10)
        found, seq = refused(page["items"]), page["next"]
    record = await store.load(t.chat_id)
    while record is not None and record.phase != "cancelled":
        await settle()
        record = await store.load(t.chat_id)
    assert record is not None and record.phase == "cancelled"
    await settle()  # the write is seen before its deadlines are dropped
    assert await Deadlines(store.redis, store.keys).pending(str(t.chat_id)) == {}
    later = [c for c in (await sandbox.log(after=seq))["items"] if c["chat_id"] == t.chat_id]
    assert [c["method"] for c in later if c["method"].startswith("send")] == []  # no retry loop


async def test_a_player_who_blocked_the_bot_is_asked_to_start_it_before_joining(
    sandbox: ControlClient, settle: Settle
) -> None:
    t = await table(sandbox)
    lobby = await open_lobby(sandbox, t)
    guest = t.players[1]
    await sandbox.block(guest["id"])
    await settle()
    answer = await sandbox.press(t.chat_id, lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    assert answer["text"] == texts.NEED_START and answer["url"]
    await sandbox.block(guest["id"], blocked=False)
    await settle()
    answer = await sandbox.press(t.chat_id, lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    assert answer["text"] == texts.JOINED_ALERT


# §7 Anonymous admins and channels ---------------------------------------------------------------------------


async def test_nobody_opens_or_joins_a_game_as_the_group_or_a_channel(sandbox: ControlClient, store: Store) -> None:
    t = await table(sandbox)
    admin = t.players[0]
    channel = await sandbox.group("کانال گروه", [], creator=admin["id"], type="channel")
    as_group, as_channel = {"sender_chat_id": t.chat_id}, {"sender_chat_id": channel["id"]}
    assert await reply_to(sandbox, t.chat_id, admin["id"], "/new coin_age", **as_group) == texts.WRITE_AS_YOURSELF
    assert await store.load(t.chat_id) is None
    lobby = await open_lobby(sandbox, t)
    for sender in (as_group, as_channel):
        assert await reply_to(sandbox, t.chat_id, admin["id"], "/join", **sender) == texts.WRITE_AS_YOURSELF
    forwarded = {**as_channel, "automatic_forward": True}
    assert await reply_to(sandbox, t.chat_id, admin["id"], "/leave", **forwarded) == texts.WRITE_AS_YOURSELF
    record = await store.load(t.chat_id)
    assert record is not None and [p.user_id for p in record.players] == [admin["id"]]
    # a channel is nobody's admin: it may not cancel; an anonymous admin (the group itself) may
    assert await reply_to(sandbox, t.chat_id, admin["id"], "/cancel", **as_channel) == texts.NOT_ALLOWED
    menu = await reply_to(sandbox, t.chat_id, admin["id"], "/settings", **as_group)
    assert texts.SETTINGS_TITLE.replace("<b>", "").replace("</b>", "") in menu
    await sandbox.send(t.chat_id, admin["id"], "/cancel", **as_group)
    await sandbox.wait_for(t.chat_id, lambda ms: ms[-1]["text"] == texts.CANCELLED)
    assert not buttons(next(m for m in await sandbox.messages(t.chat_id) if m["message_id"] == lobby["message_id"]))


# §8 Deleted messages and a bot that is not an admin ------------------------------------------------------------


async def test_a_board_the_users_deleted_is_posted_again_on_the_next_redraw(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 2)
    board = await start_game(sandbox, t)
    await sandbox.delete(t.chat_id, board["message_id"], by=t.players[0]["id"])  # an admin tidies the chat
    again = await sandbox.wait_for(
        t.chat_id, lambda ms: [m for m in boards(ms) if m["message_id"] > board["message_id"]]
    )
    assert buttons(again[-1]) and "تمام شد" in again[-1]["caption"]  # the time-out's default move, drawn anew


async def test_a_member_the_bot_heard_from_joins_by_deep_link_though_the_bot_is_no_admin(
    sandbox: ControlClient,
    settle: Settle,
) -> None:
    t = await table(sandbox, players=1)  # the bot is a plain member: Telegram does not say who else is in
    await reply_to(sandbox, t.chat_id, t.outsider["id"], "/games")  # but this member has used the bot there
    lobby = await open_lobby(sandbox, t)
    link = next(b["url"] for b in buttons(lobby) if "url" in b)
    await sandbox.send(t.outsider["id"], t.outsider["id"], f"/start {link.split('start=', 1)[1]}")
    await settle()
    assert texts.PRIVATE_JOINED.split("{", 1)[0] in (await sandbox.messages(t.outsider["id"]))[-1]["text"]
    lobby = next(m for m in await sandbox.messages(t.chat_id) if m["message_id"] == lobby["message_id"])
    assert t.outsider["first_name"] in lobby["text"]


async def test_with_the_bot_an_admin_an_outsider_is_told_they_are_not_a_member(
    sandbox: ControlClient, settle: Settle
) -> None:
    t = await table(sandbox, players=1)
    await sandbox.bot_status(t.chat_id, "administrator", by=t.players[0]["id"])
    stranger = await sandbox.user("غریبه‌ی دیگر")
    lobby = await open_lobby(sandbox, t)
    link = next(b["url"] for b in buttons(lobby) if "url" in b)
    await sandbox.send(stranger["id"], stranger["id"], f"/start {link.split('start=', 1)[1]}")
    await settle()
    assert (await sandbox.messages(stranger["id"]))[-1]["text"] == texts.NOT_A_MEMBER


async def test_admin_commands_work_for_admins_when_the_bot_is_no_admin(sandbox: ControlClient) -> None:
    t = await table(sandbox)  # the bot is a plain member: getChatMember tells it nothing about others
    assert await reply_to(sandbox, t.chat_id, t.players[1]["id"], "/pause") == texts.NOT_ADMIN
    await set_timer(sandbox, t, 30)  # the admin's /settings and its button both pass
    board = await start_game(sandbox, t)
    assert await reply_to(sandbox, t.chat_id, t.players[0]["id"], "/pause") == texts.PAUSED
    board = await changed_board(sandbox, t, board)
    assert "متوقف" in board["caption"]
    assert board_of(await sandbox.messages(t.chat_id))
