"""Every Bot API request counted by method and outcome and timed (bot/plumbing/bot_api.py), against the sandbox,
which answers as Telegram does: 429s with ``retry_after`` past a group's budget, 403 for a user who never
started the bot, 400 for an edit of a message that is not there."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client import REGISTRY
from telegram import Bot
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

from bot.plumbing.bot_api import MeasuredRequest, method_of, outcome_of, retry_after
from bot.plumbing.pacing import retry_seconds
from sandbox.server import SandboxServer

TOKEN = "123:abc"


def requests(method: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("dorehami_telegram_requests_total", {"method": method, "outcome": outcome}) or 0.0


def timed(method: str) -> float:
    return REGISTRY.get_sample_value("dorehami_telegram_request_seconds_count", {"method": method}) or 0.0


def told_to_wait(method: str) -> float:
    return REGISTRY.get_sample_value("dorehami_telegram_retry_after_seconds_total", {"method": method}) or 0.0


@pytest.fixture
async def sandbox() -> AsyncIterator[SandboxServer]:
    async with SandboxServer() as running:
        yield running


@pytest.fixture
async def bot(sandbox: SandboxServer) -> AsyncIterator[Bot]:
    tg = Bot(TOKEN, base_url=f"{sandbox.url}/bot", request=MeasuredRequest(connection_pool_size=8))
    async with tg:
        yield tg


async def _control(sandbox: SandboxServer, path: str, body: dict[str, object]) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=sandbox.url) as http:
        response = await http.post(path, json=body)
        response.raise_for_status()
        return dict(response.json())


async def test_answers_are_counted_by_method_and_outcome(sandbox: SandboxServer, bot: Bot) -> None:
    ali = await _control(sandbox, "/sandbox/users", {"first_name": "علی"})
    group = await _control(sandbox, "/sandbox/chats", {"title": "G", "members": [ali["id"]], "admins": []})
    sent, forbidden = requests("sendMessage", "ok"), requests("sendMessage", "403")
    bad = requests("editMessageText", "400")
    seconds = timed("sendMessage")

    await bot.send_message(group["id"], "سلام")
    with pytest.raises(Forbidden):  # a user who never opened a chat with the bot
        await bot.send_message(ali["id"], "سلام")
    with pytest.raises(BadRequest):
        await bot.edit_message_text("x", chat_id=group["id"], message_id=999_999)

    assert requests("sendMessage", "ok") == sent + 1
    assert requests("sendMessage", "403") == forbidden + 1
    assert requests("editMessageText", "400") == bad + 1
    assert timed("sendMessage") == seconds + 2


async def test_a_429_is_counted_with_the_seconds_telegram_asks_to_wait(
    sandbox: SandboxServer, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as bot/cli.py sets it
    ali = await _control(sandbox, "/sandbox/users", {"first_name": "علی"})
    group = await _control(sandbox, "/sandbox/chats", {"title": "G", "members": [ali["id"]], "admins": []})
    refused, waited, sent = requests("sendMessage", "429"), told_to_wait("sendMessage"), requests("sendMessage", "ok")
    wait = None
    for n in range(60):  # a group's budget is 20 a minute: the sandbox refuses well before 60
        try:
            await bot.send_message(group["id"], f"پیام {n}")
        except RetryAfter as exc:
            wait = retry_seconds(exc)
            break
    assert wait is not None, "the sandbox never refused"
    assert requests("sendMessage", "429") == refused + 1
    assert requests("sendMessage", "ok") == sent + n
    assert told_to_wait("sendMessage") == pytest.approx(waited + wait) and wait > 0


async def test_no_answer_is_a_network_outcome() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    before = requests("getMe", "network")
    tg = Bot(TOKEN, base_url=f"http://127.0.0.1:{port}/bot", request=MeasuredRequest())
    with pytest.raises(NetworkError):
        await tg.get_me()
    await tg.shutdown()
    assert requests("getMe", "network") == before + 1


def test_labels_are_bounded() -> None:
    assert method_of("https://api.telegram.org/bot1:x/editMessageMedia") == "editMessageMedia"
    assert method_of("http://127.0.0.1:1/bot1:x/sendPhoto?x=1") == "sendPhoto"
    assert method_of("http://127.0.0.1:1/bot1:x/send-%2F..") == "other"
    assert [outcome_of(c) for c in (200, 400, 403, 418, 429, 502)] == ["ok", "400", "403", "4xx", "429", "5xx"]
    assert retry_after(b'{"ok":false,"error_code":429,"parameters":{"retry_after":7}}') == 7.0
    assert retry_after(b"not json") == 0.0 and retry_after(b'{"parameters":{"retry_after":true}}') == 0.0
