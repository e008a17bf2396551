"""One real system per test session: an embedded Redis, the sandbox, and the bot as a child process.

The sandbox keeps Telegram's rules (edits count as messages, 429s, callback queries too old after 15 s) with
its clock ten times as fast (``TEST_TIME_SCALE``), and the bot's budgets scaled to match, so that whole games
under the real limits take seconds, not many minutes: the same schedule, faster."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.dev.harness import TEST_TIME_SCALE, Harness
from bot.dev.simulate import Settle, leaving_no_task, settled
from bot.dev.test_lanes import OWN_SYSTEMS
from sandbox.control_client import ControlClient


@pytest.fixture(scope="session")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    workdir: Path = tmp_path_factory.mktemp("e2e")
    # short turn timers on offer, so the timer tests can choose them with /settings like an admin would; the
    # sandbox's first user (id 1001, made below before any test) is the bot's operator
    env = {"TURN_TIMER_CHOICES": "2,3,10,30,120", "OPERATOR_IDS": str(OPERATOR_ID)}
    with Harness(workdir, bot_env=env, time_scale=TEST_TIME_SCALE) as running:
        created = httpx.post(f"{running.url}/sandbox/users", json={"first_name": "گرداننده"}).json()
        assert created["id"] == OPERATOR_ID
        yield running


OPERATOR_ID = 1001
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is marked ``e2e``, so that ``pytest -m "not e2e"`` runs the fast layers alone. A module
    that ``bot.dev.test_lanes`` takes to run a system of its own but uses the session's is an error, not a
    slow surprise (under pytest-xdist it would start a second session system)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
            if item.path.name in OWN_SYSTEMS and uses_the_session_system(item):
                raise pytest.UsageError(f"{item.nodeid} uses the session's system: take it out of OWN_SYSTEMS")


def uses_the_session_system(item: pytest.Item) -> bool:
    """Whether the test needs ``harness`` above (directly or through ``sandbox``, ``settle``, ``operator``), not a
    module's own fixture of that name."""
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.get("harness", ()) if info is not None else ()
    return bool(defs) and defs[-1].scope == "session"


@pytest.fixture(scope="session")
def operator(harness: Harness) -> dict[str, Any]:
    return {"id": OPERATOR_ID, "first_name": "گرداننده"}


@pytest.fixture
async def sandbox(harness: Harness) -> AsyncIterator[ControlClient]:
    async with ControlClient(harness.url) as client, leaving_no_task():
        yield client


@pytest.fixture
def settle(sandbox: ControlClient, harness: Harness) -> Settle:
    """``await settle()``: until the sandbox and the bot have nothing left to do (``bot.dev.simulate.settled``)."""
    return functools.partial(settled, sandbox, harness)
