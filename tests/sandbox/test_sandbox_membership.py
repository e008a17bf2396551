"""The bot's standing in groups as Telegram rules it: migration to a supergroup, removal, muting, blocking,
messages on behalf of a chat, deleted messages, and member lookups by a bot that is not an admin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from telegram import Bot, InputMediaPhoto
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, ChatMigrated, Forbidden


async def _post(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> httpx.Response:
    return await client.post(path, json=body)


async def _drain(bot: Bot) -> list[Any]:
    updates = await bot.get_updates(timeout=0)
    if updates:
        await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    return list(updates)


async def test_a_basic_group_migrates_to_a_supergroup(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    owner, member = await world.user("O"), await world.user("M")
    group = await world.group("G", [member], creator=owner["id"], type="group")
    assert group["type"] == "group" and -1_000_000_000_000 < group["id"] < 0
    sent = await bot.send_message(group["id"], "تخته")
    await _drain(bot)
    response = await _post(client, f"/sandbox/chats/{group['id']}/migrate", {})
    new = response.json()
    assert new["type"] == "supergroup" and str(new["id"]).startswith("-100")
    assert new["members"] == group["members"] and new["creator"] == owner["id"]
    with pytest.raises(ChatMigrated) as caught:
        await bot.send_message(group["id"], "هنوز؟")
    assert caught.value.new_chat_id == new["id"]
    with pytest.raises(ChatMigrated):
        await bot.edit_message_text("x", chat_id=group["id"], message_id=sent.message_id)
    with pytest.raises(ChatMigrated):
        await bot.get_chat(group["id"])
    raw = await client.post("/bot123:abc/sendMessage", json={"chat_id": group["id"], "text": "x"})
    assert raw.json() == {
        "ok": False,
        "error_code": 400,
        "description": "Bad Request: group chat was migrated to a supergroup chat",
        "parameters": {"migrate_to_chat_id": new["id"]},
    }
    farewell, welcome = [u.message for u in await _drain(bot)]
    assert farewell is not None and farewell.chat.id == group["id"] and farewell.migrate_to_chat_id == new["id"]
    assert welcome is not None and welcome.chat.id == new["id"] and welcome.migrate_from_chat_id == group["id"]
    assert (await bot.send_message(new["id"], "این‌جا")).chat.type == "supergroup"
    # users can no longer write in the old group; its history stays under the old id
    refused = await _post(client, "/sandbox/messages", {"chat_id": group["id"], "from_id": member["id"], "text": "?"})
    assert refused.status_code == 400
    assert any(m["text"] == "تخته" for m in await world.messages(group["id"]))
    again = await _post(client, f"/sandbox/chats/{group['id']}/migrate", {})
    assert again.status_code == 400


async def test_a_migration_can_be_kept_from_the_bot_to_be_noticed_by_a_refused_send(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    owner = await world.user("O")
    group = await world.group("G", [], creator=owner["id"], type="group")
    await _drain(bot)
    await _post(client, f"/sandbox/chats/{group['id']}/migrate", {"service_messages": False})
    assert await _drain(bot) == []
    with pytest.raises(ChatMigrated):
        await bot.send_message(group["id"], "x")


async def test_only_basic_groups_migrate(world: Any, client: httpx.AsyncClient) -> None:
    owner = await world.user("O")
    supergroup = await world.group("S", [], creator=owner["id"])
    assert (await _post(client, f"/sandbox/chats/{supergroup['id']}/migrate", {})).status_code == 400


@pytest.mark.parametrize(
    ("kind", "status", "text"),
    [
        ("supergroup", "left", "Forbidden: bot is not a member of the supergroup chat"),
        ("supergroup", "kicked", "Forbidden: bot was kicked from the supergroup chat"),
        ("group", "kicked", "Forbidden: bot was kicked from the group chat"),
        ("group", "left", "Forbidden: bot is not a member of the group chat"),
    ],
)
async def test_a_bot_removed_from_a_group_is_told_so_by_every_call(
    bot: Bot, world: Any, client: httpx.AsyncClient, kind: str, status: str, text: str, make_png: Callable[..., bytes]
) -> None:
    owner, member = await world.user("O"), await world.user("M")
    group = await world.group("G", [member], creator=owner["id"], type=kind)
    board = await bot.send_photo(group["id"], make_png(4, 4))
    await _drain(bot)
    await _post(client, f"/sandbox/chats/{group['id']}/bot", {"status": status})
    [update] = await _drain(bot)
    change = update.my_chat_member
    assert change is not None and change.from_user.id == owner["id"]
    assert change.old_chat_member.status == ChatMemberStatus.MEMBER
    assert change.new_chat_member.status == status
    for call in (
        bot.send_message(group["id"], "x"),
        bot.send_photo(group["id"], make_png(4, 4)),
        bot.edit_message_media(InputMediaPhoto(make_png(5, 5)), chat_id=group["id"], message_id=board.message_id),
        bot.get_chat(group["id"]),
    ):
        with pytest.raises(Forbidden) as caught:
            await call
        assert caught.value.message == text
    # nothing said or pressed there reaches the bot any more
    await world.say(group["id"], member, "/new")
    assert await _drain(bot) == []
    # added again: a fresh my_chat_member, and the bot may write again
    await _post(client, f"/sandbox/chats/{group['id']}/bot", {"status": "member"})
    [update] = await _drain(bot)
    assert update.my_chat_member is not None and update.my_chat_member.new_chat_member.status == "member"
    assert (await bot.send_message(group["id"], "سلام دوباره")).chat.id == group["id"]


async def test_a_restricted_bot_may_not_send_but_may_edit(
    bot: Bot, world: Any, client: httpx.AsyncClient, make_png: Callable[..., bytes]
) -> None:
    owner = await world.user("O")
    group = await world.group("G", [], creator=owner["id"])
    board = await bot.send_photo(group["id"], make_png(4, 4))
    await _drain(bot)
    await _post(client, f"/sandbox/chats/{group['id']}/bot", {"status": "restricted"})
    [update] = await _drain(bot)
    restricted = update.my_chat_member.new_chat_member if update.my_chat_member else None
    assert restricted is not None and restricted.status == "restricted"
    assert restricted.can_send_messages is False  # type: ignore[attr-defined]
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send text messages to the chat"):
        await bot.send_message(group["id"], "x")
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send photos to the chat"):
        await bot.send_photo(group["id"], make_png(4, 4))
    await bot.edit_message_caption(chat_id=group["id"], message_id=board.message_id, caption="هنوز")


async def test_a_user_who_blocks_the_bot_sends_my_chat_member(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await world.user("Ali")
    await world.say(ali["id"], ali, "/start")
    await _drain(bot)
    await _post(client, f"/sandbox/users/{ali['id']}/block", {"blocked": True})
    [update] = await _drain(bot)
    assert update.my_chat_member is not None and update.my_chat_member.chat.id == ali["id"]
    assert update.my_chat_member.new_chat_member.status == ChatMemberStatus.BANNED
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(ali["id"], "x")
    await _post(client, f"/sandbox/users/{ali['id']}/block", {"blocked": False})
    [update] = await _drain(bot)
    assert update.my_chat_member is not None and update.my_chat_member.new_chat_member.status == "member"


async def test_messages_on_behalf_of_the_group_or_a_channel(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    admin, member = await world.user("A"), await world.user("M")
    await _post(client, "/sandbox/bot/privacy", {"enabled": False})  # the channel post is plain text
    try:
        group = await world.group("G", [member], admins=[admin])
    finally:
        await _post(client, "/sandbox/bot/privacy", {"enabled": True})
    channel = await world.group("کانال", [member], creator=admin["id"], type="channel")
    await _drain(bot)
    await world.say(group["id"], admin, "/settings", sender_chat_id=group["id"])
    await world.say(group["id"], admin, "/new", sender_chat_id=channel["id"])
    await world.say(group["id"], admin, "پست کانال", sender_chat_id=channel["id"], automatic_forward=True)
    anonymous, as_channel, forwarded = [u.message for u in await _drain(bot)]
    assert anonymous is not None and anonymous.sender_chat is not None and anonymous.sender_chat.id == group["id"]
    assert anonymous.from_user is not None and anonymous.from_user.id == 1087968824
    assert anonymous.from_user.username == "GroupAnonymousBot"
    assert as_channel is not None and as_channel.sender_chat is not None and as_channel.sender_chat.type == "channel"
    assert as_channel.from_user is not None and as_channel.from_user.id == 136817688
    assert forwarded is not None and forwarded.is_automatic_forward and forwarded.forward_origin is not None
    assert forwarded.from_user is not None and forwarded.from_user.id == 777000
    as_group = {"chat_id": group["id"], "from_id": member["id"], "text": "x", "sender_chat_id": group["id"]}
    refused = await _post(client, "/sandbox/messages", as_group)
    assert refused.status_code == 400  # only admins write as the group
    with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the channel chat"):
        await bot.send_message(channel["id"], "x")


async def test_users_delete_messages_and_replies_to_them_need_allow_sending_without_reply(
    bot: Bot, world: Any, client: httpx.AsyncClient, make_png: Callable[..., bytes]
) -> None:
    admin, member, other = await world.user("A"), await world.user("M"), await world.user("X")
    group = await world.group("G", [member, other], admins=[admin])
    command = await world.say(group["id"], member, "/stats")
    board = await bot.send_photo(group["id"], make_png(4, 4))
    path = f"/sandbox/chats/{group['id']}/messages"
    assert (await _post(client, f"{path}/{command['message_id']}/delete", {"by": other["id"]})).status_code == 400
    assert (await _post(client, f"{path}/{command['message_id']}/delete", {"by": member["id"]})).status_code == 200
    assert (await _post(client, f"{path}/{board.message_id}/delete", {"by": admin["id"]})).status_code == 200
    with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
        await bot.send_message(group["id"], "پاسخ", reply_to_message_id=command["message_id"])
    sent = await bot.send_message(
        group["id"], "پاسخ", reply_to_message_id=command["message_id"], allow_sending_without_reply=True
    )
    assert sent.reply_to_message is None
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_caption(chat_id=group["id"], message_id=board.message_id, caption="x")


async def test_member_lookups_need_admin_rights(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    owner, talker, quiet = await world.user("O"), await world.user("T"), await world.user("Q")
    plain = await world.group("G", [talker, quiet], creator=owner["id"])
    await world.say(plain["id"], talker, "سلام")
    for user in (quiet, talker, owner):  # stricter than Telegram, which may answer for a user it just heard from
        with pytest.raises(BadRequest, match=r"(?i)member list is inaccessible"):
            await bot.get_chat_member(plain["id"], user["id"])
    assert (await bot.get_chat_member(plain["id"], 100000)).status == ChatMemberStatus.MEMBER  # itself
    assert [m.user.id for m in await bot.get_chat_administrators(plain["id"])] == [owner["id"]]
    promoted = await world.group("H", [talker, quiet], creator=owner["id"], bot_admin=True)
    assert (await bot.get_chat_member(promoted["id"], quiet["id"])).status == ChatMemberStatus.MEMBER
    assert (await bot.get_chat_member(promoted["id"], 100000)).status == ChatMemberStatus.ADMINISTRATOR


async def test_a_change_can_be_kept_from_the_bot_to_be_noticed_by_a_refused_send(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    owner = await world.user("O")
    group = await world.group("G", [], creator=owner["id"])
    await _drain(bot)
    await _post(client, f"/sandbox/chats/{group['id']}/bot", {"status": "restricted", "notify": False})
    assert await _drain(bot) == []
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to send text messages"):
        await bot.send_message(group["id"], "x")
