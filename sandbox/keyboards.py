"""Validates inline keyboards with Telegram's limits and error wording."""

from __future__ import annotations

from typing import Any

from sandbox.errors import bad_request
from sandbox.webapps import web_app_url

MAX_CALLBACK_DATA_BYTES = 64
MAX_BUTTONS = 100
_URL_SCHEMES = ("http://", "https://", "tg://")
# Button kinds the sandbox stores but cannot act on.
_OTHER_ACTIONS = (
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


def parse_reply_markup(markup: dict[str, Any] | None, private: bool) -> dict[str, Any] | None:
    """The inline keyboard to store on a message in a private chat (``private``) or a group, or None.

    Reply keyboards, ForceReply and ReplyKeyboardRemove are accepted, but as in Telegram
    they do not become part of the message object. A ``web_app`` button is for private chats only
    (Bot API, InlineKeyboardButton.web_app: "Available only in private chats between a user and the bot"):
    elsewhere Telegram answers BUTTON_TYPE_INVALID, after the buttons themselves passed.
    """
    if markup is None or "inline_keyboard" not in markup:
        return None
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list):
        raise bad_request('can\'t parse inline keyboard: field "inline_keyboard" must be an Array')
    clean_rows: list[list[dict[str, Any]]] = []
    count = 0
    for row in rows:
        if not isinstance(row, list):
            raise bad_request("can't parse inline keyboard: keyboard row must be an Array")
        clean_row = [_parse_button(button) for button in row]
        count += len(clean_row)
        if clean_row:
            clean_rows.append(clean_row)
    if count > MAX_BUTTONS:
        raise bad_request("reply markup is too long")
    if not private and any("web_app" in button for row in clean_rows for button in row):
        raise bad_request("BUTTON_TYPE_INVALID")
    return {"inline_keyboard": clean_rows} if clean_rows else None


def _parse_button(button: Any) -> dict[str, Any]:
    if not isinstance(button, dict):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
    text = button.get("text")
    if not isinstance(text, str) or not text:
        raise bad_request("can't parse inline keyboard button: Text must be non-empty")
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES:
            raise bad_request("BUTTON_DATA_INVALID")
        return {"text": text, "callback_data": data}
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not url.startswith(_URL_SCHEMES) or len(url) <= len("https://"):
            raise bad_request("BUTTON_URL_INVALID")
        return {"text": text, "url": url}
    if "web_app" in button:
        return {"text": text, "web_app": {"url": _web_app_url(button["web_app"])}}
    for action in _OTHER_ACTIONS:
        if action in button:
            return {"text": text, action: button[action]}
    raise bad_request("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")


def _web_app_url(web_app: Any) -> str:
    """WebAppInfo's url as Telegram checks and stores it (sandbox.links), in the wording of telegram-bot-api's
    JSON reader for a malformed WebAppInfo."""
    if not isinstance(web_app, dict):
        raise bad_request('can\'t parse inline keyboard button: Field "web_app" must be of type Object')
    url = web_app.get("url")
    if url is None:
        raise bad_request("can't parse inline keyboard button: Can't find field \"url\"")
    if not isinstance(url, str):
        raise bad_request('can\'t parse inline keyboard button: Field "url" must be of type String')
    return web_app_url(url, "Inline keyboard button")
