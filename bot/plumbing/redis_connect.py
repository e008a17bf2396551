"""One Redis client for the bot, from ``REDIS_URL``: a server (``redis://``, ``rediss://``, ``unix://``) or a
Valkey/Redis Sentinel setup (``redis+sentinel://``).

With Sentinel the client asks the Sentinels for the primary's address before it connects, and asks again
whenever a connection is lost or the server it reached answers READONLY (an old primary demoted to replica):
redis-py's own ``SentinelConnectionPool`` does both. A failover then looks to the rest of the bot like a short
Redis outage (bot/plumbing/outage.py), waited out the same way, after which every command goes to the new
primary. The Sentinels' own list of addresses is fixed: run at least three, as Sentinel's documentation says.
"""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio as aioredis
import redis.sentinel
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ExponentialWithJitterBackoff

from bot.config import SentinelUrl, is_sentinel

# The one retry policy, redis-py's own, set on the client for every command (in place of its default of ten
# tries): a connection refused, reset or timed out is tried 3 times more, 50 ms to 1 s apart with jitter; then
# the error reaches the caller, for whom it is an outage (bot/plumbing/outage.py: STORE_DOWN).
RETRY = Retry(ExponentialWithJitterBackoff(base=0.05, cap=1.0), retries=3)
# Options of every connection to a data node: a reply that takes over 5 s is an outage, and an idle connection
# is checked before use after 30 s (one a failover or a restart of Redis has cut is then replaced at once).
CLIENT_OPTIONS: dict[str, Any] = {
    "decode_responses": True,
    "socket_timeout": 5,
    "health_check_interval": 30,
    "retry": RETRY,
}


def _sentinel_options(where: SentinelUrl) -> dict[str, Any]:
    """How to reach the Sentinels themselves: quickly (one that does not answer is skipped), with their password."""
    options: dict[str, Any] = {"socket_timeout": 2, "socket_connect_timeout": 2}
    if where.sentinel_password is not None:
        options["password"] = where.sentinel_password
    return options


def connect(url: str) -> aioredis.Redis:
    """The bot's client for ``url``: a plain server's, or the primary of a Sentinel setup, with
    ``CLIENT_OPTIONS`` either way."""
    if not is_sentinel(url):
        return aioredis.Redis.from_url(url, **CLIENT_OPTIONS)
    where = SentinelUrl.parse(url)
    sentinel = Sentinel(list(where.sentinels), sentinel_kwargs=_sentinel_options(where))  # type: ignore[no-untyped-call]
    primary: aioredis.Redis = sentinel.master_for(
        where.service, db=where.db, username=where.username, password=where.password, **CLIENT_OPTIONS
    )
    return primary


async def disconnect(client: aioredis.Redis) -> None:
    """Close ``client`` and, behind Sentinel, the client's connections to the Sentinels too."""
    await client.aclose()
    sentinels = getattr(client.connection_pool, "sentinel_manager", None)
    if isinstance(sentinels, Sentinel):
        await sentinels.aclose()


def connect_blocking(url: str, socket_timeout: float) -> redis.Redis:
    """A blocking client of bytes for ``url``, a server's or a Sentinel setup's: for the command line (backup,
    restore), which runs beside the bot, not in its loop."""
    if not is_sentinel(url):
        return redis.Redis.from_url(url, socket_timeout=socket_timeout)
    where = SentinelUrl.parse(url)
    options = _sentinel_options(where)
    sentinel = redis.sentinel.Sentinel(list(where.sentinels), sentinel_kwargs=options)  # type: ignore[no-untyped-call]
    primary: redis.Redis = sentinel.master_for(  # type: ignore[no-untyped-call]
        where.service, db=where.db, username=where.username, password=where.password, socket_timeout=socket_timeout
    )
    return primary
