"""A broadcast wake-up for coroutines that long-poll on sandbox state."""

from __future__ import annotations

import asyncio
import contextlib


class Signal:
    """Wakes every current waiter when fired; waiters re-check their own condition.

    Checking a condition and then calling :meth:`wait` has no await in between, so no
    firing can be missed on a single event loop.
    """

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        """Wake everyone waiting right now."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, seconds: float) -> None:
        """Return at the next firing, or after ``seconds``."""
        if seconds <= 0:
            return
        event = self._event
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), seconds)
