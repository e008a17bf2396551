"""Chat locks: one asyncio lock per chat in this process, and, with several workers, a lease in Redis too.

``ChatLocks`` serialises a chat's updates inside one process (long polling runs one worker, so that is all it
needs). ``SharedChatLocks`` adds a lock in Redis held under a lease, so that two workers sharing one Redis
never run a chat's game code at the same time: a press in the group and one in a private chat, a deadline,
the start-up check. The local lock is taken first, so a worker sends at most one contender per chat to
Redis and its own waiters keep their arrival order.

A holder renews its lease while it works; a worker that dies holding a lock leaves it to run out (``LEASE``),
then the next waiter takes it. Waiters do not poll: a release publishes the lock's key on one pub/sub
channel (``Wakeups``) when someone waits, with a slow poll behind it in case a message is lost.

Locks are dropped from memory when nobody holds or waits for them, so memory stays bounded with many chats.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager

import redis.asyncio as aioredis

from bot.plumbing.keys import Keys
from bot.plumbing.quiet_log import RepeatedFailure
from bot.plumbing.redis_connect import Client, each_script, ready, script
from bot.plumbing.supervise import supervised

log = logging.getLogger(__name__)

# The opening of Lua scripts that count time by Redis's clock (the same for every worker): ``now`` in ms.
LUA_NOW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
"""
LEASE = 10.0  # seconds a dead worker's lock or ticket holds up a chat at most
POLL = 0.5  # seconds between re-checks when no wake-up came (a lease ran out, a lost message)


class ChatLocks:
    """One asyncio lock per key, in this process."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class Wakeups:
    """This worker's subscription to a channel (``Keys.wake``: a key another worker freed; ``Keys.saved``: a
    chat whose game was saved, for the Mini App's pages): wakes the local waiters of the key a message names.

    A waiter registers (``watch``) *before* it checks Redis, so a change between its check and its wait still
    wakes it. Without the subscription (Redis away for a moment) waiters fall back to polling every ``POLL``.
    """

    def __init__(self, client: Client, channel: str, name: str = "wake-ups") -> None:
        self.redis = client
        self.channel = channel
        self.name = name
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._pubsub: aioredis.client.PubSub | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._subscribe()
        self._task = supervised(self.name, self._listen)

    async def _subscribe(self) -> None:
        """A new subscription. After a failure too: a cluster's pub/sub stays on the node it chose, which may
        be the one that died; a new one chooses again among the live nodes."""
        await self._drop()
        await ready(self.redis)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel)

    async def _drop(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._drop()

    async def _listen(self) -> None:
        trouble = RepeatedFailure(log, f"the {self.name} channel")
        while True:
            try:
                if self._pubsub is None:
                    await self._subscribe()
                assert self._pubsub is not None
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # subscribes anew on the next round; waiters poll meanwhile
                trouble.failed(exc)
                self.wake_all()
                await self._drop()
                await asyncio.sleep(1.0)
                continue
            trouble.worked()
            if message is not None and message.get("type") == "message":
                data = message["data"]
                self.wake(data.decode() if isinstance(data, bytes) else str(data))

    def wake(self, key: str) -> None:
        for event in self._waiters.get(key, ()):
            event.set()

    def wake_all(self) -> None:
        for events in self._waiters.values():
            for event in events:
                event.set()

    @contextlib.contextmanager
    def watch(self, key: str) -> Iterator[asyncio.Event]:
        """An event set when ``key`` is published; register before checking, wait after."""
        event = asyncio.Event()
        self._waiters.setdefault(key, set()).add(event)
        try:
            yield event
        finally:
            events = self._waiters[key]
            events.discard(event)
            if not events:
                del self._waiters[key]


async def wait_for_wakeup(event: asyncio.Event, seconds: float = POLL) -> None:
    """Until ``event`` is set or ``seconds`` passed, whichever comes first. ``asyncio.timeout`` rather than
    ``asyncio.wait_for``, whose Python 3.11 version can swallow a cancel that races the event."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()
    raise_if_cancelled()


def raise_if_cancelled() -> None:
    """Raise a cancel that a library swallowed, for loops that wait on Redis: they must stop when cancelled.

    On Python 3.11 ``asyncio.wait_for`` returns normally when a cancel races the completion of what it waits
    for, and redis-py writes every command through it when a socket timeout is set (ours is). The request
    is still counted in ``Task.cancelling()``, so a loop checks it after each round trip; without this a
    ticket given up at shutdown could still run its update after the later ones (seen in CI).
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def worker_id(name: str = "") -> str:
    """Names this process in lock tokens and logs: unique among workers, readable by people."""
    return f"{name or socket.gethostname()}:{os.getpid()}"


# KEYS: lock, waiting flag. ARGV: token, lease ms. 1 when taken; else the waiting flag is raised.
_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
return 0
"""

# KEYS: lock, waiting flag. ARGV: token, channel. Frees only one's own lock; wakes waiters if any.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if redis.call('DEL', KEYS[2]) == 1 then redis.call('PUBLISH', ARGV[2], KEYS[1]) end
return 1
"""

# KEYS: lock. ARGV: token, lease ms. Extends only one's own lease.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


class LateReleases:
    """Releases Redis did not take (it was away), tried again every ``poll`` seconds until one works or the
    lease it frees has run out anyway: after a short outage the chat goes on as soon as Redis answers, not a
    whole lease later. Not work in hand: a stopping worker does not wait for them (the leases free them)."""

    def __init__(self, poll: float = POLL) -> None:
        self.poll = poll
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, release: Callable[[], Awaitable[object]], lease: float) -> None:
        task = asyncio.create_task(self._retry(release, time.monotonic() + lease))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _retry(self, release: Callable[[], Awaitable[object]], until: float) -> None:
        while time.monotonic() + self.poll < until:
            await asyncio.sleep(self.poll)
            try:
                await release()
            except Exception:  # still away: the next round, or the lease
                continue
            return

    def __len__(self) -> int:
        return len(self._tasks)


class SharedChatLocks(ChatLocks):
    """The local lock, then a lease in Redis: mutual exclusion per chat across every worker."""

    def __init__(
        self,
        client: Client,
        keys: Keys,
        wakeups: Wakeups,
        owner: str = "",
        lease: float = LEASE,
        poll: float = POLL,
    ) -> None:
        super().__init__()
        self.redis = client
        self.keys = keys
        self.wakeups = wakeups
        self.owner = owner or worker_id()
        self.lease_ms = int(lease * 1000)
        self.poll = poll
        self._tokens = itertools.count(1)
        self._held: dict[str, str] = {}  # Redis key -> our token, renewed by ``keep_leases``
        self._late = LateReleases(poll)
        self._acquire = script(client, _ACQUIRE)
        self._release = script(client, _RELEASE)
        self._renew = script(client, _RENEW)

    def redis_key(self, key: str) -> str:
        """``<prefix>:{<chat>}:lock:<chat tag>``: in the chat's hash slot, next to its game."""
        return f"{self.keys.chat(key.split(':')[0])}lock:{key}"

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        async with super().hold(key):
            rkey = self.redis_key(key)
            token = await self._take(rkey)
            try:
                yield
            finally:
                self._held.pop(rkey, None)
                release = functools.partial(self._release, keys=[rkey, f"{rkey}:w"], args=[token, self.keys.wake])
                try:
                    await release()
                except Exception:  # tried again while its lease lasts (only our own token is ever freed)
                    log.warning("could not release %s; trying again until it frees itself", rkey)
                    self._late.add(release, self.lease_ms / 1000)

    async def _take(self, rkey: str) -> str:
        token = f"{self.owner}:{next(self._tokens)}"
        while True:
            with self.wakeups.watch(rkey) as woken:
                if await self._acquire(keys=[rkey, f"{rkey}:w"], args=[token, self.lease_ms]):
                    self._held[rkey] = token
                    return token
                await wait_for_wakeup(woken, self.poll)

    async def renew(self) -> None:
        """Extend the lease of every lock this worker holds."""
        held = list(self._held.items())
        if not held:
            return
        results = await each_script(self.redis, self._renew, [([rkey], [token, self.lease_ms]) for rkey, token in held])
        for (rkey, _), renewed in zip(held, results, strict=True):
            if not renewed and rkey in self._held:
                log.warning("lost the lease of %s (this worker stalled for %.0f s?)", rkey, self.lease_ms / 1000)

    async def keep_leases(self) -> None:
        """Renew held leases three times per lease until cancelled."""
        await keep_renewing(self.renew, self.lease_ms / 3000)


async def keep_renewing(renew: Callable[[], Awaitable[None]], interval: float) -> None:
    """Call ``renew()`` every ``interval`` seconds until cancelled; a failure is logged (once while it lasts)
    and retried."""
    trouble = RepeatedFailure(log, "renewing the leases")
    while True:
        await asyncio.sleep(interval)
        try:
            await renew()
            trouble.worked()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            trouble.failed(exc)
        raise_if_cancelled()
