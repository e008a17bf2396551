"""What the bot has in hand: updates taken in and not yet handled, and the work they or the clock set off.

Every update is counted from the moment the bot takes it in (put on PTB's update queue in polling mode, handed
to a task by the webhook server) until its handler has returned; every task that goes on after a handler
returned (a chat's drawer, a turn notice, an old board's buttons taken away) and every task the clock starts
(a deadline firing, recovery) is counted from before it is created until it ends. So there is no moment in
which work the bot is going to do is counted nowhere, and ``in_hand() == 0`` means the bot will do nothing
more until something new arrives or a deadline comes due.

The counts are a Prometheus gauge (``dorehami_work_in_hand`` by kind, on ``/metrics``): an operator sees what
a worker is busy with, and the end-to-end tests wait for the sandbox and the bot to have nothing left in hand
(``bot/dev/simulate.py: settled``) instead of for a quiet moment, which a busy machine can fake.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

from prometheus_client import Gauge
from telegram import Update
from telegram.ext import Application, SimpleUpdateProcessor

from bot.plumbing import logs

Kind = Literal["update", "redraw", "notice", "deadline", "recovery", "cleanup"]
KINDS: tuple[Kind, ...] = ("update", "redraw", "notice", "deadline", "recovery", "cleanup")
T = TypeVar("T")

_counts: Counter[Kind] = Counter()

IN_HAND_METRIC = "dorehami_work_in_hand"
IN_HAND = Gauge(
    IN_HAND_METRIC,
    "Updates taken in and not yet handled, and tasks they or the clock set off that have not ended",
    ["kind"],
)


def _reader(kind: Kind) -> Callable[[], float]:
    return lambda: float(_counts[kind])


for _kind in KINDS:
    IN_HAND.labels(_kind).set_function(_reader(_kind))


def in_hand() -> int:
    """Everything counted, of every kind."""
    return sum(_counts.values())


@contextmanager
def busy(kind: Kind) -> Iterator[None]:
    """Count the enclosed work as ``kind`` while it runs."""
    _counts[kind] += 1
    try:
        yield
    finally:
        _counts[kind] -= 1


async def drained(timeout: float) -> bool:
    """Wait until nothing is in hand, at most ``timeout`` seconds; whether that happened (for a clean stop)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while in_hand():
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def spawn(
    coroutine: Coroutine[Any, Any, T],
    kind: Kind,
    app: Application | None = None,  # type: ignore[type-arg]
    update: object = None,
) -> asyncio.Task[T]:
    """Start ``coroutine`` as a task counted as ``kind`` from now until it ends, however it ends; with a running
    ``app``, as one of its tasks, which it awaits when it stops (so work in hand then is finished), and whose
    error handlers get ``update`` if the task fails."""
    _counts[kind] += 1
    try:
        if app is not None and app.running:
            task = app.create_task(coroutine, update=update)
        else:
            task = asyncio.create_task(coroutine)
    except BaseException:
        _counts[kind] -= 1
        raise
    task.add_done_callback(lambda _: _done(kind))
    return task


def _done(kind: Kind) -> None:
    _counts[kind] -= 1


class CountedQueue(asyncio.Queue[object]):
    """PTB's update queue, counting each item from ``put`` until PTB calls ``task_done`` for it: after its
    handler returned, or when it is dropped at shutdown (PTB calls it for every item it takes)."""

    def put_nowait(self, item: object) -> None:
        super().put_nowait(item)
        _counts["update"] += 1

    def task_done(self) -> None:
        super().task_done()
        _counts["update"] -= 1


class UpdateProcessor(SimpleUpdateProcessor):
    """PTB's handling of each update, in the update's own task (polling, and webhook mode through
    ``WebhookServer._process``): what it logs names the update, its chat and topic (bot/plumbing/logs.py)."""

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        with logs.about(*_where(update)):
            await coroutine


def _where(update: object) -> tuple[int | None, int | None, int | None]:
    """The chat, topic and id of an update, as far as it has them."""
    if not isinstance(update, Update):
        return None, None, None
    chat, message = update.effective_chat, update.effective_message
    topic = message.message_thread_id if message is not None and message.is_topic_message else None
    return (chat.id if chat is not None else None), topic, update.update_id
