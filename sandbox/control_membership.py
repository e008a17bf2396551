"""Control routes for what users do to the bot's standing and to messages: remove, mute or promote the bot,
upgrade a basic group to a supergroup, delete a message (``sandbox/membership.py`` has the rules)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sandbox.control import ControlError, _body, _int, _json_route, _optional_int, _sandbox, _user
from sandbox.engine import Sandbox
from sandbox.membership import MembershipError, delete_message, migrate, set_bot_status
from sandbox.state import BOT_STATUSES, Chat, User
from sandbox.views import chat_view, message_view


def _group(sandbox: Sandbox, request: web.Request) -> Chat:
    try:
        chat = sandbox.world.chats.get(int(request.match_info["chat_id"]))
    except ValueError:
        chat = None
    if chat is None or chat.is_private or chat.type == "channel":
        raise ControlError("group not found", 404)
    return chat


def _actor(sandbox: Sandbox, chat: Chat, body: dict[str, Any]) -> User:
    """Who does it: ``by``, else the group's creator or first admin; they must be allowed to."""
    by = _optional_int(body, "by")
    if by is None:
        by = chat.creator if chat.creator is not None else next(iter(chat.admins), None)
    if by is None:
        raise ControlError("by must name a user (the group has no creator or admin)")
    user = _user(sandbox, by)
    if chat.status_of(user.id) not in ("creator", "administrator"):
        raise ControlError(f"user {user.id} is not an admin of chat {chat.id}")
    return user


@_json_route
async def bot_status(request: web.Request) -> Any:
    """``{status, by?, notify?=true}``: the bot becomes an administrator, a member, restricted (no right to send),
    left (removed) or kicked (removed and banned); the bot gets ``my_chat_member``. ``notify: false`` (tests
    only) keeps that update from the bot, so that it first hears of the change from a refused call."""
    sandbox = _sandbox(request)
    chat = _group(sandbox, request)
    body = await _body(request)
    status = body.get("status")
    if status not in BOT_STATUSES:
        raise ControlError(f"status must be one of {', '.join(BOT_STATUSES)}")
    if chat.migrated_to is not None:
        raise ControlError(f"chat {chat.id} was migrated to the supergroup {chat.migrated_to}")
    notify = body.get("notify", True)
    if not isinstance(notify, bool):
        raise ControlError("notify must be a boolean")
    set_bot_status(sandbox, chat, status, _actor(sandbox, chat, body), notify)
    sandbox.touch()
    return {**chat_view(sandbox.world, chat), "bot_status": chat.bot_status}


@_json_route
async def migrate_group(request: web.Request) -> Any:
    """``{by?, service_messages?=true}``: a basic group becomes a supergroup; the new chat is returned.
    ``service_messages: false`` (tests only) keeps the two service messages from the bot, so that it first
    hears of the migration from a refused call."""
    sandbox = _sandbox(request)
    chat = _group(sandbox, request)
    body = await _body(request)
    service_messages = body.get("service_messages", True)
    if not isinstance(service_messages, bool):
        raise ControlError("service_messages must be a boolean")
    try:
        new = migrate(sandbox, chat, _actor(sandbox, chat, body), service_messages)
    except MembershipError as error:
        raise ControlError(str(error)) from None
    return chat_view(sandbox.world, new)


@_json_route
async def delete_user_message(request: web.Request) -> Any:
    """``{by}``: a user deletes a message (their own; an admin anyone's); the bot is not told, as in Telegram."""
    sandbox = _sandbox(request)
    body = await _body(request)
    try:
        chat_id, message_id = int(request.match_info["chat_id"]), int(request.match_info["message_id"])
    except ValueError:
        raise ControlError("message not found", 404) from None
    chat = sandbox.world.chats.get(chat_id)
    message = chat.live_message(message_id) if chat is not None else None
    if chat is None or message is None:
        raise ControlError("message not found", 404)
    try:
        delete_message(chat, message, _user(sandbox, _int(body, "by")))
    except MembershipError as error:
        raise ControlError(str(error)) from None
    sandbox.touch()
    return message_view(sandbox.world, message)


def setup(app: web.Application) -> None:
    router = app.router
    router.add_post("/sandbox/chats/{chat_id}/bot", bot_status)
    router.add_post("/sandbox/chats/{chat_id}/migrate", migrate_group)
    router.add_post("/sandbox/chats/{chat_id}/messages/{message_id}/delete", delete_user_message)
