"""Pushes updates to the bot's webhook the way Telegram does: in order per queue (callback queries per user,
everything else per chat, see sandbox/updates.py), queues in parallel, each update retried until accepted."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import httpx

from sandbox.updates import PendingUpdate, UpdateQueue

log = logging.getLogger(__name__)

_REQUEST_TIMEOUT = httpx.Timeout(10.0)
_MAX_BACKOFF = 2.0


class WebhookDelivery:
    """Owns the webhook setting, the delivery task and its HTTP session."""

    def __init__(
        self, queue: UpdateQueue, on_delivered: Callable[[], None], held: Callable[[], bool] = lambda: False
    ) -> None:
        """``held``: whether Telegram is down (``Sandbox.bot_api_down``): then nothing is delivered, as in an
        outage, and the updates wait in their queues."""
        self.queue = queue
        self.on_delivered = on_delivered
        self.held = held
        self.url: str | None = None
        self.secret_token: str | None = None
        self.max_connections = 40
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self._runner: asyncio.Task[None] | None = None
        self._in_flight: dict[tuple[str, int | None], asyncio.Task[None]] = {}
        self._session: httpx.AsyncClient | None = None

    @property
    def active(self) -> bool:
        return self.url is not None

    def configure(self, url: str, secret_token: str | None, max_connections: int | None) -> None:
        self.url = url
        self.secret_token = secret_token
        if max_connections:
            self.max_connections = max_connections
        self.last_error_date = self.last_error_message = None
        self.queue.hand_back()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name="sandbox-webhook")

    async def disable(self) -> None:
        """Stop delivering; updates still queued become available to getUpdates."""
        self.url = None
        tasks = [t for t in (self._runner, *self._in_flight.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._runner = None
        self._in_flight.clear()
        self.queue.hand_back()

    async def close(self) -> None:
        await self.disable()
        if self._session is not None:
            await self._session.aclose()
            self._session = None

    def info(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "url": self.url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.queue.items),
        }
        if self.url:
            data["max_connections"] = self.max_connections
            if self.queue.allowed is not None:
                data["allowed_updates"] = self.queue.allowed
        if self.last_error_date is not None:
            data["last_error_date"] = self.last_error_date
            data["last_error_message"] = self.last_error_message
        return data

    async def _run(self) -> None:
        while self.url is not None:
            if not self.held():
                self._dispatch()
            await self.queue.changed.wait(1.0)

    def _dispatch(self) -> None:
        """Start delivering the oldest queued update of every queue that has none in flight."""
        seen: set[tuple[str, int | None]] = set()
        for update in self.queue.items:
            if update.queue in seen:
                continue
            seen.add(update.queue)
            if update.queue not in self._in_flight and len(self._in_flight) < self.max_connections:
                update.handed_out = True
                self._in_flight[update.queue] = asyncio.create_task(self._deliver(update))

    async def _deliver(self, update: PendingUpdate) -> None:
        attempt = 0
        try:
            while self.url is not None and update in self.queue.items:
                if await self._post(self.url, update):
                    self.queue.remove(update)
                    self.on_delivered()
                    return
                attempt += 1
                await asyncio.sleep(min(_MAX_BACKOFF, 0.05 * 2**attempt))
        finally:
            self._in_flight.pop(update.queue, None)
            self.queue.changed.fire()

    async def _post(self, url: str, update: PendingUpdate) -> bool:
        if self._session is None:
            self._session = httpx.AsyncClient(timeout=_REQUEST_TIMEOUT, trust_env=False)
        headers = {"X-Telegram-Bot-Api-Secret-Token": self.secret_token} if self.secret_token else {}
        try:
            response = await self._session.post(url, json=update.as_json(), headers=headers)
            if response.is_success:
                return True
            self._record_error(f"Wrong response from the webhook: {response.status_code} {response.reason_phrase}")
        except (httpx.HTTPError, OSError) as error:
            self._record_error(f"Connection failed: {error or type(error).__name__}")
        return False

    def _record_error(self, message: str) -> None:
        log.info("webhook delivery failed: %s", message)
        self.last_error_date = int(time.time())
        self.last_error_message = message
