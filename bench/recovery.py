"""How soon a bot killed mid-game brings a game's messages up to date by itself: the figures the repair tests
(tests/e2e/test_e2e_repair.py) wait for without timing them, so that a busy machine makes them slow, not red.

Each run, on one system (an embedded Redis, the sandbox with Telegram's clock ten times as fast, as in the
tests, and the bot as a process), reaches its moment with a stop point, kills the bot there and starts it
again, then measures from the start:
- hands: a رکب game of three, stopped after a move's board was drawn and before the hands: until every hand
  is drawn again;
- result: a game just ended (a player left), stopped before its result: until the result is out;
- and, for both, the bot's own start (process start to polling), which the figures include.
Prints the median and the largest of ``--runs`` runs of each.

    python bench/recovery.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.dev.harness import TEST_TIME_SCALE, Harness
from bot.dev.simulate import (
    bot_says,
    buttons,
    hands_redrawn,
    play_move,
    press_a_move,
    start_game,
    table,
)
from bot.plumbing.stop_points import STOP_AT
from sandbox.control_client import ControlClient


def restart(harness: Harness) -> tuple[float, float]:
    """Kill the bot where it stopped itself and start it again, with no stop point; (start, ready) times."""
    started = time.monotonic()
    harness.restart_bot(kill=True, env={STOP_AT: None})
    return started, time.monotonic()


async def hands(sandbox: ControlClient, harness: Harness, rng: random.Random) -> tuple[float, float]:
    t = await table(sandbox, players=3)
    await start_game(sandbox, t, game="condottiere")
    for _ in range(3):
        await play_move(sandbox, t, rng)
    harness.restart_bot(kill=False, env={STOP_AT: f"board-drawn@{t.chat_id}"})
    await press_a_move(sandbox, t, rng)
    assert harness.bot is not None
    harness.bot.wait_stopped()
    mark = (await sandbox.log())["next"]
    started, ready = restart(harness)
    return ready - started, await hands_redrawn(sandbox, harness, t, mark) - started


async def result(sandbox: ControlClient, harness: Harness) -> tuple[float, float]:
    t = await table(sandbox)
    await start_game(sandbox, t)
    harness.restart_bot(kill=False, env={STOP_AT: f"result-due@{t.chat_id}"})
    quitter = t.players[0]
    confirm = await bot_says(sandbox, t.chat_id, quitter["id"], "/leave")
    await sandbox.press(t.chat_id, confirm["message_id"], quitter["id"], buttons(confirm)[0]["data"])
    assert harness.bot is not None
    harness.bot.wait_stopped()
    started, ready = restart(harness)

    def announced(messages: list[dict[str, Any]]) -> bool:
        return any(m["from_bot"] and "🏁" in (m["text"] or "") for m in messages)

    await sandbox.wait_for(t.chat_id, announced)
    return ready - started, time.monotonic() - started


def line(name: str, figures: list[float]) -> str:
    return f"{name}: median {statistics.median(figures):.2f} s, max {max(figures):.2f} s"


async def main(runs: int) -> None:
    starts: list[float] = []
    figures: dict[str, list[float]] = {"hands current": [], "result out": []}
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp, Harness(Path(tmp), time_scale=TEST_TIME_SCALE) as harness:
        async with ControlClient(harness.url) as sandbox:
            for _ in range(runs):
                ready, done = await hands(sandbox, harness, rng)
                starts.append(ready)
                figures["hands current"].append(done)
                ready, done = await result(sandbox, harness)
                starts.append(ready)
                figures["result out"].append(done)
    print(f"{runs} run(s) of each, seconds from the killed bot's new start")
    print(line("the bot's start (to polling)", starts))
    for name, found in figures.items():
        print(line(name, found))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    asyncio.run(main(parser.parse_args().runs))
