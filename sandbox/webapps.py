"""Mini Apps as Telegram opens them: the launch data a page gets in its URL fragment, signed with the bot's token.

What Telegram does is written in sandbox/README.md ("Mini Apps"), with its sources; mainly
core.telegram.org/bots/webapps ("Initializing Mini Apps", "WebAppInitData", "Validating data received via the
Mini App", "Direct Link Mini Apps", "Testing Mini Apps").
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

from sandbox.errors import bad_request
from sandbox.links import LinkError, check_http_link, describe, is_user_link
from sandbox.state import BOT_USERNAME, User

# The Mini Apps version the sandbox's "app" reports (tgWebAppVersion): the newest one in the Recent changes of
# core.telegram.org/bots/webapps as the sandbox's authors last read it (Bot API 9.1).
WEB_APP_VERSION = "9.1"
# The web chat is a web client: Telegram Web A calls itself "weba" (tgWebAppPlatform).
PLATFORM = "weba"
# startapp: "A-Z, a-z, 0-9, _ and -", up to 512 characters (docs.telegram-mini-apps.com, "Start Parameter").
START_PARAM = re.compile(r"[A-Za-z0-9_-]{0,512}")
# A username's form (tdlib is_valid_username): a letter first, letters, digits and single underscores, not ending in
# one, at most 32 characters.
_USERNAME = re.compile(r"[A-Za-z](?:_?[A-Za-z0-9])*")
_T_ME_HOSTS = ("t.me", "telegram.me", "telegram.dog")

# ThemeParams (core.telegram.org/bots/webapps#themeparams), all of its keys. Colours modelled on Telegram Web A's
# day and night themes; the night theme's first seven as docs.telegram-mini-apps.com ("Launch Parameters") shows
# a web client's.
THEMES: dict[str, dict[str, str]] = {
    "light": {
        "bg_color": "#ffffff",
        "text_color": "#000000",
        "hint_color": "#707579",
        "link_color": "#3390ec",
        "button_color": "#3390ec",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#f4f4f5",
        "header_bg_color": "#ffffff",
        "bottom_bar_bg_color": "#ffffff",
        "accent_text_color": "#3390ec",
        "section_bg_color": "#ffffff",
        "section_header_text_color": "#3390ec",
        "section_separator_color": "#e7e7e7",
        "subtitle_text_color": "#707579",
        "destructive_text_color": "#df3f40",
    },
    "dark": {
        "bg_color": "#212121",
        "text_color": "#ffffff",
        "hint_color": "#aaaaaa",
        "link_color": "#8774e1",
        "button_color": "#8774e1",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#0f0f0f",
        "header_bg_color": "#212121",
        "bottom_bar_bg_color": "#212121",
        "accent_text_color": "#8774e1",
        "section_bg_color": "#212121",
        "section_header_text_color": "#aaaaaa",
        "section_separator_color": "#0f0f0f",
        "subtitle_text_color": "#aaaaaa",
        "destructive_text_color": "#e53935",
    },
}


@dataclass
class MiniApp:
    """A Mini App registered with BotFather (/newapp): opened by https://t.me/<bot>/<short_name>."""

    short_name: str
    url: str

    def view(self) -> dict[str, Any]:
        return {
            "bot_username": BOT_USERNAME,
            "short_name": self.short_name,
            "url": self.url,
            "link": f"https://t.me/{BOT_USERNAME}/{self.short_name}",
        }


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


# ---------- Direct Link Mini Apps ----------


@dataclass
class DirectLink:
    """https://t.me/<bot_username>/<short_name>?startapp=<start_param> (core.telegram.org/api/links)."""

    bot_username: str
    short_name: str
    start_param: str | None  # None when absent or empty ("If a non-empty startapp parameter is included")


def parse_direct_link(url: str) -> DirectLink | None:
    """The Direct Link Mini App a t.me link names, or None if it is no such link. A startapp that is not
    ``[A-Za-z0-9_-]``, up to 512 characters, is refused (400 START_PARAM_INVALID)."""
    parts = urlsplit(url if "://" in url else "https://" + url)
    if parts.scheme.lower() not in ("http", "https") or (parts.hostname or "").lower() not in _T_ME_HOSTS:
        return None
    path = [piece for piece in parts.path.split("/") if piece]
    if len(path) != 2 or not _link_short_name(path[1]):
        return None
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    start_param = query.get("startapp") or None
    if start_param is not None and not START_PARAM.fullmatch(start_param):
        raise bad_request("START_PARAM_INVALID")
    return DirectLink(path[0], path[1], start_param)


def _link_short_name(name: str) -> bool:
    """A short name tdlib reads as a Mini App's in a t.me link (is_valid_web_app_name: 3 or more characters that
    make a valid username)."""
    return 3 <= len(name) <= 32 and bool(_USERNAME.fullmatch(name))


def valid_short_name(name: str) -> bool:
    """A short name BotFather's /newapp takes: 3-30 characters, Latin letters, digits and underscores; and one a
    link can name."""
    return len(name) <= 30 and _link_short_name(name)


# ---------- launch data ----------


def web_app_user(user: User) -> str:
    """WebAppUser as JSON, compact, with "/" written "\\/" as Telegram's JSON writes it."""
    data: dict[str, Any] = {"id": user.id, "first_name": user.first_name}
    if user.last_name:
        data["last_name"] = user.last_name
    if user.username:
        data["username"] = user.username
    data["language_code"] = "fa"  # as every update from the sandbox's users says (telegram_json.user_json)
    if user.started and not user.blocked:
        data["allows_write_to_pm"] = True  # "True, if this user allowed the bot to message them"
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("/", "\\/")


def sign(fields: list[tuple[str, str]], bot_token: str) -> list[tuple[str, str]]:
    """The fields with a ``signature`` and their ``hash``: HMAC-SHA-256 of the data-check-string (every field but
    hash, sorted, ``key=value`` joined by line feeds) keyed with HMAC-SHA-256("WebAppData", bot_token), in hex.

    Telegram's ``signature`` is an Ed25519 signature by Telegram's own key (for third parties); the sandbox cannot
    make one, so it sends 64 random bytes of the same form, base64url: third-party validation fails here."""
    signature = base64.urlsafe_b64encode(secrets.token_bytes(64)).rstrip(b"=").decode()
    signed = [*fields, ("signature", signature)]
    check = "\n".join(f"{key}={value}" for key, value in sorted(signed))
    secret = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return [*signed, ("hash", digest)]


def init_data_fields(
    user: User,
    *,
    query_id: bool = False,
    chat_instance: str | None = None,
    chat_type: str | None = None,
    start_param: str | None = None,
) -> list[tuple[str, str]]:
    """WebAppInitData's fields in the order Telegram sends them, before signing."""
    fields: list[tuple[str, str]] = []
    if query_id:
        fields.append(("query_id", secrets.token_urlsafe(18)))
    fields.append(("user", web_app_user(user)))
    if chat_instance is not None and chat_type is not None:
        fields += [("chat_instance", chat_instance), ("chat_type", chat_type)]
    if start_param:
        fields.append(("start_param", start_param))
    fields.append(("auth_date", str(int(time.time()))))
    return fields


def launch_url(page: str, init_data: list[tuple[str, str]], theme: str, start_param: str | None = None) -> str:
    """The page's address as Telegram opens it: the start parameter in the query (tgWebAppStartParam), the launch
    parameters in the fragment."""
    if start_param:
        base, hash_mark, fragment = page.partition("#")
        page = f"{base}{'&' if '?' in base else '?'}tgWebAppStartParam={start_param}{hash_mark}{fragment}"
    data = "&".join(f"{key}={quote(value, safe='')}" for key, value in init_data)
    params = [
        ("tgWebAppData", data),
        ("tgWebAppVersion", WEB_APP_VERSION),
        ("tgWebAppPlatform", PLATFORM),
        ("tgWebAppThemeParams", json.dumps(THEMES[theme], separators=(",", ":"))),
    ]
    launch = "&".join(f"{key}={quote(value, safe='')}" for key, value in params)
    return f"{page}{'&' if '#' in page else '#'}{launch}"
