"""The Redis store: compare-and-set versions, expiry of ended games, the live message."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.plumbing.keys import Keys
from bot.plumbing.outage import STORE_DOWN
from bot.plumbing.store import FINISHED_TTL, GameRecord, Player, StaleVersion, Store

_chats = itertools.count(-500)


def record(chat_id: int) -> GameRecord:
    host = Player(user_id=1, name="علی")
    return GameRecord(chat_id=chat_id, game_id="coin_age", creator=host, players=[host])


async def test_versions_increase_and_a_stale_write_is_refused(store: Store) -> None:
    chat = next(_chats)
    first = await store.save(record(chat), expected=0)
    assert first.version > 0
    loaded = await store.load(chat)
    assert loaded is not None and loaded.version == first.version and loaded.players[0].name == "علی"
    second = await store.save(loaded, expected=first.version)
    assert second.version > first.version
    with pytest.raises(StaleVersion):
        await store.save(loaded, expected=first.version)


async def test_of_two_simultaneous_writes_exactly_one_wins(store: Store) -> None:
    chat = next(_chats)
    base = await store.save(record(chat), expected=0)
    results = await asyncio.gather(
        *(store.save(base.model_copy(deep=True), expected=base.version) for _ in range(8)), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StaleVersion) for r in results if isinstance(r, Exception))


async def test_versions_never_repeat_in_a_chat_even_for_a_new_game(store: Store) -> None:
    chat = next(_chats)
    old = await store.save(record(chat), expected=0)
    old.phase = "finished"
    ended = await store.save(old, expected=old.version)
    fresh = await store.save(record(chat), expected=ended.version)
    assert fresh.version > ended.version


async def test_ended_games_expire_and_leave_the_active_set(store: Store) -> None:
    chat = next(_chats)
    saved = await store.save(record(chat), expected=0)
    assert str(chat) in await store.active_tags()
    key = store._game_key(str(chat))
    assert await store.redis.ttl(key) == -1
    saved.phase = "finished"
    saved = await store.save(saved, expected=saved.version)
    assert 0 < await store.redis.ttl(key) <= FINISHED_TTL
    assert str(chat) in await store.active_tags()  # until its result is announced
    assert await store.is_active(chat, None)
    await store.retire(chat, None)
    assert str(chat) not in await store.active_tags()
    assert not await store.is_active(chat, None)


async def test_a_topic_has_its_own_game(store: Store) -> None:
    chat = next(_chats)
    topic = record(chat).model_copy(update={"thread_id": 7})
    await store.save(topic, expected=0)
    assert await store.load(chat) is None
    loaded = await store.load(chat, 7)
    assert loaded is not None and loaded.thread_id == 7


async def test_the_live_message_is_kept_apart_from_the_version(store: Store) -> None:
    chat = next(_chats)
    saved = await store.save(record(chat), expected=0)
    await store.set_live_message(chat, None, 42, saved.version)
    live = await store.live_message(chat, None)
    assert live is not None and (live.message_id, live.version) == (42, saved.version)
    assert (await store.load(chat)).version == saved.version  # type: ignore[union-attr]
    await store.clear_live_message(chat, None)
    assert await store.live_message(chat, None) is None


async def test_redis_down_is_a_clear_error_after_bounded_retries(tmp_path: object) -> None:
    dead = Store.from_url(f"unix://{tmp_path}/nothing.sock", Keys("test"))
    try:
        with pytest.raises(STORE_DOWN):
            await dead.load(-1)
    finally:
        await dead.close()


def test_records_from_before_gone_keep_their_removed_seat() -> None:
    """Records written when at most one seat could be removed still read: the seat is out, with its reason."""
    host = Player(user_id=1, name="میزبان")
    old = {"chat_id": -5, "game_id": "coin_age", "creator": host.model_dump(), "removed": 1, "removed_reason": "left"}
    assert GameRecord.model_validate(old).gone == {1: "left"}
    old |= {"removed": None, "removed_reason": None}
    assert GameRecord.model_validate(old).gone == {}
    assert GameRecord.model_validate_json(GameRecord.model_validate(old).model_dump_json()).gone == {}
