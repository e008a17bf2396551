"""Telegram's Bot API out of reach: logged once when it starts, once when it ends, and what it kept from the
screen drawn again after.

PTB's updater asks for updates in a loop that retries a failed ``getUpdates`` by itself (at once after a
time-out, else after 1 s growing to 30 s) and hands each failure but a time-out to the error handlers, which
logged every one as an error with its traceback: a minute without Telegram buried the log under a dozen of
them, and a time-out was not logged at all. Here the requests watch Telegram (``WatchedRequest``: the one that
carries ``getUpdates`` and the one that carries every other call): the first that cannot reach it (a network
error, a 5xx: Telegram or a proxy before it failing; for a poll a time-out too) logs the outage, the first
answered after it logs its end with how long it lasted and how many requests failed, and the error handler
leaves alone the poll failures the watch has already seen (``TelegramReach.seen``), as it does a Redis outage
(``bot/plumbing/outage.py``). A drawer or a notice that met the outage notes its chat (``met``) with one line
and no traceback; the deadline poll redraws those chats once Telegram answers (``to_heal``), or tries them every
``PROBE_SECONDS`` meanwhile: a webhook worker has no poll to tell it Telegram is back, its redraw asks. PTB keeps
polling with its own back-off, and updates sent meanwhile wait at Telegram's end until they are fetched.
"""

from __future__ import annotations

import json
import logging
import time
from http import HTTPStatus
from typing import Any

from telegram.error import BadRequest, NetworkError, TimedOut
from telegram.ext import ContextTypes

from bot.plumbing.liveness import AnsweredRequest

log = logging.getLogger(__name__)

TELEGRAM_REACH = "telegram reach"
PROBE_SECONDS = 5.0  # while Telegram does not answer, chats noted are redrawn this often (the redraw asks)


class TelegramReach:
    """Whether Telegram answers, since when not, the failure it last met, and the chats to draw again."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0
        self.last: BaseException | None = None
        self.chats: set[str] = set()  # chat tags a drawer or a notice could not reach Telegram for
        self._probed = 0.0

    def failed(self, error: BaseException) -> None:
        """A request did not reach Telegram: logged if it is the first of an outage."""
        self.last = error
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            log.error(
                "Telegram is out of reach (%s: %s); updates wait at Telegram's end, boards are drawn when it answers",
                type(error).__name__,
                error,
            )

    def answered(self, asked: float) -> None:
        """A request asked at ``asked`` (``time.monotonic``) got Telegram's answer: ends an outage, logged once. A
        long poll is answered only when updates come or its time is up, seconds after Telegram took it: the
        outage lasted until it was asked. An answer to a request asked before the outage began (a long poll
        taken just before) says nothing of now."""
        if self.since is not None:
            if asked < self.since:
                return
            log.warning("Telegram answers again after %.1f s (%d request(s) failed)", asked - self.since, self.failures)
        self.since, self.failures = None, 0

    def seen(self, error: object) -> bool:
        """Whether ``error`` is a failure already logged here (PTB hands a poll's to the error handlers too)."""
        return error is not None and error is self.last

    def met(self, tag: str) -> None:
        """A drawer or a notice of chat ``tag`` could not reach Telegram: it is drawn again later."""
        self.chats.add(tag)

    def to_heal(self) -> set[str]:
        """The chats to draw again now, forgotten here: once Telegram answers, or every ``PROBE_SECONDS`` while
        it does not (a failed redraw notes its chat again)."""
        now = time.monotonic()
        if not self.chats or (self.since is not None and now - self._probed < PROBE_SECONDS):
            return set()
        self._probed = now
        chats, self.chats = self.chats, set()
        return chats


def telegram_reach(context: ContextTypes.DEFAULT_TYPE) -> TelegramReach:
    """This bot's watch of Telegram (a bot built without one gets one: it sees nothing)."""
    found = context.bot_data.get(TELEGRAM_REACH)
    if not isinstance(found, TelegramReach):
        found = context.bot_data[TELEGRAM_REACH] = TelegramReach()
    return found


def out_of_reach(error: BaseException) -> bool:
    """A network error or a time-out: Telegram not reached (a BadRequest is PTB's NetworkError too, but an answer)."""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


class WatchedRequest(AnsweredRequest):
    """PTB's HTTP client, telling ``reach`` how each request went. A 5xx becomes the NetworkError PTB would raise
    for it, raised here, so that the error handler meets the very error the watch saw. ``polls``: this client
    carries ``getUpdates``, whose time-out is Telegram silent too (a send that times out may have been taken,
    and a full connection pool times out as well: not counted)."""

    def __init__(self, reach: TelegramReach, *, polls: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reach = reach
        self.polls = polls

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        asked = time.monotonic()
        try:
            code, payload = await super().do_request(*args, **kwargs)
        except NetworkError as exc:
            if out_of_reach(exc) and (self.polls or not isinstance(exc, TimedOut)):
                self.reach.failed(exc)
            raise
        if code >= HTTPStatus.INTERNAL_SERVER_ERROR:
            error = NetworkError(_described(code, payload))
            self.reach.failed(error)
            raise error
        self.reach.answered(asked)
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
