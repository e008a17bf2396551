"""The start-up migration, on the keys today's bots write (schema 1: every key ``dh:…``, no bot in it).

``data/schema1-keys.json`` is what the code of main at f488a0d (before key prefixes) wrote for a coin_age game
three moves in, in a group, with its hand, live message, turn notice, armed deadlines and settings, and a game
finished and counted in another group: every key with its type, value and time to live, dumped from the server
after that code's own Store, Deadlines, TurnBook and count_result wrote them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis

from bot.dev.local import SANDBOX_TOKEN
from bot.plumbing import schema
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.keys import LEGACY_OWNER, LEGACY_PREFIX, Keys, legacy
from bot.plumbing.store import Store
from bot.plumbing.turn_notices import TurnBook
from rules import GAMES
from sandbox.server import run_in_thread

TODAY = json.loads((Path(__file__).parent / "data" / "schema1-keys.json").read_text())
CHAT = -1001000000001
_bots = itertools.count(7_400_001)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    """The tests' server with today's keys written into it, and no other key of schema 1's shape."""
    redis = aioredis.Redis.from_url(redis_url, decode_responses=True)
    await _forget_legacy(redis)
    for key, kept in TODAY.items():
        await _write(redis, key, kept)
    yield redis
    await _forget_legacy(redis)
    await redis.aclose()


async def _forget_legacy(redis: aioredis.Redis) -> None:
    await redis.delete(LEGACY_OWNER)
    async for key in redis.scan_iter(match=f"{LEGACY_PREFIX}:*"):
        if legacy(key):
            await redis.delete(key)


async def _write(redis: aioredis.Redis, key: str, kept: dict[str, Any]) -> None:
    kind, value = kept["type"], kept["value"]
    if kind == "string":
        await redis.set(key, value)
    elif kind == "hash":
        await redis.hset(key, mapping=value)
    elif kind == "set":
        await redis.sadd(key, *value)
    else:
        await redis.zadd(key, {member: score for member, score in value})
    if kept["ttl"] > 0:
        await redis.expire(key, kept["ttl"])


async def _read(redis: aioredis.Redis, key: str) -> tuple[str, Any]:
    kind = await redis.type(key)
    if kind == "string":
        return kind, await redis.get(key)
    if kind == "hash":
        return kind, await redis.hgetall(key)
    if kind == "set":
        return kind, sorted(await redis.smembers(key))
    return kind, [list(pair) for pair in await redis.zrange(key, 0, -1, withscores=True)]


def test_every_key_today_writes_is_one_the_migration_knows() -> None:
    assert TODAY and all(legacy(key) for key in TODAY)
    assert not legacy("dh:7400001:active") and not legacy("dh:7400001:{-1}:seq") and not legacy(LEGACY_OWNER)


async def test_todays_keys_move_under_the_prefix_as_they_were_and_the_game_plays_on(client: aioredis.Redis) -> None:
    keys = Keys(f"dh:{next(_bots)}")
    assert await schema.migrate(client, keys) == schema.LEGACY_SCHEMA
    assert await client.get(keys.schema) == str(schema.SCHEMA)
    assert [key async for key in client.scan_iter(match=f"{LEGACY_PREFIX}:*") if legacy(key)] == []
    for key, kept in TODAY.items():
        moved = keys.adopted(key)
        assert moved.startswith(f"{keys.prefix}:")
        assert await _read(client, moved) == (kept["type"], kept["value"]), key
        ttl = await client.ttl(moved)
        assert (ttl == -1) if kept["ttl"] < 0 else (0 < ttl <= kept["ttl"]), key
    store = Store(client, keys)
    record = await store.load(CHAT)
    assert record is not None and record.phase == "playing" and record.state is not None
    assert await store.active_tags() == {str(CHAT)}
    assert [r.chat_id for r in await store.games_of(1001)] == [CHAT]
    assert await Deadlines(client, keys).pending(str(CHAT)) != {}
    game = GAMES[record.game_id]
    state = game.state_model.model_validate(record.state)
    seat = game.to_act(state)[0]
    assert await TurnBook(client, keys).turn_began(str(CHAT), record.players[seat].user_id) == record.version
    step = game.apply(state, seat, game.legal_actions(state, seat)[0])
    record.state = step.state.model_dump(mode="json")
    saved = await store.save(record, expected=record.version)  # the move after the migration
    assert saved.version == record.version + 1
    assert (await store.load(CHAT)) == saved


async def test_two_workers_starting_together_migrate_once(client: aioredis.Redis, redis_url: str) -> None:
    keys = Keys(f"dh:{next(_bots)}")
    other = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        found = await asyncio.gather(schema.migrate(client, keys), schema.migrate(other, keys))
    finally:
        await other.aclose()
    assert found == [schema.LEGACY_SCHEMA, schema.LEGACY_SCHEMA]
    assert await client.get(LEGACY_OWNER) == keys.prefix
    assert not await client.exists(keys.schema_lock)
    assert all([await client.exists(keys.adopted(key)) for key in TODAY])


async def test_a_second_bot_takes_nothing_and_running_again_changes_nothing(client: aioredis.Redis) -> None:
    first, second = Keys(f"dh:{next(_bots)}"), Keys(f"dh:{next(_bots)}")
    await schema.migrate(client, first)
    before = {key: await _read(client, first.adopted(key)) for key in TODAY}
    await client.set(f"{LEGACY_PREFIX}:active", "left over")  # a key of schema 1 written after (it never is)
    assert await schema.migrate(client, second) == schema.LEGACY_SCHEMA
    assert await schema.migrate(client, first) == schema.SCHEMA
    assert {key: await _read(client, first.adopted(key)) for key in TODAY} == before
    assert await client.get(f"{LEGACY_PREFIX}:active") == "left over"
    assert [key async for key in client.scan_iter(match=f"{second.prefix}:*")] == [second.schema]


async def test_a_migration_cut_short_is_finished_at_the_next_start(client: aioredis.Redis) -> None:
    keys = Keys(f"dh:{next(_bots)}")
    await client.set(LEGACY_OWNER, keys.prefix)
    half = sorted(TODAY)[: len(TODAY) // 2]
    for key in half:  # the first worker was killed here: half renamed, no version written, its lease run out
        await client.rename(key, keys.adopted(key))
    assert await schema.migrate(client, keys) == schema.LEGACY_SCHEMA
    assert all([await _read(client, keys.adopted(key)) == (TODAY[key]["type"], TODAY[key]["value"]) for key in TODAY])


async def test_data_of_a_newer_version_stops_the_start(client: aioredis.Redis) -> None:
    keys = Keys(f"dh:{next(_bots)}")
    await client.set(keys.schema, schema.SCHEMA + 1)
    try:
        with pytest.raises(schema.SchemaError, match="knows up to"):
            await schema.migrate(client, keys)
    finally:
        await client.delete(keys.schema)


def test_the_bot_on_data_of_a_newer_version_stops_with_one_line(redis_url: str, tmp_path: Path) -> None:
    """``dorehami run`` migrates before it takes an update: on a newer version's data it does not start."""
    keys = Keys(f"dh:{next(_bots)}")
    client = redis.Redis.from_url(redis_url)
    client.set(keys.schema, schema.SCHEMA + 1)
    telegram = run_in_thread()
    env = {
        "PATH": "/usr/bin:/bin",
        "DATA_DIR": str(tmp_path),
        "BOT_TOKEN": SANDBOX_TOKEN,
        "BOT_API_URL": telegram.url,
        "REDIS_URL": redis_url,
        "KEY_PREFIX": keys.prefix,
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
    finally:
        telegram.stop()
        client.delete(keys.schema)
        client.close()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    newer = f"Redis holds schema {schema.SCHEMA + 1} of {keys.prefix}; this version knows up to {schema.SCHEMA}"
    assert last == f"cannot start: {newer}"
