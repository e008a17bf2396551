"""The deadline queue: arming replaces, each due deadline is claimed once, leases that run out come back."""

from __future__ import annotations

import asyncio
import itertools

from bot.plumbing.deadlines import LEASE_SECONDS, Deadline, Deadlines
from bot.plumbing.keys import Keys
from bot.plumbing.store import Store

_tags = (f"-9{n}" for n in itertools.count(100))


async def test_arming_replaces_the_chat_s_deadlines(store: Store) -> None:
    deadlines = Deadlines(store.redis, store.keys)
    tag = next(_tags)
    await deadlines.arm(tag, {Deadline("timeout", tag, 1): 100.0, Deadline("remind", tag, 1): 50.0})
    await deadlines.arm(tag, {Deadline("timeout", tag, 2): 200.0})
    assert await deadlines.pending(tag) == {f"timeout|{tag}|2": 200.0}
    await deadlines.arm(tag, {})
    assert await deadlines.pending(tag) == {}


async def test_due_deadlines_are_claimed_once_even_by_concurrent_workers(store: Store, redis_url: str) -> None:
    other = Store.from_url(redis_url, Keys("test"))  # a second worker: its own connection
    workers = [Deadlines(store.redis, store.keys), Deadlines(other.redis, other.keys)]
    tags = [next(_tags) for _ in range(20)]
    for tag in tags:
        await workers[0].arm(tag, {Deadline("timeout", tag, 7): 10.0})
    claimed = await asyncio.gather(*(w.claim(now=11.0) for w in workers for _ in range(3)))
    members = [d.member for batch in claimed for d in batch if d.tag in tags]
    assert sorted(members) == sorted(f"timeout|{tag}|7" for tag in tags)  # all of them, none twice
    assert not [d for d in await workers[0].claim(now=12.0) if d.tag in tags]
    await other.close()


async def test_a_lease_not_released_comes_back_after_it_runs_out(store: Store) -> None:
    deadlines = Deadlines(store.redis, store.keys)
    tag = next(_tags)
    await deadlines.arm(tag, {Deadline("timeout", tag, 3): 20.0})
    first = [d for d in await deadlines.claim(now=21.0) if d.tag == tag]
    assert first == [Deadline("timeout", tag, 3)]
    assert not [d for d in await deadlines.claim(now=22.0) if d.tag == tag]  # leased: not due again yet
    again = [d for d in await deadlines.claim(now=21.0 + LEASE_SECONDS + 1) if d.tag == tag]
    assert again == first  # the worker died: another takes it
    await deadlines.done(again[0])
    assert not [d for d in await deadlines.claim(now=21.0 + 3 * LEASE_SECONDS) if d.tag == tag]
