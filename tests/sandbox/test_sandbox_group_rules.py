"""Telegram's rules for what a bot gets from a group: privacy mode, forum topics, edited messages, and the
order of webhook deliveries (callback queries per user, messages per chat)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest

from sandbox.server import SandboxServer


async def _texts(bot: Bot, offset: int) -> tuple[list[str | None], int]:
    updates = await bot.get_updates(offset=offset, timeout=0)
    texts = [(u.message or u.edited_message).text for u in updates if (u.message or u.edited_message) is not None]
    return texts, (updates[-1].update_id + 1 if updates else offset)


async def test_privacy_mode_lets_through_commands_for_this_bot_replies_and_service_messages(
    bot: Bot, world: Any
) -> None:
    ali = await world.user("Ali")
    other = await world.user("Quiz", username="quiz_bot", is_bot=True)
    assert other["is_bot"] is True
    group = await world.group("G", [ali, other])
    offset = (await bot.get_updates(timeout=0))[-1].update_id + 1  # my_chat_member: the bot was added
    await world.say(group["id"], ali, "سلام به همه")  # plain text: not for the bot
    await world.say(group["id"], ali, "/new")  # a general command, and no bot has spoken yet: ours
    await world.say(group["id"], ali, "/new@quiz_bot")  # another bot's command
    await world.say(group["id"], ali, "/new@DoreHami_Bot")  # ours, in any case
    await world.say(group["id"], ali, "ببین @dorehami_bot")  # a mention of the bot (BotFather's wording)
    texts, offset = await _texts(bot, offset)
    assert texts == ["/new", "/new@DoreHami_Bot", "ببین @dorehami_bot"]

    quiz = await world.say(group["id"], other, "/new کوییز")  # another bot speaks last: bare commands are its
    await world.say(group["id"], ali, "/new")
    await world.say(group["id"], ali, "/join@dorehami_bot", reply_to_message_id=quiz["message_id"])  # its reply
    texts, offset = await _texts(bot, offset)
    assert texts == []

    mine = await bot.send_message(group["id"], "بازی")  # our bot speaks last again
    await world.say(group["id"], ali, "/board")
    await world.say(group["id"], ali, "عالی", reply_to_message_id=mine.message_id)  # a reply to our message
    texts, offset = await _texts(bot, offset)
    assert texts == ["/board", "عالی"]
    assert (await world.say(ali["id"], ali, "hello"))["text"] == "hello"  # private chats: everything
    texts, offset = await _texts(bot, offset)
    assert texts == ["hello"]


async def test_privacy_mode_off_applies_to_groups_joined_afterwards(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    ali = await world.user("Ali")
    before = await world.group("قبل", [ali])
    assert (await client.post("/sandbox/bot/privacy", json={"enabled": False})).json() == {"privacy": False}
    after = await world.group("بعد", [ali])
    assert (await bot.get_me()).can_read_all_group_messages is True
    offset = (await bot.get_updates(timeout=0))[-1].update_id + 1
    await world.say(before["id"], ali, "قبل")
    await world.say(after["id"], ali, "بعد")
    texts, _ = await _texts(bot, offset)
    assert texts == ["بعد"]  # as with BotFather: the bot must be re-added for the change to apply
    assert (await client.get("/sandbox/bot")).json()["privacy"] is False


async def test_topics_closed_refuse_sends_and_the_general_topic_has_no_thread(bot: Bot, world: Any) -> None:
    admin, ali = await world.user("Admin"), await world.user("Ali")
    forum = await world.group("Forum", [admin, ali], [admin], is_forum=True)
    topic = await world.topic(forum["id"], ali, "بازی")
    thread = topic["message_thread_id"]
    general = await world.say(forum["id"], ali, "/help")
    assert general["message_thread_id"] is None and general["is_topic_message"] is False
    reply = await world.say(forum["id"], admin, "/rules", reply_to_message_id=general["message_id"])
    # a reply in the General topic carries the reply chain's thread, but is no topic message
    assert reply["message_thread_id"] == general["message_id"] and reply["is_topic_message"] is False
    with_reply = [u.message for u in await bot.get_updates(timeout=0) if u.message is not None][-1]
    assert with_reply.message_thread_id == general["message_id"] and not with_reply.is_topic_message

    refused = await world.close_topic(forum["id"], thread, await world.user("Stranger"))
    assert refused.status_code == 400  # not a member
    closed = await world.close_topic(forum["id"], thread, admin)
    assert closed.json()["closed"] is True
    service = [u.message for u in await bot.get_updates(timeout=0) if u.message is not None][-1]
    assert service.forum_topic_closed is not None and service.message_thread_id == thread
    try:
        await bot.send_message(forum["id"], "نوبت", message_thread_id=thread)
    except BadRequest as error:
        assert str(error) == "Topic_closed"  # PTB capitalises Telegram's "TOPIC_CLOSED"
    else:
        raise AssertionError("a send into a closed topic must fail")
    body = {"chat_id": forum["id"], "from_id": ali["id"], "text": "x", "message_thread_id": thread}
    said = await world.client.post("/sandbox/messages", json=body)
    assert said.status_code == 400 and said.json()["error"] == "Bad Request: TOPIC_CLOSED"
    assert (await world.say(forum["id"], admin, "/board", message_thread_id=thread))["is_topic_message"]
    await world.close_topic(forum["id"], thread, ali, closed=False)  # its creator reopens it
    sent = await bot.send_message(forum["id"], "ادامه", message_thread_id=thread)
    assert sent.message_thread_id == thread and sent.is_topic_message
    for missing in (999, general["message_id"]):
        try:
            await bot.send_message(forum["id"], "x", message_thread_id=missing)
        except BadRequest as error:
            assert "thread not found" in str(error)
        else:
            raise AssertionError("a thread that is not a topic must be refused")


async def test_an_edited_message_reaches_the_bot_as_edited_message(bot: Bot, world: Any) -> None:
    ali, bob = await world.user("Ali"), await world.user("Bob")
    group = await world.group("G", [ali, bob])
    sent = await world.say(group["id"], ali, "/new coin_ag")
    offset = (await bot.get_updates(timeout=0))[-1].update_id + 1
    edited = await world.edit(group["id"], sent["message_id"], ali, "/new coin_age")
    assert edited.json()["text"] == "/new coin_age" and edited.json()["edits"] == 1
    [update] = await bot.get_updates(offset=offset, timeout=0)
    assert update.edited_message is not None and update.message is None
    assert update.edited_message.message_id == sent["message_id"] and update.edited_message.edit_date is not None
    assert update.edited_message.text == "/new coin_age"
    assert (await world.edit(group["id"], sent["message_id"], bob, "x")).status_code == 400  # not Bob's
    assert (await world.edit(group["id"], sent["message_id"], ali, "/new coin_age")).status_code == 400
    # a bot that asked only for messages and presses (allowed_updates) gets no edits
    await bot.get_updates(offset=update.update_id + 1, timeout=0, allowed_updates=[Update.MESSAGE])
    await world.edit(group["id"], sent["message_id"], ali, "/new splendor")
    assert await bot.get_updates(offset=update.update_id + 1, timeout=0) == ()


async def test_webhook_queues_are_per_user_for_presses_and_per_chat_for_messages(
    bot: Bot, world: Any, server: SandboxServer
) -> None:
    """A press waits only for the same user's earlier press: while a chat's message is held up at the
    webhook, another user's press in that chat is delivered, and a third message of the chat waits."""
    release = asyncio.Event()
    received: list[str] = []

    async def receive(request: web.Request) -> web.Response:
        update = await request.json()
        label = update["message"]["text"] if "message" in update else "press:" + update["callback_query"]["data"]
        received.append(label)
        if label == "/slow":
            await release.wait()
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", receive)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        ali, bob = await world.user("Ali"), await world.user("Bob")
        group = await world.group("G", [ali, bob])
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")]])
        board = await bot.send_message(group["id"], "x", reply_markup=markup)
        pending = await bot.get_updates(timeout=0)
        await bot.get_updates(offset=pending[-1].update_id + 1, timeout=0)  # nothing left for the webhook
        await bot.set_webhook(f"http://127.0.0.1:{runner.addresses[0][1]}/hook")
        await world.say(group["id"], ali, "/slow")
        await world.say(group["id"], ali, "/after")
        body = {"chat_id": group["id"], "message_id": board.message_id, "from_id": bob["id"], "data": "a"}
        await world.client.post("/sandbox/press", json={**body, "timeout": 0})
        for _ in range(200):
            if "press:a" in received:
                break
            await asyncio.sleep(0.01)
        assert received == ["/slow", "press:a"]  # the press overtook the chat's held message; /after waits
        release.set()
        for _ in range(200):
            if "/after" in received:
                break
            await asyncio.sleep(0.01)
        assert received == ["/slow", "press:a", "/after"]
    finally:
        release.set()
        await bot.delete_webhook()
        await runner.cleanup()
