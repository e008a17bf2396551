"""When Redis and Telegram last answered this process: what its health check goes by, beside its tasks.

The deadline poll tells when Redis answered (a poll that worked, a write too while an outage is on: four times
a second when all is well); in polling mode every answer of the Bot API tells when Telegram did (a long poll
returns at least every ``POLL_TIMEOUT`` seconds even with nothing new). The heartbeat writes both, with the
tasks down (``bot/plumbing/supervise.py``), and ``dorehami health`` fails when either has been silent longer
than ``HEALTH_SILENT_SECONDS``. In webhook mode Telegram calls the worker, and a quiet hour has no calls: only
Redis and the tasks count there.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from bot.plumbing.bot_api import MeasuredRequest

Peer = Literal["redis", "telegram"]
POLL_TIMEOUT = 10  # seconds a long poll waits for updates (run_polling's timeout)

_answered: dict[Peer, float] = {}


def answered(peer: Peer) -> None:
    _answered[peer] = time.time()


def last_answers() -> dict[Peer, float]:
    """When each peer last answered, as far as this process knows (a peer not asked yet is not listed)."""
    return dict(_answered)


class AnsweredRequest(MeasuredRequest):
    """PTB's HTTP client, noting every answer from the Bot API (any status: Telegram is there), counted and timed
    (bot/plumbing/bot_api.py)."""

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        answer = await super().do_request(*args, **kwargs)
        answered("telegram")
        return answer
