"""Tickets per chat across workers (bot/plumbing/chat_order.py), against a real Redis: order, repeated deliveries,
dead workers."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import redis.asyncio as aioredis

from bot.plumbing.chat_order import ChatOrder, Ticket, alive_key, seen_key, state_key
from bot.plumbing.keys import Keys
from bot.plumbing.locks import POLL, Wakeups

_chats = itertools.count(-7_100_000)
KEYS = Keys("test")
Worker = Callable[..., Awaitable[ChatOrder]]


@pytest.fixture
async def worker(redis_url: str) -> AsyncIterator[Worker]:
    """Makes workers: each its own Redis connection and wake-up subscription, as separate processes have."""
    made: list[tuple[aioredis.Redis, Wakeups]] = []

    async def make(lease: float = 10.0, poll: float = POLL) -> ChatOrder:
        client = aioredis.Redis.from_url(redis_url, decode_responses=True)
        wakeups = Wakeups(client, KEYS.wake)
        await wakeups.start()
        made.append((client, wakeups))
        return ChatOrder(client, KEYS, wakeups, lease=lease, poll=poll)

    yield make
    for client, wakeups in made:
        await wakeups.close()
        await client.aclose()


async def _handle(order: ChatOrder, ticket: Ticket, log: list[int], hold: float = 0.0) -> None:
    async with order.turn(ticket):
        log.append(ticket.number)
        await asyncio.sleep(hold)
        log.append(-ticket.number)


async def test_tickets_are_served_in_order_across_workers_whatever_order_handling_starts(worker: Worker) -> None:
    a, b = await worker(), await worker()
    chat = next(_chats)
    tickets = []
    for update_id in range(1, 9):
        ticket = await (a if update_id % 2 else b).take(chat, update_id)
        assert ticket is not None
        tickets.append(ticket)
    assert [t.number for t in tickets] == list(range(1, 9))
    log: list[int] = []
    tasks = [
        asyncio.create_task(_handle(a if t.number % 2 else b, t, log, hold=0.01)) for t in reversed(tickets)
    ]  # the last delivered starts first
    await asyncio.gather(*tasks)
    assert log == [n for t in tickets for n in (t.number, -t.number)]  # one at a time, in delivery order
    assert len(a) == len(b) == 0


async def test_a_chat_does_not_wait_for_another(worker: Worker) -> None:
    a = await worker()
    busy, other = next(_chats), next(_chats)
    first = await a.take(busy, 1)
    assert first is not None
    async with a.turn(first):
        ticket = await a.take(other, 1)
        assert ticket is not None
        log: list[int] = []
        await asyncio.wait_for(_handle(a, ticket, log), 1.0)
        assert log == [1, -1]


async def test_the_next_worker_is_woken_at_once_not_by_polling(worker: Worker) -> None:
    a, b = await worker(poll=5.0), await worker(poll=5.0)  # only a wake-up can be quick
    chat = next(_chats)
    first, second = await a.take(chat, 1), await b.take(chat, 2)
    assert first is not None and second is not None
    entered: list[float] = []

    async def later() -> None:
        async with b.turn(second):
            entered.append(time.monotonic())

    async with a.turn(first):
        waiting = asyncio.create_task(later())
        await asyncio.sleep(0.3)
        assert not entered  # still waiting for the first ticket
        released = time.monotonic()
    await waiting
    assert entered[0] - released < 0.2, entered[0] - released  # pub/sub, not the fallback poll


async def test_the_same_update_delivered_again_is_dropped_while_in_hand_and_once_done(worker: Worker) -> None:
    a, b = await worker(), await worker()
    chat = next(_chats)
    ticket = await a.take(chat, 41)
    assert ticket is not None
    assert await b.take(chat, 41) is None  # the 200 was lost, Telegram retried to the other worker
    async with a.turn(ticket):
        pass
    assert await b.take(chat, 41) is None
    again = await b.take(chat, 42)
    assert again is not None and again.number == ticket.number + 1


async def test_a_repeated_update_is_dropped_even_after_the_chat_s_other_queue_delivered_more(worker: Worker) -> None:
    """Telegram queues a chat's messages apart from each user's presses: while a press's 200 is lost and it
    is retried, a message of the same chat may arrive in between. The retry is still recognised."""
    a, b = await worker(), await worker()
    chat = next(_chats)
    press = await a.take(chat, 50)
    message = await b.take(chat, 51)  # the chat's message queue went on meanwhile
    assert press is not None and message is not None
    assert await b.take(chat, 50) is None  # the press again: in hand
    async with a.turn(press):
        pass
    async with b.turn(message):
        pass
    assert await a.take(chat, 50) is None and await a.take(chat, 51) is None  # and once done
    later = await a.take(chat, 52)
    assert later is not None and later.number == message.number + 1


async def test_a_dead_worker_s_ticket_is_skipped_once_its_lease_runs_out(worker: Worker) -> None:
    dead, alive = await worker(lease=0.4), await worker(lease=0.4)
    chat = next(_chats)
    lost = await dead.take(chat, 1)  # taken, answered 200, then the worker died: never handled, never renewed
    waiting = await alive.take(chat, 2)
    assert lost is not None and waiting is not None
    keeper = asyncio.create_task(alive.keep_leases())  # the live worker renews its own ticket while it waits
    try:
        started = time.monotonic()
        log: list[int] = []
        await asyncio.wait_for(_handle(alive, waiting, log), 5.0)  # the dead one was skipped
        waited = time.monotonic() - started
    finally:
        keeper.cancel()
    assert log == [2, -2]
    assert 0.25 < waited < 0.4 + POLL + 0.3, waited


async def test_an_update_whose_worker_died_before_handling_it_is_taken_again(worker: Worker) -> None:
    dead, alive = await worker(lease=0.3), await worker(lease=0.3)
    chat = next(_chats)
    assert await dead.take(chat, 77) is not None  # the worker died before it could answer: Telegram retries
    assert await alive.take(chat, 77) is None  # the first delivery still holds its lease
    await asyncio.sleep(0.4)
    retried = await alive.take(chat, 77)
    assert retried is not None and retried.number == 2
    log: list[int] = []
    await asyncio.wait_for(_handle(alive, retried, log), 2.0)
    assert log == [2, -2]


async def test_giving_up_a_ticket_before_its_turn_does_not_let_later_ones_jump_the_queue(worker: Worker) -> None:
    a, b = await worker(), await worker()
    chat = next(_chats)
    tickets = [await (a, b, b)[i].take(chat, 100 + i) for i in range(3)]
    assert all(t is not None for t in tickets)
    first, second, third = (t for t in tickets if t is not None)
    log: list[int] = []
    async with a.turn(first):
        gives_up = asyncio.create_task(_handle(b, second, log))
        last = asyncio.create_task(_handle(b, third, log))
        await asyncio.sleep(0.1)
        gives_up.cancel()  # e.g. the worker is shutting down
        await asyncio.sleep(0.3)
        assert log == []  # the third still waits for the first
    await asyncio.wait_for(last, 2.0)
    assert log == [3, -3]
    assert gives_up.cancelled()


async def test_a_ticket_given_up_during_its_first_round_trip_stays_given_up(worker: Worker) -> None:
    """The cancel lands while the waiting ticket talks to Redis, at 25 moments across its first few ms. On
    Python 3.11 redis-py's write swallowed about a third of these cancels and the ticket ran anyway."""
    a, b = await worker(), await worker()
    for step in range(25):
        chat = next(_chats)
        first, second, third = [await (a, b, b)[i].take(chat, i + 1) for i in range(3)]
        assert first is not None and second is not None and third is not None
        log: list[int] = []
        async with a.turn(first):
            gives_up = asyncio.create_task(_handle(b, second, log))
            last = asyncio.create_task(_handle(b, third, log))
            await asyncio.sleep(step * 0.0002)
            gives_up.cancel()
            await asyncio.sleep(0.02)
        await asyncio.wait_for(last, 2.0)
        assert log == [3, -3], (step, log)
        assert gives_up.cancelled()


async def test_a_stalled_worker_s_ticket_runs_late_rather_than_never(
    worker: Worker, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = await worker(lease=0.3), await worker(lease=0.3)
    chat = next(_chats)
    slow, fast = await a.take(chat, 1), await b.take(chat, 2)
    assert slow is not None and fast is not None
    await asyncio.sleep(0.4)  # worker a stalls past its lease without renewing
    log: list[int] = []
    with caplog.at_level(logging.WARNING, logger="bot.plumbing.chat_order"):
        await _handle(b, fast, log)
        await _handle(a, slow, log)  # given up as dead, yet handled (out of order) rather than lost
    assert log == [2, -2, 1, -1]
    assert "skipped 1 ticket(s)" in caplog.text and "handled late" in caplog.text


async def test_keys_expire_when_the_chat_goes_quiet(worker: Worker, redis_url: str) -> None:
    a = await worker()
    chat = next(_chats)
    ticket = await a.take(chat, 5)
    assert ticket is not None
    async with a.turn(ticket):
        pass
    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        assert 0 < await client.ttl(state_key(KEYS, chat)) <= 24 * 3600
        assert not await client.exists(alive_key(KEYS, chat))  # no ticket in hand
        assert 0 < await client.ttl(seen_key(KEYS, chat)) <= 24 * 3600
    finally:
        await client.aclose()


async def test_a_handler_cancelled_before_it_started_passes_its_turn_on(worker: Worker) -> None:
    a = await worker()
    chat = next(_chats)
    first, second = await a.take(chat, 1), await a.take(chat, 2)
    assert first is not None and second is not None
    log: list[int] = []
    never = asyncio.create_task(_handle(a, first, log))
    never.add_done_callback(lambda _: a.release_soon(first))  # as bot/plumbing/webhook.py does
    never.cancel()  # before its first step: ``turn`` never runs, so only the callback can pass the turn on
    await asyncio.wait_for(_handle(a, second, log), 1.0)
    assert log == [2, -2] and len(a) == 0
