"""Renders world objects as Bot API JSON, with every field PTB requires to parse them."""

from __future__ import annotations

import zlib
from typing import Any

from sandbox.state import (
    ANONYMOUS_ADMIN_ID,
    BOT_FIRST_NAME,
    BOT_ID,
    BOT_USERNAME,
    CHANNEL_BOT_ID,
    TELEGRAM_ID,
    Chat,
    Message,
    User,
    World,
)

# The fake users Telegram puts in ``from`` when a message is sent on behalf of a chat.
FAKE_SENDERS: dict[int, dict[str, Any]] = {
    ANONYMOUS_ADMIN_ID: {
        "id": ANONYMOUS_ADMIN_ID,
        "is_bot": True,
        "first_name": "Group",
        "username": "GroupAnonymousBot",
    },
    CHANNEL_BOT_ID: {"id": CHANNEL_BOT_ID, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"},
    TELEGRAM_ID: {"id": TELEGRAM_ID, "is_bot": False, "first_name": "Telegram"},
}


def bot_user() -> dict[str, Any]:
    return {"id": BOT_ID, "is_bot": True, "first_name": BOT_FIRST_NAME, "username": BOT_USERNAME}


def get_me(privacy: bool = True) -> dict[str, Any]:
    return {
        **bot_user(),
        "can_join_groups": True,
        "can_read_all_group_messages": not privacy,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def user_json(user: User) -> dict[str, Any]:
    data: dict[str, Any] = {"id": user.id, "is_bot": user.is_bot, "first_name": user.first_name}
    if user.last_name:
        data["last_name"] = user.last_name
    if user.username:
        data["username"] = user.username
    if not user.is_bot:
        data["language_code"] = "fa"
    return data


def sender_json(world: World, user_id: int) -> dict[str, Any]:
    user = world.users.get(user_id)
    if user is None:
        if user_id in FAKE_SENDERS:
            return dict(FAKE_SENDERS[user_id])
        return bot_user() if user_id == BOT_ID else {"id": user_id, "is_bot": False, "first_name": "Deleted"}
    return user_json(user)


def chat_json(world: World, chat: Chat) -> dict[str, Any]:
    if chat.is_private:
        user = world.users.get(chat.id)
        first_name = user.first_name if user else ""
        data: dict[str, Any] = {"id": chat.id, "type": "private", "first_name": first_name}
        if user is not None and user.last_name:
            data["last_name"] = user.last_name
        if user is not None and user.username:
            data["username"] = user.username
        return data
    data = {"id": chat.id, "type": chat.type, "title": chat.title}
    if chat.username:
        data["username"] = chat.username
    if chat.is_forum:
        data["is_forum"] = True
    return data


def chat_full_info(world: World, chat: Chat) -> dict[str, Any]:
    """getChat's ChatFullInfo; PTB 22 insists on the colour, reaction and gift fields."""
    data = chat_json(world, chat)
    data.update(
        accent_color_id=0,
        max_reaction_count=11,
        accepted_gift_types={
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    )
    if not chat.is_private:
        data["permissions"] = {"can_send_messages": True}
    return data


def chat_instance(chat_id: int) -> str:
    """A stable opaque identifier per chat, as callback queries carry."""
    return str(zlib.crc32(str(chat_id).encode()) * 7919 + 1_000_000_000_000)


def message_json(world: World, message: Message, with_reply: bool = True) -> dict[str, Any]:
    chat = world.chats[message.chat_id]
    data: dict[str, Any] = {
        "message_id": message.message_id,
        "from": sender_json(world, message.from_id),
        "chat": chat_json(world, chat),
        "date": message.date,
    }
    sender_chat = world.chats.get(message.sender_chat_id) if message.sender_chat_id is not None else None
    if sender_chat is not None:
        data["sender_chat"] = chat_json(world, sender_chat)
    if message.is_automatic_forward and sender_chat is not None:
        data["is_automatic_forward"] = True
        origin = {"type": "channel", "chat": chat_json(world, sender_chat), "message_id": message.message_id}
        data["forward_origin"] = {**origin, "date": message.date}
    data.update(message.service)
    if message.message_thread_id is not None:
        data["message_thread_id"] = message.message_thread_id
    if message.is_topic:
        data["is_topic_message"] = True
    reply_to = chat.messages.get(message.reply_to_message_id) if message.reply_to_message_id else None
    if with_reply and reply_to is not None and not reply_to.deleted:
        data["reply_to_message"] = message_json(world, reply_to, with_reply=False)
    if message.edit_date is not None:
        data["edit_date"] = message.edit_date
    if message.text is not None:
        data["text"] = message.text.text
        if message.text.entities:
            data["entities"] = message.text.entities
    if message.photo_file_id is not None:
        stored = world.files[message.photo_file_id]
        data["photo"] = [
            {
                "file_id": stored.file_id,
                "file_unique_id": stored.file_unique_id,
                "width": stored.info.width,
                "height": stored.info.height,
                "file_size": len(stored.data),
            }
        ]
    if message.caption is not None and message.caption.text:
        data["caption"] = message.caption.text
        if message.caption.entities:
            data["caption_entities"] = message.caption.entities
    if message.reply_markup is not None:
        data["reply_markup"] = message.reply_markup
    return data


def chat_member_json(world: World, chat: Chat, user_id: int) -> dict[str, Any]:
    return member_status_json(world, chat, user_id, chat.status_of(user_id))


# ChatMemberRestricted's rights; the sandbox restricts only the right to send (a muted bot or user).
_RESTRICTED_RIGHTS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
    "can_react_to_messages",
)


def member_status_json(world: World, chat: Chat, user_id: int, status: str) -> dict[str, Any]:
    """A ChatMember of ``status`` with the fields PTB insists on for that kind."""
    data: dict[str, Any] = {"status": status, "user": sender_json(world, user_id)}
    if status == "restricted":
        data.update(is_member=True, until_date=0, **dict.fromkeys(_RESTRICTED_RIGHTS, False))
    elif status == "kicked":
        data["until_date"] = 0
    elif status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(
            can_be_edited=False,
            is_anonymous=False,
            can_manage_chat=True,
            can_delete_messages=True,
            can_manage_video_chats=True,
            can_restrict_members=True,
            can_promote_members=False,
            can_change_info=True,
            can_invite_users=True,
            can_post_stories=False,
            can_edit_stories=False,
            can_delete_stories=False,
            can_pin_messages=True,
            can_manage_topics=chat.is_forum,
        )
    return data
