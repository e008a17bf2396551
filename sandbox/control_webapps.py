"""Control routes for Mini Apps: BotFather's /newapp, and a user opening a Mini App link or button as Telegram's
app would (``sandbox/webapps.py`` builds the launch data; sandbox/README.md, "Mini Apps", has the rules)."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from sandbox.control import ControlError, _body, _chat_for, _int, _json_route, _sandbox, _str, _user
from sandbox.engine import Sandbox
from sandbox.errors import ApiError
from sandbox.links import LinkError, check_http_link, describe
from sandbox.state import BOT_USERNAME, Chat, User
from sandbox.telegram_json import chat_instance
from sandbox.webapps import (
    THEMES,
    MiniApp,
    init_data_fields,
    launch_url,
    parse_direct_link,
    shown_menu_button,
    sign,
    valid_short_name,
)

TOKEN = re.compile(r"\d+:[A-Za-z0-9_-]+")


def _app_url(url: str) -> str:
    """A Mini App's URL as BotFather would take it in Telegram's test environment: http(s), a host with a dot."""
    try:
        return check_http_link(url, https_only=False)
    except LinkError as reason:
        raise ControlError(describe(url, reason)) from None


def _bot(sandbox: Sandbox, body: dict[str, Any]) -> None:
    """The bot an app is registered for, named by its token or its username: the sandbox has one bot, known by the
    username getMe gives and the token it calls the Bot API with."""
    token, username = body.get("bot_token"), body.get("bot_username")
    if (token is None) == (username is None):
        raise ControlError("give the bot's bot_token or its bot_username")
    if username is not None:
        if not isinstance(username, str) or username.removeprefix("@").lower() != BOT_USERNAME.lower():
            raise ControlError(f"bot @{str(username).removeprefix('@')} not found", 404)
        return
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        raise ControlError("bot_token must look like 123456:ABC-DEF")
    known = sandbox.profile.token
    if known is not None and token != known:
        raise ControlError("bot not found: that is not the token the bot calls the Bot API with", 404)
    sandbox.profile.token = token


@_json_route
async def register_app(request: web.Request) -> Any:
    """BotFather's /newapp (and /editapp for a short name the bot already has): ``{bot_token | bot_username,
    short_name, url}``; the app opens at https://t.me/<bot>/<short_name>."""
    sandbox = _sandbox(request)
    body = await _body(request)
    short_name = _str(body, "short_name") or ""
    if not valid_short_name(short_name):
        raise ControlError("short_name must be 3-30 Latin letters, digits and single underscores, from a letter")
    url = _app_url(_str(body, "url") or "")
    _bot(sandbox, body)  # last: a refused app teaches the sandbox no token
    app = MiniApp(short_name, url)
    sandbox.profile.apps[short_name] = app
    sandbox.touch()
    return app.view()


@_json_route
async def list_apps(request: web.Request) -> Any:
    return [app.view() for app in _sandbox(request).profile.apps.values()]


def _theme(body: dict[str, Any]) -> str:
    theme = body.get("theme", "light")
    if theme not in THEMES:
        raise ControlError(f"theme must be one of {', '.join(THEMES)}")
    return str(theme)


def _bot_token(sandbox: Sandbox) -> str:
    token = sandbox.profile.token
    if token is None:
        raise ControlError("the bot's token is not known yet: it has made no Bot API call (or register an app with it)")
    return token


def _web_app_buttons(chat: Chat) -> set[str]:
    """The Web App URLs a private chat shows its user: its messages' web_app buttons."""
    urls: set[str] = set()
    for message in chat.messages.values():
        if message.deleted:
            continue
        for row in (message.reply_markup or {}).get("inline_keyboard", []):
            urls.update(button["web_app"]["url"] for button in row if "web_app" in button)
    return urls


def _open_direct_link(sandbox: Sandbox, user: User, chat: Chat, url: str, theme: str) -> str | None:
    """A Direct Link Mini App's launch URL, or None if ``url`` is no such link."""
    link = parse_direct_link(url)
    if link is None:
        return None
    if link.bot_username.lower() != BOT_USERNAME.lower():
        raise ControlError(f"bot @{link.bot_username} not found: the sandbox has only @{BOT_USERNAME}", 404)
    app = sandbox.profile.apps.get(link.short_name)
    if app is None:
        raise ControlError(f"Mini App not found: @{BOT_USERNAME} has no app {link.short_name!r}", 404)
    fields = init_data_fields(
        user,
        chat_instance=chat_instance(chat.id),
        chat_type="sender" if chat.is_private else chat.type,
        start_param=link.start_param,
    )
    return launch_url(app.url, sign(fields, _bot_token(sandbox)), theme, link.start_param)


@_json_route
async def open_link(request: web.Request) -> Any:
    """``{user_id, chat_id, url, theme?="light"}``: the user opens ``url`` in ``chat_id`` (their private chat with the
    bot or a group of theirs): a Direct Link Mini App of the bot, or a Web App button the chat shows them (on a
    message, or its menu button). ``{url}``: the page's address as Telegram opens it, launch data in the fragment."""
    sandbox = _sandbox(request)
    body = await _body(request)
    user = _user(sandbox, _int(body, "user_id"))
    if user.is_bot:
        raise ControlError("bots cannot open Mini Apps")
    chat = _chat_for(sandbox, _int(body, "chat_id"), user)
    url = _str(body, "url") or ""
    theme = _theme(body)
    try:
        direct = _open_direct_link(sandbox, user, chat, url, theme)
    except ApiError as error:  # a start parameter Telegram refuses
        raise ControlError(error.description.removeprefix("Bad Request: ")) from None
    if direct is not None:
        return {"url": direct}
    try:
        wanted = check_http_link(url, https_only=False)  # as Telegram stored the button's URL
    except LinkError:
        wanted = url
    shown: set[str] = set()  # a group shows no Web App button: they are for private chats only
    if chat.is_private:
        shown = _web_app_buttons(chat)
        menu = shown_menu_button(chat.menu_button, sandbox.profile.menu_button)
        if menu["type"] == "web_app":
            shown.add(menu["web_app"]["url"])
    if wanted not in shown:
        raise ControlError(f"chat {chat.id} shows user {user.id} no Mini App button or menu button with URL {url!r}")
    # Inline-button and menu-button Mini Apps get a query_id for answerWebAppQuery (core.telegram.org/bots/webapps:
    # the menu button "is otherwise identical to launching a mini app from an inline button").
    fields = init_data_fields(user, query_id=True)
    return {"url": launch_url(wanted, sign(fields, _bot_token(sandbox)), theme)}


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
    router = app.router
    router.add_post("/sandbox/apps", register_app)
    router.add_get("/sandbox/apps", list_apps)
    router.add_post("/sandbox/open_link", open_link)
    router.add_get("/sandbox/chats/{chat_id}/menu_button", menu_button)
