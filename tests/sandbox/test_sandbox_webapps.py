"""Mini Apps as Telegram opens them: web_app buttons and menu buttons."""

from __future__ import annotations

import re
from typing import Any

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

TOKEN = "123:abc"  # the conftest bot's token: what Telegram signs the bot's launch data with
PAGE = "http://127.0.0.1:8080/app"  # HTTP, as Telegram's test environment allows


def said(text: str) -> str:
    """A pattern for Telegram's words as PTB raises them (it changes their letter case)."""
    return "(?i)" + re.escape(text)


def web_app_keyboard(url: str = PAGE, text: str = "بازی") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, web_app=WebAppInfo(url))]])


async def started(world: Any, bot: Bot, name: str = "Ali", **extra: Any) -> dict[str, Any]:
    """A user who has written to the bot (so it may write to them)."""
    user = await world.user(name, **extra)
    await world.say(user["id"], user, "/start")
    await bot.get_me()  # the bot has called the Bot API: the sandbox knows its token
    return user


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
