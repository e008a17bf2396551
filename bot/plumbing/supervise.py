"""The bot's long-running tasks, kept running: none may die silently while the process looks healthy.

A loop that should run as long as the bot does (the deadline loop, the heartbeat, the wake-up channel, the
webhook's lease keepers) is started here. An exception it did not expect ends that run of it: the traceback is
logged once (not again while it keeps failing the same way), the loop is started again after a back-off
(0.5 s, doubling up to 30 s), and until a new run has lasted ``HEALTHY_AFTER`` seconds the task counts as
down: ``down()`` names it, the heartbeat writes it and ``dorehami health`` fails on it. A loop that handles
its own outages (Redis away: ``bot.plumbing.outage``) never comes here for them; this is for what nobody
foresaw. The gauge ``dorehami_task_down`` says the same on ``/metrics``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from bot.plumbing.figures import TASK_DOWN

log = logging.getLogger(__name__)

FIRST_BACKOFF, MAX_BACKOFF = 0.5, 30.0
HEALTHY_AFTER = 10.0  # seconds a restarted task must run before it counts as up again

_down: dict[str, float] = {}  # task name -> since when (time.time()) it has been down
_failures: dict[str, str] = {}  # task name -> the last failure logged with its traceback


def down() -> dict[str, float]:
    """The tasks down now, with when each went down."""
    return dict(_down)


def supervised(name: str, loop: Callable[[], Coroutine[Any, Any, None]]) -> asyncio.Task[None]:
    """Run ``loop()`` as a task named ``name`` until it is cancelled, started again whenever it ends."""
    TASK_DOWN.labels(name).set(0)
    return asyncio.create_task(_keep(name, loop), name=name)


async def _keep(name: str, loop: Callable[[], Coroutine[Any, Any, None]]) -> None:
    backoff = FIRST_BACKOFF
    try:
        while True:
            run = asyncio.create_task(loop(), name=f"{name}-run")
            try:
                finished, _ = await asyncio.wait({run}, timeout=HEALTHY_AFTER)
                if not finished:  # it has lasted: up again, and the next failure starts the back-off anew
                    _recovered(name)
                    backoff = FIRST_BACKOFF
                await run
                _failed(name, None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                _failed(name, exc)
            finally:
                if not run.done():
                    run.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await run
            await asyncio.sleep(backoff)
            backoff = min(MAX_BACKOFF, backoff * 2)
    finally:
        _down.pop(name, None)
        TASK_DOWN.labels(name).set(0)


def _failed(name: str, exc: BaseException | None) -> None:
    """A run ended: logged with its traceback the first time it ends this way, briefly after that."""
    what = "returned" if exc is None else f"{type(exc).__name__}: {exc}"
    if _failures.get(name) != what:
        _failures[name] = what
        log.error("task %s stopped (%s); starting it again", name, what, exc_info=exc)
    else:
        log.warning("task %s stopped again (%s)", name, what)
    _down.setdefault(name, time.time())
    TASK_DOWN.labels(name).set(1)


def _recovered(name: str) -> None:
    if _down.pop(name, None) is not None:
        _failures.pop(name, None)
        log.warning("task %s runs again", name)
    TASK_DOWN.labels(name).set(0)
