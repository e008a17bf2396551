"""Saved versions as they happen, for the Mini App's pages that follow a game (server-sent events).

Every save publishes ``"<chat tag> <version>"`` on one channel (bot/plumbing/store.py, inside the same script
as the write), so a move made on any worker, by a press, a page, a computer player or a time-out, reaches the
pages open on every worker. Each worker holds one subscription, however many pages it serves, and wakes the
pages of that chat. Pub/sub keeps nothing for a subscriber that was away, so a page also asks the store
itself now and then (``bot/handlers/page.py``): a message lost while Redis was away delays a page, never
strands it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from redis.asyncio import Redis

from bot.plumbing.quiet_log import RepeatedFailure

log = logging.getLogger(__name__)

RESUBSCRIBE_SECONDS = 1.0


class PageFeed:
    """Wakes the waiters of a chat when a newer version of its game is saved."""

    def __init__(self, redis: Redis, channel: str) -> None:
        self.redis = redis
        self.channel = channel
        self._latest: dict[str, int] = {}
        self._changed: dict[str, asyncio.Event] = {}
        self._waiters: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None

    async def wait(self, tag: str, after: int, timeout: float) -> int | None:
        """A version of ``tag`` newer than ``after`` heard within ``timeout`` seconds, or None."""
        self.start()
        self._waiters[tag] = self._waiters.get(tag, 0) + 1
        try:
            while self._latest.get(tag, 0) <= after:
                event = self._changed.setdefault(tag, asyncio.Event())
                try:
                    await asyncio.wait_for(event.wait(), timeout)
                except TimeoutError:
                    return None
            return self._latest[tag]
        finally:
            self._waiters[tag] -= 1
            if not self._waiters[tag]:  # nobody follows this chat here any more: forget it
                del self._waiters[tag]
                self._changed.pop(tag, None)
                self._latest.pop(tag, None)

    def start(self) -> None:
        """Subscribe (once; again if the subscription ended): a worker serving pages does so when its server
        starts, so that no move falls between a page's first look and its subscription."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._listen(), name="page-feed")

    async def _listen(self) -> None:
        trouble = RepeatedFailure(log, "the pages' subscription")
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    trouble.worked()
                    async for message in pubsub.listen():
                        self._heard(str(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the pages ask the store meanwhile
                trouble.failed(exc)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)

    def _heard(self, data: str) -> None:
        tag, _, version = data.rpartition(" ")
        if tag not in self._waiters or not version.isdigit():
            return
        self._latest[tag] = max(self._latest.get(tag, 0), int(version))
        event = self._changed.pop(tag, None)
        if event is not None:
            event.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
