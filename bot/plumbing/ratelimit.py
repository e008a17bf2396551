"""PTB's hook for the bot's outgoing requests: every Bot API call goes through the pacer (``bot/plumbing/pacing.py``),
which keeps within Telegram's flood limits, waits out 429s and retries in place, and coalesces edits."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Bot
from telegram.error import TelegramError
from telegram.ext import BaseRateLimiter

from bot.config import Limits
from bot.plumbing.pacing import Pacer


class PacedLimiter(BaseRateLimiter[int]):
    """``rate_limit_args`` on a call, if given, is how many 429s that call waits out before it fails.
    ``on_refused``, if set, hears of every call that failed for good (``bot.handlers.membership``); the caller
    still gets the error."""

    def __init__(self, limits: Limits | None = None, pacer: Pacer | None = None) -> None:
        self.pacer = pacer or Pacer(limits)
        self.on_refused: Callable[[str, dict[str, Any], TelegramError], None] | None = None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        await self.pacer.close()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat_id, message_id = data.get("chat_id"), data.get("message_id")
        try:
            result: bool | dict[str, Any] | list[dict[str, Any]] = await self.pacer.request(
                endpoint, chat_id, message_id, lambda: callback(*args, **kwargs), rate_limit_args
            )
        except TelegramError as error:
            if self.on_refused is not None:
                self.on_refused(endpoint, data, error)
            raise
        return result


def pacer_of(bot: Bot) -> Pacer | None:
    """The bot's pacer, if its requests go through one."""
    limiter = getattr(bot, "rate_limiter", None)
    return limiter.pacer if isinstance(limiter, PacedLimiter) else None
