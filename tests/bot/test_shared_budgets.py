"""Flood budgets shared by workers through a real Redis (bot/plumbing/shared_budgets.py), alone and under two pacers."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable

import pytest
import redis.asyncio as aioredis

from bot.plumbing.keys import Keys
from bot.plumbing.pacing import Limits, Pacer
from bot.plumbing.shared_budgets import SharedBudgets, bucket_key

_groups = itertools.count(-7_300_000)
_users = itertools.count(7_300_000)
KEYS = Keys("test")
Workers = Callable[[Limits], SharedBudgets]


@pytest.fixture
async def workers(redis_url: str) -> AsyncIterator[Workers]:
    """Makes workers' budgets, each on its own connection, as separate processes have them."""
    clients: list[aioredis.Redis] = []
    names = itertools.count(1)

    def make(limits: Limits) -> SharedBudgets:
        client = aioredis.Redis.from_url(redis_url, decode_responses=True)
        clients.append(client)
        return SharedBudgets(client, KEYS, limits, f"worker-{next(names)}")

    yield make
    cleanup = aioredis.Redis.from_url(redis_url)
    await cleanup.delete(KEYS.pace_overall)
    await cleanup.aclose()
    for client in clients:
        await client.aclose()


def _limits(**budgets: float) -> Limits:
    return Limits(**{"global_per_second": 0, **budgets})


async def test_a_group_s_budget_is_one_for_all_workers(workers: Workers) -> None:
    limits = _limits(group_per_minute=4, group_burst=2)  # 2 at once, then one every 30 s
    a, b = workers(limits), workers(limits)
    group = next(_groups)
    assert await a.take(group) == 0 and await b.take(group) == 0
    wait = await a.take(group)
    assert 29 < wait <= 30
    assert 29 < await b.take(group) <= 30  # worker b sees what worker a took
    assert await b.take(next(_groups)) == 0  # another group has its own


async def test_a_private_chat_is_paced_across_workers(workers: Workers) -> None:
    limits = _limits(private_per_second=10, private_burst=1)
    a, b = workers(limits), workers(limits)
    user = next(_users)
    assert await a.take(user) == 0
    assert 0 < await b.take(user) <= 0.1
    await asyncio.sleep(0.11)
    assert await b.take(user) == 0


async def test_the_overall_window_counts_every_worker_s_messages(workers: Workers) -> None:
    limits = _limits(global_per_second=3, group_per_minute=0, private_per_second=0)
    a, b = workers(limits), workers(limits)
    taken = [await (a, b, a)[i].take(next(_groups)) for i in range(3)]
    assert taken == [0, 0, 0]
    wait = await b.take(next(_groups))
    assert 0 < wait <= 1.0
    await asyncio.sleep(wait + 0.01)
    assert await b.take(next(_groups)) == 0


async def test_nothing_is_taken_from_a_chat_while_it_must_wait(workers: Workers, redis_url: str) -> None:
    limits = _limits(group_per_minute=3, group_burst=1)
    a = workers(limits)
    group = next(_groups)
    assert await a.take(group) == 0
    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        before = await client.get(bucket_key(KEYS, group))
        for _ in range(5):
            assert await a.take(group) > 0
        assert await client.get(bucket_key(KEYS, group)) == before
        assert 0 < await client.pttl(bucket_key(KEYS, group)) <= 31_000  # gone once the budget is whole (30 s) again
    finally:
        await client.aclose()


async def test_two_pacers_sharing_the_budgets_send_to_one_chat_at_its_pace(workers: Workers, redis_url: str) -> None:
    """Two workers' pacers each send three messages to one private chat (10 a second, no burst): the six are
    granted a tenth of a second apart, as one worker's would. Measured on Redis's clock, which grants them: when
    this process then runs each send depends on how busy the machine is, which is not what is tested."""
    limits = _limits(private_per_second=10, private_burst=1)
    user = next(_users)
    sent = 0

    async def send() -> bool:
        nonlocal sent
        sent += 1
        return True

    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    pacers = [Pacer(limits, shared=workers(limits)) for _ in range(2)]
    try:
        seconds, micros = await client.time()
        began = seconds * 1000 + micros // 1000
        await asyncio.gather(*(pacer.request("sendMessage", user, None, send) for pacer in pacers for _ in range(3)))
        # Each grant waits for the bucket's arrival time and moves it a tenth on: six grants in turn leave it
        # at least 600 ms after the first could be made; two budgets of three each would leave it at 300.
        arrival = int(await client.get(bucket_key(KEYS, user)))
    finally:
        for pacer in pacers:
            await pacer.close()
        await client.aclose()
    assert sent == 6
    assert arrival - began >= 600, arrival - began
