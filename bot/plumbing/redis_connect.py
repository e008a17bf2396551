"""One Redis client for the bot, from ``REDIS_URL``: a server (``redis://``, ``rediss://``, ``unix://``), a
Valkey/Redis Sentinel setup (``redis+sentinel://``) or a Valkey/Redis Cluster (``redis+cluster://``).

With Sentinel the client asks the Sentinels for the primary's address before it connects, and asks again
whenever a connection is lost or the server it reached answers READONLY (an old primary demoted to replica):
redis-py's own ``SentinelConnectionPool`` does both. A failover then looks to the rest of the bot like a short
Redis outage (bot/plumbing/outage.py), waited out the same way, after which every command goes to the new
primary. The Sentinels' own list of addresses is fixed: run at least three, as Sentinel's documentation says.

On a Cluster the client (redis-py's ``RedisCluster``) learns from the nodes which one holds each of the 16384
slots and sends each command to its slot's node, learning again when a node is lost or answers MOVED: a
failover is, again, a short outage. Everything one command, script or transaction touches is in one slot (a
chat's keys share a hash tag, the deadlines theirs); what spans chats is done slot by slot (``each_script``,
``chat_move``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import redis
import redis.asyncio as aioredis
import redis.sentinel
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ExponentialWithJitterBackoff
from redis.commands.core import AsyncScript
from redis.typing import EncodableT, KeyT

from bot.config import ClusterUrl, SentinelUrl, is_cluster, is_sentinel

CLUSTER_BACKUP = "a cluster is backed up node by node, from each primary's RDB or AOF files, not by the bot"
# What the bot holds: one server's client (alone or behind Sentinel) or a cluster's.
Client = aioredis.Redis | RedisCluster

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


def connect(url: str) -> Client:
    """The bot's client for ``url``: a plain server's, the primary of a Sentinel setup, or a cluster's, with
    ``CLIENT_OPTIONS`` in each case. A cluster's client must be ``ready`` before its first pub/sub."""
    if is_cluster(url):
        return _cluster(ClusterUrl.parse(url))
    if not is_sentinel(url):
        return aioredis.Redis.from_url(url, **CLIENT_OPTIONS)
    where = SentinelUrl.parse(url)
    sentinel = Sentinel(list(where.sentinels), sentinel_kwargs=_sentinel_options(where))
    primary: aioredis.Redis = sentinel.master_for(
        where.service, db=where.db, username=where.username, password=where.password, **CLIENT_OPTIONS
    )
    return primary


def _cluster(where: ClusterUrl) -> RedisCluster:
    return RedisCluster(
        startup_nodes=[ClusterNode(host, port) for host, port in where.nodes],
        username=where.username,
        password=where.password,
        ssl=where.tls,
        **CLIENT_OPTIONS,
    )


async def ready(client: Client) -> None:
    """Learn a cluster's slots now: its pub/sub picks a node by slot and fails on a client that has not (the
    commands of a plain client, or of a cluster's, do this themselves)."""
    if isinstance(client, RedisCluster):
        await client.initialize()


async def disconnect(client: Client) -> None:
    """Close ``client`` and, behind Sentinel, the client's connections to the Sentinels too."""
    await client.aclose()
    if isinstance(client, RedisCluster):
        return
    sentinels = getattr(client.connection_pool, "sentinel_manager", None)
    if isinstance(sentinels, Sentinel):
        await sentinels.aclose()


class Script(AsyncScript):
    """redis-py's Lua script; on a cluster sent whole each time (EVAL), never by its digest (EVALSHA). A
    cluster's replicas do not get the scripts their primary loaded, so after a failover every script is
    missing on the promoted node, and calls that all find one missing and load it at once break connections
    in redis-py 8.1's cluster client (AttributeError on a node's connection: 2 to 4 tries of 10 with 12 calls
    at once, whether or not the loads are taken in turn). A few hundred bytes more a call; nothing to load."""

    def __init__(self, client: Client, source: str) -> None:
        super().__init__(client, source)
        self.source = source

    async def __call__(
        self,
        keys: Sequence[KeyT] | None = None,
        args: Iterable[EncodableT] | None = None,
        client: Client | None = None,
    ) -> Any:
        target = client or self.registered_client
        if not isinstance(target, RedisCluster):  # a server, or a pipeline of one (which loads what it runs)
            return await super().__call__(keys, args, client)
        words = (*(keys or ()), *(args or ()))
        return await target.eval(self.source, len(keys or ()), *words)


def script(client: Client, source: str) -> Script:
    """``client.register_script(source)``, safe on a cluster after a failover (``Script``)."""
    return Script(client, source)


async def each_script(client: Client, lua: AsyncScript, calls: Sequence[tuple[list[str], list[Any]]]) -> list[Any]:
    """Run ``lua`` once for each ``(keys, args)``, every call's keys in one slot, and return the results in
    order: pipelined on one server (one round trip); side by side on a cluster, whose client refuses scripts
    in a pipeline (each call then goes to its own slot's node)."""
    if isinstance(client, RedisCluster):
        return list(await asyncio.gather(*(lua(keys=keys, args=args) for keys, args in calls)))
    async with client.pipeline(transaction=False) as pipe:
        for keys, args in calls:
            await lua(keys=keys, args=args, client=pipe)
        return list(await pipe.execute())


def connect_blocking(url: str, socket_timeout: float) -> redis.Redis:
    """A blocking client of bytes for ``url``, a server's or a Sentinel setup's: for the command line (backup,
    restore), which runs beside the bot, not in its loop. Not a cluster's: a backup is one transaction, which
    a cluster cannot give across its nodes (back up each node's own RDB or AOF files instead)."""
    if is_cluster(url):
        raise ValueError(CLUSTER_BACKUP)
    if not is_sentinel(url):
        return redis.Redis.from_url(url, socket_timeout=socket_timeout)
    where = SentinelUrl.parse(url)
    options = _sentinel_options(where)
    sentinel = redis.sentinel.Sentinel(list(where.sentinels), sentinel_kwargs=options)
    primary: redis.Redis = sentinel.master_for(
        where.service, db=where.db, username=where.username, password=where.password, socket_timeout=socket_timeout
    )
    return primary
