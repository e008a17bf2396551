"""End to end: forum topics, start-up registration, and what an unexpected error looks like to players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import redis.asyncio as aioredis

from bot.dev.harness import Harness
from bot.dev.simulate import bot_says, button, buttons, first_from_bot, game_record, is_lobby, now_of, open_lobby, table
from bot.messages import texts
from sandbox.control_client import ControlClient


async def test_each_forum_topic_holds_its_own_game(sandbox: ControlClient) -> None:
    """Each step waits for what it should bring on screen (not for the chat to go quiet: the bot may be
    pacing its messages, and a quiet moment can come before the board)."""
    t = await table(sandbox)
    host, guest = t.players
    forum = await sandbox.group("انجمن", [host["id"], guest["id"]], [host["id"]], is_forum=True)
    first, second = [(await sandbox.topic(forum["id"], host["id"], name))["message_thread_id"] for name in "اب"]

    def lobby_in(topic: int) -> Callable[[list[dict[str, Any]]], dict[str, Any] | None]:
        return lambda ms: next(
            (m for m in ms if m["from_bot"] and buttons(m) and m["message_thread_id"] == topic), None
        )

    for topic in (first, second):
        await sandbox.send(forum["id"], host["id"], "/new coin_age", message_thread_id=topic)
        await sandbox.wait_for(forum["id"], lobby_in(topic))
    lobby = await sandbox.wait_for(forum["id"], lobby_in(second))
    await sandbox.press(forum["id"], lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    lobby = await sandbox.wait_for(
        forum["id"],
        lambda ms: next(
            (m for m in ms if m["message_id"] == lobby["message_id"] and m["edits"] > lobby["edits"]), None
        ),
    )
    await sandbox.press(forum["id"], lobby["message_id"], host["id"], button(lobby, ":start")["data"])
    board = await sandbox.wait_for(
        forum["id"], lambda ms: next((m for m in ms if m["from_bot"] and m.get("photo")), None)
    )
    assert board["message_thread_id"] == second and buttons(board)
    other = next(m for m in await sandbox.messages(forum["id"]) if m["message_thread_id"] == first and buttons(m))
    assert "اتاق انتظار" in other["text"]  # the first topic still waits in its lobby


async def test_commands_are_registered_in_persian_at_start_up(harness: Harness) -> None:
    async with httpx.AsyncClient(base_url=harness.url) as http:
        info = (await http.get("/sandbox/bot")).json()
    descriptions = " ".join(c["description"] for scope in info["commands"] for c in scope.get("commands", []))
    assert "ساختن بازی تازه" in descriptions and "راهنما" in descriptions


async def test_an_unexpected_error_gets_an_apology_and_changes_nothing(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox)
    await open_lobby(sandbox, t)
    client = aioredis.Redis.from_url(harness.redis_url, decode_responses=True)
    key = harness.keys.game(str(t.chat_id))
    try:
        await client.hset(key, "d", "{broken")
        sorry = await bot_says(sandbox, t.chat_id, t.players[0]["id"], "/board", lambda m: m["text"] == texts.APOLOGY)
        assert await client.hget(key, "d") == "{broken"  # nothing was overwritten
        assert sorry["message_id"] == (await sandbox.messages(t.chat_id))[-1]["message_id"]  # and nothing else said
    finally:
        await client.delete(key)
        await client.aclose()


async def test_new_without_a_game_offers_the_games_as_buttons_to_whoever_asked(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox)
    asker, other = t.players
    picker = await bot_says(sandbox, t.chat_id, asker["id"], "/new")
    assert picker["text"] == texts.PICK_GAME
    choice = button(picker, "new:coin_age")
    assert "عصر سکه‌ها" in choice["text"]
    answer = await sandbox.press(t.chat_id, picker["message_id"], other["id"], choice["data"])
    assert (answer["text"], answer["show_alert"]) == (texts.PICK_NOT_YOURS, True)  # the one who typed /new picks
    assert await game_record(harness, t.chat_id) is None
    answer = await sandbox.press(t.chat_id, picker["message_id"], asker["id"], choice["data"])
    assert answer["answered"] and not answer["text"]
    lobby = await sandbox.wait_for(t.chat_id, first_from_bot(picker, is_lobby))
    assert "اتاق انتظار" in lobby["text"] and asker["first_name"] in lobby["text"] and "👑" in lobby["text"]
    await sandbox.wait_for(t.chat_id, lambda ms: now_of(ms, picker)["deleted"])


async def test_a_deep_link_does_not_let_an_outsider_into_a_group_s_game(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox, players=1)
    stranger = await sandbox.user("غریبه")
    lobby = await open_lobby(sandbox, t)
    link = next(b["url"] for b in buttons(lobby) if "url" in b)
    refused = await bot_says(sandbox, stranger["id"], stranger["id"], f"/start {link.split('start=', 1)[1]}")
    assert refused["text"] == texts.NOT_A_MEMBER_UNKNOWN  # the bot is not an admin: it cannot ask who is a member
    record = await game_record(harness, t.chat_id)  # refused before anything was written
    assert record is not None and [p.user_id for p in record.players] == [t.players[0]["id"]]
    lobby = next(m for m in await sandbox.messages(t.chat_id) if m["message_id"] == lobby["message_id"])
    assert "غریبه" not in lobby["text"]
