"""Long-running tasks are started again when they fail, logged once, and seen as down meanwhile
(bot/plumbing/supervise.py); health and readiness go by them and by when Redis and Telegram last answered
(bot/plumbing/liveness.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any, cast

import pytest

from bot import cli
from bot.config import load_settings
from bot.plumbing import liveness, supervise
from bot.plumbing.webhook import WebhookServer


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervise, "FIRST_BACKOFF", 0.01)
    monkeypatch.setattr(supervise, "HEALTHY_AFTER", 0.2)


async def test_a_failing_task_is_started_again_logged_once_and_down_until_it_lasts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runs = 0
    lasting = asyncio.Event()

    async def loop() -> None:
        nonlocal runs
        runs += 1
        if runs <= 3:
            raise RuntimeError("the same bug")
        lasting.set()
        await asyncio.Event().wait()  # runs on, as a loop does

    with caplog.at_level(logging.WARNING, logger="bot.plumbing.supervise"):
        task = supervise.supervised("flaky", loop)
        await asyncio.wait_for(lasting.wait(), 5)
        assert "flaky" in supervise.down()  # started again, but not up until it has lasted
        # the event loop's timers fire in order: the supervisor's, set when the run started, before this one
        await asyncio.sleep(supervise.HEALTHY_AFTER * 2)
        assert "flaky" not in supervise.down()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert runs == 4 and len(tracebacks) == 1  # three failures, one traceback
    assert any("runs again" in r.getMessage() for r in caplog.records)
    assert "flaky" not in supervise.down()


async def test_a_task_cancelled_stops_for_good() -> None:
    started = asyncio.Event()

    async def loop() -> None:
        started.set()
        await asyncio.Event().wait()

    task = supervise.supervised("steady", loop)
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()
    results = await asyncio.gather(task, return_exceptions=True)
    assert isinstance(results[0], asyncio.CancelledError) and "steady" not in supervise.down()


def test_health_fails_while_a_task_is_down(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    settings = load_settings()
    beat = settings.heartbeat_path
    beat.parent.mkdir(parents=True, exist_ok=True)
    beat.write_text(json.dumps({"at": time.time(), "down": []}))
    assert cli._health(settings) == 0
    beat.write_text(json.dumps({"at": time.time(), "down": ["deadlines"]}))
    assert cli._health(settings) == 1
    beat.write_text(json.dumps({"at": time.time() - 120, "down": []}))
    assert cli._health(settings) == 1
    beat.write_text(str(time.time()))  # written by a bot from before this version
    assert cli._health(settings) == 0


async def test_the_webhook_s_healthz_fails_while_a_task_is_down(monkeypatch: pytest.MonkeyPatch) -> None:
    server = WebhookServer(cast(Any, None), cast(Any, None), "/hook", None)
    server.ready = True
    assert (await server.health(cast(Any, None))).status == 200
    monkeypatch.setitem(supervise._down, "deadlines", time.time())
    answer = await server.health(cast(Any, None))
    assert answer.status == 503 and answer.text == "failing: deadlines"


def test_health_fails_when_redis_or_telegram_has_been_silent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("HEALTH_SILENT_SECONDS", "30")
    settings = load_settings()
    beat = settings.heartbeat_path
    beat.parent.mkdir(parents=True, exist_ok=True)
    now = time.time()
    beat.write_text(json.dumps({"at": now, "down": [], "answered": {"redis": now - 1, "telegram": now - 9}}))
    assert cli._health(settings) == 0
    beat.write_text(json.dumps({"at": now, "down": [], "answered": {"redis": now - 31, "telegram": now - 9}}))
    assert cli._health(settings) == 1
    beat.write_text(json.dumps({"at": now, "down": [], "answered": {"redis": now, "telegram": now - 45}}))
    assert cli._health(settings) == 1


async def test_a_webhook_worker_is_ready_only_while_redis_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    server = WebhookServer(cast(Any, None), cast(Any, None), "/hook", None, silent_limit=30)
    server.ready = True
    monkeypatch.setitem(liveness._answered, "redis", time.time())
    assert (await server.readiness(cast(Any, None))).status == 200
    monkeypatch.setitem(liveness._answered, "redis", time.time() - 31)
    answer = await server.readiness(cast(Any, None))
    assert answer.status == 503 and answer.text == "redis: no answer"
    assert (await server.health(cast(Any, None))).status == 200  # alive all the same: no restart for it
