"""End to end, real processes: the bot on a Valkey Cluster (three primaries, each with a replica) through
``REDIS_URL=redis+cluster://…``, as two webhook workers behind one proxy.

Each chat's keys share a hash tag, so they sit in one slot of one node while the chats spread over the three;
the deadlines have a slot of their own. Here the five games are played side by side across the nodes, a basic
group becomes a supergroup mid-game (its keys move from one slot to another, step by step), and the primary
holding a game is SIGKILLed while its players press: its replica takes over and every game goes on.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.dev.cluster import ClusterSetup
from bot.dev.harness import TEST_TIME_SCALE, Harness
from bot.dev.simulate import (
    Table,
    board_of,
    choose,
    drawn_version,
    eventually,
    finished,
    game_record,
    play_move,
    play_to_end,
    player_to_act,
    settled,
    start_game,
    table,
)
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

GAMES = ("coin_age", "conqueror", "splendor", "carcassonne", "condottiere")
MOVES = 8  # each game's moves played side by side (coin_age's to its end)
# Seconds from the replica's promotion to each game's next answered move: the client's retries, the bot's
# outage back-off (at most 2 s), and the next press.
GO_ON_SECONDS = 10.0
UNAVAILABLE, ANSWERS = "Redis is unavailable", "Redis answers again"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterSetup]:
    with ClusterSetup(tmp_path_factory.mktemp("cluster")) as running:
        yield running


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory, cluster: ClusterSetup) -> Iterator[Harness]:
    """This module's bot: two webhook workers, both on the cluster."""
    workdir: Path = tmp_path_factory.mktemp("on-cluster")
    with Harness(workdir, time_scale=TEST_TIME_SCALE, redis_url=cluster.url, webhook_workers=2) as running:
        yield running


def _logged(harness: Harness, pattern: str) -> list[int]:
    """How many lines of each worker's log match ``pattern``."""
    return [
        sum(bool(re.search(pattern, line)) for line in bot.log_path.read_text().splitlines()) for bot in harness.bots
    ]


async def test_five_games_side_by_side_on_three_nodes(sandbox: ControlClient, harness: Harness) -> None:
    tables = [await table(sandbox) for _ in GAMES]
    for t, game in zip(tables, GAMES, strict=True):
        await start_game(sandbox, t, game=game)
    homes = {harness.keys.game(str(t.chat_id)) for t in tables}
    assert len(homes) == len(GAMES)
    started = [await game_record(harness, t.chat_id) for t in tables]

    async def play(t: Table, game: str, seed: int) -> None:
        if game == "coin_age":
            await play_to_end(sandbox, t, seed=seed)
            return
        rng = random.Random(seed)
        for _ in range(MOVES):
            await play_move(sandbox, t, rng)

    await asyncio.gather(*(play(t, game, i) for i, (t, game) in enumerate(zip(tables, GAMES, strict=True))))
    for t, game, before in zip(tables, GAMES, started, strict=True):
        record = await game_record(harness, t.chat_id)
        assert record is not None and before is not None and record.game_id == game
        board = board_of(await sandbox.messages(t.chat_id))
        if game == "coin_age":
            assert record.phase == "finished" and finished(board)
        else:  # moves made in private hands move the game on as well as the board's (t.known_version: these only)
            assert record.phase == "playing" and record.version >= t.known_version and record.version > before.version
    assert _logged(harness, UNAVAILABLE) == [0, 0]


async def test_a_group_that_becomes_a_supergroup_mid_game_moves_across_slots(
    sandbox: ControlClient, harness: Harness, cluster: ClusterSetup
) -> None:
    players = [await sandbox.user(f"خوشه{i}") for i in range(2)]
    for user in players:
        await sandbox.send(user["id"], user["id"], "/start")
    group = await sandbox.group("گروه ساده خوشه", [u["id"] for u in players], [players[0]["id"]], type="group")
    t = Table(group["id"], players, players[0], players[0])
    await start_game(sandbox, t)
    rng = random.Random(3)
    for _ in range(3):
        await play_move(sandbox, t, rng)
    before = await game_record(harness, t.chat_id)
    assert before is not None

    new = await sandbox.migrate(t.chat_id)
    there = Table(new["id"], players, players[0], players[0])
    assert harness.keys.game(str(new["id"])) != harness.keys.game(str(t.chat_id))
    await sandbox.wait_for(new["id"], lambda ms: [m for m in ms if m["from_bot"] and m.get("photo")])
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        record = await store.load(new["id"])
        assert record is not None and record.version == before.version and record.state == before.state
        assert await store.load(t.chat_id) is None and await store.moved_to(t.chat_id) == new["id"]
        assert str(new["id"]) in await store.active_tags() and str(t.chat_id) not in await store.active_tags()
    finally:
        await store.close()
    there.known_version = before.version
    await play_to_end(sandbox, there, seed=4)


async def _keep_pressing(sandbox: ControlClient, t: Table, rng: random.Random, answered: list[float]) -> None:
    """Press the group's board as its players would, whatever happens to Redis meanwhile; note when a move
    was answered (a press answered without words)."""
    while True:
        board = board_of(await sandbox.messages(t.chat_id))
        if finished(board):
            return
        if drawn_version(board) < t.known_version:  # the last answered move's board is on its way
            await sandbox.changes(wait=0.5)
            continue
        data = choose(board, rng)
        try:
            answer = await sandbox.press(t.chat_id, board["message_id"], player_to_act(t, board)["id"], data)
        except RuntimeError as error:  # the sandbox's 400: the board was redrawn under the finger
            if "has no button" not in str(error):
                raise
            continue
        if answer["answered"] and not answer["text"] and data.startswith("g:"):
            answered.append(time.monotonic())
            t.known_version = int(data.split(":")[2]) + 1
        elif answer["text"]:
            await sandbox.changes(wait=0.5)  # not the moment: look again soon, as a person would


async def test_a_primary_s_failover_and_the_games_go_on(
    sandbox: ControlClient, harness: Harness, cluster: ClusterSetup
) -> None:
    tables = [await table(sandbox) for _ in range(3)]
    for t in tables:
        await start_game(sandbox, t, game="conqueror")
    before = {line: _logged(harness, line) for line in (UNAVAILABLE, ANSWERS)}
    answered: list[list[float]] = [[] for _ in tables]
    pressers = [
        asyncio.create_task(_keep_pressing(sandbox, t, random.Random(i), seen))
        for i, (t, seen) in enumerate(zip(tables, answered, strict=True))
    ]

    def failed() -> None:
        for presser in pressers:
            if presser.done():
                presser.result()  # a presser's own error, raised here rather than waited out

    try:

        async def pressing() -> bool:
            failed()
            return all(len(seen) >= 2 for seen in answered)

        await eventually(pressing, "each game taking moves")
        killed = time.monotonic()
        dead = cluster.kill_primary_of(harness.keys.game(str(tables[0].chat_id)))
        promoted = await asyncio.to_thread(cluster.wait_failed_over, dead)

        async def going_on() -> bool:
            failed()
            return all(any(at > promoted for at in seen) for seen in answered)

        await eventually(going_on, "every game taking a move after the failover")
    finally:
        for presser in pressers:
            presser.cancel()
        await asyncio.gather(*pressers, return_exceptions=True)
    after = [min(at for at in seen if at > promoted) - promoted for seen in answered]
    print(f"failed over {promoted - killed:.1f} s after the kill; first move after it: {max(after):.1f} s at most")
    assert max(after) <= GO_ON_SECONDS, after

    # the games' boards and records agree again, and each takes more moves (once a press the cancelled players
    # had already sent is handled: pressing the board it was made on would be stale)
    await settled(sandbox, harness)
    rng = random.Random(5)
    for t in tables:
        await _caught_up(sandbox, harness, t)
        for _ in range(2):
            await play_move(sandbox, t, rng)

    # a worker that met the outage (the client's retries may hide a quick one) said so once, and its end once
    def said() -> dict[str, list[int]]:
        now = {line: _logged(harness, line) for line in before}
        return {line: [n - b for n, b in zip(now[line], before[line], strict=True)] for line in before}

    async def ended() -> bool:  # the deadline poll sees the end at its next look (its back-off is at most 2 s)
        return said()[UNAVAILABLE] == said()[ANSWERS]

    await eventually(ended, "each worker that met the outage seeing its end")
    assert set(said()[UNAVAILABLE]) <= {0, 1}, said()
    assert _logged(harness, "task .* stopped") == [0, 0]
    # no press met an error: the promoted node had none of the scripts, and each was run all the same
    assert _logged(harness, "error handling update") == [0, 0]


async def _caught_up(sandbox: ControlClient, harness: Harness, t: Table) -> dict[str, Any]:
    """The board shows the stored record's version (a move answered just before the kill may not have reached
    the replica: asynchronous replication; the board then follows the record)."""

    async def agree() -> dict[str, Any] | None:
        record = await game_record(harness, t.chat_id)
        board = board_of(await sandbox.messages(t.chat_id))
        if record is not None and drawn_version(board) == record.version:
            t.known_version = record.version
            return board
        return None

    return await eventually(agree, "the board showing the stored game")
