"""The control API: JSON routes under ``/sandbox`` that play the users and inspect what the bot did."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from sandbox import topics
from sandbox.appkey import SANDBOX
from sandbox.clock import TelegramClock
from sandbox.engine import QUERY_ANSWER_SECONDS, Sandbox
from sandbox.errors import ApiError
from sandbox.formatting import FormattedText, command_entities, utf16_len
from sandbox.membership import MembershipError, sender, set_blocked
from sandbox.privacy import reaches_bot
from sandbox.state import BOT_ID, Chat, Message, User
from sandbox.telegram_json import bot_user, chat_instance, chat_json, member_status_json, message_json, user_json
from sandbox.views import chat_view, message_view, topic_view, user_view
from sandbox.webapps import COMMANDS_BUTTON

_json_dumps = functools.partial(json.dumps, ensure_ascii=False)
_WEBCHAT = Path(__file__).with_name("webchat.html")
MAX_WAIT = 300.0
MAX_FORGED_DATA = 4096  # characters of callback data press_forged takes: far over Telegram's 64 bytes
USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{4,31}")  # Telegram's public usernames: 5-32 characters


class ControlError(Exception):
    """A rejected control request, answered as ``{"ok": false, "error": ...}``."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


Route = Callable[[web.Request], Awaitable[Any]]


def _json_route(route: Route) -> Callable[[web.Request], Awaitable[web.Response]]:
    """Let routes return plain data or raise ControlError; every reply is JSON."""

    @functools.wraps(route)
    async def wrapper(request: web.Request) -> web.Response:
        try:
            result = await route(request)
        except ControlError as error:
            body = {"ok": False, "error": str(error)}
            return web.json_response(body, status=error.status, dumps=_json_dumps)
        return web.json_response(result, dumps=_json_dumps)

    return wrapper


async def _body(request: web.Request) -> dict[str, Any]:
    if not request.can_read_body:
        return {}
    try:
        body = await request.json()
    except ValueError:
        raise ControlError("the body must be JSON") from None
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ControlError("the body must be a JSON object")
    return body


def _int(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ControlError(f"{key} must be an integer")
    try:
        return int(value)
    except ValueError:
        raise ControlError(f"{key} must be an integer") from None


def _optional_int(body: dict[str, Any], key: str) -> int | None:
    return _int(body, key) if body.get(key) is not None else None


def _str(body: dict[str, Any], key: str, required: bool = True) -> str | None:
    value = body.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        raise ControlError(f"{key} must be a non-empty string")
    return value


def _number(body: dict[str, Any], key: str, default: float) -> float:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ControlError(f"{key} must be a number")
    return min(MAX_WAIT, max(0.0, float(value)))


def _sandbox(request: web.Request) -> Sandbox:
    return request.app[SANDBOX]


def _user(sandbox: Sandbox, user_id: int) -> User:
    user = sandbox.world.users.get(user_id)
    if user is None:
        raise ControlError(f"user {user_id} not found")
    return user


def _user_ids(sandbox: Sandbox, body: dict[str, Any], key: str) -> list[int]:
    values = body.get(key) or []
    if not isinstance(values, list):
        raise ControlError(f"{key} must be a list of user ids")
    return [_user(sandbox, _int({key: value}, key)).id for value in values]


def _chat_for(sandbox: Sandbox, chat_id: int, user: User) -> Chat:
    """The chat a user acts in: their own private chat, or a group they belong to."""
    if chat_id > 0:
        if chat_id != user.id:
            raise ControlError("a user can only write in their own private chat with the bot")
        return sandbox.world.private_chat(user)
    chat = sandbox.world.chats.get(chat_id)
    if chat is None:
        raise ControlError(f"chat {chat_id} not found")
    if chat.migrated_to is not None:
        raise ControlError(f"chat {chat_id} was migrated to the supergroup {chat.migrated_to}")
    if chat.type == "channel":
        raise ControlError(f"chat {chat_id} is a channel: post as it with sender_chat_id in a group")
    if chat.status_of(user.id) == "left":
        raise ControlError(f"user {user.id} is not a member of chat {chat_id}")
    return chat


@_json_route
async def create_user(request: web.Request) -> Any:
    sandbox = _sandbox(request)
    body = await _body(request)
    is_bot = body.get("is_bot", False)
    if not isinstance(is_bot, bool):
        raise ControlError("is_bot must be a boolean")
    username = _str(body, "username", False)
    if is_bot and not (username or "").lower().endswith("bot"):
        raise ControlError("a bot's username must end in 'bot'")
    user = sandbox.world.add_user(_str(body, "first_name") or "", _str(body, "last_name", False), username, is_bot)
    sandbox.touch()
    return user_view(user)


@_json_route
async def list_users(request: web.Request) -> Any:
    return [user_view(user) for user in _sandbox(request).world.users.values()]


@_json_route
async def block_user(request: web.Request) -> Any:
    sandbox = _sandbox(request)
    body = await _body(request)
    try:
        user = _user(sandbox, int(request.match_info["user_id"]))
    except (ValueError, ControlError):
        raise ControlError("user not found", 404) from None
    blocked = body.get("blocked", True)
    if not isinstance(blocked, bool):
        raise ControlError("blocked must be a boolean")
    set_blocked(sandbox, user, blocked)
    sandbox.touch()
    return user_view(user)


@_json_route
async def create_chat(request: web.Request) -> Any:
    sandbox = _sandbox(request)
    body = await _body(request)
    title = _str(body, "title") or ""
    members = _user_ids(sandbox, body, "members")
    admins = _user_ids(sandbox, body, "admins")
    creator = _optional_int(body, "creator")
    if creator is not None:
        _user(sandbox, creator)
    is_forum = body.get("is_forum", False)
    if not isinstance(is_forum, bool):
        raise ControlError("is_forum must be a boolean")
    kind = body.get("type", "supergroup")
    if kind not in ("supergroup", "group", "channel") or (kind != "supergroup" and is_forum):
        raise ControlError("type must be supergroup, group or channel (only a supergroup can be a forum)")
    bot_admin = body.get("bot_admin", False)
    if not isinstance(bot_admin, bool):
        raise ControlError("bot_admin must be a boolean")
    username = _str(body, "username", False)
    if username is not None and (kind == "group" or not USERNAME.fullmatch(username)):
        raise ControlError("only a supergroup or a channel has a username: 5-32 letters, digits or _")
    bot_status = "left" if kind == "channel" else "administrator" if bot_admin else "member"
    chat = sandbox.world.add_group(
        title, members, admins, creator, is_forum, sandbox.profile.privacy, kind, bot_status, username
    )
    humans = [m for m in chat.members if not sandbox.world.users[m].is_bot]
    if humans and chat.bot_present:
        # Telegram tells the bot it was added, by whoever added it.
        actor = sandbox.world.users[humans[0]]
        payload = {
            "chat": chat_json(sandbox.world, chat),
            "from": user_json(actor),
            "date": int(time.time()),
            "old_chat_member": member_status_json(sandbox.world, chat, BOT_ID, "left"),
            "new_chat_member": member_status_json(sandbox.world, chat, BOT_ID, chat.bot_status),
        }
        sandbox.push_update("my_chat_member", payload, chat.id)
    sandbox.touch()
    return chat_view(sandbox.world, chat)


@_json_route
async def list_chats(request: web.Request) -> Any:
    world = _sandbox(request).world
    return [chat_view(world, chat) for chat in world.chats.values() if not chat.is_private or chat.messages]


@_json_route
async def chat_messages(request: web.Request) -> Any:
    world = _sandbox(request).world
    try:
        chat_id = int(request.match_info["chat_id"])
    except ValueError:
        raise ControlError("chat not found", 404) from None
    chat = world.chats.get(chat_id)
    if chat is None:
        if chat_id in world.users:
            return []  # a private chat nobody has written in yet
        raise ControlError("chat not found", 404)
    return [message_view(world, message) for message in chat.messages.values()]


@_json_route
async def post_message(request: web.Request) -> Any:
    sandbox = _sandbox(request)
    world = sandbox.world
    body = await _body(request)
    user = _user(sandbox, _int(body, "from_id"))
    text = _user_text(body)
    chat = _chat_for(sandbox, _int(body, "chat_id"), user)
    if chat.is_private and user.is_bot:
        raise ControlError("bots cannot write to bots")
    reply_to = None
    reply_to_id = _optional_int(body, "reply_to_message_id")
    if reply_to_id is not None:
        reply_to = chat.live_message(reply_to_id)
        if reply_to is None:
            raise ControlError(f"message {reply_to_id} not found in chat {chat.id}")
    thread = _optional_int(body, "message_thread_id")
    if thread is not None and not chat.is_forum:
        raise ControlError(f"chat {chat.id} has no topics")
    may_post_closed = chat.status_of(user.id) in ("creator", "administrator")
    where = _api_call(lambda: topics.place(chat, thread, reply_to, may_post_closed))
    from_id, sender_chat_id = _sender(sandbox, chat, user, body)
    if chat.is_private:
        user.started = True
    message = world.add_message(
        chat,
        from_id,
        text=FormattedText(text, command_entities(text)),
        message_thread_id=where.thread_id,
        is_topic=where.is_topic,
        reply_to_message_id=where.reply_to_message_id,
        sender_chat_id=sender_chat_id,
        is_automatic_forward=bool(body.get("automatic_forward")),
    )
    _deliver(sandbox, chat, message, "message")
    return message_view(world, message)


def _sender(sandbox: Sandbox, chat: Chat, user: User, body: dict[str, Any]) -> tuple[int, int | None]:
    """``from`` and ``sender_chat``: the user, or (``sender_chat_id``) the group or a channel they write as."""
    sender_chat_id = _optional_int(body, "sender_chat_id")
    sender_chat = None
    if sender_chat_id is not None:
        sender_chat = sandbox.world.chats.get(sender_chat_id)
        if sender_chat is None or chat.is_private:
            raise ControlError(f"chat {sender_chat_id} cannot be the sender here")
    try:
        return sender(chat, user, sender_chat, bool(body.get("automatic_forward")))
    except MembershipError as error:
        raise ControlError(str(error)) from None


def _user_text(body: dict[str, Any]) -> str:
    text = _str(body, "text") or ""
    if utf16_len(text) > 4096:
        raise ControlError("text is longer than 4096 characters")
    return text


def _api_call(call: Callable[[], Any]) -> Any:
    """Run a shared rule (sandbox.topics) that raises Telegram's error, as a control error with its text."""
    try:
        return call()
    except ApiError as error:
        raise ControlError(error.description) from None


def _deliver(sandbox: Sandbox, chat: Chat, message: Message, kind: str) -> None:
    """Hand a user's (new or edited) message to the bot if Telegram would: the bot is in the chat (a bot
    removed from a group hears nothing from it) and privacy mode lets it through (sandbox.privacy)."""
    if chat.bot_present and reaches_bot(sandbox.world, chat, message):
        sandbox.push_update(kind, message_json(sandbox.world, message), chat.id)
    else:
        sandbox.touch()


@_json_route
async def edit_message(request: web.Request) -> Any:
    """A user corrects their own message: Telegram sends the bot an ``edited_message`` (if it saw it)."""
    sandbox = _sandbox(request)
    body = await _body(request)
    user = _user(sandbox, _int(body, "from_id"))
    chat = _chat_for(sandbox, _int(body, "chat_id"), user)
    message_id = _int(body, "message_id")
    message = chat.live_message(message_id)
    if message is None or message.from_id != user.id or message.text is None:
        raise ControlError(f"user {user.id} has no text message {message_id} in chat {chat.id}")
    text = _user_text(body)
    if text == message.text.text:
        raise ControlError("message is not modified")
    message.text = FormattedText(text, command_entities(text))
    message.edits += 1
    message.edit_date = max(message.date, int(time.time()))
    _deliver(sandbox, chat, message, "edited_message")
    return message_view(sandbox.world, message)


@_json_route
async def create_topic(request: web.Request) -> Any:
    """A member opens a forum topic: its creation service message reaches the bot (service messages do)."""
    sandbox = _sandbox(request)
    body = await _body(request)
    user = _user(sandbox, _int(body, "from_id"))
    chat = _group(sandbox, request, user)
    topic, message = _api_call(lambda: topics.create(sandbox.world, chat, user.id, _str(body, "name") or ""))
    _deliver(sandbox, chat, message, "message")
    return topic_view(chat, topic)


@_json_route
async def change_topic(request: web.Request) -> Any:
    """The topic's creator or an admin closes (``closed: true``) or reopens it, with its service message."""
    sandbox = _sandbox(request)
    body = await _body(request)
    user = _user(sandbox, _int(body, "from_id"))
    chat = _group(sandbox, request, user)
    closed = body.get("closed")
    if not isinstance(closed, bool):
        raise ControlError("closed must be a boolean")
    try:
        thread_id = int(request.match_info["thread_id"])
    except ValueError:
        raise ControlError("topic not found", 404) from None
    topic = _api_call(lambda: topics.checked_topic(chat, thread_id))
    message = _api_call(lambda: topics.set_closed(sandbox.world, chat, topic, user.id, closed))
    _deliver(sandbox, chat, message, "message")
    return topic_view(chat, topic)


def _group(sandbox: Sandbox, request: web.Request, user: User) -> Chat:
    try:
        chat_id = int(request.match_info["chat_id"])
    except ValueError:
        raise ControlError("chat not found", 404) from None
    if chat_id > 0:
        raise ControlError("topics live in groups")
    return _chat_for(sandbox, chat_id, user)


@_json_route
async def set_privacy(request: web.Request) -> Any:
    """BotFather's /setprivacy: as in Telegram, it applies to groups the bot joins afterwards."""
    sandbox = _sandbox(request)
    body = await _body(request)
    enabled = body.get("enabled")
    if not isinstance(enabled, bool):
        raise ControlError("enabled must be a boolean")
    sandbox.profile.privacy = enabled
    return {"privacy": enabled}


async def _press(request: web.Request, forged: bool) -> Any:
    """A user presses a button of a message: the bot gets a callback query; the reply is its answer."""
    sandbox = _sandbox(request)
    world = sandbox.world
    body = await _body(request)
    user = _user(sandbox, _int(body, "from_id"))
    if user.is_bot:
        raise ControlError("bots cannot press buttons")
    chat = _chat_for(sandbox, _int(body, "chat_id"), user)
    message_id = _int(body, "message_id")
    data = _forged_data(body) if forged else _str(body, "data")
    timeout = _number(body, "timeout", 10.0)
    wait_late = body.get("wait_late", False) is True
    message = chat.live_message(message_id)
    if message is None:
        raise ControlError(f"message {message_id} not found in chat {chat.id}")
    if not forged and data not in message.callback_data():
        raise ControlError(f"message {message_id} has no button with callback_data {data!r}")
    record = sandbox.new_query(chat.id, message.message_id)
    if not chat.bot_present:  # the bot is out of the group: nobody answers the press
        return {"answered": False, "text": None, "show_alert": False, "url": None, "query_id": record.id}
    payload = {
        "id": record.id,
        "from": user_json(user),
        "chat_instance": chat_instance(chat.id),
        "message": message_json(world, message),
    }
    if data is not None:
        payload["data"] = data
    sandbox.push_update("callback_query", payload, chat.id)
    started = time.monotonic()
    with contextlib.suppress(TimeoutError):  # the client stops waiting once the query can no longer be answered
        await asyncio.wait_for(record.done.wait(), min(timeout, sandbox.query_wait(record) + 0.05))
    if wait_late and not record.answered:  # a test: what the bot answered too late, which Telegram refused
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(record.done.wait(), max(0.0, timeout - (time.monotonic() - started)))
    return {
        "answered": record.answered,
        "text": record.text,
        "show_alert": record.show_alert,
        "url": record.url,
        "query_id": record.id,
        "late": record.late,
    }


def _forged_data(body: dict[str, Any]) -> str | None:
    """Any string as callback data (empty, overlong, not on the message), or null for a query without data;
    it must still be text that JSON can carry to the bot as UTF-8."""
    data = body.get("data")
    if data is None:
        return None
    if not isinstance(data, str) or len(data) > MAX_FORGED_DATA:
        raise ControlError(f"data must be a string of at most {MAX_FORGED_DATA} characters, or null")
    try:
        data.encode("utf-8")
    except UnicodeEncodeError:
        raise ControlError("data must be valid Unicode text (no lone surrogates)") from None
    return data


@_json_route
async def press_button(request: web.Request) -> Any:
    """Press one of the message's buttons, as Telegram allows."""
    return await _press(request, forged=False)


@_json_route
async def press_forged(request: web.Request) -> Any:
    """For tests only, no such thing in Telegram: press a message with any callback data, on its buttons or
    not, as an old keyboard, another chat's button or a forger's client would."""
    return await _press(request, forged=True)


async def get_file(request: web.Request) -> web.Response:
    stored = _sandbox(request).world.files.get(request.match_info["file_id"])
    if stored is None:
        return web.json_response({"ok": False, "error": "file not found"}, status=404)
    return web.Response(body=stored.data, content_type=stored.info.mime, headers={"Cache-Control": "max-age=86400"})


@_json_route
async def get_state(request: web.Request) -> Any:
    """What the sandbox holds for the bot right now: updates it has not yet taken in (polling: not confirmed by
    a later getUpdates; webhook: not yet accepted), Bot API calls in flight, and the change counter."""
    sandbox = _sandbox(request)
    return {
        "version": sandbox.version,
        "updates_pending": len(sandbox.queue.items),
        "calls_in_flight": sandbox.in_flight,
    }


@_json_route
async def wait_idle(request: web.Request) -> Any:
    body = await _body(request)
    idle = await _sandbox(request).wait_idle(_number(body, "timeout", 10.0), _number(body, "quiet", 0.25))
    return {"idle": idle}


def _query_number(request: web.Request, key: str, default: float) -> float:
    try:
        return float(request.query.get(key, default))
    except ValueError:
        raise ControlError(f"{key} must be a number") from None


@_json_route
async def read_log(request: web.Request) -> Any:
    sandbox = _sandbox(request)
    after = int(_query_number(request, "after", 0))
    wait = min(MAX_WAIT, _query_number(request, "wait", 0))
    limit = int(request.query["limit"]) if request.query.get("limit", "").isdigit() else None
    deadline = time.monotonic() + wait
    items = sandbox.log.after(after, limit)
    while not items and not sandbox.closing and (remaining := deadline - time.monotonic()) > 0:
        await sandbox.log.changed.wait(remaining)
        items = sandbox.log.after(after, limit)
    return {"items": items, "next": items[-1]["seq"] if items else after}


@_json_route
async def wait_changes(request: web.Request) -> Any:
    """Long-poll for any change, so the web chat refreshes at once without hammering the server."""
    sandbox = _sandbox(request)
    after = int(_query_number(request, "after", -1))
    wait = min(MAX_WAIT, _query_number(request, "wait", 0))
    if sandbox.version == after and not sandbox.closing:
        await sandbox.changes.wait(wait)
    return {"version": sandbox.version}


def _config(sandbox: Sandbox) -> dict[str, Any]:
    return {
        "rate_limits": sandbox.limiter.config.as_dict(),
        "time_scale": sandbox.clock.scale,
        "answer_window": sandbox.answer_window,
        "bot_api_down": sandbox.bot_api_down,
    }


def _answer_window(value: object) -> float:
    """A shorter wait for a press's answer, for a test: never longer than Telegram's."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= QUERY_ANSWER_SECONDS:
        raise ValueError(f"answer_window must be more than 0 and at most {QUERY_ANSWER_SECONDS:g} seconds")
    return float(value)


@_json_route
async def get_config(request: web.Request) -> Any:
    return _config(_sandbox(request))


@_json_route
async def set_config(request: web.Request) -> Any:
    """Change the limits, the time scale, the answer window and whether the Bot API is down (Telegram's outage:
    every call answered 502); nothing changes unless every value given is valid."""
    sandbox = _sandbox(request)
    body = await _body(request)
    limits = body.get("rate_limits", {})
    if not isinstance(limits, dict):
        raise ControlError("rate_limits must be a JSON object")
    try:
        if "time_scale" in body:
            TelegramClock(body["time_scale"])  # checked first, so that a bad value changes nothing
        window = _answer_window(body["answer_window"]) if "answer_window" in body else sandbox.answer_window
        down = body.get("bot_api_down", sandbox.bot_api_down)
        if not isinstance(down, bool):
            raise ValueError("bot_api_down must be true or false")
        sandbox.limiter.config.update(limits)
        if "time_scale" in body:
            sandbox.clock.scale = body["time_scale"]
        sandbox.answer_window = window
        sandbox.bot_api_down = down
    except ValueError as error:
        raise ControlError(str(error)) from None
    return _config(sandbox)


@_json_route
async def reset(request: web.Request) -> Any:
    _sandbox(request).reset()
    return {"ok": True}


@_json_route
async def bot_info(request: web.Request) -> Any:
    sandbox = _sandbox(request)
    profile = sandbox.profile
    return {
        **bot_user(),
        "name": profile.name(""),
        "description": profile.descriptions.get("", ""),
        "short_description": profile.short_descriptions.get("", ""),
        "privacy": profile.privacy,
        "commands": [
            {"scope": json.loads(scope), "language_code": language, "commands": commands}
            for (scope, language), commands in profile.commands.items()
        ],
        "webhook": sandbox.webhook.info(),
        "menu_button": profile.menu_button or dict(COMMANDS_BUTTON),
        "apps": [app.view() for app in profile.apps.values()],
    }


async def webchat(request: web.Request) -> web.Response:
    return web.Response(text=_WEBCHAT.read_text(encoding="utf-8"), content_type="text/html")


def setup(app: web.Application) -> None:
    router = app.router
    router.add_get("/", webchat)
    router.add_post("/sandbox/users", create_user)
    router.add_get("/sandbox/users", list_users)
    router.add_post("/sandbox/users/{user_id}/block", block_user)
    router.add_post("/sandbox/chats", create_chat)
    router.add_get("/sandbox/chats", list_chats)
    router.add_get("/sandbox/chats/{chat_id}/messages", chat_messages)
    router.add_post("/sandbox/messages", post_message)
    router.add_post("/sandbox/messages/edit", edit_message)
    router.add_post("/sandbox/chats/{chat_id}/topics", create_topic)
    router.add_post("/sandbox/chats/{chat_id}/topics/{thread_id}", change_topic)
    router.add_post("/sandbox/bot/privacy", set_privacy)
    router.add_post("/sandbox/press", press_button)
    router.add_post("/sandbox/press_forged", press_forged)
    router.add_get("/sandbox/files/{file_id}", get_file)
    router.add_post("/sandbox/idle", wait_idle)
    router.add_get("/sandbox/log", read_log)
    router.add_get("/sandbox/changes", wait_changes)
    router.add_get("/sandbox/state", get_state)
    router.add_get("/sandbox/config", get_config)
    router.add_post("/sandbox/config", set_config)
    router.add_post("/sandbox/reset", reset)
    router.add_get("/sandbox/bot", bot_info)
