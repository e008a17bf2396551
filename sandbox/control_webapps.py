"""Control routes for Mini Apps: what a user's private chat shows as its menu button (``sandbox/webapps.py``;
sandbox/README.md, "Mini Apps", has the rules)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from sandbox.control import ControlError, _json_route, _sandbox, _user
from sandbox.webapps import shown_menu_button


@_json_route
async def menu_button(request: web.Request) -> Any:
    """The menu button a private chat shows its user: its own, else the bot's default, else the commands list."""
    sandbox = _sandbox(request)
    try:
        user = _user(sandbox, int(request.match_info["chat_id"]))
    except (ValueError, ControlError):
        raise ControlError("a menu button belongs to a user's private chat with the bot: user not found", 404) from None
    chat = sandbox.world.chats.get(user.id)
    return shown_menu_button(chat.menu_button if chat else None, sandbox.profile.menu_button)


def setup(app: web.Application) -> None:
    app.router.add_get("/sandbox/chats/{chat_id}/menu_button", menu_button)
