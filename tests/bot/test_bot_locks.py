"""Chat locks shared by workers (bot/plumbing/locks.py), against a real Redis: exclusion, leases, prompt hand-over."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.keys import Keys
from bot.plumbing.locks import POLL, ChatLocks, SharedChatLocks, Wakeups

_chats = itertools.count(-7_200_000)
KEYS = Keys("test")
Worker = Callable[..., Awaitable[SharedChatLocks]]


@pytest.fixture
async def worker(redis_url: str) -> AsyncIterator[Worker]:
    made: list[tuple[aioredis.Redis, Wakeups]] = []

    async def make(lease: float = 10.0, poll: float = POLL) -> SharedChatLocks:
        client = aioredis.Redis.from_url(redis_url, decode_responses=True)
        wakeups = Wakeups(client, KEYS.wake)
        await wakeups.start()
        made.append((client, wakeups))
        return SharedChatLocks(client, KEYS, wakeups, owner=f"test-{len(made)}", lease=lease, poll=poll)

    yield make
    for client, wakeups in made:
        await wakeups.close()
        await client.aclose()


async def test_local_locks_are_dropped_when_free() -> None:
    locks = ChatLocks()
    async with locks.hold("1"):
        assert len(locks) == 1
    assert len(locks) == 0


async def test_two_workers_never_hold_one_chat_at_once(worker: Worker) -> None:
    a, b = await worker(), await worker()
    key = str(next(_chats))
    inside = 0
    most = 0
    counter = 0

    async def bump(locks: SharedChatLocks) -> None:
        nonlocal inside, most, counter
        async with locks.hold(key):
            inside += 1
            most = max(most, inside)
            seen = counter
            await asyncio.sleep(0.002)  # a read-modify-write that would lose updates if interleaved
            counter = seen + 1
            inside -= 1

    await asyncio.gather(*(bump(a if i % 2 else b) for i in range(40)))
    assert counter == 40 and most == 1
    assert len(a) == len(b) == 0


async def test_other_chats_are_not_held_up(worker: Worker) -> None:
    a, b = await worker(), await worker()
    held, other = str(next(_chats)), str(next(_chats))
    async with a.hold(held), asyncio.timeout(1.0), b.hold(other):
        pass


async def test_the_waiter_on_another_worker_gets_the_lock_as_soon_as_it_is_released(worker: Worker) -> None:
    a, b = await worker(poll=5.0), await worker(poll=5.0)  # only a wake-up can be quick
    key = str(next(_chats))
    got: list[float] = []

    async def wait() -> None:
        async with b.hold(key):
            got.append(time.monotonic())

    async with a.hold(key):
        waiter = asyncio.create_task(wait())
        await asyncio.sleep(0.3)
        assert not got
        released = time.monotonic()
    await waiter
    assert got[0] - released < 0.2, got[0] - released  # woken by pub/sub, not the fallback poll


async def test_a_dead_holder_s_lock_frees_itself_when_its_lease_runs_out(worker: Worker, redis_url: str) -> None:
    b = await worker(lease=0.4)
    key = str(next(_chats))
    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:  # a worker took the lock and was killed: nobody releases or renews it
        assert await client.set(b.redis_key(key), "dead:1", px=400, nx=True)
    finally:
        await client.aclose()
    started = time.monotonic()
    async with asyncio.timeout(3.0), b.hold(key):
        waited = time.monotonic() - started
    assert 0.25 < waited < 0.4 + POLL + 0.3, waited


async def test_a_live_holder_keeps_its_lock_past_the_lease_by_renewing_it(worker: Worker) -> None:
    a, b = await worker(lease=0.3), await worker(lease=0.3)
    key = str(next(_chats))
    keeper = asyncio.create_task(a.keep_leases())
    try:
        async with a.hold(key):
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.9), b.hold(key):
                    pass  # pragma: no cover - must not get here
    finally:
        keeper.cancel()
    async with asyncio.timeout(1.0), b.hold(key):
        pass


async def test_a_release_redis_missed_is_made_once_it_answers_not_a_lease_later(tmp_path: Path) -> None:
    """Redis restarts while a lock is held: its release fails, and is tried again until Redis answers; the
    next holder goes on then, not when the 10 s lease runs out."""
    server = EmbeddedServer(tmp_path)  # its own server: this one is stopped and started again
    url = server.start()
    first = aioredis.Redis.from_url(url, decode_responses=True)
    wakeups = Wakeups(first, KEYS.wake)
    a = SharedChatLocks(first, KEYS, wakeups, owner="test-a", lease=10.0)
    key = str(next(_chats))
    try:
        async with a.hold(key):
            server.stop()  # appendfsync always: the lock's key comes back with the server
        server.start()
        back = time.monotonic()
        second = aioredis.Redis.from_url(url, decode_responses=True)
        b = SharedChatLocks(second, KEYS, Wakeups(second, KEYS.wake), owner="test-b", lease=10.0)
        assert await second.get(b.redis_key(key)) == "test-a:1"  # still held: its release was missed
        async with asyncio.timeout(5.0), b.hold(key):
            waited = time.monotonic() - back
        await second.aclose()
    finally:
        await first.aclose()
        server.stop()
    assert waited < 2 * POLL + 1.0, waited
