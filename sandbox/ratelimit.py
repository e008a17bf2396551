"""Telegram's flood limits, so the bot meets 429s here before it meets them in production."""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import asdict, dataclass, fields
from typing import Any

from sandbox.errors import too_many_requests


@dataclass
class RateLimitConfig:
    """The limits in force; ``None`` for the edit limit means unlimited.

    ``edits_count_as_messages``: Telegram's developers say a bot's edits share the limits of its messages
    (about 20 a minute in a group); when set, every edit counts like a new message in its chat's and the
    global limits, as well as against ``edits_per_minute_per_chat`` if that is set too.
    """

    enabled: bool = True
    group_per_minute: int = 20
    private_per_second: float = 1.0
    private_burst: int = 3
    global_per_second: int = 30
    edits_per_minute_per_chat: int | None = None
    edits_count_as_messages: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def update(self, changes: dict[str, Any]) -> None:
        """Apply a partial update from the control API, checking each value's type."""
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
            setattr(self, key, value)


class _SlidingWindow:
    """At most ``limit`` events in any ``period`` seconds."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def retry_after(self, now: float, limit: float, period: float) -> float:
        while self.times and self.times[0] <= now - period:
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
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / rate

    def record(self) -> None:
        self.tokens -= 1


class RateLimiter:
    """Checks and records sends and edits; a refused call consumes nothing."""

    def __init__(self, config: RateLimitConfig | None = None) -> None:
        self.config = config or RateLimitConfig()
        self.reset()

    def reset(self) -> None:
        self._global = _SlidingWindow()
        self._groups: dict[int, _SlidingWindow] = {}
        self._privates: dict[int, _TokenBucket] = {}
        self._edits: dict[int, _SlidingWindow] = {}

    def check_send(self, chat_id: int, private: bool) -> None:
        """Raise a 429 if a new message in this chat would break a limit, else count it."""
        config = self.config
        if not config.enabled:
            return
        now = time.monotonic()
        wait = self._global.retry_after(now, config.global_per_second, 1.0)
        if private:
            bucket = self._privates.setdefault(chat_id, _TokenBucket(now, config.private_burst))
            wait = max(wait, bucket.retry_after(now, config.private_per_second, config.private_burst))
        else:
            window = self._groups.setdefault(chat_id, _SlidingWindow())
            wait = max(wait, window.retry_after(now, config.group_per_minute, 60.0))
        if wait > 0:
            raise too_many_requests(max(1, math.ceil(wait)))
        self._global.record(now)
        if private:
            self._privates[chat_id].record()
        else:
            self._groups[chat_id].record(now)

    def check_edit(self, chat_id: int) -> None:
        """Edits are unlimited unless a per-chat limit is configured or they count as messages."""
        limit = self.config.edits_per_minute_per_chat
        if not self.config.enabled or (limit is None and not self.config.edits_count_as_messages):
            return
        now = time.monotonic()
        window = self._edits.setdefault(chat_id, _SlidingWindow())
        wait = window.retry_after(now, limit, 60.0) if limit is not None else 0.0
        if wait > 0:
            raise too_many_requests(max(1, math.ceil(wait)))
        if self.config.edits_count_as_messages:
            self.check_send(chat_id, private=chat_id > 0)  # user ids are positive, groups' negative
        window.record(now)
