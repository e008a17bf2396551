"""Telegram out of reach of a polling bot: PTB's own polling loop, against a Bot API that fails a few polls
in every way it can (the connection refused, a 5xx from Telegram or from a proxy before it, a time-out),
then answers. The log says so twice, not once a poll, and without a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import httpx
import pytest
from telegram.ext import Application, ApplicationBuilder

from bot.handlers.errors import on_error
from bot.plumbing.liveness import AnsweredRequest
from bot.plumbing.telegram_outage import TELEGRAM_REACH, TelegramReach, WatchedRequest

TOKEN = "123456:TEST-token"
ME = {"id": 123456, "is_bot": True, "first_name": "دورهمی", "username": "dorehami_bot"}
PRESS = {
    "update_id": 500,
    "message": {"message_id": 1, "date": 0, "chat": {"id": 1002, "type": "private"}, "text": "/help"},
}


def answer(result: Any, status: int = 200, description: str | None = None) -> httpx.Response:
    body: dict[str, Any] = {"ok": status == 200, "result": result} if status == 200 else {"ok": False}
    if description is not None:
        body["description"] = description
    return httpx.Response(status, content=json.dumps(body).encode())


class TelegramAway:
    """The Bot API: ``getUpdates`` fails as ``failures`` say, one poll each, then answers with an update."""

    def __init__(self, failures: list[Exception | httpx.Response]) -> None:
        self.failures = list(failures)
        self.polls = 0
        self.delivered = asyncio.Event()

    async def handle(self, request: httpx.Request) -> httpx.Response:
        method = request.url.path.rsplit("/", 1)[-1]
        if method == "getMe":
            return answer(ME)
        if method != "getUpdates":
            return answer(True)
        self.polls += 1
        if self.failures:
            failure = self.failures.pop(0)
            if isinstance(failure, Exception):
                raise failure
            return failure
        if self.delivered.is_set():
            await asyncio.sleep(0.05)  # a long poll with nothing new
            return answer([])
        self.delivered.set()
        return answer([PRESS])


def application(telegram: TelegramAway) -> Application:  # type: ignore[type-arg]
    """The bot's requests as app.py makes them, on a transport that is ``telegram``; the bot's error handler."""
    transport = {"transport": httpx.MockTransport(telegram.handle)}
    reach = TelegramReach()
    app = (
        ApplicationBuilder()
        .token(TOKEN)
        .request(AnsweredRequest(httpx_kwargs=transport))
        .get_updates_request(WatchedRequest(reach, polls=True, connection_pool_size=1, httpx_kwargs=transport))
        .build()
    )
    app.bot_data[TELEGRAM_REACH] = reach
    app.add_error_handler(on_error)
    return app


async def poll_through(telegram: TelegramAway) -> None:
    """Poll as ``Application.run_polling`` does (its error callback hands each failure to the error handlers)
    until the update sent after the outage has been fetched."""
    app = application(telegram)
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0.01,  # PTB's back-off grows from here: a test need not wait its seconds
            error_callback=lambda exc: app.create_task(app.process_error(update=None, error=exc)),
        )
        await asyncio.wait_for(telegram.delivered.wait(), 30)
        await app.updater.stop()
        await app.stop()


FAILURES: list[Exception | httpx.Response] = [
    httpx.ConnectError("connection refused"),
    answer(None, 502),  # a proxy before Telegram
    answer(None, 500, "Internal Server Error: restart"),
    httpx.ConnectError("connection refused"),
    httpx.ReadTimeout("timed out"),  # PTB retries a time-out at once, without its error callback
]


async def test_an_outage_is_logged_once_when_it_starts_and_once_when_it_ends(caplog: pytest.LogCaptureFixture) -> None:
    telegram = TelegramAway(FAILURES)
    with caplog.at_level(logging.WARNING):
        await poll_through(telegram)
    assert telegram.polls >= len(FAILURES) + 1
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.name, r.levelname) for r in records] == [
        ("bot.plumbing.telegram_outage", "ERROR"),
        ("bot.plumbing.telegram_outage", "WARNING"),
    ], [r.getMessage() for r in records]
    start, end = (r.getMessage() for r in records)
    assert start.startswith("Telegram is out of reach (NetworkError: httpx.ConnectError: connection refused)")
    assert end.startswith("Telegram answers again after ") and end.endswith(f"({len(FAILURES)} request(s) failed)")
    assert not any(r.exc_info for r in caplog.records)  # no traceback, at any level


async def test_a_time_out_alone_is_an_outage_too(caplog: pytest.LogCaptureFixture) -> None:
    """PTB retries a timed-out poll without telling anyone: the watch sees it all the same."""
    with caplog.at_level(logging.WARNING, logger="bot.plumbing.telegram_outage"):
        await poll_through(TelegramAway([httpx.ConnectTimeout("no route"), httpx.ReadTimeout("no answer")]))
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert "(TimedOut: " in caplog.records[0].getMessage() and "(2 request(s) failed)" in caplog.records[1].getMessage()


async def test_a_refusal_is_not_an_outage_and_the_error_handler_logs_it(caplog: pytest.LogCaptureFixture) -> None:
    """A 409 (another process polls with the token) is Telegram answering: the error handler logs it as before."""
    conflict = answer(None, 409, "Conflict: terminated by other getUpdates request")
    with caplog.at_level(logging.WARNING):
        await poll_through(TelegramAway([conflict]))
    assert [(r.name, r.levelname) for r in caplog.records if r.levelno >= logging.WARNING] == [
        ("bot.handlers.errors", "ERROR")
    ]
    assert "Conflict" in caplog.records[-1].getMessage()
