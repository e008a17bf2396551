"""A stopping bot finishes what it has in hand, for a bounded time: the signals, the wait, and what is given up."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Iterator

import pytest

from bot.plumbing import activity


@pytest.fixture(autouse=True)
def _not_stopping(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with a bot that is not stopping, and leaves none behind (the state is the process's,
    and the tests share one event loop: a bound left armed would cancel another test's tasks)."""
    monkeypatch.setattr(activity, "_stop_by", None)
    monkeypatch.setattr(activity, "_give_up_timer", None)
    monkeypatch.setattr(activity, "_given_up", 0)
    yield
    if activity._give_up_timer is not None:
        activity._give_up_timer.cancel()


async def test_the_work_in_hand_is_finished_before_the_stop_ends() -> None:
    drawn = asyncio.Event()

    async def redraw() -> None:
        await asyncio.sleep(0.2)
        drawn.set()

    activity.spawn(redraw(), "redraw")
    assert await activity.finished()
    assert drawn.is_set() and activity.in_hand() == 0 and activity.stopping()


async def test_work_past_the_bound_is_cancelled_and_named_not_left_pending(caplog: pytest.LogCaptureFixture) -> None:
    """Cancelled when the time is up even while someone else waits for it (PTB's stop awaits its own tasks)."""
    never = asyncio.Event()
    waiting = activity.spawn(never.wait(), "redraw")
    quick = activity.spawn(asyncio.sleep(0.01), "notice")
    with caplog.at_level(logging.WARNING, logger="bot.plumbing.activity"):
        assert activity.stop(0.3)
        assert not activity.stop(5.0)  # once: the first bound holds
        with pytest.raises(asyncio.CancelledError):
            await waiting  # as PTB's stop would: the bound ends it
        assert not await activity.finished()
    assert quick.done() and not quick.cancelled()
    assert activity.in_hand() == 0
    assert [r.getMessage() for r in caplog.records] == [
        "stopping: 1 task(s) still in hand after 0.3 s cancelled (redraw: 1); the next start redraws their chats"
    ]


async def test_the_first_signal_stops_the_bot_and_another_is_only_noted(caplog: pytest.LogCaptureFixture) -> None:
    stopped = asyncio.Event()
    calls: list[None] = []

    def stop_taking() -> None:
        calls.append(None)
        stopped.set()

    warned = asyncio.Event()
    heard = logging.Handler(logging.WARNING)
    heard.emit = lambda record: warned.set()  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    activity.on_stop_signals(stop_taking)
    logging.getLogger("bot.plumbing.activity").addHandler(heard)
    try:
        with caplog.at_level(logging.INFO, logger="bot.plumbing.activity"):
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.wait_for(stopped.wait(), 10)
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.wait_for(warned.wait(), 10)
    finally:
        logging.getLogger("bot.plumbing.activity").removeHandler(heard)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    assert len(calls) == 1 and activity.stopping()
    assert caplog.records[0].getMessage() == "SIGTERM: taking no new updates; finishing what is in hand, 10 s at most"
    assert caplog.records[1].getMessage().startswith("SIGINT again: still finishing what is in hand")
