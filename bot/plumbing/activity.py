"""What the bot has in hand: updates taken in and not yet handled, and the work they or the clock set off.

Every update is counted from the moment the bot takes it in (put on PTB's update queue in polling mode, handed
to a task by the webhook server) until its handler has returned; every task that goes on after a handler
returned (a chat's drawer, a turn notice, an old board's buttons taken away) and every task the clock starts
(a deadline firing, recovery) is counted from before it is created until it ends. So there is no moment in
which work the bot is going to do is counted nowhere, and ``in_hand() == 0`` means the bot will do nothing
more until something new arrives or a deadline comes due.

A stopping bot (SIGTERM or SIGINT: ``on_stop_signals``) takes no new work and gives what it has in hand
``STOP_SECONDS`` to finish (``finished``): a move saved just before is drawn before the process exits. What is
still running then is cancelled, named in the log, and redrawn by the next start's check
(``bot/flow/recovery.py``), so a stop is bounded even when a drawer waits a minute for a group's budget.

The counts are a Prometheus gauge (``dorehami_work_in_hand`` by kind, on ``/metrics``): an operator sees what
a worker is busy with, and the end-to-end tests wait for the sandbox and the bot to have nothing left in hand
(``bot/dev/simulate.py: settled``) instead of for a quiet moment, which a busy machine can fake.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

from telegram import Update
from telegram.ext import Application, ApplicationHandlerStop, SimpleUpdateProcessor

from bot.plumbing import logs
from bot.plumbing.figures import HANDLER_ERRORS, HANDLER_SECONDS, IN_HAND, UPDATES

Kind = Literal["update", "redraw", "notice", "deadline", "recovery", "cleanup"]
KINDS: tuple[Kind, ...] = ("update", "redraw", "notice", "deadline", "recovery", "cleanup")
T = TypeVar("T")

log = logging.getLogger(__name__)

STOP_SECONDS = 10.0  # at most this long a stopping bot finishes what it has in hand

_counts: Counter[Kind] = Counter()
_tasks: dict[asyncio.Task[Any], Kind] = {}  # the tasks counted, what a stop past its time cancels
_stop_by: float | None = None  # the event loop's time at which a stopping bot gives up what is left
_stop_seconds = STOP_SECONDS
_give_up_timer: asyncio.TimerHandle | None = None
_given_up = 0  # tasks a stop cancelled


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
    _tasks.setdefault(task, kind)
    task.add_done_callback(lambda done: _done(done, kind))
    return task


def _done(task: asyncio.Task[Any], kind: Kind) -> None:
    _counts[kind] -= 1
    _tasks.pop(task, None)


@contextmanager
def _cancellable(kind: Kind) -> Iterator[None]:
    """The current task, already counted, may be cancelled by a stop past its time."""
    task = asyncio.current_task()
    if task is None or task in _tasks:  # known already (a webhook's update is a task spawned here)
        yield
        return
    _tasks[task] = kind
    try:
        yield
    finally:
        _tasks.pop(task, None)


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
    ``WebhookServer._process``): what it logs names the update, its chat and topic (bot/plumbing/logs.py), and a
    stop past its time cancels it like the other work in hand."""

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        UPDATES.labels(_type_of(update)).inc()
        with logs.about(*_where(update)), _cancellable("update"):
            await coroutine


def _type_of(update: object) -> str:
    """The update's type, as Telegram names it, among those the bot asks for (others: "other")."""
    if isinstance(update, Update):
        for kind in (Update.CALLBACK_QUERY, Update.MESSAGE, Update.MY_CHAT_MEMBER):
            if getattr(update, kind, None) is not None:
                return kind
    return "other"


Callback = Callable[..., Coroutine[Any, Any, Any]]


def timed(handler: str, callback: Callback) -> Callback:
    """``callback`` (a handler's), its every run timed as ``handler`` (``dorehami_handler_seconds``) and an
    exception it ends with counted (PTB's flow control, ``ApplicationHandlerStop``, is not one)."""

    @functools.wraps(callback)
    async def run(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await callback(*args, **kwargs)
        except ApplicationHandlerStop:
            raise
        except Exception:
            HANDLER_ERRORS.labels(handler).inc()
            raise
        finally:
            HANDLER_SECONDS.labels(handler).observe(time.perf_counter() - started)

    return run


def _where(update: object) -> tuple[int | None, int | None, int | None]:
    """The chat, topic and id of an update, as far as it has them."""
    if not isinstance(update, Update):
        return None, None, None
    chat, message = update.effective_chat, update.effective_message
    topic = message.message_thread_id if message is not None and message.is_topic_message else None
    return (chat.id if chat is not None else None), topic, update.update_id


# Stopping -------------------------------------------------------------------------------------------------


def stopping() -> bool:
    """Whether the bot is on its way out: no new deadline is claimed, no new repair started."""
    return _stop_by is not None


def stop(seconds: float = STOP_SECONDS) -> bool:
    """The bot begins to stop: what it has in hand gets ``seconds`` from now, then what is left is cancelled
    (also while PTB is still waiting for its own tasks). False if it had begun already."""
    global _stop_by, _stop_seconds, _give_up_timer
    if _stop_by is not None:
        return False
    loop = asyncio.get_running_loop()
    _stop_by, _stop_seconds = loop.time() + seconds, seconds
    _give_up_timer = loop.call_at(_stop_by, _give_up)
    return True


def _give_up() -> None:
    """Cancel every task still in hand."""
    global _given_up
    left = {task: kind for task, kind in _tasks.items() if not task.done()}
    _given_up += len(left)
    if left:
        kinds = ", ".join(f"{kind}: {n}" for kind, n in sorted(Counter(left.values()).items()))
        log.warning(
            "stopping: %d task(s) still in hand after %g s cancelled (%s); the next start redraws their chats",
            len(left),
            _stop_seconds,
            kinds,
        )
    for task in left:
        task.cancel()


async def finished() -> bool:
    """Until nothing is in hand, for the time ``stop`` gave (begun now if nobody had); past it, what is left is
    cancelled and awaited, so that nothing is destroyed pending with the event loop. Whether all of it
    finished."""
    stop()
    assert _stop_by is not None
    try:
        if not await drained(max(0.0, _stop_by - asyncio.get_running_loop().time())):
            left = [task for task in _tasks if not task.done()]
            _give_up()
            await asyncio.gather(*left, return_exceptions=True)
        return not _given_up
    finally:
        if _give_up_timer is not None:
            _give_up_timer.cancel()


def on_stop_signals(stop_taking: Callable[[], None]) -> None:
    """SIGTERM and SIGINT stop the bot: the first calls ``stop_taking`` (no new updates) and gives the work in
    hand ``STOP_SECONDS``; another one is noted, not obeyed (it would cut short the stop it interrupts, and
    lose what that was finishing: the timer bounds the stop anyway)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, _signalled, sig, stop_taking)


def _signalled(sig: signal.Signals, stop_taking: Callable[[], None]) -> None:
    if not stop():
        log.warning("%s again: still finishing what is in hand (%d left)", sig.name, in_hand())
        return
    log.info("%s: taking no new updates; finishing what is in hand, %.0f s at most", sig.name, STOP_SECONDS)
    stop_taking()
