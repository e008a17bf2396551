"""The sandbox as one object: world, update queue, webhook, call log, limits and activity tracking."""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sandbox.calllog import CallLog
from sandbox.clock import TelegramClock
from sandbox.ratelimit import RateLimiter
from sandbox.signals import Signal
from sandbox.state import BOT_FIRST_NAME, World
from sandbox.updates import PendingUpdate, UpdateQueue
from sandbox.webapps import MiniApp
from sandbox.webhook import WebhookDelivery

# Seconds a callback query waits for its answer; later, answerCallbackQuery fails ("query is too old"). Real
# seconds, whatever the time scale: they bound the bot's own work (reading, deciding, writing), which a faster
# Telegram clock does not make faster; the config may only shorten them.
QUERY_ANSWER_SECONDS = 15.0


@dataclass
class CallbackQueryRecord:
    """A press waiting for (or having received) the bot's answerCallbackQuery; ``pressed`` is
    ``time.monotonic()`` then."""

    id: str
    chat_id: int
    message_id: int
    pressed: float
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    late: dict[str, Any] | None = None  # an answer that came after the wait (refused): its text and alert
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class BotProfile:
    """Settings the bot makes about itself; they survive a reset, like a real bot's."""

    commands: dict[tuple[str, str], list[dict[str, str]]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    short_descriptions: dict[str, str] = field(default_factory=dict)
    privacy: bool = True  # BotFather's /setprivacy, on by default; groups joined afterwards follow it
    apps: dict[str, MiniApp] = field(default_factory=dict)  # BotFather's /newapp, by short name
    menu_button: dict[str, Any] | None = None  # setChatMenuButton without chat_id: every chat's default
    token: str | None = None  # the token of the bot's latest Bot API call: what Mini App launch data is signed with

    def name(self, language_code: str) -> str:
        return self.names.get(language_code) or self.names.get("") or BOT_FIRST_NAME


class Sandbox:
    """Everything the HTTP routes share. Lives on one event loop; no locking is needed."""

    def __init__(self, rate_limiter: RateLimiter | None = None, time_scale: float = 1.0) -> None:
        self.clock = TelegramClock(time_scale)
        self.world = World()
        self.queue = UpdateQueue()
        self.log = CallLog()
        self.limiter = rate_limiter or RateLimiter(clock=self.clock)
        self.limiter.clock = self.clock
        self.profile = BotProfile()
        self.webhook = WebhookDelivery(self.queue, self.touch, held=lambda: self.bot_api_down)
        self.queries: dict[str, CallbackQueryRecord] = {}
        self.answer_window = QUERY_ANSWER_SECONDS
        # Telegram's own outage, for tests: while set, every Bot API call gets the 502 its front end gives then
        self.bot_api_down = False
        self.changes = Signal()
        self.version = 0
        self.in_flight = 0
        self.last_activity = time.monotonic()
        self.closing = False
        self.poll_generation = 0
        self._query_numbers = itertools.count(1)
        self._query_prefix = secrets.randbelow(9000) + 1000

    def touch(self) -> None:
        """Note that something happened: idle waits restart and the web chat refreshes."""
        self.last_activity = time.monotonic()
        self.version += 1
        self.changes.fire()

    def push_update(self, kind: str, payload: dict[str, Any], chat_id: int | None) -> PendingUpdate | None:
        update = self.queue.push(kind, payload, chat_id)
        self.touch()
        return update

    def new_query(self, chat_id: int, message_id: int) -> CallbackQueryRecord:
        query_id = f"{self._query_prefix}{next(self._query_numbers):015d}"
        record = CallbackQueryRecord(query_id, chat_id, message_id, time.monotonic())
        self.queries[query_id] = record
        return record

    def query_expired(self, record: CallbackQueryRecord) -> bool:
        """Whether the press waited longer than Telegram lets a callback query wait for its answer."""
        return time.monotonic() - record.pressed > self.answer_window

    def query_wait(self, record: CallbackQueryRecord) -> float:
        """Seconds left until the query can no longer be answered."""
        return max(0.0, record.pressed + self.answer_window - time.monotonic())

    def has_waiting_updates(self) -> bool:
        if self.webhook.active:
            return bool(self.queue.items)
        return self.queue.has_undelivered()

    async def wait_idle(self, within: float, quiet: float) -> bool:
        """True once nothing is queued or in flight and nothing happened for ``quiet`` seconds.

        False if that did not happen ``within`` seconds.
        """
        deadline = time.monotonic() + within
        while True:
            now = time.monotonic()
            if not self.has_waiting_updates() and self.in_flight == 0 and now - self.last_activity >= quiet:
                return True
            if now >= deadline or self.closing:
                return False
            await asyncio.sleep(min(0.01, deadline - now))

    def reset(self) -> None:
        """Forget users, chats, messages, updates, presses and the log; keep settings and counters."""
        self.world.reset()
        self.queue.clear()
        self.log.clear()
        self.limiter.reset()
        for record in self.queries.values():
            record.done.set()
        self.queries.clear()
        self.touch()

    def begin_close(self) -> None:
        """Wake every long-poll so the server can shut down promptly."""
        self.closing = True
        self.queue.changed.fire()
        self.log.changed.fire()
        self.changes.fire()
        for record in self.queries.values():
            record.done.set()

    async def close(self) -> None:
        self.begin_close()
        await self.webhook.close()
