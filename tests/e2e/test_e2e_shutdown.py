"""End to end, real processes: a bot stopped (SIGTERM, as `docker stop` or systemd stop it; SIGINT, Ctrl+C)
right after a press's move is saved takes no more updates, but answers the press and draws the move on the
group's board before it exits, in polling and in webhook mode; a second signal does not cut that short.

The moment is reached with a stop point (``bot.plumbing.stop_points``): the bot stops itself once the move is
written, before its redraw is even asked for; the signals are sent while it is stopped, so they are waiting
for it when it goes on, whatever the machine's speed. The process then exits by itself, and what the group's
board shows afterwards was drawn by it. Nothing may be left to be destroyed with the event loop: asyncio says
"Task was destroyed but it is pending!" when that happens, and the log must not.
"""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.dev.harness import TEST_TIME_SCALE, BotProcess, Harness
from bot.dev.simulate import (
    Table,
    board_of,
    buttons,
    drawn_version,
    leaving_no_task,
    play_move,
    player_to_act,
    shows,
    start_game,
    table,
)
from bot.plumbing.stop_points import STOP_AT
from sandbox.control_client import ControlClient

EXIT_SECONDS = 30.0  # bounds a wait for the process to exit (it gives its work 10 s at most)


@dataclass
class Stopped:
    t: Table
    board: dict[str, Any]  # the group's board before the press
    move: str  # the data pressed
    answer: dict[str, Any]  # the press's answer, as the presser saw it
    code: int  # the process's exit code


async def _stopped_after_a_move(sandbox: ControlClient, bot: BotProcess, signals: list[signal.Signals]) -> Stopped:
    """A game is started and a move pressed; the bot, stopped at its stop point once the move is saved, gets
    ``signals`` and goes on, until it exits."""
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    move = next(b["data"] for b in buttons(board) if b.get("data", "").startswith("g:"))
    bot.change_env({STOP_AT: f"move-saved@{t.chat_id}"})
    bot.stop()  # a clean stop (SIGTERM) and a start, the stop point armed
    bot.start()
    press = asyncio.create_task(sandbox.press(t.chat_id, board["message_id"], player_to_act(t, board)["id"], move))
    await asyncio.to_thread(bot.wait_stopped)  # the move is saved; its answer and its board wait
    process = bot.process
    assert process is not None
    for sig in signals:  # pending while the process is stopped: it meets them as soon as it goes on
        process.send_signal(sig)
    process.send_signal(signal.SIGCONT)
    code = await asyncio.to_thread(process.wait, EXIT_SECONDS)
    bot.process = None
    return Stopped(t, board, move, await press, code)


async def _drawn_before_exit(sandbox: ControlClient, bot: BotProcess, stopped: Stopped) -> None:
    """The process exited by itself, cleanly, having answered the press and drawn its move on the board, with
    nothing left to be destroyed pending."""
    assert stopped.code == 0
    now = board_of(await sandbox.messages(stopped.t.chat_id))
    assert drawn_version(now) > drawn_version(stopped.board) and shows(now, stopped.move), "the move is not drawn"
    assert stopped.answer["answered"] and not stopped.answer["text"], stopped.answer
    log = bot.run_log()
    assert any("SIGTERM: taking no new updates" in line for line in log), log[-20:]
    assert not [line for line in log if "Task was destroyed" in line or "still in hand after" in line]


async def _started_again(sandbox: ControlClient, bot: BotProcess, t: Table | None) -> None:
    """The bot as usual again, and the test's game goes on there."""
    if bot.process is not None:  # the test failed before the bot exited
        bot.kill()
    bot.change_env({STOP_AT: None})
    bot.start()
    if t is not None:
        await play_move(sandbox, t, random.Random(3))


@pytest.mark.parametrize(
    "signals", [[signal.SIGTERM], [signal.SIGTERM, signal.SIGINT]], ids=["sigterm", "sigterm-then-sigint"]
)
async def test_a_polling_bot_stopped_right_after_a_move_draws_it_before_it_exits(
    sandbox: ControlClient, harness: Harness, signals: list[signal.Signals]
) -> None:
    assert harness.bot is not None
    stopped = None
    try:
        stopped = await _stopped_after_a_move(sandbox, harness.bot, signals)
        await _drawn_before_exit(sandbox, harness.bot, stopped)
        if signal.SIGINT in signals:  # the second signal was heard, and let the stop finish
            assert any("SIGINT again: still finishing" in line for line in harness.bot.run_log())
    finally:
        await _started_again(sandbox, harness.bot, stopped.t if stopped is not None else None)


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    """One bot worker in webhook mode, behind the proxy the sandbox's webhook points at."""
    workdir: Path = tmp_path_factory.mktemp("shutdown")
    with Harness(workdir, webhook_workers=1, time_scale=TEST_TIME_SCALE) as running:
        yield running


@pytest.fixture
async def worker_sandbox(one_worker: Harness) -> AsyncIterator[ControlClient]:
    async with ControlClient(one_worker.url) as client, leaving_no_task():
        yield client


async def test_a_webhook_worker_stopped_right_after_a_move_draws_it_before_it_exits(
    worker_sandbox: ControlClient, one_worker: Harness
) -> None:
    worker = one_worker.workers[0]
    stopped = None
    try:
        stopped = await _stopped_after_a_move(worker_sandbox, worker, [signal.SIGTERM])
        await _drawn_before_exit(worker_sandbox, worker, stopped)
    finally:
        await _started_again(worker_sandbox, worker, stopped.t if stopped is not None else None)
