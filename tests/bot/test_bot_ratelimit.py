"""A 429 is waited out and the same request retried; past the bound it surfaces."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.ratelimit import RetryAfterLimiter


@pytest.fixture(autouse=True)
def _timedelta_durations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as bot/cli.py sets it


async def test_a_refused_request_is_retried_after_the_wait() -> None:
    calls: list[float] = []

    async def send(**kwargs: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            raise RetryAfter(timedelta(seconds=0.01))
        return {"ok": kwargs["text"]}

    limiter = RetryAfterLimiter()
    result = await limiter.process_request(send, (), {"text": "hi"}, "sendMessage", {"chat_id": -1}, None)
    assert result == {"ok": "hi"} and len(calls) == 2
    assert os.environ["PTB_TIMEDELTA"] == "1"


async def test_retries_are_bounded() -> None:
    async def always_refused(**kwargs: Any) -> dict[str, Any]:
        raise RetryAfter(timedelta(seconds=0.001))

    with pytest.raises(RetryAfter):
        await RetryAfterLimiter(max_retries=2).process_request(always_refused, (), {}, "sendMessage", {}, None)
