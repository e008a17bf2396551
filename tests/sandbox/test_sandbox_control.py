"""The control API contract: idle, the call log, reset, config, forums, the web chat and runners."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from telegram import Bot, BotCommand, InputMediaPhoto
from telegram.error import BadRequest

from sandbox.control import _WEBCHAT
from sandbox.server import SandboxServer, run_in_thread


async def test_idle_waits_for_in_flight_work(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    assert (await client.post("/sandbox/idle", json={"timeout": 2, "quiet": 0.05})).json() == {"idle": True}
    ali = await world.user("Ali")
    await world.say(ali["id"], ali, "/start")
    # an undelivered update keeps the sandbox busy
    busy = await client.post("/sandbox/idle", json={"timeout": 0.2, "quiet": 0.05})
    assert busy.json() == {"idle": False}

    async def fake_bot() -> None:
        assert len(await bot.get_updates(timeout=1)) == 1
        await asyncio.sleep(0.1)  # "thinking" between receiving and replying
        await bot.send_message(ali["id"], "خوش آمدی")

    task = asyncio.create_task(fake_bot())
    started = time.monotonic()
    idle = (await client.post("/sandbox/idle", json={"timeout": 5, "quiet": 0.3})).json()
    await task
    assert idle == {"idle": True} and time.monotonic() - started >= 0.3
    assert [m["text"] for m in await world.messages(ali["id"])] == ["/start", "خوش آمدی"]


async def test_log_records_calls_in_order_and_long_polls(
    bot: Bot, world: Any, client: httpx.AsyncClient, make_png: Callable[..., bytes]
) -> None:
    ali = await world.user("Ali")
    group = await world.group("G", [ali])
    before = (await client.get("/sandbox/log")).json()["next"]
    sent = await bot.send_photo(group["id"], make_png(4, 4), caption="c")
    await bot.edit_message_media(InputMediaPhoto(make_png(5, 5)), chat_id=group["id"], message_id=sent.message_id)
    page = (await client.get("/sandbox/log", params={"after": before})).json()
    send, edit = page["items"]
    assert page["next"] == edit["seq"] == send["seq"] + 1
    assert (send["method"], send["chat_id"], send["message_id"], send["status"]) == (
        "sendPhoto",
        group["id"],
        sent.message_id,
        200,
    )
    assert send["params"]["photo"] == {"file": sent.photo[-1].file_id}
    assert send["params"]["caption"] == "c"
    assert edit["method"] == "editMessageMedia" and edit["message_id"] == sent.message_id
    assert set(edit["params"]["media"]["media"]) == {"file"}
    assert isinstance(edit["t"], float) and edit["t"] >= send["t"]

    waiter = asyncio.create_task(client.get("/sandbox/log", params={"after": page["next"], "wait": 5}))
    await asyncio.sleep(0.1)
    assert not waiter.done()
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-5, "nowhere")
    failed = (await waiter).json()["items"]
    assert failed[0]["method"] == "sendMessage" and failed[0]["status"] == 400


async def test_reset_forgets_the_world_but_keeps_counting(bot: Bot, world: Any, client: httpx.AsyncClient) -> None:
    ali = await world.user("Ali")
    await world.say(ali["id"], ali, "hi")
    [first] = await bot.get_updates(timeout=0)
    assert (await client.post("/sandbox/reset")).json() == {"ok": True}
    assert (await client.get("/sandbox/users")).json() == []
    assert (await client.get("/sandbox/chats")).json() == []
    assert (await client.get("/sandbox/log")).json()["items"] == []
    again = await world.user("Ali again")
    assert again["id"] == ali["id"]  # ids restart for reproducible tests
    await world.say(again["id"], again, "hi again")
    [update] = await bot.get_updates(offset=first.update_id + 1, timeout=0)
    assert update.update_id > first.update_id  # ...but update ids never go back
    assert update.message is not None and update.message.text == "hi again"


async def test_control_api_shapes_and_errors(world: Any, client: httpx.AsyncClient) -> None:
    ali = await world.user("Ali", username="ali", last_name="Ahmadi")
    assert ali == {
        "id": 1001,
        "is_bot": False,
        "first_name": "Ali",
        "last_name": "Ahmadi",
        "username": "ali",
        "started": False,
        "blocked": False,
    }
    sara = await world.user("Sara")
    group = await world.group("G", [sara], admins=[ali], creator=ali["id"])
    assert group["id"] == -1001000000001 and group["type"] == "supergroup"
    assert set(group["members"]) == {ali["id"], sara["id"]} and group["admins"] == [ali["id"]]
    second = await world.group("H", [sara])
    assert second["id"] == -1001000000002
    await world.say(sara["id"], sara, "hi")
    chats = (await client.get("/sandbox/chats")).json()
    assert [c["id"] for c in chats] == [group["id"], second["id"], sara["id"]]
    assert chats[2]["type"] == "private"

    outsider = await world.user("Out")
    for body in (
        {"chat_id": group["id"], "from_id": outsider["id"], "text": "x"},  # not a member
        {"chat_id": sara["id"], "from_id": ali["id"], "text": "x"},  # someone else's private chat
        {"chat_id": group["id"], "from_id": 999, "text": "x"},  # unknown user
        {"chat_id": group["id"], "from_id": ali["id"], "text": ""},
    ):
        response = await client.post("/sandbox/messages", json=body)
        assert response.status_code == 400 and response.json()["ok"] is False, body
    assert (await client.post("/sandbox/users/999/block", json={})).status_code == 404
    assert (await client.post("/sandbox/chats", json={"title": "X", "members": [999]})).status_code == 400
    assert (await client.get(f"/sandbox/chats/{outsider['id']}/messages")).json() == []
    assert (await client.get("/sandbox/chats/-5/messages")).status_code == 404


async def test_forum_topics_and_replies(bot: Bot, world: Any) -> None:
    ali = await world.user("Ali")
    forum = await world.group("Forum", [ali], is_forum=True)
    topic = await world.topic(forum["id"], ali, "بازی")
    thread = topic["message_thread_id"]
    asked = await world.say(forum["id"], ali, "/new", message_thread_id=thread)
    assert asked["message_thread_id"] == thread and asked["reply_to_message_id"] == thread
    updates = await bot.get_updates(timeout=0)
    created, message = updates[-2].message, updates[-1].message
    assert created is not None and created.forum_topic_created is not None
    assert created.forum_topic_created.name == "بازی" and created.message_id == thread
    assert message is not None and message.message_thread_id == thread and message.is_topic_message
    assert message.chat.is_forum is True
    # every message in a topic replies to the topic's first message unless it replies to another
    assert message.reply_to_message is not None and message.reply_to_message.message_id == thread
    assert message.reply_to_message.forum_topic_created is not None
    reply = await bot.send_message(forum["id"], "باشه", reply_to_message_id=asked["message_id"])
    assert reply.message_thread_id == thread and reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == asked["message_id"]
    stored = await world.messages(forum["id"])
    assert stored[-1]["message_thread_id"] == thread and stored[-1]["reply_to_message_id"] == asked["message_id"]


async def test_web_chat_page_and_bot_info(client: httpx.AsyncClient, bot: Bot) -> None:
    page = await client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/sandbox/press" in page.text and 'dir="auto"' in page.text
    await bot.set_my_commands([BotCommand("new", "بازی تازه")])
    info = (await client.get("/sandbox/bot")).json()
    assert info["username"] == "dorehami_bot"
    assert info["commands"][0]["commands"] == [{"command": "new", "description": "بازی تازه"}]


def test_web_chat_speaks_persian_right_to_left() -> None:
    """Issue #24 §5: every word the page writes for people is Persian; commands, ids and code are its only Latin."""
    page = _WEBCHAT.read_text(encoding="utf-8")
    assert '<html lang="fa" dir="rtl">' in page
    body = page.split("<body>")[1].split("<script>")[0]
    texts = page.split("/* texts: begin */")[1].split("/* texts: end */")[0]
    said = [
        *re.split(r"<[^>]*>", body),  # the text between tags
        *re.findall(r'(?:placeholder|title|aria-label)="([^"]*)"', body),
        *re.findall(r'"((?:[^"\\]|\\.)*)"', texts),  # the page's sentences and its Persian errors
        *re.findall(r"`([^`]*)`", texts),
    ]
    assert len(said) > 60
    for text in said:
        words = re.sub(r"\$\{[^}]*\}|&#?\w+;|/[a-z_]+", "", text)  # placeholders, entities, /commands
        assert not re.search(r"[A-Za-z]{2,}", words), text
    assert re.search(r"[\u0600-\u06FF]", "".join(said))


async def test_server_runs_on_the_callers_loop_and_stops_promptly() -> None:
    server = SandboxServer()
    url = await server.start(port=0)
    async with httpx.AsyncClient(base_url=url) as http:
        poll = asyncio.create_task(http.get("/bot1:x/getUpdates", params={"timeout": 30}))
        await asyncio.sleep(0.1)
        started = time.monotonic()
        await server.stop()
        assert time.monotonic() - started < 3
        assert (await poll).json() == {"ok": True, "result": []}


def test_run_in_thread_serves_from_its_own_loop() -> None:
    with run_in_thread() as handle:
        assert handle.url.startswith("http://127.0.0.1:")
        me = httpx.get(f"{handle.url}/bot1:x/getMe").json()
        assert me["result"]["username"] == "dorehami_bot"
    handle.stop()  # a second stop is harmless
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{handle.url}/bot1:x/getMe")
