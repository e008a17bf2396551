"""Telegram's flood limits, so the bot meets 429s here before it meets them in production.

What is counted (``sandbox/README.md`` has the sources): new messages and edits alike, against one budget per
chat (about 20 a minute in a group; 1 a second in a private chat after a short burst) and about 30 a second
overall. Answers to callback queries and other requests are not limited.

How a 429 is computed, in Telegram seconds (``sandbox/clock.py``):

- A request that finds a budget full is refused with ``retry_after`` = the whole seconds until the budget has
  room, at least 1. A refused request consumes nothing.
- A refusal by the chat's own budget starts a flood wait on that chat: every request to it is refused until
  the wait is over, whatever the budget says. Each further refusal of the chat within ``FORGIVE_AFTER``
  doubles the wait it is told (a bot that keeps hitting the limit waits 2, 4, 8 times as long), and a
  request sent before the wait is over (the bot ignored ``retry_after``) doubles what was left. Waits are
  capped at ``MAX_WAIT``. After ``FORGIVE_AFTER`` without a 429 in the chat, one doubling is forgiven.
- A refusal by the overall budget alone is no chat's fault: no flood wait, no escalation.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import asdict, dataclass, fields
from typing import Any

from sandbox.clock import TelegramClock
from sandbox.errors import too_many_requests

FORGIVE_AFTER = 600.0  # Telegram seconds without a 429 in a chat that forgive one doubling of its waits
MAX_WAIT = 3600  # the longest flood wait the sandbox tells, in Telegram seconds
EPSILON = 1e-6  # Telegram seconds: float rounding of a scaled clock, not a kinder rule


@dataclass
class RateLimitConfig:
    """The limits in force; ``None`` for the edit limit means no separate limit for edits.

    ``edits_count_as_messages`` (Telegram's behaviour, so the default): every edit counts like a new message
    in its chat's and the overall budgets, as well as against ``edits_per_minute_per_chat`` if that is set.
    """

    enabled: bool = True
    group_per_minute: int = 20
    private_per_second: float = 1.0
    private_burst: int = 3
    global_per_second: int = 30
    edits_per_minute_per_chat: int | None = None
    edits_count_as_messages: bool = True

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def update(self, changes: dict[str, Any]) -> None:
        """Apply a partial update from the control API, checking every value's type before changing any."""
        known = {f.name for f in fields(self)}
        for key, value in changes.items():
            if key not in known:
                raise ValueError(f"unknown rate limit setting {key!r}")
            if key in ("enabled", "edits_count_as_messages"):
                if not isinstance(value, bool):
                    raise ValueError(f"{key} must be a boolean")
            elif key == "edits_per_minute_per_chat" and value is None:
                pass
            elif isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"{key} must be a positive number")
        for key, value in changes.items():
            setattr(self, key, value)


class _SlidingWindow:
    """At most ``limit`` events in any ``period`` seconds."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def retry_after(self, now: float, limit: float, period: float) -> float:
        while self.times and self.times[0] <= now - period + EPSILON:
            self.times.popleft()
        if len(self.times) < limit:
            return 0.0
        return self.times[len(self.times) - int(limit)] + period - now

    def record(self, now: float) -> None:
        self.times.append(now)


class _TokenBucket:
    """A steady rate with a small burst allowance, as Telegram allows in private chats."""

    def __init__(self, now: float, capacity: float) -> None:
        self.tokens = capacity
        self.updated = now

    def retry_after(self, now: float, rate: float, capacity: float) -> float:
        self.tokens = min(capacity, self.tokens + (now - self.updated) * rate)
        self.updated = now
        return 0.0 if self.tokens >= 1 - EPSILON else (1 - self.tokens) / rate

    def record(self) -> None:
        self.tokens -= 1


@dataclass
class _Flood:
    """A chat's flood wait: refused until ``until``; ``doublings`` escalate the next waits."""

    until: float = -math.inf
    doublings: int = 0
    last: float = -math.inf

    def forgive(self, now: float) -> None:
        if self.doublings:
            self.doublings = max(0, self.doublings - int((now - self.last) // FORGIVE_AFTER))


class RateLimiter:
    """Checks and records sends and edits; a refused call consumes nothing."""

    def __init__(self, config: RateLimitConfig | None = None, clock: TelegramClock | None = None) -> None:
        self.config = config or RateLimitConfig()
        self.clock = clock or TelegramClock()
        self.reset()

    def reset(self) -> None:
        self._global = _SlidingWindow()
        self._groups: dict[int, _SlidingWindow] = {}
        self._privates: dict[int, _TokenBucket] = {}
        self._edits: dict[int, _SlidingWindow] = {}
        self._floods: dict[int, _Flood] = {}

    def check_send(self, chat_id: int, private: bool) -> None:
        """Raise a 429 if a new message in this chat would break a limit, else count it."""
        if self.config.enabled:
            self._check(chat_id, private, edit=False)

    def check_edit(self, chat_id: int) -> None:
        """An edit: counted like a new message when edits count as messages, and against the edit limit."""
        config = self.config
        if config.enabled and (config.edits_count_as_messages or config.edits_per_minute_per_chat is not None):
            self._check(chat_id, chat_id > 0, edit=True)  # user ids are positive, groups' negative

    def _check(self, chat_id: int, private: bool, edit: bool) -> None:
        config = self.config
        now = self.clock.now()
        flood = self._floods.get(chat_id)
        if flood is not None and now < flood.until:  # sent before the wait it was told was over
            self._refuse(flood, now, 2 * (flood.until - now))
        as_message = not edit or config.edits_count_as_messages
        overall = self._global.retry_after(now, config.global_per_second, 1.0) if as_message else 0.0
        own = 0.0
        if as_message and private:
            bucket = self._privates.setdefault(chat_id, _TokenBucket(now, config.private_burst))
            own = bucket.retry_after(now, config.private_per_second, config.private_burst)
        elif as_message:
            own = self._groups.setdefault(chat_id, _SlidingWindow()).retry_after(now, config.group_per_minute, 60.0)
        edit_limit = config.edits_per_minute_per_chat
        if edit and edit_limit is not None:
            own = max(own, self._edits.setdefault(chat_id, _SlidingWindow()).retry_after(now, edit_limit, 60.0))
        if own > 0:
            flood = self._floods.setdefault(chat_id, _Flood())
            flood.forgive(now)
            flood.doublings += 1
            self._refuse(flood, now, max(own, overall) * 2 ** (flood.doublings - 1))
        if overall > 0:
            raise too_many_requests(self._whole(overall), self.clock.scale)
        if as_message:
            self._global.record(now)
            if private:
                self._privates[chat_id].record()
            else:
                self._groups[chat_id].record(now)
        if edit and edit_limit is not None:
            self._edits[chat_id].record(now)

    def _refuse(self, flood: _Flood, now: float, wait: float) -> None:
        seconds = min(MAX_WAIT, self._whole(wait))
        flood.until = now + seconds
        flood.last = now
        raise too_many_requests(seconds, self.clock.scale)

    @staticmethod
    def _whole(seconds: float) -> int:
        """Telegram tells whole seconds, at least one."""
        return max(1, math.ceil(seconds - 1e-9))
