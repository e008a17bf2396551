"""PTB's rate-limiter hook: every request goes through the pacer; a 429 is waited out and the same request
retried; past the bound it surfaces."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.plumbing.pacing import Limits
from bot.plumbing.ratelimit import PacedLimiter, pacer_of


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

    limiter = PacedLimiter()
    result = await limiter.process_request(send, (), {"text": "hi"}, "sendMessage", {"chat_id": -1}, None)
    assert result == {"ok": "hi"} and len(calls) == 2
    assert limiter.pacer.refusals == 1
    assert os.environ["PTB_TIMEDELTA"] == "1"
    await limiter.shutdown()


async def test_retries_are_bounded() -> None:
    async def always_refused(**kwargs: Any) -> dict[str, Any]:
        raise RetryAfter(timedelta(seconds=0.001))

    limiter = PacedLimiter(Limits(max_retries=2))
    with pytest.raises(RetryAfter):
        await limiter.process_request(always_refused, (), {}, "sendMessage", {"chat_id": -1}, None)
    with pytest.raises(RetryAfter):  # a call's own bound
        await limiter.process_request(always_refused, (), {}, "editMessageText", {"chat_id": 5, "message_id": 1}, 0)
    assert limiter.pacer.refusals == 4


def test_the_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PACE_GROUP_WINDOW", "3")
    assert Limits().group_window == 3 and Limits().group_per_minute == 20 and Limits().global_window == 1

    class NotPaced:
        rate_limiter = None

    assert pacer_of(NotPaced()) is None  # type: ignore[arg-type]
