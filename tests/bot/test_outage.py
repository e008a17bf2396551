"""Redis outages are told apart from other failures, logged once, and waited out with back-off."""

from __future__ import annotations

import logging

import pytest
import redis.asyncio as aioredis
from redis._parsers import BaseParser
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from bot.plumbing.deadlines import Deadlines
from bot.plumbing.keys import Keys
from bot.plumbing.outage import FIRST_BACKOFF, MAX_BACKOFF, STORE_DOWN, Outage
from bot.plumbing.store import StoreUnavailable, chat_tag


@pytest.mark.parametrize(
    "error", [StoreUnavailable("away"), RedisConnectionError("refused"), ConnectionResetError(), BrokenPipeError()]
)
def test_what_redis_throws_when_it_is_away_is_an_outage(error: Exception) -> None:
    assert isinstance(error, STORE_DOWN)


@pytest.mark.parametrize(
    "reply",
    [
        "READONLY You can't write against a read only replica.",
        "LOADING Redis is loading the dataset in memory",
        "OOM command not allowed when used memory > 'maxmemory'.",
        "BUSY Redis is busy running a script.",
        "TRYAGAIN Multiple keys request during rehashing of slot",
        "CLUSTERDOWN The cluster is down",
        "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    ],
)
def test_redis_saying_not_now_is_an_outage(reply: str) -> None:
    """Error replies that mean "not now" are waited out like a lost connection: as redis-py parses them."""
    assert isinstance(BaseParser.parse_error(reply), STORE_DOWN)


@pytest.mark.parametrize("reply", ["NOSCRIPT No matching script.", "ERR unknown command 'FOO'", "WRONGTYPE Operation"])
def test_other_error_replies_are_not(reply: str) -> None:
    """NOSCRIPT is redis-py's to handle (a script object loads itself again); the rest are bugs to log."""
    error = BaseParser.parse_error(reply)
    assert isinstance(error, ResponseError) and not isinstance(error, STORE_DOWN)
    assert isinstance(BaseParser.parse_error("NOSCRIPT No matching script."), NoScriptError)


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


async def test_scripts_flushed_from_redis_load_themselves_again(redis_url: str) -> None:
    """After SCRIPT FLUSH (or a server restarted empty) the next call answers NOSCRIPT; redis-py's script object
    loads its script again and runs it, so the deadline poll never meets it."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        deadlines = Deadlines(client, Keys("test"))
        assert await deadlines.claim(0.0) == []  # loaded
        await client.script_flush()
        assert await deadlines.claim(0.0) == []  # loaded again, no error
    finally:
        await client.aclose()
