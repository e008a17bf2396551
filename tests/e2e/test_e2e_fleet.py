"""Two bots (two tokens) on one Redis, playing in the same group id, each in its own keys; the upgrade of the keys
a bot without prefixes wrote; a backup taken, the data lost, the backup restored and the game going on.

The sandbox emulates one bot, so each bot here has a sandbox of its own (one polling, one behind a webhook).
Their worlds start alike, so the same calls give the same ids: the group, its members and the bots' messages
are the same numbers in both, which is what two bots in one group see of it (bot/dev/harness.py).
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.dev.harness import TEST_TIME_SCALE, Harness
from bot.dev.local import SANDBOX_TOKEN
from bot.dev.simulate import Table, board_of, open_lobby, play_move, settled, start_game, table
from bot.plumbing import schema
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.keys import LEGACY_OWNER, LEGACY_PREFIX, Keys
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

SECOND_TOKEN = "200000:second-sandbox-token"


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Harness, Harness]]:
    """The first bot polls, with an embedded Redis; the second, on the same Redis, takes a webhook."""
    workdir: Path = tmp_path_factory.mktemp("fleet")
    (workdir / "first").mkdir()
    (workdir / "second").mkdir()
    with Harness(workdir / "first", time_scale=TEST_TIME_SCALE) as first:
        second = Harness(
            workdir / "second",
            bot_env={"BOT_TOKEN": SECOND_TOKEN},
            webhook_workers=1,
            time_scale=TEST_TIME_SCALE,
            redis_url=first.redis_url,
        )
        with second:
            yield first, second


@pytest.fixture
async def redis(fleet: tuple[Harness, Harness]) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(fleet[0].redis_url, decode_responses=True)
    yield client
    await client.aclose()


async def _names(client: aioredis.Redis, keys: Keys) -> set[str]:
    return {key async for key in client.scan_iter(match=keys.everything)}


async def _lasting(client: aioredis.Redis, keys: Keys) -> set[str]:
    """The bot's keys that time alone does not take away in a test's while (flood budgets go in seconds)."""
    return {key for key in await _names(client, keys) if not 0 <= await client.ttl(key) < 600}


def _dorehami(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bot", *args], env=env, capture_output=True, timeout=120)


async def _record_version(harness: Harness, chat_id: int) -> tuple[str, int]:
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        record = await store.load(chat_id)
        assert record is not None
        return record.phase, record.version
    finally:
        await store.close()


async def test_two_bots_in_one_group_id_keep_to_their_own_records_deadlines_and_budgets(
    fleet: tuple[Harness, Harness], redis: aioredis.Redis
) -> None:
    first, second = fleet
    assert first.keys != second.keys and first.keys.prefix == "dh:100000" and second.keys.prefix == "dh:200000"
    async with ControlClient(first.url) as a, ControlClient(second.url) as b:
        ta, tb = await table(a), await table(b)
        assert ta.chat_id == tb.chat_id and [p["id"] for p in ta.players] == [p["id"] for p in tb.players]
        await start_game(a, ta)
        rng = random.Random(26)
        await play_move(a, ta, rng)
        await open_lobby(b, tb)  # the second bot's lobby in the same group, beside the first bot's game
        await settled(b, second)
        assert (await _record_version(first, ta.chat_id))[0] == "playing"
        assert (await _record_version(second, tb.chat_id))[0] == "lobby"
        tag = str(ta.chat_id)
        lobby_deadlines = await Deadlines(redis, second.keys).pending(tag)
        assert lobby_deadlines and all(m.startswith("lobby|") for m in lobby_deadlines)
        assert not any(m.startswith("lobby|") for m in await Deadlines(redis, first.keys).pending(tag))

        playing = await _record_version(first, ta.chat_id)
        await b.send(tb.chat_id, tb.players[0]["id"], "/cancel")  # the second bot's lobby ends...
        await settled(b, second)
        assert await Deadlines(redis, second.keys).pending(tag) == {}
        assert await _record_version(first, ta.chat_id) == playing  # ...the first bot's game is as it was
        await play_move(a, ta, rng)  # and goes on
        await settled(a, first)
        playing = await _record_version(first, ta.chat_id)

        await start_game(b, tb)  # the second bot's game, moves and flood budgets (shared in Redis: webhook)
        for _ in range(3):
            await play_move(b, tb, rng)
        await settled(b, second)
        assert (await _record_version(second, tb.chat_id))[0] == "playing"
        assert await _record_version(first, ta.chat_id) == playing  # none of those moves was the first bot's
        await settled(a, first)
    every = {key async for key in redis.scan_iter(match="*")}
    mine, theirs = await _names(redis, first.keys), await _names(redis, second.keys)
    assert mine and theirs and not mine & theirs
    assert every - mine - theirs == {LEGACY_OWNER}  # no key without a bot in it but the one saying who took 1's


async def _game_so_far(sandbox: ControlClient, harness: Harness, rng: random.Random) -> tuple[Table, str]:
    t = await table(sandbox)
    await start_game(sandbox, t)
    for _ in range(3):
        board = await play_move(sandbox, t, rng)
    await settled(sandbox, harness)
    return t, board["caption"]


async def _plays_on(sandbox: ControlClient, t: Table, caption: str, rng: random.Random) -> None:
    assert board_of(await sandbox.messages(t.chat_id))["caption"] == caption
    for _ in range(3):
        await play_move(sandbox, t, rng)


async def test_the_keys_of_a_bot_without_a_prefix_are_taken_at_start_and_its_game_goes_on(
    fleet: tuple[Harness, Harness], redis: aioredis.Redis
) -> None:
    """The first bot stopped, its keys given back the names a version without prefixes wrote (every key under
    ``dh:``, no version, nobody having taken them: tests/bot/test_schema.py checks those are today's names
    against keys today's code wrote), and started again: the upgrade."""
    first, second = fleet
    keys = first.keys
    rng = random.Random(27)
    async with ControlClient(first.url) as sandbox:
        t, caption = await _game_so_far(sandbox, first, rng)
        phase, version = await _record_version(first, t.chat_id)
        assert first.bot is not None
        first.bot.stop()
        theirs = await _lasting(redis, second.keys)
        for key in await _names(redis, keys) - {keys.schema}:
            await redis.rename(key, LEGACY_PREFIX + key[len(keys.prefix) :])
        await redis.delete(keys.schema, LEGACY_OWNER)
        assert await _names(redis, keys) == set()
        first.bot.start()
        assert await redis.get(keys.schema) == str(schema.SCHEMA)
        assert await redis.get(LEGACY_OWNER) == keys.prefix
        assert await _record_version(first, t.chat_id) == (phase, version)
        assert await _lasting(redis, second.keys) == theirs  # the other bot's keys: not one taken
        await _plays_on(sandbox, t, caption, rng)


async def test_a_backup_restored_after_the_data_is_lost_goes_on_from_where_it_was(
    fleet: tuple[Harness, Harness], redis: aioredis.Redis, tmp_path: Path
) -> None:
    first, second = fleet
    keys = first.keys
    rng = random.Random(28)
    env = {**os.environ, "BOT_TOKEN": SANDBOX_TOKEN, "REDIS_URL": first.redis_url, "DATA_DIR": str(tmp_path)}
    file = tmp_path / "dorehami.backup"
    async with ControlClient(first.url) as sandbox:
        t, caption = await _game_so_far(sandbox, first, rng)
        saved = await _record_version(first, t.chat_id)
        assert first.bot is not None
        first.bot.stop()
        taken = await asyncio.to_thread(_dorehami, "backup", str(file), env=env)
        assert taken.returncode == 0, taken.stderr
        theirs = await _lasting(redis, second.keys)
        await redis.delete(*await _names(redis, keys))  # the data lost
        restored = await asyncio.to_thread(_dorehami, "restore", str(file), env=env)
        assert restored.returncode == 0, restored.stderr
        assert await _lasting(redis, second.keys) == theirs  # the other bot's keys: untouched
        first.bot.start()
        assert await _record_version(first, t.chat_id) == saved
        await _plays_on(sandbox, t, caption, rng)
