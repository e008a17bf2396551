"""Mini Apps as Telegram opens them: web_app buttons, menu buttons, BotFather's apps and the signed launch data."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonCommands,
    MenuButtonDefault,
    MenuButtonWebApp,
    WebAppInfo,
)
from telegram.error import BadRequest

from sandbox.control import _WEBCHAT
from sandbox.control_client import ControlClient
from sandbox.server import SandboxServer

TOKEN = "123:abc"  # the conftest bot's token: what Telegram signs the bot's launch data with
PAGE = "http://127.0.0.1:8080/app"  # HTTP, as Telegram's test environment allows


def said(text: str) -> str:
    """A pattern for Telegram's words as PTB raises them (it changes their letter case)."""
    return "(?i)" + re.escape(text)


def web_app_keyboard(url: str = PAGE, text: str = "بازی") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, web_app=WebAppInfo(url))]])


def launch_params(url: str) -> dict[str, str]:
    """The launch parameters in the page's fragment, as telegram-web-app.js reads them."""
    return dict(parse_qsl(urlsplit(url).fragment, keep_blank_values=True))


def verify(init_data: str, bot_token: str) -> dict[str, str]:
    """The documented check (core.telegram.org/bots/webapps, "Validating data received via the Mini App"), written
    here independently of the sandbox: every field but hash, sorted, key=value joined by line feeds; the secret
    is HMAC-SHA-256 of the token keyed with "WebAppData"; the hash is HMAC-SHA-256 of that string, in hex."""
    fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    received = fields.pop("hash")
    data_check_string = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret_key = hmac.new(key=b"WebAppData", msg=bot_token.encode(), digestmod=hashlib.sha256).digest()
    expected = hmac.new(key=secret_key, msg=data_check_string.encode(), digestmod=hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, received), "the hash does not verify"
    return fields


async def started(world: Any, bot: Bot, name: str = "Ali", **extra: Any) -> dict[str, Any]:
    """A user who has written to the bot (so it may write to them)."""
    user = await world.user(name, **extra)
    await world.say(user["id"], user, "/start")
    await bot.get_me()  # the bot has called the Bot API: the sandbox knows its token
    return user


async def open_link(client: httpx.AsyncClient, user_id: int, chat_id: int, url: str, **extra: Any) -> httpx.Response:
    return await client.post("/sandbox/open_link", json={"user_id": user_id, "chat_id": chat_id, "url": url, **extra})


# ---------- web_app buttons ----------


async def test_web_app_button_is_kept_in_a_private_chat_over_http(bot: Bot, world: Any) -> None:
    ali = await started(world, bot)
    sent = await bot.send_message(ali["id"], "بازی کنید", reply_markup=web_app_keyboard("HTTP://Example.COM"))
    [[button]] = sent.reply_markup.inline_keyboard
    assert button.web_app is not None and button.web_app.url == "http://example.com/"  # as tdlib rebuilds a URL
    [_, shown] = await world.messages(ali["id"])
    assert shown["buttons"] == [[{"text": "بازی", "kind": "web_app", "web_app": "http://example.com/"}]]
    https = await bot.send_message(ali["id"], "x", reply_markup=web_app_keyboard("https://dorehami.ir:8443/m?a=1#b"))
    assert https.reply_markup.inline_keyboard[0][0].web_app.url == "https://dorehami.ir:8443/m?a=1#b"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://localhost:8080/app", "Wrong HTTP URL"),  # a host needs a dot
        ("ftp://dorehami.ir/app", "Unsupported URL protocol"),
        ("tg://resolve?domain=dorehami_bot", "Only HTTP links are allowed"),
        ("http://dorehami.ir:0/", "Wrong port number specified in the URL"),
        ("http://dore hami.ir/", "Disallowed character in URL host"),
        ("http:///app", "URL host is empty"),
    ],
)
async def test_web_app_url_refused_in_telegrams_words(bot: Bot, world: Any, url: str, reason: str) -> None:
    ali = await started(world, bot)
    wording = f"inline keyboard button Web App URL '{url}' is invalid: {reason}"
    with pytest.raises(BadRequest, match=said(wording)):
        await bot.send_message(ali["id"], "x", reply_markup=web_app_keyboard(url))


async def test_web_app_button_refused_in_groups(bot: Bot, world: Any) -> None:
    ali = await started(world, bot)
    for kind in ("supergroup", "group"):
        group = await world.group("G", [ali], type=kind)
        with pytest.raises(BadRequest, match=r"(?i)^button_type_invalid$"):
            await bot.send_message(group["id"], "x", reply_markup=web_app_keyboard())
        plain = await bot.send_message(group["id"], "x")
        with pytest.raises(BadRequest, match=r"(?i)^button_type_invalid$"):
            await plain.edit_reply_markup(reply_markup=web_app_keyboard())
        # the URL is checked before the chat: a bad one is refused for itself
        with pytest.raises(BadRequest, match=said("Wrong HTTP URL")):
            await bot.send_message(group["id"], "x", reply_markup=web_app_keyboard("http://localhost/"))


async def test_malformed_web_app_object(client: httpx.AsyncClient, world: Any, bot: Bot) -> None:
    ali = await started(world, bot)

    async def send(button: dict[str, Any]) -> str:
        markup = {"inline_keyboard": [[{"text": "x", **button}]]}
        reply = await client.post(
            f"/bot{TOKEN}/sendMessage", json={"chat_id": ali["id"], "text": "x", "reply_markup": markup}
        )
        assert reply.status_code == 400
        return str(reply.json()["description"])

    assert await send({"web_app": "http://a.ir/"}) == (
        'Bad Request: can\'t parse inline keyboard button: Field "web_app" must be of type Object'
    )
    assert await send({"web_app": {}}) == "Bad Request: can't parse inline keyboard button: Can't find field \"url\""
    assert await send({"web_app": {"url": "tg://user?id=5"}}) == (
        "Bad Request: link to a user can't be used in Web App URL buttons"
    )


# ---------- menu buttons ----------


async def test_menu_buttons_per_chat_and_default(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    sara = await world.user("Sara")
    assert await bot.get_chat_menu_button() == MenuButtonCommands()  # the bot's default, never set
    assert await bot.get_chat_menu_button(ali["id"]) == MenuButtonDefault()  # nothing of the chat's own
    assert (await client.get(f"/sandbox/chats/{ali['id']}/menu_button")).json() == {"type": "commands"}

    assert await bot.set_chat_menu_button(ali["id"], MenuButtonWebApp("بازی", WebAppInfo("HTTP://127.0.0.1:8080")))
    assert await bot.get_chat_menu_button(ali["id"]) == MenuButtonWebApp("بازی", WebAppInfo("http://127.0.0.1:8080/"))
    assert await bot.get_chat_menu_button(sara["id"]) == MenuButtonDefault()
    shown = (await client.get(f"/sandbox/chats/{ali['id']}/menu_button")).json()
    assert shown == {"type": "web_app", "text": "بازی", "web_app": {"url": "http://127.0.0.1:8080/"}}

    await bot.set_chat_menu_button(menu_button=MenuButtonWebApp("همه", WebAppInfo(PAGE)))
    assert (await client.get(f"/sandbox/chats/{sara['id']}/menu_button")).json()["text"] == "همه"
    await bot.set_chat_menu_button(ali["id"], MenuButtonCommands())
    assert (await client.get(f"/sandbox/chats/{ali['id']}/menu_button")).json() == {"type": "commands"}
    await bot.set_chat_menu_button(ali["id"])  # MenuButtonDefault: back to the bot's default
    assert await bot.get_chat_menu_button(ali["id"]) == MenuButtonDefault()
    assert (await client.get(f"/sandbox/chats/{ali['id']}/menu_button")).json()["text"] == "همه"
    info = (await client.get("/sandbox/bot")).json()
    assert info["menu_button"] == {"type": "web_app", "text": "همه", "web_app": {"url": PAGE}}


async def test_menu_button_errors(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    group = await world.group("G", [ali])
    with pytest.raises(BadRequest, match=said("invalid chat_id specified")):
        await bot.set_chat_menu_button(group["id"], MenuButtonCommands())
    with pytest.raises(BadRequest, match=said("user not found")):
        await bot.get_chat_menu_button(999_999)
    with pytest.raises(BadRequest, match=said("menu button Web App URL 'http://localhost' is invalid: Wrong HTTP URL")):
        await bot.set_chat_menu_button(ali["id"], MenuButtonWebApp("x", WebAppInfo("http://localhost")))
    with pytest.raises(BadRequest, match=said("menu button text must be non-empty")):
        await bot.set_chat_menu_button(ali["id"], MenuButtonWebApp("", WebAppInfo(PAGE)))

    async def raw(menu_button: Any) -> str:
        body = {"chat_id": ali["id"], "menu_button": menu_button}
        return str((await client.post(f"/bot{TOKEN}/setChatMenuButton", json=body)).json()["description"])

    assert await raw({"type": "app"}) == "Bad Request: can't parse menu button: MenuButton has unsupported type"
    assert await raw({"type": "web_app", "text": "x"}) == (
        "Bad Request: can't parse menu button: Can't find field \"web_app\""
    )
    assert await raw(["web_app"]) == "Bad Request: can't parse menu button: MenuButton must be an Object"


# ---------- opening: Direct Link Mini Apps ----------


async def test_direct_link_launch_data_is_signed_with_the_bots_token(
    bot: Bot, world: Any, client: httpx.AsyncClient, server: SandboxServer
) -> None:
    ali = await started(world, bot, "Ali", username="ali_r", last_name="Rezaei")
    group = await world.group("G", [ali])
    async with ControlClient(server.url) as control:
        app = await control.register_app("board", "http://127.0.0.1:8080/play", bot_token=TOKEN)
        assert app["link"] == "https://t.me/dorehami_bot/board"
        opened = await control.open_link(ali["id"], ali["id"], "https://t.me/dorehami_bot/board?startapp=g-1_2")
        in_group = await control.open_link(ali["id"], group["id"], "t.me/dorehami_bot/board", theme="dark")

    # the registered app's URL; the start parameter also in the query (tgWebAppStartParam)
    assert opened.startswith("http://127.0.0.1:8080/play?tgWebAppStartParam=g-1_2#tgWebAppData=")
    params = launch_params(opened)
    assert list(params) == ["tgWebAppData", "tgWebAppVersion", "tgWebAppPlatform", "tgWebAppThemeParams"]
    assert params["tgWebAppPlatform"] == "weba" and params["tgWebAppVersion"].replace(".", "").isdigit()
    fields = verify(params["tgWebAppData"], TOKEN)
    assert set(fields) == {"user", "chat_instance", "chat_type", "start_param", "auth_date", "signature"}
    assert json.loads(fields["user"]) == {
        "id": ali["id"],
        "first_name": "Ali",
        "last_name": "Rezaei",
        "username": "ali_r",
        "language_code": "fa",
        "allows_write_to_pm": True,
    }
    assert fields["chat_type"] == "sender" and fields["start_param"] == "g-1_2"
    assert abs(int(fields["auth_date"]) - time.time()) < 60
    assert len(fields["signature"]) == 86  # 64 bytes, base64url without padding, as Telegram's

    group_fields = verify(launch_params(in_group)["tgWebAppData"], TOKEN)
    assert group_fields["chat_type"] == "supergroup" and "start_param" not in group_fields
    assert group_fields["chat_instance"] != fields["chat_instance"]
    assert urlsplit(in_group).query == ""
    again = verify(launch_params(await open_link_url(client, ali["id"], group["id"])).get("tgWebAppData", ""), TOKEN)
    assert again["chat_instance"] == group_fields["chat_instance"]  # stable per chat
    themes = json.loads(launch_params(in_group)["tgWebAppThemeParams"]), json.loads(params["tgWebAppThemeParams"])
    for theme in themes:
        assert {"bg_color", "text_color", "hint_color", "link_color", "button_color", "button_text_color"} <= set(theme)
        assert {"secondary_bg_color", "header_bg_color", "accent_text_color", "section_bg_color"} <= set(theme)
        assert {"section_header_text_color", "subtitle_text_color", "destructive_text_color"} <= set(theme)
        assert "bottom_bar_bg_color" in theme
    assert themes[0]["bg_color"] != themes[1]["bg_color"]  # dark, light


async def open_link_url(client: httpx.AsyncClient, user_id: int, chat_id: int) -> str:
    reply = await open_link(client, user_id, chat_id, "https://t.me/dorehami_bot/board")
    assert reply.status_code == 200, reply.text
    return str(reply.json()["url"])


async def test_the_hash_covers_every_field(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    await client.post("/sandbox/apps", json={"bot_username": "@Dorehami_Bot", "short_name": "board", "url": PAGE})
    init_data = launch_params(await open_link_url(client, ali["id"], ali["id"]))["tgWebAppData"]
    verify(init_data, TOKEN)
    with pytest.raises(AssertionError, match="does not verify"):
        verify(init_data, "123:abd")  # another bot's token
    forged = init_data.replace(f"%22id%22%3A{ali['id']}", "%22id%22%3A1002")
    assert forged != init_data
    with pytest.raises(AssertionError, match="does not verify"):
        verify(forged, TOKEN)
    unsigned = "&".join(p for p in init_data.split("&") if not p.startswith("signature="))
    with pytest.raises(AssertionError, match="does not verify"):
        verify(unsigned, TOKEN)  # the signature is one of the hashed fields


async def test_telegrams_json_writes_slashes_escaped(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot, "A/B")
    await client.post("/sandbox/apps", json={"bot_username": "dorehami_bot", "short_name": "board", "url": PAGE})
    init_data = launch_params(await open_link_url(client, ali["id"], ali["id"]))["tgWebAppData"]
    raw_user = dict(parse_qsl(init_data))["user"]
    assert '"first_name":"A\\/B"' in raw_user and json.loads(raw_user)["first_name"] == "A/B"
    verify(init_data, TOKEN)


@pytest.mark.parametrize(
    ("url", "status", "error"),
    [
        ("https://t.me/dorehami_bot/chess", 404, "Mini App not found"),
        ("https://t.me/other_bot/board", 404, "bot @other_bot not found"),
        ("https://t.me/dorehami_bot/board?startapp=" + "a" * 513, 400, "START_PARAM_INVALID"),
        ("https://t.me/dorehami_bot/board?startapp=a.b", 400, "START_PARAM_INVALID"),
        ("https://t.me/dorehami_bot/board?startapp=a%3Db", 400, "START_PARAM_INVALID"),
        ("https://dorehami.ir/board", 400, "no Mini App button"),
    ],
)
async def test_direct_links_refused(
    bot: Bot, world: Any, client: httpx.AsyncClient, url: str, status: int, error: str
) -> None:
    ali = await started(world, bot)
    await client.post("/sandbox/apps", json={"bot_token": TOKEN, "short_name": "board", "url": PAGE})
    reply = await open_link(client, ali["id"], ali["id"], url)
    assert reply.status_code == status and error in reply.json()["error"]


async def test_direct_link_boundaries(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    sara = await world.user("Sara")
    group = await world.group("G", [sara])
    await client.post("/sandbox/apps", json={"bot_token": TOKEN, "short_name": "board", "url": PAGE})
    longest = "https://t.me/dorehami_bot/board?startapp=" + "z" * 512
    assert (await open_link(client, ali["id"], ali["id"], longest)).status_code == 200
    assert (await open_link(client, ali["id"], group["id"], longest)).status_code == 400  # not his group
    assert (await open_link(client, 999_999, ali["id"], longest)).json()["error"] == "user 999999 not found"
    helper = await world.user("Helper", username="helper_bot", is_bot=True)
    assert "bots cannot" in (await open_link(client, helper["id"], helper["id"], longest)).json()["error"]
    theme = await open_link(client, ali["id"], ali["id"], longest, theme="sepia")
    assert theme.status_code == 400 and "theme" in theme.json()["error"]


async def test_apps_are_registered_like_botfathers(bot: Bot, client: httpx.AsyncClient, world: Any) -> None:
    async def register(**body: Any) -> httpx.Response:
        return await client.post("/sandbox/apps", json={"short_name": "board", "url": PAGE, **body})

    assert (await register(bot_username="someone_bot")).status_code == 404
    assert (await register()).status_code == 400  # which bot?
    assert "short_name" in (await register(bot_username="dorehami_bot", short_name="b")).json()["error"]
    assert "short_name" in (await register(bot_username="dorehami_bot", short_name="1board")).json()["error"]
    refused = await register(bot_username="dorehami_bot", url="http://localhost:8080/")
    assert refused.json()["error"] == "URL 'http://localhost:8080/' is invalid: Wrong HTTP URL"
    await bot.get_me()  # now the sandbox knows the bot's token
    assert (await register(bot_token="123:abd")).status_code == 404
    assert (await register(bot_token=TOKEN)).json()["url"] == PAGE
    assert (await register(bot_token=TOKEN, url="https://dorehami.ir/b")).json()["url"] == "https://dorehami.ir/b"
    assert [a["short_name"] for a in (await client.get("/sandbox/apps")).json()] == ["board"]
    # BotFather's settings survive a reset, like the bot's commands
    await client.post("/sandbox/reset")
    assert (await client.get("/sandbox/bot")).json()["apps"][0]["url"] == "https://dorehami.ir/b"


async def test_a_bot_that_never_called_cannot_sign(client: httpx.AsyncClient, world: Any) -> None:
    ali = await world.user("Ali")
    refused = await client.post("/sandbox/apps", json={"bot_token": "9:x", "short_name": "b", "url": PAGE})
    assert refused.status_code == 400  # and the sandbox learnt no token from it
    await client.post("/sandbox/apps", json={"bot_username": "dorehami_bot", "short_name": "board", "url": PAGE})
    reply = await open_link(client, ali["id"], ali["id"], "https://t.me/dorehami_bot/board")
    assert reply.status_code == 400 and "token" in reply.json()["error"]


# ---------- opening: web_app buttons and the menu button ----------


async def test_web_app_button_launch_has_a_query_id(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    await bot.send_message(ali["id"], "بازی", reply_markup=web_app_keyboard("http://127.0.0.1:8080/app?g=7#top"))
    reply = await open_link(client, ali["id"], ali["id"], "http://127.0.0.1:8080/app?g=7#top")
    assert reply.status_code == 200, reply.text
    url = reply.json()["url"]
    assert url.startswith("http://127.0.0.1:8080/app?g=7#top&tgWebAppData=")
    fields = verify(launch_params(url)["tgWebAppData"], TOKEN)
    assert set(fields) == {"query_id", "user", "auth_date", "signature"}  # no chat context but for Direct Links
    assert json.loads(fields["user"])["id"] == ali["id"]
    again = (await open_link(client, ali["id"], ali["id"], "http://127.0.0.1:8080/app?g=7#top")).json()["url"]
    second = verify(launch_params(again)["tgWebAppData"], TOKEN)
    assert second["query_id"] != fields["query_id"]  # one per launch


async def test_only_a_button_the_chat_shows_can_be_opened(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    sara = await started(world, bot, "Sara")
    group = await world.group("G", [ali, sara])
    sent = await bot.send_message(ali["id"], "بازی", reply_markup=web_app_keyboard())
    assert (await open_link(client, ali["id"], ali["id"], PAGE)).status_code == 200
    for user, chat in ((sara, sara["id"]), (ali, group["id"])):  # someone else's button; not in a group
        refused = await open_link(client, user["id"], chat, PAGE)
        assert refused.status_code == 400 and "no Mini App button" in refused.json()["error"]
    assert (await open_link(client, ali["id"], ali["id"], PAGE + "/other")).status_code == 400
    await sent.edit_reply_markup(reply_markup=None)
    assert (await open_link(client, ali["id"], ali["id"], PAGE)).status_code == 400  # the button is gone
    again = await bot.send_message(ali["id"], "بازی", reply_markup=web_app_keyboard())
    await bot.delete_message(ali["id"], again.message_id)
    assert (await open_link(client, ali["id"], ali["id"], PAGE)).status_code == 400  # and with its message


async def test_menu_button_launch(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await started(world, bot)
    sara = await started(world, bot, "Sara")
    assert (await open_link(client, ali["id"], ali["id"], PAGE)).status_code == 400
    await bot.set_chat_menu_button(ali["id"], MenuButtonWebApp("بازی", WebAppInfo(PAGE)))
    opened = await open_link(client, ali["id"], ali["id"], PAGE)
    assert opened.status_code == 200
    assert "query_id" in verify(launch_params(opened.json()["url"])["tgWebAppData"], TOKEN)
    assert (await open_link(client, sara["id"], sara["id"], PAGE)).status_code == 400  # only Ali's chat has it
    await bot.set_chat_menu_button(menu_button=MenuButtonWebApp("همه", WebAppInfo("https://dorehami.ir/")))
    assert (await open_link(client, sara["id"], sara["id"], "https://dorehami.ir")).status_code == 200
    assert (await open_link(client, ali["id"], ali["id"], "https://dorehami.ir/")).status_code == 400  # his own wins


def test_web_chat_opens_mini_apps_through_open_link() -> None:
    """The web chat opens web_app buttons, Direct Links and a private chat's menu button with open_link, in a panel
    (checked by hand in headless Chromium: sandbox/README.md, "Web chat")."""
    page = _WEBCHAT.read_text(encoding="utf-8")
    assert '"/sandbox/open_link"' in page and "/menu_button`" in page
    assert '<iframe id="miniapp-frame"' in page and 'id="miniapp-close"' in page and "width: 390px" in page
