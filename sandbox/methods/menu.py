"""The bot's menu button: setChatMenuButton and getChatMenuButton, per private chat and the default.

As telegram-bot-api does it (Client.cpp, ``process_set_chat_menu_button_query``, ``get_bot_menu_button``): a
``chat_id`` must be a user's id ("invalid chat_id specified" otherwise, "user not found" for a user it does not
know); without one, the bot's default button changes. A chat with no button of its own answers MenuButtonDefault;
the bot's default, never set, is the list of commands.
"""

from __future__ import annotations

from typing import Any

from sandbox.engine import Sandbox
from sandbox.errors import bad_request
from sandbox.methods.common import Call, Handler
from sandbox.state import Chat
from sandbox.webapps import COMMANDS_BUTTON, DEFAULT_BUTTON, parse_menu_button


def _private_chat(sandbox: Sandbox, call: Call) -> Chat | None:
    """The private chat ``chat_id`` names, or None for the bot's default button."""
    value = call.params.values.get("chat_id")
    if value is None or value == "":
        return None
    try:
        user_id = int(value)
    except (TypeError, ValueError):
        user_id = 0
    if isinstance(value, bool) or user_id <= 0:
        raise bad_request("invalid chat_id specified")
    call.chat_id = user_id
    user = sandbox.world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    return sandbox.world.private_chat(user)


async def set_chat_menu_button(sandbox: Sandbox, call: Call) -> Any:
    button = parse_menu_button(call.params.values.get("menu_button"))
    chat = _private_chat(sandbox, call)
    if chat is None:
        sandbox.profile.menu_button = button
    else:
        chat.menu_button = button
    sandbox.touch()
    return True


async def get_chat_menu_button(sandbox: Sandbox, call: Call) -> Any:
    chat = _private_chat(sandbox, call)
    if chat is None:
        return dict(sandbox.profile.menu_button or COMMANDS_BUTTON)
    return dict(chat.menu_button or DEFAULT_BUTTON)


HANDLERS: dict[str, Handler] = {
    "setChatMenuButton": set_chat_menu_button,
    "getChatMenuButton": get_chat_menu_button,
}
