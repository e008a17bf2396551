"""Game records in Redis: one versioned JSON record per chat (or forum topic), written by compare-and-set.

Keys (named by ``bot/plumbing/keys.py``, under the bot's prefix) carry the chat in a hash tag
(``<prefix>:{<chat>}:...``) so that a Redis Cluster keeps a chat's keys in one
slot. Versions come from a per-chat counter that never goes back, so a button made for an earlier game or
an earlier move can never match a later one.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import redis.asyncio as aioredis
from pydantic import BaseModel, Field, model_validator
from redis.asyncio.cluster import RedisCluster

from bot.plumbing.figures import REDIS_SECONDS
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.keys import Keys
from bot.plumbing.quiet_log import RepeatedFailure
from bot.plumbing.redis_connect import Client, connect, disconnect, script

log = logging.getLogger(__name__)

REPLICA_RECHECK = 10.0  # seconds saves skip waiting for replicas after too few answered in time
FINISHED_TTL = 7 * 24 * 3600  # finished games stay readable for a week, then expire
T = TypeVar("T")

Phase = Literal["lobby", "playing", "finished", "cancelled"]
Absence = Literal["timeouts", "left", "kicked"]  # why a seat is out of a running game


class Player(BaseModel):
    """A seat's player: a person (their Telegram id), or a computer player (a negative id unique in the game,
    and its level, an ``ai.LEVELS`` key; bot/flow/computers.py)."""

    user_id: int
    name: str
    username: str | None = None
    level: str | None = None  # None for a person

    @property
    def is_computer(self) -> bool:
        return self.level is not None


class GameRecord(BaseModel):
    """Everything the bot keeps about one game in one chat; ``version`` is filled from Redis on load."""

    chat_id: int
    thread_id: int | None = None
    game_id: str
    phase: Phase = "lobby"
    version: int = 0
    creator: Player
    players: list[Player] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    state: dict[str, Any] | None = None
    recent: list[str] = Field(default_factory=list)  # the last lines of "what just happened"
    timeouts: dict[int, int] = Field(default_factory=dict)  # seat -> consecutive time-outs
    gone: dict[int, Absence] = Field(default_factory=dict)  # seats out of the game: played by default moves
    replaced: dict[int, Player] = Field(default_factory=dict)  # seat -> the person a computer player replaced
    paused: bool = False  # an admin stopped the turn timer (/pause)
    topic_closed: bool = False  # its forum topic is closed: the game stands still (bot/handlers/topics.py)
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)

    @model_validator(mode="before")
    @classmethod
    def _from_one_removed_seat(cls, data: Any) -> Any:
        """Records written before ``gone`` held at most one removed seat (two-player games)."""
        if isinstance(data, dict) and "removed" in data:
            data = dict(data)
            seat, reason = data.pop("removed"), data.pop("removed_reason", None)
            if seat is not None:
                data["gone"] = {seat: reason or "timeouts"}
        return data

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    @property
    def active(self) -> bool:
        return self.phase in ("lobby", "playing")

    @property
    def in_private(self) -> bool:
        """A game in a person's private chat with the bot (against computer players): its board is there."""
        return self.chat_id > 0


@dataclass(frozen=True, slots=True)
class LiveMessage:
    """The chat's message with the game's buttons, and the record version it shows."""

    message_id: int
    version: int


class HandMessage(BaseModel):
    """A player's private message about a game; ``shown`` fingerprints what it was drawn from (the seat's view,
    its buttons, the phase), ``words`` and ``picture`` what the player sees (caption and buttons, the picture's
    bytes), so that a move that changes nothing they see costs no call; ``version`` is the record version it was
    drawn for (0 in records written before it was kept)."""

    message_id: int
    shown: str
    version: int = 0
    words: str = ""
    picture: str = ""
    told_unreachable: bool = False  # the group was told once that this player cannot be written to
    again: bool = False  # the player asked for it (/start h…): the next draw sends it as a new message
    awaits: bool = False  # drawn while the player's every choice was to be made here (their turn's notice)


class StaleVersion(Exception):
    """The record changed since it was read: someone else's write won."""


class StoreUnavailable(Exception):
    """A write Redis kept interrupting (a chat that kept changing while it moved): for the caller an outage
    like a connection lost after the client's retries, so the user is told to try again."""


# KEYS: record, counter. ARGV: expected version ("0" for none), new data, ttl seconds (0 = keep forever), the
# channel a save is told on, and the chat's tag (the Mini App's pages follow the game: bot/handlers/page.py).
_CAS = """
local current = redis.call('HGET', KEYS[1], 'v') or '0'
if current ~= ARGV[1] then return -1 end
local version = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'v', version, 'd', ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
redis.call('PUBLISH', ARGV[4], ARGV[5])
return version
"""


def chat_tag(chat_id: int, thread_id: int | None) -> str:
    return f"{chat_id}" if thread_id is None else f"{chat_id}:{thread_id}"


class Store:
    """Typed access to the bot's Redis keys (``keys``: their names, under the bot's prefix); connection trouble
    is retried by the client (bot/plumbing/redis_connect.py: ``RETRY``)."""

    def __init__(self, client: Client, keys: Keys, replicas: int = 0, replica_wait_ms: int = 1000) -> None:
        """``replicas``: how many replicas must hold a saved record before ``save`` returns (``WAIT``), at most
        ``replica_wait_ms`` milliseconds; 0 saves on the primary alone."""
        if isinstance(client, RedisCluster) and replicas:
            raise ValueError("a cluster cannot wait for replicas (WAIT is one connection's, a move spans nodes)")
        self.redis = client
        self.keys = keys
        self._cas = script(client, _CAS)
        self.replicas = replicas
        self.replica_wait_ms = replica_wait_ms
        self._unreplicated = RepeatedFailure(log, f"a save reaching {replicas} replica(s)")
        self._wait_again_at = 0.0  # monotonic time from which saves wait for replicas again

    @classmethod
    def from_url(cls, url: str, keys: Keys, replicas: int = 0, replica_wait_ms: int = 1000) -> Store:
        """A plain server's URL or a Sentinel setup's (bot/plumbing/redis_connect.py)."""
        return cls(connect(url), keys, replicas, replica_wait_ms)

    async def close(self) -> None:
        await disconnect(self.redis)

    def _game_key(self, tag: str) -> str:
        return self.keys.game(tag)

    def _counter_key(self, tag: str) -> str:
        return f"{self.keys.chat(tag.split(':')[0])}seq"

    async def load(self, chat_id: int, thread_id: int | None = None) -> GameRecord | None:
        tag = chat_tag(chat_id, thread_id)
        with REDIS_SECONDS.labels("load").time():
            version, data = await self.redis.hmget(self._game_key(tag), "v", "d")
        if not data or version is None:
            return None
        record = GameRecord.model_validate_json(data)
        record.version = int(version)
        return record

    async def save(self, record: GameRecord, expected: int) -> GameRecord:
        """Write ``record`` if the stored version is still ``expected`` (0: no record or an ended one
        replaced on purpose); return it with its new version, or raise StaleVersion."""
        tag = chat_tag(record.chat_id, record.thread_id)
        record.updated_at = time.time()
        data = record.model_dump_json(exclude={"version"})
        ttl = 0 if record.active else FINISHED_TTL
        keys = [self._game_key(tag), self._counter_key(tag)]
        args = [str(expected), data, str(ttl), self.keys.saved, tag]
        waits = self.replicas and time.monotonic() >= self._wait_again_at
        with REDIS_SECONDS.labels("save").time():
            version = await (self._replicated_cas(keys, args) if waits else self._cas(keys=keys, args=args))
        if int(version) < 0:
            raise StaleVersion(tag)
        saved = record.model_copy(update={"version": int(version)})
        async with self.redis.pipeline(transaction=False) as pipe:
            if record.phase == "cancelled":
                pipe.srem(self.keys.active, tag)
                pipe.hdel(self.keys.active_kinds, tag)
            else:  # a finished game stays listed until its result is out (``retire``)
                pipe.sadd(self.keys.active, tag)
                pipe.hset(self.keys.active_kinds, tag, f"{record.game_id} {record.phase}")
            for player in record.players:  # each person's games, for the Mini App's list (read back with care)
                if not player.is_computer:
                    key = self._games_key(player.user_id)
                    (pipe.sadd if record.phase in ("lobby", "playing") else pipe.srem)(key, tag)
            await pipe.execute()
        return saved

    async def _replicated_cas(self, keys: list[str], args: list[str]) -> int:
        """The compare-and-set, then ``WAIT`` on the same connection (it counts the replicas holding what that
        connection wrote). A move is answered only once a replica holds it, so a failover right after cannot
        lose it. When too few replicas answer in time the move stands on the primary alone: refusing it would
        stop every game while a replica is away; that is logged once, and again when replicas keep up. Saves
        then skip the wait for ``REPLICA_RECHECK`` seconds: one slow move while replicas are away, not all."""
        assert isinstance(self.redis, aioredis.Redis)  # never a cluster's (``__init__``)
        async with self.redis.client() as one:
            version = int(await self._cas(keys=keys, args=args, client=one))
            if version >= 0:
                held = int(await one.wait(self.replicas, self.replica_wait_ms))
                if held < self.replicas:
                    self._unreplicated.failed(RuntimeError(f"{held} replica(s) within {self.replica_wait_ms} ms"))
                    self._wait_again_at = time.monotonic() + REPLICA_RECHECK
                else:
                    self._unreplicated.worked()
        return version

    def _games_key(self, user_id: int) -> str:
        return f"{self.keys.user(user_id)}games"

    async def games_of(self, user_id: int) -> list[GameRecord]:
        """The lobbies and running games ``user_id`` sits in, newest first. The list is kept at each save of the
        game, so a lobby they left is found here too: it is read back and dropped when they are not in it."""
        key = self._games_key(user_id)
        found = []
        for tag in sorted(await self.redis.smembers(key)):
            chat, _, topic = str(tag).partition(":")
            record = await self.load(int(chat), int(topic) if topic else None)
            if record is None or record.seat_of(user_id) is None or record.phase not in ("lobby", "playing"):
                await self.redis.srem(key, tag)
                continue
            found.append(record)
        return sorted(found, key=lambda r: r.updated_at, reverse=True)

    async def active_tags(self) -> set[str]:
        members = await self.redis.smembers(self.keys.active)
        return {str(m) for m in members}

    async def census(self) -> Counter[tuple[str, str]]:
        """How many active games there are of each game and phase: the active set and each one's kind, kept
        beside it at every save (a record saved before the kinds were kept is read whole, until its next save)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.smembers(self.keys.active)
            pipe.hgetall(self.keys.active_kinds)
            tags, kinds = await pipe.execute()
        missing = sorted(str(tag) for tag in tags if tag not in kinds)
        if missing:
            async with self.redis.pipeline(transaction=False) as pipe:
                for tag in missing:
                    pipe.hget(self._game_key(tag), "d")
                for tag, data in zip(missing, await pipe.execute(), strict=True):
                    if data:
                        record = json.loads(data)
                        kinds[tag] = f"{record['game_id']} {record.get('phase', 'lobby')}"
        found: Counter[tuple[str, str]] = Counter()
        for tag in tags:
            if tag in kinds:
                game, _, phase = str(kinds[tag]).partition(" ")
                found[game, phase] += 1
        return found

    # The chat's live message (the lobby, then the board) is not versioned itself: re-sending it must not make
    # its own buttons stale. It remembers the record version it shows, so a board left behind by a crash
    # between a write and its redraw is noticed and redrawn (bot/flow/recovery.py).

    def _live_key(self, chat_id: int, thread_id: int | None) -> str:
        return f"{self._game_key(chat_tag(chat_id, thread_id))}:live"

    async def live_message(self, chat_id: int, thread_id: int | None) -> LiveMessage | None:
        value = await self.redis.get(self._live_key(chat_id, thread_id))
        if not value:
            return None
        message_id, _, version = str(value).partition(":")
        return LiveMessage(int(message_id), int(version or 0))

    async def set_live_message(self, chat_id: int, thread_id: int | None, message_id: int, version: int) -> None:
        key = self._live_key(chat_id, thread_id)
        await self.redis.set(key, f"{message_id}:{version}", ex=FINISHED_TTL * 4)

    async def clear_live_message(self, chat_id: int, thread_id: int | None) -> None:
        key = self._live_key(chat_id, thread_id)
        await self.redis.delete(key)

    async def is_active(self, chat_id: int, thread_id: int | None) -> bool:
        """A lobby, a running game, or a finished game whose result is not out yet (it is retired after)."""
        tag = chat_tag(chat_id, thread_id)
        return bool(await self.redis.sismember(self.keys.active, tag))

    async def retire(self, chat_id: int, thread_id: int | None) -> None:
        """A finished game whose last board and result are out: nothing is left to bring up to date."""
        tag = chat_tag(chat_id, thread_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.srem(self.keys.active, tag)
            pipe.hdel(self.keys.active_kinds, tag)
            await pipe.execute()

    # Each player's private message about a game (their hand), and what it shows, so that it is edited only
    # when the player's view or choices changed.

    def _hand_key(self, chat_id: int, thread_id: int | None, user_id: int) -> str:
        return f"{self._game_key(chat_tag(chat_id, thread_id))}:hand:{user_id}"

    async def hand_message(self, chat_id: int, thread_id: int | None, user_id: int) -> HandMessage | None:
        raw = await self.redis.get(self._hand_key(chat_id, thread_id, user_id))
        return HandMessage.model_validate_json(raw) if raw else None

    async def set_hand_message(self, chat_id: int, thread_id: int | None, user_id: int, hand: HandMessage) -> None:
        key, data = self._hand_key(chat_id, thread_id, user_id), hand.model_dump_json()
        await self.redis.set(key, data, ex=FINISHED_TTL)

    # When each player last pressed a button of a game (a move, a menu level): a player who pressed a moment
    # ago is at the screen, and their next turn's notice is not sent (bot/messages/presence.py).

    def _pressed_key(self, chat_id: int, thread_id: int | None) -> str:
        return f"{self._game_key(chat_tag(chat_id, thread_id))}:pressed"

    async def note_press(self, chat_id: int, thread_id: int | None, user_id: int, when: float) -> None:
        key = self._pressed_key(chat_id, thread_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, str(user_id), repr(when))
            pipe.expire(key, FINISHED_TTL)
            await pipe.execute()

    async def last_press(self, chat_id: int, thread_id: int | None, user_id: int) -> float | None:
        value = await self.redis.hget(self._pressed_key(chat_id, thread_id), str(user_id))
        return float(value) if value else None

    # Group settings (shared by a forum's topics).

    async def group_settings(self, chat_id: int) -> GroupSettings:
        raw = await self.redis.get(f"{self.keys.chat(chat_id)}settings")
        return GroupSettings.model_validate_json(raw) if raw else GroupSettings()

    async def set_group_settings(self, chat_id: int, settings: GroupSettings) -> None:
        data = settings.model_dump_json()
        await self.redis.set(f"{self.keys.chat(chat_id)}settings", data)

    # Users who opened a private chat with the bot can receive private messages.

    async def mark_reachable(self, user_id: int, reachable: bool = True) -> None:
        if reachable:
            await self.redis.sadd(self.keys.reachable, user_id)
        else:
            await self.redis.srem(self.keys.reachable, user_id)

    async def is_reachable(self, user_id: int) -> bool:
        return bool(await self.redis.sismember(self.keys.reachable, str(user_id)))

    # The newest message of a group's game in a person's private chat (a turn notice, a hand sent anew): a game
    # played in that private chat posts its board below it rather than leave it buried (bot/messages/board.py).

    async def note_private_message(self, user_id: int, message_id: int) -> None:
        await self.redis.zadd(
            self.keys.newest_private, {str(user_id): message_id}, gt=True
        )  # GT: two notes never go back

    async def newest_private_message(self, user_id: int) -> int:
        return int(await self.redis.zscore(self.keys.newest_private, str(user_id)) or 0)

    # Players who asked for no turn notices (bot/messages/notices.py): on unless they turned them off.

    async def set_notices(self, user_id: int, on: bool) -> None:
        if on:
            await self.redis.srem(self.keys.quiet, user_id)
        else:
            await self.redis.sadd(self.keys.quiet, user_id)

    async def wants_notices(self, user_id: int) -> bool:
        return not await self.redis.sismember(self.keys.quiet, str(user_id))

    # Users the bot has heard from in a group (a message or a press there): members, as far as a bot that is
    # not an admin can tell.

    async def note_seen(self, chat_id: int, user_id: int) -> None:
        await self.redis.sadd(f"{self.keys.chat(chat_id)}seen", user_id)

    async def was_seen(self, chat_id: int, user_id: int) -> bool:
        return bool(await self.redis.sismember(f"{self.keys.chat(chat_id)}seen", str(user_id)))

    async def ping(self) -> bool:
        return bool(await self.redis.ping())

    async def take_write(self) -> None:
        """A small write Redis must accept (raises otherwise): a server that answers reads but refuses writes
        (a replica after a failover, OOM at its maxmemory) is not back yet."""
        await self.redis.set(self.keys.write_probe, 1, px=60_000)

    # A basic group that became a supergroup (Telegram gives it a new id): everything about the chat moves
    # (bot/plumbing/chat_move.py).

    async def moved_to(self, chat_id: int) -> int | None:
        """The supergroup a migrated group became, if it did."""
        value = await self.redis.get(f"{self.keys.chat(chat_id)}moved_to")
        return int(value) if value else None
