"""Redis outages: noticed once, waited out with back-off, and everything drawn late is repaired after.

The deadline poll is the bot's steady contact with Redis, so it tells when an outage starts and ends: the
first failed poll logs the outage once, later polls back off (0.5 s up to 2 s) instead of logging every
0.25 s, and the first poll that works logs the recovery once and has every active chat healed
(``bot.flow.recovery``): redraws given up meanwhile, a hand left behind, a result never announced. Other
code that meets the outage (a drawer, a handler) only says so here, and its chat is healed the same way,
even when the outage was too short for a poll to fail.
"""

from __future__ import annotations

import logging
import time

from redis._parsers import BaseParser
from redis.exceptions import ClusterDownError, OutOfMemoryError, ReadOnlyError, ResponseError, TryAgainError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from telegram.ext import ContextTypes

from bot.plumbing.store import StoreUnavailable

log = logging.getLogger(__name__)


class StoreBusy(ResponseError):
    """Redis's BUSY: a script ran too long and the server answers nothing else until it ends."""


# redis-py turns an error reply into a class by its first word, from one table, which has no class for BUSY:
# given one, it is an outage like the others below. (redis-py's parser module is private: the version is
# pinned in pyproject.toml, and tests/bot/test_outage.py fails if the table no longer gives BUSY this class.)
BaseParser.EXCEPTION_CLASSES.setdefault("BUSY", StoreBusy)

# Redis away, or answering "not now": a connection lost or refused (redis-py's, or the built-in
# ConnectionError a reset socket can raise unwrapped: not all of OSError, which also covers a picture Pillow
# cannot write or a full disk), a time-out, LOADING (a BusyLoadingError, a ConnectionError), READONLY (a
# replica, as after a failover), OOM (maxmemory with noeviction), TRYAGAIN, CLUSTERDOWN and MASTERDOWN (a
# cluster mid-failover), BUSY. Each is waited out and repaired after, the same way.
STORE_DOWN = (
    StoreUnavailable,
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
    ReadOnlyError,
    OutOfMemoryError,
    TryAgainError,
    ClusterDownError,
    StoreBusy,
)
FIRST_BACKOFF, MAX_BACKOFF = 0.5, 2.0
OUTAGE = "outage"


class Outage:
    """Whether Redis is away, since when, and which chats need healing once it is back."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.backoff = FIRST_BACKOFF
        self.heal_all = False  # an outage was seen: every active chat is checked when Redis answers
        self.chats: set[str] = set()  # chat tags whose redraw failed meanwhile

    def failed(self, error: BaseException) -> float:
        """A poll failed: log the outage if it is new; returns how long to wait before the next poll."""
        if self.since is None:
            self.since = time.monotonic()
            self.backoff = FIRST_BACKOFF
            log.error("Redis is unavailable (%s); waiting for it, moves get «try again» meanwhile", error)
        else:
            self.backoff = min(MAX_BACKOFF, self.backoff * 2)
        self.heal_all = True
        return self.backoff

    def met(self, tag: str | None = None) -> None:
        """Someone else met the outage (a redraw, a handler): heal ``tag``, or every chat, once Redis answers."""
        if tag is None:
            self.heal_all = True
        else:
            self.chats.add(tag)

    def pending(self) -> bool:
        """Whether an outage is on, or was met by someone else: the poll then checks that Redis takes a write
        before it calls the outage over (reads alone work on a replica and at maxmemory)."""
        return self.since is not None or self.heal_all or bool(self.chats)

    def answered(self) -> tuple[bool, set[str]]:
        """A poll worked: ends an outage (logged once). Returns (heal every chat?, the chats to heal) and
        forgets them, so each repair is asked for once."""
        if self.since is not None:
            log.warning("Redis answers again after %.1f s; bringing every active chat up to date", self._lasted())
            self.since = None
        wanted = (self.heal_all, self.chats)
        self.heal_all, self.chats = False, set()
        return wanted

    def _lasted(self) -> float:
        return time.monotonic() - self.since if self.since is not None else 0.0


def outage(context: ContextTypes.DEFAULT_TYPE) -> Outage:
    found = context.bot_data.get(OUTAGE)
    if not isinstance(found, Outage):
        found = context.bot_data[OUTAGE] = Outage()
    return found
