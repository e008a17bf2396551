"""Mini Apps as Telegram opens them: the launch data a page gets in its URL fragment, signed with the bot's token.

What Telegram does is written in sandbox/README.md ("Mini Apps"), with its sources; mainly
core.telegram.org/bots/webapps ("Initializing Mini Apps", "WebAppInitData", "Validating data received via the
Mini App", "Direct Link Mini Apps", "Testing Mini Apps").
"""

from __future__ import annotations

from typing import Any

from sandbox.errors import bad_request
from sandbox.links import LinkError, check_http_link, describe, is_user_link


def web_app_url(url: str, what: str) -> str:
    """A Web App URL as Telegram stores it (``what``: "Inline keyboard button", "Menu button"), or Telegram's 400.
    HTTP passes: the sandbox is Telegram's test environment."""
    if is_user_link(url):
        raise bad_request("link to a user can't be used in Web App URL buttons")
    try:
        return check_http_link(url, https_only=False)
    except LinkError as reason:
        wording = f"{what} Web App {describe(url, reason)}"
        raise bad_request(wording[0].lower() + wording[1:]) from None


# ---------- menu buttons (setChatMenuButton / getChatMenuButton) ----------

COMMANDS_BUTTON: dict[str, Any] = {"type": "commands"}
DEFAULT_BUTTON: dict[str, Any] = {"type": "default"}


def parse_menu_button(value: Any) -> dict[str, Any]:
    """A MenuButton as the Bot API takes it (telegram-bot-api ``get_bot_menu_button``, tdlib ``set_menu_button``),
    stored in the form getChatMenuButton returns; errors worded as Telegram's."""
    if value is None or value == "":
        return dict(DEFAULT_BUTTON)  # setChatMenuButton: "Defaults to MenuButtonDefault"
    if isinstance(value, str):
        raise bad_request("can't parse menu button JSON object")
    if not isinstance(value, dict):
        raise bad_request("can't parse menu button: MenuButton must be an Object")
    kind = _field(value, "type", str)
    if kind in ("default", "commands"):
        return {"type": kind}
    if kind != "web_app":
        raise bad_request("can't parse menu button: MenuButton has unsupported type")
    text = _field(value, "text", str)
    web_app = _field(value, "web_app", dict)
    url = _field(web_app, "url", str)
    if not text:
        raise bad_request("menu button text must be non-empty")
    return {"type": "web_app", "text": text, "web_app": {"url": web_app_url(url, "Menu button")}}


def _field(obj: dict[str, Any], name: str, kind: type) -> Any:
    if name not in obj:
        raise bad_request(f"can't parse menu button: Can't find field \"{name}\"")
    if not isinstance(obj[name], kind):
        type_name = "Object" if kind is dict else "String"
        raise bad_request(f'can\'t parse menu button: Field "{name}" must be of type {type_name}')
    return obj[name]


def shown_menu_button(chat_button: dict[str, Any] | None, bot_button: dict[str, Any] | None) -> dict[str, Any]:
    """What a private chat's menu button is to its user: the chat's own, else the bot's default, else the list of
    commands (MenuButtonDefault: "no specific value for the menu button was set")."""
    for button in (chat_button, bot_button):
        if button is not None and button["type"] != "default":
            return button
    return dict(COMMANDS_BUTTON)
