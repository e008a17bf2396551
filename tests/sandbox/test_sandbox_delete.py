"""What a bot may delete, as the Bot API's deleteMessage says, and a public supergroup's username in getChat."""

from __future__ import annotations

import time
from typing import Any

import pytest
from telegram import Bot
from telegram.error import BadRequest

from sandbox.engine import Sandbox
from sandbox.methods.messages import DELETE_WITHIN, _deletable
from sandbox.state import BOT_ID


async def test_a_bot_deletes_its_own_messages_and_a_private_chats_but_not_a_members_without_admin_rights(
    bot: Bot, world: Any
) -> None:
    ali = await world.user("Ali")
    await world.say(ali["id"], ali, "/start")
    group = await world.group("G", [ali])
    own = await bot.send_message(ali["id"], "نوبت شماست")
    assert await bot.delete_message(ali["id"], own.message_id) is True
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(ali["id"], own.message_id)  # deleted once
    said = await world.say(ali["id"], ali, "سلام")
    assert await bot.delete_message(ali["id"], said["message_id"]) is True  # incoming, in a private chat
    board = await bot.send_message(group["id"], "صفحه")
    assert await bot.delete_message(group["id"], board.message_id) is True  # outgoing, in a group
    member = await world.say(group["id"], ali, "/new")
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await bot.delete_message(group["id"], member["message_id"])  # the bot is not an admin there
    admin_group = await world.group("H", [ali], bot_admin=True)
    other = await world.say(admin_group["id"], ali, "/new")
    assert await bot.delete_message(admin_group["id"], other["message_id"]) is True
    stored = {m["message_id"]: m["deleted"] for m in await world.messages(group["id"])}
    assert stored == {board.message_id: True, member["message_id"]: False}


async def test_a_topics_first_message_cannot_be_deleted(bot: Bot, world: Any) -> None:
    ali = await world.user("Ali")
    forum = await world.group("F", [ali], admins=[ali], is_forum=True, bot_admin=True)
    topic = await world.topic(forum["id"], ali, "بازی")
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await bot.delete_message(forum["id"], topic["message_thread_id"])


def test_nothing_older_than_48_hours_of_telegram_time() -> None:
    sandbox = Sandbox(time_scale=0.5)
    chat = sandbox.world.add_group("G", [], [], None, False, True)
    message = sandbox.world.add_message(chat, BOT_ID)
    assert _deletable(sandbox, chat, message)
    message.date = int(time.time() - DELETE_WITHIN * 0.5) - 1  # 48 Telegram hours at twice the speed
    assert not _deletable(sandbox, chat, message)


async def test_a_public_supergroup_has_a_username_and_a_basic_group_none(bot: Bot, world: Any, client: Any) -> None:
    ali = await world.user("Ali")
    public = await world.group("G", [ali], username="dorehami_friends")
    assert public["username"] == "dorehami_friends"
    assert (await bot.get_chat(public["id"])).username == "dorehami_friends"
    assert (await bot.get_chat((await world.group("H", [ali]))["id"])).username is None
    refused = await client.post(
        "/sandbox/chats", json={"title": "B", "members": [ali["id"]], "type": "group", "username": "basic_one"}
    )
    assert refused.status_code == 400
