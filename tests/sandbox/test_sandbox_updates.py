"""Updates the sandbox creates for the bot: messages, button presses, long-polling and webhooks."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.error import BadRequest, Conflict

from sandbox.control_client import ControlClient
from sandbox.server import SandboxServer


async def test_command_arrives_with_bot_command_entity(bot: Bot, world: Any) -> None:
    ali = await world.user("علی")
    group = await world.group("G", [ali])
    stored = await world.say(group["id"], ali, "/new coin_age")
    assert stored["text"] == "/new coin_age" and stored["from_bot"] is False
    await world.say(group["id"], ali, "/join@dorehami_bot")
    updates = await bot.get_updates(timeout=1, allowed_updates=[Update.MESSAGE])
    messages = [u.message for u in updates if u.message is not None]
    assert [m.text for m in messages] == ["/new coin_age", "/join@dorehami_bot"]
    first, second = messages
    assert first.entities == (MessageEntity(MessageEntity.BOT_COMMAND, 0, 4),)
    assert second.entities == (MessageEntity(MessageEntity.BOT_COMMAND, 0, 18),)
    assert first.from_user is not None and first.from_user.id == ali["id"]
    assert first.chat.id == group["id"] and first.chat.type == "supergroup"
    # an offset confirms what came before
    assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == ()


async def test_long_poll_returns_when_a_message_arrives(bot: Bot, world: Any) -> None:
    ali = await world.user("Ali")
    await bot.get_updates(timeout=0)  # nothing queued: returns at once
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    assert not poll.done()
    await world.say(ali["id"], ali, "سلام")
    [update] = await asyncio.wait_for(poll, 2)
    assert update.message is not None and update.message.text == "سلام"
    assert update.message.chat.type == "private"


async def test_press_delivers_callback_query_and_returns_the_answer(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("پیوستن", callback_data="join:7")]])
    sent = await bot.send_message(group["id"], "بازی", reply_markup=markup)
    [joined] = await bot.get_updates(timeout=0)
    assert joined.my_chat_member is not None and joined.my_chat_member.new_chat_member.status == "member"

    press_body = {"chat_id": group["id"], "message_id": sent.message_id, "from_id": ali["id"], "data": "join:7"}
    press = asyncio.create_task(client.post("/sandbox/press", json=press_body))
    [update] = await bot.get_updates(offset=joined.update_id + 1, timeout=5)
    query = update.callback_query
    assert query is not None
    assert query.data == "join:7" and query.from_user.id == ali["id"]
    assert isinstance(query.message, Message) and query.message.message_id == sent.message_id
    assert query.message.reply_markup == markup
    assert query.chat_instance
    assert await bot.answer_callback_query(query.id, text="به بازی پیوستی", show_alert=True) is True
    answer = (await press).json()
    assert answer["answered"] is True and answer["text"] == "به بازی پیوستی" and answer["show_alert"] is True
    with pytest.raises(BadRequest, match=r"(?i)query is too old and response timeout expired"):
        await bot.answer_callback_query(query.id)


async def test_a_query_answered_after_fifteen_seconds_is_too_old(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    """Telegram waits about 15 s for a press's answer; later, answerCallbackQuery fails. The wait is real seconds
    at any time scale (the bot's work does not get faster with Telegram's clock); a test may only shorten it,
    here to 0.3 s: the press returns unanswered once they are over, as a client stops waiting."""
    config = (await client.post("/sandbox/config", json={"time_scale": 0.02})).json()
    assert config["time_scale"] == 0.02 and config["answer_window"] == 15  # not shortened by the scale
    config = (await client.post("/sandbox/config", json={"answer_window": 0.3})).json()
    assert config["answer_window"] == 0.3
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")]])
    sent = await bot.send_message(group["id"], "x", reply_markup=markup)
    offset = (await bot.get_updates(timeout=0))[-1].update_id + 1
    body = {"chat_id": group["id"], "message_id": sent.message_id, "from_id": ali["id"], "data": "a"}

    press = asyncio.create_task(client.post("/sandbox/press", json={**body, "timeout": 30}))
    [update] = await bot.get_updates(offset=offset, timeout=5)
    assert update.callback_query is not None
    started = asyncio.get_running_loop().time()
    assert (await press).json()["answered"] is False  # the press gave up at 0.3 s, not after 30 s
    assert asyncio.get_running_loop().time() - started < 5
    with pytest.raises(BadRequest, match=r"^Query is too old and response timeout expired or query id is invalid$"):
        await bot.answer_callback_query(update.callback_query.id)

    # a test may wait on for what a late answer would have said (Telegram refuses it all the same)
    press = asyncio.create_task(client.post("/sandbox/press", json={**body, "timeout": 30, "wait_late": True}))
    [update] = await bot.get_updates(offset=update.update_id + 1, timeout=5)
    assert update.callback_query is not None
    await asyncio.sleep(0.4)  # the bot is slow: past the 0.3 s
    with pytest.raises(BadRequest, match=r"^Query is too old"):
        await bot.answer_callback_query(update.callback_query.id, text="دیر", show_alert=True)
    late = (await press).json()
    assert late["answered"] is False and late["late"] == {"text": "دیر", "show_alert": True}

    press = asyncio.create_task(client.post("/sandbox/press", json=body))  # answered in time: fine
    [update] = await bot.get_updates(offset=update.update_id + 1, timeout=5)
    assert update.callback_query is not None
    assert await bot.answer_callback_query(update.callback_query.id, text="به موقع") is True
    assert (await press).json()["text"] == "به موقع"
    for bad in (0, 2, "fast", None):
        response = await client.post("/sandbox/config", json={"time_scale": bad, "rate_limits": {"enabled": False}})
        assert response.status_code == 400 and "time_scale" in response.json()["error"], bad
    for longer in (0, 15.5, 60, "long", True):  # never kinder than Telegram
        response = await client.post("/sandbox/config", json={"answer_window": longer, "time_scale": 0.5})
        assert response.status_code == 400 and "answer_window" in response.json()["error"], longer
    assert (await client.get("/sandbox/config")).json() == config  # nothing changed


async def test_press_is_rejected_for_unknown_data_and_times_out_unanswered(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")]])
    sent = await bot.send_message(group["id"], "x", reply_markup=markup)
    body = {"chat_id": group["id"], "message_id": sent.message_id, "from_id": ali["id"]}
    rejected = await client.post("/sandbox/press", json={**body, "data": "b"})
    assert rejected.status_code == 400 and "callback_data" in rejected.json()["error"]
    unanswered = await client.post("/sandbox/press", json={**body, "data": "a", "timeout": 0.2})
    assert unanswered.json() == {**unanswered.json(), "answered": False, "text": None}


async def test_a_forged_press_carries_any_data_to_the_bot_for_tests_only(
    bot: Bot, world: Any, server: SandboxServer, client: httpx.AsyncClient
) -> None:
    """``press_forged`` (not in Telegram): data not on the message, empty, overlong, non-ASCII or none at all
    reaches the bot with the real message, and the press returns the bot's answer like ``press``."""
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")]])
    sent = await bot.send_message(group["id"], "x", reply_markup=markup)
    await world.say(ali["id"], ali, "/start")
    private = await bot.send_message(ali["id"], "بدون دکمه")
    offset = (await bot.get_updates(timeout=0))[-1].update_id + 1
    async with ControlClient(server.url) as control:
        for chat_id, message_id, data in [
            (group["id"], sent.message_id, "b"),
            (group["id"], sent.message_id, ""),
            (group["id"], sent.message_id, "g:" + "9" * 100),
            (group["id"], sent.message_id, "دکمه\u200c۱"),
            (group["id"], sent.message_id, None),
            (ali["id"], private.message_id, "h:-1:1:x"),
        ]:
            press = asyncio.create_task(control.press_forged(chat_id, message_id, ali["id"], data))
            [update] = await bot.get_updates(offset=offset, timeout=5)
            offset = update.update_id + 1
            query = update.callback_query
            assert query is not None and query.data == data and query.from_user.id == ali["id"]
            assert isinstance(query.message, Message) and query.message.message_id == message_id
            assert query.message.chat.id == chat_id
            assert await bot.answer_callback_query(query.id, text="کهنه", show_alert=True) is True
            assert await press == {**(await press), "answered": True, "text": "کهنه", "show_alert": True}
        body = {"chat_id": group["id"], "message_id": sent.message_id, "from_id": ali["id"]}
        for bad in [{"data": 7}, {"data": "x" * 4097}, {"message_id": 999, "data": "a"}]:
            response = await client.post("/sandbox/press_forged", json={**body, **bad})
            assert response.status_code == 400 and response.json()["ok"] is False, bad
        surrogate = await client.post(
            "/sandbox/press_forged",
            content=b'{"chat_id": %d, "message_id": %d, "from_id": %d, "data": "\\ud800"}'
            % (group["id"], sent.message_id, ali["id"]),
            headers={"Content-Type": "application/json"},
        )
        assert surrogate.status_code == 400 and "surrogate" in surrogate.json()["error"]
        stranger = await world.user("Stranger")
        with pytest.raises(RuntimeError, match="not a member"):
            await control.press_forged(group["id"], sent.message_id, stranger["id"], "a")
    # the ordinary press still refuses data that is not on the message
    refused = await client.post("/sandbox/press", json={**body, "data": "b"})
    assert refused.status_code == 400
    assert await bot.get_updates(offset=offset, timeout=0) == ()


async def test_webhook_delivery_with_secret_and_retries(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    received: list[dict[str, Any]] = []
    secrets: list[str | None] = []
    failures = [1]  # the first delivery fails, Telegram-style retry follows

    async def receive(request: web.Request) -> web.Response:
        if failures:
            failures.pop()
            return web.Response(status=500)
        secrets.append(request.headers.get("X-Telegram-Bot-Api-Secret-Token"))
        received.append(await request.json())
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", receive)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        assert await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="s3cret") is True
        info = await bot.get_webhook_info()
        assert info.url.endswith("/hook")
        try:
            await bot.get_updates(timeout=0)
        except Conflict as error:
            assert "webhook is active" in str(error)
        else:
            raise AssertionError("getUpdates must conflict with a webhook")

        ali = await world.user("Ali")
        for text in ("one", "two", "three"):
            await world.say(ali["id"], ali, text)
        idle = (await client.post("/sandbox/idle", json={"timeout": 5, "quiet": 0.05})).json()
        assert idle == {"idle": True}
        assert [u["message"]["text"] for u in received] == ["one", "two", "three"]
        assert secrets == ["s3cret"] * 3
        assert [u["update_id"] for u in received] == sorted(u["update_id"] for u in received)
        assert (await bot.get_webhook_info()).pending_update_count == 0
        assert await bot.delete_webhook() is True
        await world.say(ali["id"], ali, "polled")
        [update] = await bot.get_updates(timeout=1)
        assert update.message is not None and update.message.text == "polled"
    finally:
        await runner.cleanup()


async def test_allowed_updates_filters_new_updates(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")]])
    sent = await bot.send_message(group["id"], "x", reply_markup=markup)
    await bot.get_updates(timeout=0, allowed_updates=[Update.MESSAGE])
    body = {"chat_id": group["id"], "message_id": sent.message_id, "from_id": ali["id"], "data": "a"}
    press = await client.post("/sandbox/press", json={**body, "timeout": 0.1})
    assert press.json()["answered"] is False
    await world.say(group["id"], ali, "/hello")
    updates = await bot.get_updates(timeout=0)
    assert all(u.callback_query is None for u in updates)
    assert updates[-1].message is not None and updates[-1].message.text == "/hello"
