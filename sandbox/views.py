"""The control API's JSON shapes for users, chats and messages (a contract for outside tools)."""

from __future__ import annotations

from typing import Any

from sandbox.state import BOT_FIRST_NAME, Chat, Message, Topic, User, World


def user_view(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "is_bot": user.is_bot,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "username": user.username,
        "started": user.started,
        "blocked": user.blocked,
    }


def chat_view(world: World, chat: Chat) -> dict[str, Any]:
    title = chat.title
    if chat.is_private:
        user = world.users.get(chat.id)
        title = user.full_name if user else str(chat.id)
    return {
        "id": chat.id,
        "type": chat.type,
        "title": title,
        "is_forum": chat.is_forum,
        "members": list(chat.members),
        "admins": list(chat.admins),
        "creator": chat.creator,
        "bot_status": None if chat.is_private else chat.bot_status,
        "migrated_to": chat.migrated_to,
        "username": None if chat.is_private else chat.username,
        "topics": [topic_view(chat, topic) for topic in chat.topics.values()],
    }


def topic_view(chat: Chat, topic: Topic) -> dict[str, Any]:
    return {"chat_id": chat.id, "message_thread_id": topic.thread_id, "name": topic.name, "closed": topic.closed}


def buttons_view(message: Message) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = []
    for row in (message.reply_markup or {}).get("inline_keyboard", []):
        view_row: list[dict[str, Any]] = []
        for button in row:
            if "callback_data" in button:
                view_row.append({"text": button["text"], "data": button["callback_data"]})
            elif "url" in button:
                view_row.append({"text": button["text"], "url": button["url"]})
            elif "web_app" in button:
                view_row.append({"text": button["text"], "kind": "web_app", "web_app": button["web_app"]["url"]})
            else:
                kind = next(key for key in button if key != "text")
                view_row.append({"text": button["text"], "kind": kind})
        rows.append(view_row)
    return rows


def message_view(world: World, message: Message) -> dict[str, Any]:
    sender = world.users.get(message.from_id)
    from_name = sender.full_name if sender else BOT_FIRST_NAME if message.from_bot else str(message.from_id)
    text, caption = message.text, message.caption
    html = (text.html if text else None) or (caption.html if caption else None)
    return {
        "message_id": message.message_id,
        "chat_id": message.chat_id,
        "from_id": message.from_id,
        "from_bot": message.from_bot,
        "from_name": from_name,
        "date": message.date,
        "text": text.text if text else None,
        "entities": text.entities if text else [],
        "caption": caption.text if caption and caption.text else None,
        "caption_entities": caption.entities if caption else [],
        "html": html,
        "photo": f"/sandbox/files/{message.photo_file_id}" if message.photo_file_id else None,
        "buttons": buttons_view(message),
        "edits": message.edits,
        "edit_date": message.edit_date,
        "deleted": message.deleted,
        "message_thread_id": message.message_thread_id,
        "is_topic_message": message.is_topic,
        "reply_to_message_id": message.reply_to_message_id,
        "sender_chat_id": message.sender_chat_id,
        "service": dict(message.service),
    }
