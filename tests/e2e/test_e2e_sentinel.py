"""End to end, real processes: the bot on Valkey behind Sentinel (a primary, a replica, three Sentinels),
the primary SIGKILLed while three games are being played.

The bot reaches Redis through ``REDIS_URL=redis+sentinel://…`` and waits for one replica to hold each saved
move before answering it (``WAIT``). Players keep pressing through the crash. Afterwards: every move the bot
answered is in the records the new primary holds (none lost with the old primary), each game takes a move
soon after the promotion, the outage is logged once, and when the old primary comes back (as the new one's
replica, by the Sentinels' doing) the bot keeps writing to the new primary.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.dev.harness import TEST_TIME_SCALE, Harness
from bot.dev.replicated import SentinelSetup
from bot.dev.simulate import (
    Table,
    board_of,
    choose,
    drawn_version,
    eventually,
    finished,
    game_record,
    log_lines,
    play_move,
    player_to_act,
    start_game,
    table,
    wait_log,
)
from sandbox.control_client import ControlClient

GAMES = 3
# Seconds from the promotion to each game's first answered move: Sentinel's own part is done by then, what
# is left is the bot's (its retries, its outage's back-off of at most 2 s, the next press).
GO_ON_SECONDS = 10.0
UNAVAILABLE, ANSWERS = "Redis is unavailable", "Redis answers again"


@pytest.fixture(scope="module")
def sentinel_setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SentinelSetup]:
    with SentinelSetup(tmp_path_factory.mktemp("sentinel")) as setup:
        yield setup


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory, sentinel_setup: SentinelSetup) -> Iterator[Harness]:
    """This module's bot: on the Sentinel setup (the replicas to wait for: Sentinel's default, one)."""
    workdir: Path = tmp_path_factory.mktemp("on-sentinel")
    with Harness(workdir, time_scale=TEST_TIME_SCALE, redis_url=sentinel_setup.url) as running:
        yield running


@dataclass
class Presses:
    """What one group's players saw of their presses: the highest version a move was answered at, and when
    (monotonic) each move was answered."""

    answered_at_version: int = 0
    answered: list[float] = field(default_factory=list)
    refused: int = 0


async def _keep_pressing(
    sandbox: ControlClient, t: Table, rng: random.Random, seen: Presses, stop: asyncio.Event
) -> None:
    """Press the group's board as its players would, whatever happens to Redis meanwhile: a press answered
    without words is a move the bot saved; one answered with words (try again, a stale board) is not."""
    while not stop.is_set():
        board = board_of(await sandbox.messages(t.chat_id))
        if finished(board):
            return
        if drawn_version(board) < t.known_version:  # the board of the last answered move is on its way
            await sandbox.changes(wait=0.5)
            continue
        data = choose(board, rng)
        try:
            answer = await sandbox.press(t.chat_id, board["message_id"], player_to_act(t, board)["id"], data)
        except RuntimeError as error:  # the sandbox's 400: the board was redrawn under the finger
            if "has no button" not in str(error):
                raise
            continue
        if answer["answered"] and not answer["text"]:
            if data.startswith("g:"):
                version = int(data.split(":")[2])
                seen.answered_at_version = max(seen.answered_at_version, version)
                seen.answered.append(time.monotonic())
                t.known_version = version + 1
        else:
            seen.refused += 1
            await sandbox.changes(wait=0.5)  # not the moment: look again soon, as a person would


async def test_a_failover_loses_no_answered_move_and_the_games_go_on(
    sandbox: ControlClient, harness: Harness, sentinel_setup: SentinelSetup
) -> None:
    tables = [await table(sandbox) for _ in range(GAMES)]
    for t in tables:
        await start_game(sandbox, t)
    rng = random.Random(11)
    for t in tables:
        await play_move(sandbox, t, rng)
    presses = [Presses() for _ in tables]
    stop = asyncio.Event()
    pressers = [
        asyncio.create_task(_keep_pressing(sandbox, t, random.Random(i), seen, stop))
        for i, (t, seen) in enumerate(zip(tables, presses, strict=True))
    ]
    try:

        def failed() -> None:
            for presser in pressers:
                if presser.done():
                    presser.result()  # a presser's own error, raised here rather than waited out

        async def pressing() -> bool:
            failed()
            return all(len(seen.answered) >= 2 for seen in presses)

        await eventually(pressing, "each game taking moves")
        killed = time.monotonic()
        sentinel_setup.kill_primary()
        promoted = await asyncio.to_thread(sentinel_setup.wait_promoted)

        async def going_on() -> bool:
            failed()
            return all(any(at > promoted for at in seen.answered) for seen in presses)

        await eventually(going_on, "every game taking a move after the promotion")
        stop.set()
        await asyncio.gather(*pressers)
    finally:
        stop.set()
        for presser in pressers:
            presser.cancel()
    after = [min(at for at in seen.answered if at > promoted) - promoted for seen in presses]
    print(f"promoted {promoted - killed:.1f} s after the kill; first move after it: {max(after):.1f} s at most")
    assert max(after) <= GO_ON_SECONDS, after

    # nothing answered was lost: each record is past every version a move was answered at
    for t, seen in zip(tables, presses, strict=True):
        record = await game_record(harness, t.chat_id)
        assert record is not None and record.version > seen.answered_at_version, (record, seen)
    await wait_log(harness, ANSWERS)
    assert len(log_lines(harness, UNAVAILABLE)) == 1
    assert len(log_lines(harness, ANSWERS)) == 1

    # the old primary is back, as the new one's replica: the bot writes on, to the new primary
    await asyncio.to_thread(sentinel_setup.restart_old_primary)
    for t in tables:
        record = await game_record(harness, t.chat_id)
        assert record is not None
        t.known_version = record.version
        for _ in range(2):
            await play_move(sandbox, t, rng)
    assert len(log_lines(harness, UNAVAILABLE)) == 1
    assert not log_lines(harness, "task .* stopped")
    # with no replica between the promotion and the return, a save waited in vain: said once, not every save
    assert len(log_lines(harness, "reaching 1 replica\\(s\\) failed")) <= 1
