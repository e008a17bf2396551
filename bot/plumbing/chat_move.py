"""A basic group that became a supergroup: Telegram gives it a new id, and everything the bot keeps about the
chat moves there — its game (the record's chat id rewritten, its version kept), hands, version counter,
settings, statistics, its place in the active set and its armed deadlines (re-keyed, same times).

The old chat's keys, the new chat's, the deadlines and the bot's own sets are in different hash slots, which a
Redis Cluster keeps on different nodes, so no one transaction can hold them all: the move goes slot by slot,
each step one transaction in its slot, in an order that a crash part-way leaves to the next call to finish
(Telegram gives two signals, one in each chat, and both call here):

1. the old chat's keys are read (their kind, contents and time to live);
2. they are written under the new chat, in one transaction with a note of where they came from — the one
   step that must not run twice (statistics are added together), so a note found means it is done;
3. the deadlines are re-keyed (what is moved is no longer armed under the old chat: running it again moves
   nothing);
4. the active set and the kinds beside it name the new chat, then no longer the old one;
5. the old keys are deleted and the marker saying where the chat went is set, in one transaction.

The caller holds both chats' locks (bot/handlers/membership.py), which keep every writer of either chat away
meanwhile; that is what makes each step's reads still true when it writes. (No WATCH: on a cluster, redis-py
8.1's transactions cannot read while watching.)
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from bot.plumbing.deadlines import Deadline
from bot.plumbing.store import GameRecord, Store, chat_tag

log = logging.getLogger(__name__)

# A chat's keys that stay behind when it moves: the running machinery (a lock the move itself holds, the order
# of the chat's updates, its flood budget) and the marker saying where the chat went.
_STAYS = ("lock:", "order", "pace", "moved_to")


Contents = str | dict[str, str] | list[str] | list[tuple[str, float]]


@dataclass(frozen=True, slots=True)
class _Key:
    """One key of the old chat as it was read: its name there and in the new chat, its kind, its contents and
    its time to live in ms (0: none)."""

    name: str
    target: str
    kind: str
    contents: Contents
    ttl_ms: int


def rechat(data: str, chat_id: int) -> str:
    """A stored record's JSON with its chat id changed (the version lives beside it)."""
    record = GameRecord.model_validate_json(data)
    record.chat_id = chat_id
    return record.model_dump_json(exclude={"version"})


async def move_chat(store: Store, old: int, new: int) -> bool:
    """Move chat ``old``'s keys to chat ``new``; False if it had moved already (the other of the two signals),
    so nothing moves twice. A basic group has no topics: its one chat tag is its id. Keys the new chat already
    has win, except counters and statistics, which are added together. The live message is dropped: it is in
    the old chat, which can no longer be edited, so the next redraw posts the board in the new one."""
    if await store.redis.get(_marker(store, old)):
        return False
    found = await _read(store, old, new)
    await _write_new(store, old, new, found)
    old_tag, new_tag = chat_tag(old, None), chat_tag(new, None)
    deadlines = await _move_deadlines(store, old_tag, new_tag)
    await _move_listing(store, old_tag, new_tag)
    async with store.redis.pipeline(transaction=True) as pipe:
        for key in found:
            pipe.delete(key.name)
        pipe.set(_marker(store, old), new)
        await pipe.execute()
    await store.redis.delete(_note(store, new))
    log.info("chat %s moved to %s: %d key(s), %d deadline(s)", old, new, len(found), deadlines)
    return True


def _marker(store: Store, chat_id: int) -> str:
    return f"{store.keys.chat(chat_id)}moved_to"


def _note(store: Store, new: int) -> str:
    """In the new chat, while the move goes on: the chat whose keys were written here (step 2 is done)."""
    return f"{store.keys.chat(new)}moved_from"


async def _read(store: Store, old: int, new: int) -> list[_Key]:
    """Every key of ``old`` that moves: names found by SCAN, then kinds and times to live, then contents, each
    one round trip to the chat's node. Not in a transaction: the chat's locks keep its writers away, and
    redis-py 8.1's cluster transactions cannot read a set (SMEMBERS's reply handler fails there)."""
    prefix = store.keys.chat(old)
    found = [str(key) async for key in store.redis.scan_iter(match=f"{prefix}*", count=500)]
    names = sorted(key for key in found if not key[len(prefix) :].startswith(_STAYS))
    if not names:
        return []
    async with store.redis.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.type(name)
            pipe.pttl(name)
        shapes = await pipe.execute()
    kinds = {name: str(shapes[2 * i]) for i, name in enumerate(names)}
    async with store.redis.pipeline(transaction=False) as pipe:
        for name in names:
            _queue_read(pipe, name, kinds[name])
        contents = await pipe.execute()
    return [
        _Key(name, store.keys.moved(name, old, new), kinds[name], value, max(int(shapes[2 * i + 1]), 0))
        for i, (name, value) in enumerate(zip(names, contents, strict=True))
        if kinds[name] != "none"  # gone since the scan (a key that expired)
    ]


def _queue_read(pipe: Any, name: str, kind: str) -> None:
    match kind:
        case "string":
            pipe.get(name)
        case "hash":
            pipe.hgetall(name)
        case "set":
            pipe.smembers(name)
        case "zset":
            pipe.zrange(name, 0, -1, withscores=True)
        case "list":
            pipe.lrange(name, 0, -1)
        case _:
            pipe.exists(name)  # a kind the bot never writes; found as nothing to move


async def _write_new(store: Store, old: int, new: int, found: list[_Key]) -> None:
    """Step 2: the keys written under ``new``, with the note, in one transaction (what the new chat has already
    is read just before: the locks keep its writers away)."""
    keys = store.keys
    note = _note(store, new)
    record_key = keys.game(chat_tag(old, None))
    targets = [key.target for key in found]
    if await store.redis.get(note) == str(old):
        return  # done before a crash: adding statistics twice would count games twice
    async with store.redis.pipeline(transaction=False) as pipe:
        for target in targets:
            pipe.exists(target)
        taken = {target for target, there in zip(targets, await pipe.execute(), strict=True) if there}
    async with store.redis.pipeline(transaction=False) as pipe:
        merged = [key for key in found if key.target in taken and _merged(key)]
        for key in merged:
            (pipe.hgetall if key.kind == "hash" else pipe.get)(key.target)
        present = dict(zip((key.target for key in merged), await pipe.execute(), strict=True))
    async with store.redis.pipeline(transaction=True) as pipe:
        for key in found:
            if key.name.endswith(":live"):
                continue  # the message is in the old chat: the board is posted again in the new one
            if key.target in taken and not _merged(key):
                log.warning("chat %s moving to %s: %s is there already and is kept", old, new, key.target)
                continue
            if key.target in taken:
                _merge(pipe, key, present[key.target])
                continue
            contents = key.contents
            if key.name == record_key and isinstance(contents, dict):
                contents = {**contents, "d": rechat(contents["d"], new)}
            _queue_write(pipe, key.target, key.kind, contents)
            if key.ttl_ms:
                pipe.pexpire(key.target, key.ttl_ms)
        pipe.set(note, old)
        await pipe.execute()


def _merged(key: _Key) -> bool:
    """Kept and added to when the new chat has its own: the version counter, statistics, players' names."""
    return key.name.endswith(":seq") or ":stats:" in key.name or key.name.endswith(":names")


def _merge(pipe: Any, key: _Key, present: Contents | None) -> None:
    contents = key.contents
    if key.name.endswith(":seq"):  # versions go on from the larger: old buttons never match a new version
        pipe.set(key.target, max(int(str(contents)), int(str(present or 0))))
    elif isinstance(contents, dict) and key.name.endswith(":names"):
        for field, value in contents.items():
            pipe.hsetnx(key.target, field, value)
    elif isinstance(contents, dict):
        for field, value in contents.items():
            pipe.hincrby(key.target, field, int(value))


def _queue_write(pipe: Any, name: str, kind: str, contents: Contents) -> None:
    match kind, contents:
        case "string", str():
            pipe.set(name, contents)
        case "hash", dict():
            pipe.hset(name, mapping=contents)
        case "set", list() | set():
            pipe.sadd(name, *contents)
        case "zset", list():
            pipe.zadd(name, {str(pair[0]): float(pair[1]) for pair in contents})
        case "list", list():
            pipe.rpush(name, *contents)
        case _:
            log.warning("%s: a %s key cannot be moved; left behind", name, kind)


async def _move_deadlines(store: Store, old_tag: str, new_tag: str) -> int:
    """Step 3, in the deadlines' slot: the old chat's armed deadlines re-keyed to the new chat, same times."""
    keys = store.keys
    armed_old, armed_new = keys.armed(old_tag), keys.armed(new_tag)
    deadlines = [Deadline.parse(str(member)) for member in await store.redis.smembers(armed_old)]
    if not deadlines:
        return 0
    due = await store.redis.zmscore(keys.due, [d.member for d in deadlines])
    async with store.redis.pipeline(transaction=True) as pipe:
        for deadline, at in zip(deadlines, due, strict=True):
            moved = Deadline(deadline.kind, new_tag, deadline.version)
            pipe.zrem(keys.due, deadline.member)
            pipe.zrem(keys.leases, deadline.member)  # a claimed one fires for the old chat, finds nothing there
            pipe.zadd(keys.due, {moved.member: at or time.time()})
            pipe.sadd(armed_new, moved.member)
        pipe.delete(armed_old)
        await pipe.execute()
    return len(deadlines)


async def _move_listing(store: Store, old_tag: str, new_tag: str) -> None:
    """Step 4: the active set and the kinds beside it (each its own slot) name the new chat, then not the old."""
    keys = store.keys
    was_active = bool(await store.redis.sismember(keys.active, old_tag))
    kind = await store.redis.hget(keys.active_kinds, old_tag)
    if was_active:
        await store.redis.sadd(keys.active, new_tag)
    if kind is not None:
        await store.redis.hset(keys.active_kinds, new_tag, kind)
    if was_active:
        await store.redis.srem(keys.active, old_tag)
    if kind is not None:
        await store.redis.hdel(keys.active_kinds, old_tag)
