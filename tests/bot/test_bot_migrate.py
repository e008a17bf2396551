"""A basic group that became a supergroup: every key of the chat moves to the new id in one go, once."""

from __future__ import annotations

import itertools
import time

from bot.flow.results import count_result
from bot.handlers.stats import leaderboard
from bot.plumbing.chat_move import _read, _write_new, move_chat
from bot.plumbing.deadlines import Deadline, Deadlines
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.keys import Keys
from bot.plumbing.store import GameRecord, HandMessage, Player, Store
from bot.plumbing.turn_notices import Notice, TurnBook

_chats = itertools.count(-4_100_000_001, -2)


def record(chat_id: int, phase: str = "playing") -> GameRecord:
    players = [Player(user_id=1, name="علی"), Player(user_id=2, name="سارا")]
    return GameRecord(chat_id=chat_id, game_id="coin_age", creator=players[0], players=players, phase=phase)  # type: ignore[arg-type]


def test_keys_are_renamed_by_hash_tag_and_chat_tag() -> None:
    keys = Keys("dh:7")
    assert keys.moved("dh:7:{-41}:game:-41:hand:7", -41, -1009) == "dh:7:{-1009}:game:-1009:hand:7"
    assert keys.moved("dh:7:{-41}:game:-41", -41, -1009) == "dh:7:{-1009}:game:-1009"
    assert keys.moved("dh:7:{-41}:stats:coin_age", -41, -1009) == "dh:7:{-1009}:stats:coin_age"


async def test_everything_about_the_chat_moves_once(store: Store) -> None:
    old, new = next(_chats), next(_chats) - 1_000_000_000_000
    deadlines = Deadlines(store.redis, store.keys)
    finished = await store.save(record(old, "finished").model_copy(update={"seed": 99}), expected=0)
    await count_result(store, finished, (0,))
    saved = await store.save(record(old), expected=finished.version)
    await store.set_live_message(old, None, 5, saved.version)
    await store.set_hand_message(old, None, 2, HandMessage(message_id=9, shown="x", version=saved.version))
    await store.set_group_settings(old, GroupSettings(turn_seconds=60))
    await store.note_seen(old, 2)
    at = time.time() + 30
    await deadlines.arm(str(old), {Deadline("timeout", str(old), saved.version): at})
    turns = TurnBook(store.redis, store.keys)  # whose turn it is, and their notice (a hash beside the record's own)
    await turns.advance(str(old), "99", saved.version, [2])
    await turns.keep(str(old), 2, Notice(2, 14))

    assert await move_chat(store, old, new)

    moved = await store.load(new)
    assert moved is not None and moved.chat_id == new and moved.version == saved.version and moved.phase == "playing"
    assert await store.load(old) is None
    assert await store.live_message(new, None) is None  # its message is in the old chat: posted again
    hand = await store.hand_message(new, None, 2)
    assert hand is not None and hand.message_id == 9
    assert (await store.group_settings(new)).turn_seconds == 60
    assert [(line.user_id, line.won) for line in await leaderboard(store, new, "coin_age")] == [(1, 1), (2, 0)]
    assert await store.was_seen(new, 2)
    assert await turns.turn_began(str(new), 2) == saved.version and await turns.take(str(new), 2) == Notice(2, 14)
    assert str(new) in await store.active_tags() and str(old) not in await store.active_tags()
    pending = await deadlines.pending(str(new))
    assert pending == {f"timeout|{new}|{saved.version}": at} and await deadlines.pending(str(old)) == {}
    assert await store.moved_to(old) == new
    left = [key async for key in store.redis.scan_iter(match=f"{store.keys.chat(old)}*")]
    assert left == [f"{store.keys.chat(old)}moved_to"]
    # versions go on from where the old chat's counter was: old buttons never match a new version
    later = await store.save(moved, expected=moved.version)
    assert later.version == saved.version + 1

    assert not await move_chat(store, old, new)  # the second signal moves nothing
    assert (await store.load(new)) is not None and (await store.load(new)).version == later.version  # type: ignore[union-attr]


async def test_a_move_cut_short_after_the_new_chat_was_written_is_finished_once(store: Store) -> None:
    """A crash between the slots: the new chat's keys were written (with the note) but nothing after. The
    next signal finishes the move without writing the new chat again, so statistics are not counted twice."""
    old, new = next(_chats), next(_chats) - 1_000_000_000_000
    deadlines = Deadlines(store.redis, store.keys)
    finished = await store.save(record(old, "finished").model_copy(update={"seed": 7}), expected=0)
    await count_result(store, finished, (1,))
    saved = await store.save(record(old), expected=finished.version)
    at = time.time() + 30
    await deadlines.arm(str(old), {Deadline("timeout", str(old), saved.version): at})

    await _write_new(store, old, new, await _read(store, old, new))  # and then the worker died
    assert await store.moved_to(old) is None and (await store.load(old)) is not None

    assert await move_chat(store, old, new)

    assert [(line.user_id, line.won) for line in await leaderboard(store, new, "coin_age")] == [(2, 1), (1, 0)]
    moved = await store.load(new)
    assert moved is not None and moved.chat_id == new and moved.version == saved.version
    assert await store.load(old) is None and await store.moved_to(old) == new
    assert await deadlines.pending(str(new)) == {f"timeout|{new}|{saved.version}": at}
    assert str(new) in await store.active_tags() and str(old) not in await store.active_tags()
    assert not await store.redis.exists(f"{store.keys.chat(new)}moved_from")  # the note goes once it is done


async def test_a_new_chat_with_games_of_its_own_adds_the_old_statistics(store: Store) -> None:
    """Keys the new chat has already win, but its version counter goes on from the larger of the two and the
    statistics of both are added together."""
    old, new = next(_chats), next(_chats) - 1_000_000_000_000
    first = await store.save(record(old, "finished").model_copy(update={"seed": 1}), expected=0)
    await count_result(store, first, (0,))
    there = await store.save(record(new, "finished").model_copy(update={"seed": 2}), expected=0)
    await count_result(store, there, (0,))
    for _ in range(3):  # the old chat's counter runs ahead
        first = await store.save(first, expected=first.version)

    assert await move_chat(store, old, new)

    assert [(line.user_id, line.won) for line in await leaderboard(store, new, "coin_age")] == [(1, 2), (2, 0)]
    later = await store.save(there, expected=there.version)  # the new chat's own record, kept
    assert later.version == first.version + 1  # past every version the old chat's buttons carry
