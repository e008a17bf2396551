"""What every Bot API method handler shares: the call record and chat access rules."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sandbox.engine import Sandbox
from sandbox.errors import CHAT_NOT_FOUND, bad_request, forbidden
from sandbox.membership import check_access
from sandbox.params import Params
from sandbox.state import Chat


@dataclass
class Call:
    """One Bot API request; handlers fill in the chat and message it concerned, for the log."""

    method: str
    params: Params
    chat_id: int | None = None
    message_id: int | None = None


Handler = Callable[[Sandbox, Call], Awaitable[Any]]


def requested_chat_id(call: Call) -> int:
    value = call.params.values.get("chat_id")
    if value is None or value == "":
        raise bad_request("chat_id is empty")
    if isinstance(value, bool) or not isinstance(value, int):
        # "@channelusername" and other strings: the sandbox has no public usernames
        raise bad_request(CHAT_NOT_FOUND)
    call.chat_id = value
    return value


def find_chat(sandbox: Sandbox, call: Call) -> Chat:
    """The requested chat for reading; a user's private chat exists once the user does. A group the bot is
    out of, or that became a supergroup, refuses (``sandbox.membership.check_access``)."""
    chat_id = requested_chat_id(call)
    world = sandbox.world
    if chat_id > 0:
        user = world.users.get(chat_id)
        if user is None:
            raise bad_request(CHAT_NOT_FOUND)
        return world.private_chat(user)
    chat = world.chats.get(chat_id)
    if chat is None:
        raise bad_request(CHAT_NOT_FOUND)
    check_access(chat)
    return chat


def writable_chat(sandbox: Sandbox, call: Call) -> Chat:
    """The requested chat for sending or editing, refusing users who blocked or never started the bot."""
    chat_id = requested_chat_id(call)
    if chat_id > 0:
        user = sandbox.world.users.get(chat_id)
        if user is None:
            raise bad_request(CHAT_NOT_FOUND)
        if user.blocked:
            raise forbidden("bot was blocked by the user")
        if not user.started:
            raise forbidden("bot can't initiate conversation with a user")
    return find_chat(sandbox, call)


def required_message_id(call: Call) -> int:
    message_id = call.params.get_int("message_id")
    if message_id is None:
        raise bad_request("message identifier is not specified")
    call.message_id = message_id
    return message_id
