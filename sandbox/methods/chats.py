"""Questions about chats and their members."""

from __future__ import annotations

from typing import Any

from sandbox.engine import Sandbox
from sandbox.errors import bad_request
from sandbox.membership import check_member_lookup
from sandbox.methods.common import Call, Handler, find_chat
from sandbox.state import BOT_ID
from sandbox.telegram_json import chat_full_info, chat_member_json


async def get_chat(sandbox: Sandbox, call: Call) -> Any:
    return chat_full_info(sandbox.world, find_chat(sandbox, call))


async def get_chat_member(sandbox: Sandbox, call: Call) -> Any:
    chat = find_chat(sandbox, call)
    user_id = call.params.get_int("user_id")
    if user_id is None:
        raise bad_request("user_id is empty")
    if user_id != BOT_ID and user_id not in sandbox.world.users:
        raise bad_request("user not found")
    check_member_lookup(chat, user_id)
    return chat_member_json(sandbox.world, chat, user_id)


async def get_chat_administrators(sandbox: Sandbox, call: Call) -> Any:
    chat = find_chat(sandbox, call)
    if chat.is_private:
        return []
    ids = [*([chat.creator] if chat.creator is not None else []), *chat.admins]
    return [chat_member_json(sandbox.world, chat, user_id) for user_id in dict.fromkeys(ids)]


async def get_chat_member_count(sandbox: Sandbox, call: Call) -> Any:
    chat = find_chat(sandbox, call)
    return 2 if chat.is_private else len(chat.members) + 1


HANDLERS: dict[str, Handler] = {
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "getChatMemberCount": get_chat_member_count,
    "getChatMembersCount": get_chat_member_count,
}
