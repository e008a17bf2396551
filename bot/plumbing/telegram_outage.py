"""Telegram's Bot API out of reach of a polling bot: logged once when it starts, once when it ends.

PTB's updater asks for updates in a loop that retries a failed ``getUpdates`` by itself (at once after a
time-out, else after 1 s growing to 30 s) and hands each failure but a time-out to the error handlers, which
logged every one as an error with its traceback: a minute without Telegram buried the log under a dozen of
them, and a time-out was not logged at all. Here the request that carries ``getUpdates`` (and nothing else)
watches every poll: the first that cannot reach Telegram (a network error, a time-out, a 5xx: Telegram or a
proxy before it failing) logs the outage, the first answered after it logs its end with how long it lasted
and how many polls failed, and the error handler leaves alone the failures the watch has already seen
(``Polling.seen``), as it does a Redis outage (``bot/plumbing/outage.py``). Nothing else changes: PTB keeps
polling with its own back-off, and updates sent meanwhile wait at Telegram's end until they are fetched.
"""

from __future__ import annotations

import json
import logging
import time
from http import HTTPStatus
from typing import Any

from telegram.error import BadRequest, NetworkError
from telegram.ext import ContextTypes

from bot.plumbing.liveness import AnsweredRequest

log = logging.getLogger(__name__)

POLLING = "polling"


class Polling:
    """Whether polling reaches Telegram, since when not, and the failure it last met."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0
        self.last: BaseException | None = None

    def failed(self, error: BaseException) -> None:
        """A poll did not reach Telegram: logged if it is the first of an outage."""
        self.last = error
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            log.error(
                "Telegram is out of reach (%s: %s); polling goes on, updates wait at Telegram's end meanwhile",
                type(error).__name__,
                error,
            )

    def answered(self, asked: float) -> None:
        """A poll asked at ``asked`` (``time.monotonic``) got Telegram's answer: ends an outage, logged once. A
        long poll is answered only when updates come or its time is up, seconds after Telegram took it: the
        outage lasted until it was asked."""
        if self.since is not None:
            lasted = max(0.0, asked - self.since)
            log.warning("Telegram answers again after %.1f s (%d poll(s) failed)", lasted, self.failures)
        self.since, self.failures = None, 0

    def seen(self, error: object) -> bool:
        """Whether ``error`` is a poll's failure already logged here (PTB hands it to the error handlers too)."""
        return error is not None and error is self.last


def polling(context: ContextTypes.DEFAULT_TYPE) -> Polling:
    """The watch of this bot's polling (one that never polls has one too: it sees nothing)."""
    found = context.bot_data.get(POLLING)
    if not isinstance(found, Polling):
        found = context.bot_data[POLLING] = Polling()
    return found


def out_of_reach(error: BaseException) -> bool:
    """A network error or a time-out: Telegram not reached (a BadRequest is PTB's NetworkError too, but an answer)."""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


class PollingRequest(AnsweredRequest):
    """PTB's HTTP client for ``getUpdates``, telling ``polling`` how each poll went. A 5xx becomes the
    NetworkError PTB would raise for it, raised here, so that the error handler meets the very error the watch
    saw."""

    def __init__(self, polling: Polling, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.polling = polling

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        asked = time.monotonic()
        try:
            code, payload = await super().do_request(*args, **kwargs)
        except NetworkError as exc:
            if out_of_reach(exc):
                self.polling.failed(exc)
            raise
        if code >= HTTPStatus.INTERNAL_SERVER_ERROR:
            error = NetworkError(_described(code, payload))
            self.polling.failed(error)
            raise error
        self.polling.answered(asked)
        return code, payload


def _described(code: int, payload: bytes) -> str:
    """As PTB words a failed answer: Telegram's description if the body has one, else the status."""
    try:
        description = json.loads(payload).get("description")
    except (ValueError, AttributeError):
        description = None
    if isinstance(description, str) and description:
        return description
    try:
        return f"{HTTPStatus(code).phrase} ({code})"
    except ValueError:
        return f"Unknown HTTPError ({code})"
