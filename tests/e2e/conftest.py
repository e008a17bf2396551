"""One real system per test session: an embedded Redis, the sandbox, and the bot as a child process."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.harness import Harness
from sandbox.control_client import ControlClient


@pytest.fixture(scope="session")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    workdir: Path = tmp_path_factory.mktemp("e2e")
    # short turn timers on offer, so the timer tests can choose them with /settings like an admin would
    with Harness(workdir, bot_env={"TURN_TIMER_CHOICES": "2,3,30,120"}) as running:
        yield running


@pytest.fixture
async def sandbox(harness: Harness) -> AsyncIterator[ControlClient]:
    async with ControlClient(harness.url) as client:
        yield client
