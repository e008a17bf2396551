"""Retry a Bot API request after Telegram's 429 ``retry_after`` instead of failing it.

Only the request that was refused waits (other chats go on), and it is retried in place, so nothing is
lost or reordered within a chat (a chat's requests are made one at a time under its lock).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)


class RetryAfterLimiter(BaseRateLimiter[int]):
    def __init__(self, max_retries: int = 5) -> None:
        self.max_retries = max_retries

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        retries = self.max_retries if rate_limit_args is None else rate_limit_args
        attempt = 0
        while True:
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                attempt += 1
                if attempt > retries:
                    raise
                delay = exc.retry_after  # a timedelta with PTB_TIMEDELTA set (bot/cli.py), else seconds
                seconds = delay.total_seconds() if isinstance(delay, timedelta) else float(delay)
                log.info("429 on %s for chat %s; waiting %.1f s", endpoint, data.get("chat_id"), seconds)
                await asyncio.sleep(seconds + 0.05)
