"""End to end, real processes: Redis that answers "not now" is an outage, waited out, never the end of a task.

A replica answers writes with READONLY (as the old primary does after a failover), a server at its maxmemory
with noeviction answers OOM. Either used to end the deadline loop for good: no turn timer, reminder or computer
move fired again, while the bot looked healthy. Here the bot's Redis refuses writes for ten seconds one way,
then ten seconds the other, in the middle of a group game with a turn timer and a private game against a
computer player: each outage is logged once, and afterwards the timer fires, the computer moves, and presses
move both games.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

from bot.dev.harness import Harness, free_port
from bot.dev.simulate import (
    Settle,
    Table,
    board_of,
    board_past,
    choose_setting,
    drawn_version,
    eventually,
    game_record,
    log_lines,
    no_pause_in_private,
    play_move,
    set_timer,
    someone_can_act,
    start_game,
    start_with_computers,
    table,
    wait_log,
)
from bot.handlers.admin import MAX_TIMEOUT_CHOICES
from sandbox.control_client import ControlClient

OUTAGE_SECONDS = 10.0  # how long Redis refuses: the length of the outage is what the test is about
SILENT = 20.0  # the health check's limit here: over a long poll's 10 s, so a quiet Telegram is not silent
UNAVAILABLE, ANSWERS = "Redis is unavailable", "Redis answers again"


async def _refusing(harness: Harness, refuse: Awaitable[object], allow: Callable[[], Awaitable[object]]) -> None:
    """Have Redis refuse writes (``refuse``) until the bot noticed and ``OUTAGE_SECONDS`` passed, then allow
    them (``allow``) and wait for the bot to say Redis answers again."""
    unavailable, answers = len(log_lines(harness, UNAVAILABLE)), len(log_lines(harness, ANSWERS))
    await refuse
    await wait_log(harness, UNAVAILABLE, more_than=unavailable)
    await asyncio.sleep(OUTAGE_SECONDS)
    await allow()
    await wait_log(harness, ANSWERS, more_than=answers)
    assert len(log_lines(harness, UNAVAILABLE)) == unavailable + 1  # once, not every poll


async def test_redis_refusing_writes_then_out_of_memory_stops_no_timer_and_no_computer_player(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    group = await table(sandbox)
    await set_timer(sandbox, group, 10)  # a deadline every 5 s (the reminder, the time-out): Redis is met often
    await choose_setting(sandbox, group, f"s:m:{max(MAX_TIMEOUT_CHOICES)}")  # and the game runs on meanwhile
    await start_game(sandbox, group)
    solo = await table(sandbox, players=1)
    person = solo.players[0]
    private = Table(person["id"], [person], solo.outsider, solo.newcomer)
    await no_pause_in_private(harness, person["id"])
    await start_with_computers(sandbox, private, "coin_age", ["easy"], private=True)
    await someone_can_act(sandbox, private)
    await settle()
    board = board_of(await sandbox.messages(group.chat_id))  # its turn's timer comes due during the outages
    stopped = len(log_lines(harness, "task .* stopped"))

    client = aioredis.Redis.from_url(harness.redis_url)
    try:
        await _refusing(harness, client.replicaof("127.0.0.1", free_port()), lambda: client.replicaof("NO", "ONE"))
        await _refusing(harness, client.config_set("maxmemory", 1), lambda: client.config_set("maxmemory", 0))
    finally:  # whatever happened, the other tests get their Redis back
        await client.replicaof("NO", "ONE")
        await client.config_set("maxmemory", 0)
        await client.aclose()

    # the group's turn timer fires: the player who did not act timed out
    timed_out = await board_past(sandbox, group, drawn_version(board))
    assert "تمام شد" in timed_out["caption"]
    rng = random.Random(4)
    # a press on the board of the game as it is: the turn timer goes on (10 s), so a redraw the outages held back
    # can show a version another time-out has already passed (seen once on a busy machine: a stale press)
    record = await game_record(harness, group.chat_id)
    assert record is not None
    group.known_version = record.version
    await play_move(sandbox, group, rng)
    # the person moves, and the computer player answers
    for _ in range(3):
        await play_move(sandbox, private, rng)
        await someone_can_act(sandbox, private)
    assert len(log_lines(harness, "task .* stopped")) == stopped  # no task died: the outages were outages


def _health(harness: Harness, silent_seconds: float) -> tuple[int, str]:
    """``dorehami health`` for the running bot, as a container's health check runs it: exit code, what it says."""
    assert harness.bot is not None
    env = {**os.environ, "DATA_DIR": str(harness.bot.data_dir), "HEALTH_SILENT_SECONDS": str(silent_seconds)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "health"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    return done.returncode, done.stdout + done.stderr


async def test_health_fails_while_redis_is_away_and_recovers_with_it(sandbox: ControlClient, harness: Harness) -> None:
    """Before, the heartbeat alone decided: healthy 35 s into a Redis outage. Now the heartbeat says when Redis
    last answered the deadline poll, and the check fails once it has been silent too long."""
    assert _health(harness, SILENT) == (0, "healthy\n")
    harness.kill_redis()
    try:

        async def unhealthy() -> str | None:
            code, said = _health(harness, SILENT)
            return said if code == 1 else None

        said = await eventually(unhealthy, "dorehami health failing")
        assert "no answer from redis" in said
    finally:
        harness.start_redis()

    async def healthy() -> bool:
        return _health(harness, SILENT)[0] == 0

    await eventually(healthy, "dorehami health passing again")
