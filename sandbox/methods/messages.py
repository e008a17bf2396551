"""Sending, editing and deleting the bot's messages, and answering button presses."""

from __future__ import annotations

import time
from typing import Any

from sandbox import topics
from sandbox.engine import Sandbox
from sandbox.errors import NOT_MODIFIED, QUERY_TOO_OLD, bad_request
from sandbox.formatting import FormattedText, UserLookup, format_text, utf16_len
from sandbox.images import read_image_info
from sandbox.keyboards import parse_reply_markup
from sandbox.membership import check_can_send
from sandbox.methods.common import Call, Handler, find_chat, required_message_id, writable_chat
from sandbox.params import Params
from sandbox.state import BOT_ID, Chat, Message, StoredFile
from sandbox.telegram_json import message_json, user_json

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_ANSWER_TEXT = 200
DELETE_WITHIN = 48 * 3600  # Telegram seconds after which a bot may no longer delete a message
UNDELETABLE_SERVICE = frozenset({"supergroup_chat_created", "channel_chat_created", "forum_topic_created"})


def _lookup_user(sandbox: Sandbox) -> UserLookup:
    def lookup(user_id: int) -> dict[str, Any] | None:
        user = sandbox.world.users.get(user_id)
        return user_json(user) if user is not None else None

    return lookup


def _message_text(sandbox: Sandbox, params: Params) -> FormattedText:
    raw = params.get_str("text")
    if not raw:
        raise bad_request("message text is empty")
    text = format_text(raw, params.get_str("parse_mode"), params.get_list("entities"), _lookup_user(sandbox))
    if not text.text.strip():
        raise bad_request("message text is empty")
    if utf16_len(text.text) > MAX_TEXT:
        raise bad_request("message is too long")
    return text


def _caption(
    sandbox: Sandbox, raw: str | None, parse_mode: str | None, entities: list[Any] | None
) -> FormattedText | None:
    if not raw:
        return None
    caption = format_text(raw, parse_mode, entities, _lookup_user(sandbox))
    if utf16_len(caption.text) > MAX_CAPTION:
        raise bad_request("message caption is too long")
    return caption


def _reply_target(chat: Chat, params: Params) -> Message | None:
    reply_parameters = params.get_obj("reply_parameters") or {}
    message_id = params.get_int("reply_to_message_id")
    allow_missing = params.get_bool("allow_sending_without_reply")
    if reply_parameters:
        if reply_parameters.get("chat_id") not in (None, chat.id):
            return None
        message_id = int(reply_parameters.get("message_id", 0)) or None
        allow_missing = bool(reply_parameters.get("allow_sending_without_reply", allow_missing))
    if message_id is None:
        return None
    target = chat.live_message(message_id)
    if target is None and not allow_missing:
        raise bad_request("message to be replied not found")
    return target


def _stored_photo(sandbox: Sandbox, params: Params, value: Any, part_name: str) -> StoredFile:
    """Resolve an uploaded part, an ``attach://`` reference or an existing file_id."""
    world = sandbox.world
    if value is None or value == "":
        if part_name not in params.files:
            raise bad_request("there is no photo in the request")
        reference = part_name
    elif isinstance(value, str) and value.startswith("attach://"):
        reference = value
        part_name = value.removeprefix("attach://")
        if part_name not in params.files:
            raise bad_request(f'can\'t find attached file "{part_name}"')
    elif isinstance(value, str) and value in world.files:
        params.resolved_files[value] = value
        return world.files[value]
    else:
        raise bad_request("wrong file identifier/HTTP URL specified")
    upload = params.files[part_name]
    try:
        info = read_image_info(upload.data)
    except ValueError:
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    stored = world.store_file(upload.data, info)
    params.resolved_files[reference] = stored.file_id
    return stored


def _deliver(sandbox: Sandbox, call: Call, chat: Chat, **fields: Any) -> dict[str, Any]:
    """Common tail of the send methods: reply/thread/markup, the flood check, storing."""
    params = call.params
    markup = parse_reply_markup(params.get_obj("reply_markup"), chat.is_private)
    reply_to = _reply_target(chat, params)
    where = topics.place(chat, params.get_int("message_thread_id"), reply_to, may_post_closed=False)
    sandbox.limiter.check_send(chat.id, chat.is_private)
    message = sandbox.world.add_message(
        chat,
        BOT_ID,
        reply_markup=markup,
        message_thread_id=where.thread_id,
        is_topic=where.is_topic,
        reply_to_message_id=where.reply_to_message_id,
        **fields,
    )
    call.message_id = message.message_id
    return message_json(sandbox.world, message)


async def send_message(sandbox: Sandbox, call: Call) -> Any:
    chat = writable_chat(sandbox, call)
    check_can_send(chat, "text messages")
    text = _message_text(sandbox, call.params)
    return _deliver(sandbox, call, chat, text=text)


async def send_photo(sandbox: Sandbox, call: Call) -> Any:
    chat = writable_chat(sandbox, call)
    check_can_send(chat, "photos")
    params = call.params
    caption = _caption(
        sandbox, params.get_str("caption"), params.get_str("parse_mode"), params.get_list("caption_entities")
    )
    stored = _stored_photo(sandbox, params, params.values.get("photo"), "photo")
    return _deliver(sandbox, call, chat, photo_file_id=stored.file_id, caption=caption)


def _editable(sandbox: Sandbox, call: Call) -> tuple[Chat, Message]:
    if call.params.has("inline_message_id"):
        raise bad_request("inline messages are not supported by the sandbox")
    chat = writable_chat(sandbox, call)
    message = chat.live_message(required_message_id(call))
    if message is None:
        raise bad_request("message to edit not found")
    if not message.from_bot:
        raise bad_request("message can't be edited")
    return chat, message


def _apply_edit(sandbox: Sandbox, chat: Chat, message: Message, unchanged: bool, **changes: Any) -> Any:
    if unchanged:
        raise bad_request(NOT_MODIFIED)
    sandbox.limiter.check_edit(chat.id)
    for name, value in changes.items():
        setattr(message, name, value)
    message.edits += 1
    message.edit_date = max(message.date, int(time.time()))
    return message_json(sandbox.world, message)


async def edit_message_text(sandbox: Sandbox, call: Call) -> Any:
    chat, message = _editable(sandbox, call)
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    text = _message_text(sandbox, call.params)
    markup = parse_reply_markup(call.params.get_obj("reply_markup"), chat.is_private)
    unchanged = text.same_content(message.text) and markup == message.reply_markup
    return _apply_edit(sandbox, chat, message, unchanged, text=text, reply_markup=markup)


async def edit_message_caption(sandbox: Sandbox, call: Call) -> Any:
    chat, message = _editable(sandbox, call)
    if message.photo_file_id is None:
        raise bad_request("there is no caption in the message to edit")
    params = call.params
    caption = _caption(
        sandbox, params.get_str("caption"), params.get_str("parse_mode"), params.get_list("caption_entities")
    )
    markup = parse_reply_markup(params.get_obj("reply_markup"), chat.is_private)
    unchanged = _same_caption(caption, message.caption) and markup == message.reply_markup
    return _apply_edit(sandbox, chat, message, unchanged, caption=caption, reply_markup=markup)


async def edit_message_media(sandbox: Sandbox, call: Call) -> Any:
    chat, message = _editable(sandbox, call)
    if message.photo_file_id is None:
        raise bad_request("there is no media in the message to edit")
    params = call.params
    media = params.get_obj("media")
    if media is None:
        raise bad_request("media is empty")
    if media.get("type") != "photo":
        raise bad_request(f"the sandbox can only edit photos, not {media.get('type')!r}")
    entities = media.get("caption_entities")
    entities = entities if isinstance(entities, list) else None
    caption = _caption(sandbox, media.get("caption"), media.get("parse_mode"), entities)
    stored = _stored_photo(sandbox, params, media.get("media"), "media")
    markup = parse_reply_markup(params.get_obj("reply_markup"), chat.is_private)
    unchanged = (
        stored.file_id == message.photo_file_id
        and _same_caption(caption, message.caption)
        and markup == message.reply_markup
    )
    return _apply_edit(
        sandbox, chat, message, unchanged, photo_file_id=stored.file_id, caption=caption, reply_markup=markup
    )


async def edit_message_reply_markup(sandbox: Sandbox, call: Call) -> Any:
    chat, message = _editable(sandbox, call)
    markup = parse_reply_markup(call.params.get_obj("reply_markup"), chat.is_private)
    return _apply_edit(sandbox, chat, message, markup == message.reply_markup, reply_markup=markup)


def _same_caption(new: FormattedText | None, old: FormattedText | None) -> bool:
    if new is None or old is None:
        return (new is None or not new.text) and (old is None or not old.text)
    return new.same_content(old)


def _deletable(sandbox: Sandbox, chat: Chat, message: Message) -> bool:
    """What the Bot API lets a bot delete (deleteMessage): a message sent less than 48 hours ago, not the
    service message that created a supergroup, a channel or a forum topic; its own messages anywhere, the user's
    in a private chat, and anyone's in a group where it is an administrator (the sandbox's admins have every
    right, can_delete_messages among them)."""
    age = (time.time() - message.date) / sandbox.clock.scale  # Telegram seconds, as the rest of the clock
    if age >= DELETE_WITHIN or UNDELETABLE_SERVICE & message.service.keys():
        return False
    return chat.is_private or message.from_bot or chat.bot_status == "administrator"


async def delete_message(sandbox: Sandbox, call: Call) -> Any:
    chat = find_chat(sandbox, call)
    message = chat.live_message(required_message_id(call))
    if message is None:
        raise bad_request("message to delete not found")
    if not _deletable(sandbox, chat, message):
        raise bad_request("message can't be deleted")
    message.deleted = True
    return True


async def delete_messages(sandbox: Sandbox, call: Call) -> Any:
    """Messages that cannot be found or deleted are skipped (Bot API: "If some of the specified messages can't
    be found, they are skipped")."""
    chat = find_chat(sandbox, call)
    ids = call.params.get_list("message_ids")
    if not ids:
        raise bad_request("message identifiers are not specified")
    for message_id in ids:
        message = chat.live_message(int(message_id))
        if message is not None and _deletable(sandbox, chat, message):
            message.deleted = True
    return True


async def answer_callback_query(sandbox: Sandbox, call: Call) -> Any:
    params = call.params
    record = sandbox.queries.get(params.get_str("callback_query_id") or "")
    if record is not None and not record.answered and record.late is None and sandbox.query_expired(record):
        record.late = {"text": params.get_str("text") or None, "show_alert": params.get_bool("show_alert")}
        record.done.set()  # for a press that waits to see what a late answer would have said
    if record is None or record.answered or sandbox.query_expired(record):
        raise bad_request(QUERY_TOO_OLD)
    text = params.get_str("text")
    if text is not None and utf16_len(text) > MAX_ANSWER_TEXT:
        raise bad_request("MESSAGE_TOO_LONG")
    call.chat_id, call.message_id = record.chat_id, record.message_id
    record.answered = True
    record.text = text or None
    record.show_alert = params.get_bool("show_alert")
    record.url = params.get_str("url")
    record.done.set()
    return True


async def send_chat_action(sandbox: Sandbox, call: Call) -> Any:
    writable_chat(sandbox, call)
    if not call.params.has("action"):
        raise bad_request("action is empty")
    return True


HANDLERS: dict[str, Handler] = {
    "sendMessage": send_message,
    "sendPhoto": send_photo,
    "editMessageText": edit_message_text,
    "editMessageCaption": edit_message_caption,
    "editMessageMedia": edit_message_media,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "deleteMessages": delete_messages,
    "answerCallbackQuery": answer_callback_query,
    "sendChatAction": send_chat_action,
}
