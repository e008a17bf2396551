"""Replies and notices asked for under a chat's lock are sent once the lock is let go, so a send that waits
for the chat's budget never holds up a move (bot/plumbing/services.py: ``when_unlocked``)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.config import Settings
from bot.plumbing.services import Services, locked_game, when_unlocked
from bot.plumbing.store import GameRecord


class NoGames:
    async def load(self, chat_id: int, thread_id: int | None = None) -> GameRecord | None:
        return None


@pytest.fixture
def context() -> Any:
    svc = Services(store=NoGames(), settings=Settings(), deadlines=None)  # type: ignore[arg-type]
    return SimpleNamespace(bot_data={"services": svc})


async def test_sends_asked_for_under_the_lock_go_out_after_it_in_order(context: Any) -> None:
    locks = context.bot_data["services"].locks
    sent: list[tuple[str, int]] = []

    async def send(text: str) -> None:
        sent.append((text, len(locks)))  # how many chat locks are held while it is sent

    async with locked_game(context, -1, None):
        await when_unlocked(lambda: send("first"))
        await when_unlocked(lambda: send("second"))
        assert sent == []
        assert len(locks) == 1
    assert sent == [("first", 0), ("second", 0)]


async def test_outside_a_lock_a_send_goes_out_at_once(context: Any) -> None:
    sent: list[str] = []

    async def send() -> None:
        sent.append("now")

    await when_unlocked(send)
    assert sent == ["now"]


async def test_a_task_started_under_the_lock_still_sends_after_it(context: Any) -> None:
    """A task inherits the block's context; once the lock is gone its sends must not be queued for nobody."""
    sent: list[str] = []
    go_on = asyncio.Event()

    async def send() -> None:
        sent.append("late")

    async def later() -> None:
        await go_on.wait()
        await when_unlocked(send)

    async with locked_game(context, -1, None):
        task = asyncio.create_task(later())
    go_on.set()
    await task
    assert sent == ["late"]


async def test_nothing_is_sent_when_the_locked_block_failed(context: Any) -> None:
    sent: list[str] = []

    async def send() -> None:
        sent.append("sent")

    with pytest.raises(RuntimeError):
        async with locked_game(context, -1, None):
            await when_unlocked(send)
            raise RuntimeError("the move failed")
    assert sent == []
