"""A real PTB Bot against the sandbox: the Bot API methods the Dorehami bot relies on."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    MessageEntity,
)
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

GROUP_HTML = '<b>بازی سکه</b> با <a href="tg://user?id=1001">علی</a>\n<i>نوبت</i> <code>x&lt;3</code>'


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


async def test_get_me(bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.is_bot, me.first_name, me.username) == (100000, True, "دورهمی", "dorehami_bot")


async def test_send_html_with_keyboard_and_read_back(bot: Bot, world: Any) -> None:
    ali = await world.user("علی")
    sara = await world.user("Sara", username="sara")
    group = await world.group("دورهمی‌ها", [ali, sara], admins=[ali])
    markup = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("پیوستن", callback_data="join"), InlineKeyboardButton("شروع", callback_data="go")],
            [InlineKeyboardButton("قوانین", url="https://t.me/dorehami_bot?start=rules")],
        ]
    )
    sent = await bot.send_message(group["id"], GROUP_HTML, parse_mode="HTML", reply_markup=markup)
    assert sent.message_id == 1
    assert sent.chat.type == "supergroup" and sent.chat.title == "دورهمی‌ها"
    assert sent.text == "بازی سکه با علی\nنوبت x<3"
    assert sent.from_user is not None and sent.from_user.id == 100000
    kinds = [(e.type, e.offset, e.length) for e in sent.entities]
    assert kinds == [("bold", 0, 8), ("text_mention", 12, 3), ("italic", 16, 4), ("code", 21, 3)]
    assert sent.entities[1].user is not None and sent.entities[1].user.id == ali["id"]
    assert sent.reply_markup == markup

    [stored] = await world.messages(group["id"])
    assert stored["from_bot"] is True and stored["from_id"] == 100000
    assert stored["html"] == GROUP_HTML
    assert stored["text"] == sent.text
    assert stored["buttons"] == [
        [{"text": "پیوستن", "data": "join"}, {"text": "شروع", "data": "go"}],
        [{"text": "قوانین", "url": "https://t.me/dorehami_bot?start=rules"}],
    ]
    assert (stored["edits"], stored["deleted"], stored["photo"]) == (0, False, None)


async def test_photo_upload_edit_media_caption_and_markup(
    bot: Bot, world: Any, client: httpx.AsyncClient, make_png: Callable[..., bytes]
) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    sent = await bot.send_photo(
        group["id"], make_png(64, 32), caption="<b>دور ۱</b>", parse_mode="HTML", reply_markup=keyboard([("a", "a")])
    )
    [size] = sent.photo
    assert (size.width, size.height) == (64, 32)
    assert sent.caption == "دور ۱" and sent.caption_entities[0].type == MessageEntity.BOLD

    edited = await bot.edit_message_media(
        InputMediaPhoto(make_png(48, 48, (0, 0, 255)), caption="دور ۲"),
        chat_id=group["id"],
        message_id=sent.message_id,
        reply_markup=keyboard([("b", "b")]),
    )
    assert not isinstance(edited, bool)
    assert edited.photo[-1].file_id != size.file_id and edited.photo[-1].width == 48
    assert edited.caption == "دور ۲" and edited.edit_date is not None

    edited = await bot.edit_message_caption(
        chat_id=group["id"], message_id=sent.message_id, caption="دور ۳", reply_markup=keyboard([("b", "b")])
    )
    assert not isinstance(edited, bool) and edited.caption == "دور ۳"
    edited = await bot.edit_message_reply_markup(
        chat_id=group["id"], message_id=sent.message_id, reply_markup=keyboard([("c", "c")])
    )
    assert not isinstance(edited, bool) and edited.reply_markup == keyboard([("c", "c")])

    # the same photo again by file_id, as bots do to re-use an upload
    again = await bot.send_photo(group["id"], edited.photo[-1].file_id)
    assert again.photo[-1].file_id == edited.photo[-1].file_id

    [first, second] = await world.messages(group["id"])
    assert first["edits"] == 3 and first["caption"] == "دور ۳"
    assert first["buttons"] == [[{"text": "c", "data": "c"}]]
    image = await client.get(first["photo"])
    assert image.headers["content-type"] == "image/png"
    assert image.content == make_png(48, 48, (0, 0, 255))
    assert second["photo"] == first["photo"]

    file = await bot.get_file(edited.photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == image.content


async def test_not_modified_and_other_edit_errors(bot: Bot, world: Any) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    sent = await bot.send_message(group["id"], "<b>hi</b>", parse_mode="HTML", reply_markup=keyboard([("x", "x")]))
    with pytest.raises(BadRequest, match=r"(?i)message is not modified: specified new message content"):
        await bot.edit_message_text(
            "<b>hi</b>",
            chat_id=group["id"],
            message_id=sent.message_id,
            parse_mode="HTML",
            reply_markup=keyboard([("x", "x")]),
        )
    # Telegram drops the keyboard when an edit does not repeat it
    edited = await bot.edit_message_text(
        "<b>hi</b>", chat_id=group["id"], message_id=sent.message_id, parse_mode="HTML"
    )
    assert not isinstance(edited, bool) and edited.reply_markup is None
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", chat_id=group["id"], message_id=99)
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-1009999, "x")
    assert await bot.delete_message(group["id"], sent.message_id) is True
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("y", chat_id=group["id"], message_id=sent.message_id)
    [stored] = await world.messages(group["id"])
    assert stored["deleted"] is True and stored["edits"] == 1


async def test_length_limits_and_markup_validation(bot: Bot, world: Any, make_png: Callable[..., bytes]) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(group["id"], "x", reply_markup=keyboard([("x", "a" * 65)]))
    ok = await bot.send_message(group["id"], "x", reply_markup=keyboard([("x", "a" * 64)]))
    assert ok.reply_markup is not None
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(group["id"], "س" * 4097)
    # tags do not count towards the limit, only the text they leave
    await bot.send_message(group["id"], "<b>" + "س" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message caption is too long"):
        await bot.send_photo(group["id"], make_png(2, 2), caption="x" * 1025)
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(group["id"], "<b>open", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await bot.send_message(group["id"], "<b></b>", parse_mode="HTML")


async def test_private_chat_needs_start_and_respects_block(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await world.user("Ali")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(ali["id"], "سلام")
    await world.say(ali["id"], ali, "/start")
    sent = await bot.send_message(ali["id"], "سلام")
    assert sent.chat.type == "private" and sent.chat.id == ali["id"] and sent.chat.first_name == "Ali"
    users = (await client.get("/sandbox/users")).json()
    assert users[0]["started"] is True and users[0]["blocked"] is False

    blocked = (await client.post(f"/sandbox/users/{ali['id']}/block", json={"blocked": True})).json()
    assert blocked["blocked"] is True
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(ali["id"], "سلام")
    await client.post(f"/sandbox/users/{ali['id']}/block", json={"blocked": False})
    await bot.send_message(ali["id"], "دوباره سلام")
    assert [m["text"] for m in await world.messages(ali["id"])] == ["/start", "سلام", "دوباره سلام"]


async def test_group_rate_limit_raises_retry_after(
    bot: Bot, world: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # PTB 22 otherwise warns while building RetryAfter
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    for number in range(20):
        await bot.send_message(group["id"], f"پیام {number}")
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(group["id"], "one too many")
    retry_after = caught.value.retry_after
    assert isinstance(retry_after, dt.timedelta) and 1 <= retry_after.total_seconds() <= 60
    with pytest.raises(RetryAfter):  # edits share the group's budget (and its flood wait)
        await bot.edit_message_text("edited", chat_id=group["id"], message_id=1)

    config = (await client.post("/sandbox/config", json={"rate_limits": {"enabled": False}})).json()
    assert config["rate_limits"]["enabled"] is False
    await bot.send_message(group["id"], "limits off")
    bad = await client.post("/sandbox/config", json={"rate_limits": {"group_per_minute": "many"}})
    assert bad.status_code == 400


async def test_edits_are_limited_like_messages_and_a_scaled_retry_after_reaches_ptb(
    bot: Bot, world: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edits alone exhaust a group's 20 a minute. At time_scale 0.01 the 429 asks for a hundredth of what it
    would (a fraction of a second), and waiting that long is enough, as waiting the real time would be."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    await client.post("/sandbox/config", json={"time_scale": 0.01})
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    sent = await bot.send_message(group["id"], "0")
    for number in range(1, 20):
        await bot.edit_message_text(str(number), chat_id=group["id"], message_id=sent.message_id)
    with pytest.raises(RetryAfter) as caught:
        await bot.edit_message_text("one too many", chat_id=group["id"], message_id=sent.message_id)
    retry_after = caught.value.retry_after
    assert isinstance(retry_after, dt.timedelta) and 0 < retry_after.total_seconds() <= 0.6
    await asyncio.sleep(retry_after.total_seconds())
    await bot.edit_message_text("in time", chat_id=group["id"], message_id=sent.message_id)
    log = await world.log()
    assert [i["status"] for i in log if i["method"] == "editMessageText"] == [200] * 19 + [429, 200]


async def test_private_rate_limit_allows_a_small_burst(bot: Bot, world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    ali = await world.user("Ali")
    await world.say(ali["id"], ali, "/start")
    for _ in range(3):
        await bot.send_message(ali["id"], "burst")
    with pytest.raises(RetryAfter):
        await bot.send_message(ali["id"], "too fast")


async def test_chat_member_statuses(bot: Bot, world: Any) -> None:
    owner, admin, member, stranger = [await world.user(name) for name in ("O", "A", "M", "S")]
    group = await world.group("G", [member], admins=[admin], creator=owner["id"], bot_admin=True)
    statuses = {
        name: (await bot.get_chat_member(group["id"], user["id"])).status
        for name, user in [("owner", owner), ("admin", admin), ("member", member), ("stranger", stranger)]
    }
    assert statuses == {
        "owner": ChatMemberStatus.OWNER,
        "admin": ChatMemberStatus.ADMINISTRATOR,
        "member": ChatMemberStatus.MEMBER,
        "stranger": ChatMemberStatus.LEFT,
    }
    admins = await bot.get_chat_administrators(group["id"])
    assert [m.user.id for m in admins] == [owner["id"], admin["id"]]
    assert await bot.get_chat_member_count(group["id"]) == 4  # three people and the bot
    chat = await bot.get_chat(group["id"])
    assert chat.title == "G" and chat.type == "supergroup"


async def test_commands_per_scope_and_language(bot: Bot) -> None:
    await bot.set_my_commands([BotCommand("new", "بازی تازه")])
    await bot.set_my_commands([BotCommand("stop", "پایان")], scope=BotCommandScopeAllGroupChats(), language_code="fa")
    assert [c.command for c in await bot.get_my_commands()] == ["new"]
    scoped = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats(), language_code="fa")
    assert [c.command for c in scoped] == ["stop"]
    assert await bot.delete_my_commands() is True
    assert await bot.get_my_commands() == ()
    assert await bot.set_my_description("توضیح") is True
    assert await bot.set_my_short_description("کوتاه") is True
    assert await bot.set_my_name("دورهمی") is True
    assert (await bot.get_my_description()).description == "توضیح"


async def test_raw_http_encodings(client: httpx.AsyncClient, world: Any) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    as_json = await client.post(
        "/bot1:x/sendMessage",
        json={
            "chat_id": group["id"],
            "text": "json",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "a"}]]},
        },
    )
    assert as_json.json()["result"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "a"
    as_query = await client.get("/bot1:x/sendmessage", params={"chat_id": str(group["id"]), "text": "query"})
    assert as_query.json()["result"]["text"] == "query"
    unknown = await client.post("/bot1:x/sendSticker", data={"chat_id": group["id"]})
    assert unknown.status_code == 404 and unknown.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    missing = await client.post("/bot1:x/sendMessage", data={"text": "x"})
    assert missing.status_code == 400 and missing.json()["description"] == "Bad Request: chat_id is empty"


async def test_telegram_s_outage_answers_every_method_with_its_front_end_s_502(
    bot: Bot, world: Any, client: httpx.AsyncClient
) -> None:
    """While ``bot_api_down``: nginx's HTML 502 for any method (PTB: NetworkError "Bad Gateway"), logged; after it,
    the Bot API answers again."""
    user = await world.user("علی")
    assert (await client.post("/sandbox/config", json={"bot_api_down": "yes"})).status_code == 400
    assert (await client.post("/sandbox/config", json={"bot_api_down": True})).json()["bot_api_down"] is True
    raw = await client.post("/bot123:abc/getMe")
    assert raw.status_code == 502 and raw.headers["content-type"].startswith("text/html") and "Bad Gateway" in raw.text
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await bot.send_message(user["id"], "سلام")
    logged = (await client.get("/sandbox/log")).json()["items"]
    assert [(c["method"], c["status"]) for c in logged[-2:]] == [("getMe", 502), ("sendMessage", 502)]
    await client.post("/sandbox/config", json={"bot_api_down": False})
    assert (await bot.get_me()).is_bot
