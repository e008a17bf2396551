"""Redis outages are told apart from other failures, logged once, and waited out with back-off."""

from __future__ import annotations

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.plumbing.outage import FIRST_BACKOFF, MAX_BACKOFF, STORE_DOWN, Outage
from bot.plumbing.store import StoreUnavailable, chat_tag


@pytest.mark.parametrize(
    "error", [StoreUnavailable("away"), RedisConnectionError("refused"), ConnectionResetError(), BrokenPipeError()]
)
def test_what_redis_throws_when_it_is_away_is_an_outage(error: Exception) -> None:
    assert isinstance(error, STORE_DOWN)


@pytest.mark.parametrize("error", [OSError("cannot write the picture"), FileNotFoundError(), PermissionError()])
def test_other_os_errors_are_not_mistaken_for_an_outage(error: Exception) -> None:
    """A picture that could not be written is a bug to log, not a reason to wait for Redis."""
    assert not isinstance(error, STORE_DOWN)


def test_an_outage_is_logged_once_and_backs_off(caplog: pytest.LogCaptureFixture) -> None:
    watch = Outage()
    with caplog.at_level(logging.WARNING, logger="bot.plumbing.outage"):
        waits = [watch.failed(RedisConnectionError("refused")) for _ in range(5)]
        assert watch.answered() == (True, set())
        assert watch.answered() == (False, set())  # each repair is asked for once
    assert waits == [FIRST_BACKOFF, 1.0, MAX_BACKOFF, MAX_BACKOFF, MAX_BACKOFF]
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]


def test_a_failed_redraw_is_healed_when_redis_answers() -> None:
    watch = Outage()
    watch.met(chat_tag(-100, None))
    assert watch.answered() == (False, {chat_tag(-100, None)})
