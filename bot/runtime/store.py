"""Game records in Redis: one versioned JSON record per chat (or forum topic), written by compare-and-set.

Keys carry the chat in a hash tag (``dh:{<chat>}:...``) so that a Redis Cluster keeps a chat's keys in one
slot. Versions come from a per-chat counter that never goes back, so a button made for an earlier game or
an earlier move can never match a later one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import redis.asyncio as aioredis
from pydantic import BaseModel, Field, model_validator
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.runtime.group_settings import GroupSettings

log = logging.getLogger(__name__)

FINISHED_TTL = 7 * 24 * 3600  # finished games stay readable for a week, then expire
T = TypeVar("T")

Phase = Literal["lobby", "playing", "finished", "cancelled"]
Absence = Literal["timeouts", "left", "kicked"]  # why a seat is out of a running game


class Player(BaseModel):
    user_id: int
    name: str
    username: str | None = None


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


@dataclass(frozen=True, slots=True)
class LiveMessage:
    """The chat's message with the game's buttons, and the record version it shows."""

    message_id: int
    version: int


class HandMessage(BaseModel):
    """A player's private message about a game; ``shown`` fingerprints its content and buttons, ``version`` is
    the record version it was drawn for (0 in records written before it was kept)."""

    message_id: int
    shown: str
    version: int = 0
    told_unreachable: bool = False  # the group was told once that this player cannot be written to


class StaleVersion(Exception):
    """The record changed since it was read: someone else's write won."""


class StoreUnavailable(Exception):
    """Redis did not answer after the retries: the caller tells the user to try again."""


# KEYS: record, counter. ARGV: expected version ("0" for none), new data, ttl seconds (0 = keep forever).
_CAS = """
local current = redis.call('HGET', KEYS[1], 'v') or '0'
if current ~= ARGV[1] then return -1 end
local version = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'v', version, 'd', ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
return version
"""


def chat_tag(chat_id: int, thread_id: int | None) -> str:
    return f"{chat_id}" if thread_id is None else f"{chat_id}:{thread_id}"


class Store:
    """Typed access to the bot's Redis keys, with bounded retries on connection trouble."""

    ACTIVE = "dh:active"  # chat tags with a lobby, a running game, or a result not yet announced

    def __init__(self, client: aioredis.Redis, retries: int = 3) -> None:
        self.redis = client
        self.retries = retries
        self._cas = client.register_script(_CAS)

    @classmethod
    def from_url(cls, url: str) -> Store:
        client = aioredis.Redis.from_url(url, decode_responses=True, socket_timeout=5, health_check_interval=30)
        return cls(client)

    async def close(self) -> None:
        await self.redis.aclose()

    async def _retry(self, op: Callable[[], Awaitable[T]]) -> T:
        delay = 0.05
        for attempt in range(self.retries + 1):
            try:
                return await op()
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                if attempt == self.retries:
                    raise StoreUnavailable(str(exc)) from exc
                log.warning("redis unavailable (%s); retry %d", exc, attempt + 1)
                await asyncio.sleep(delay)
                delay *= 4
        raise AssertionError("unreachable")

    @staticmethod
    def _game_key(tag: str) -> str:
        chat = tag.split(":")[0]
        return f"dh:{{{chat}}}:game:{tag}"

    @staticmethod
    def _counter_key(tag: str) -> str:
        chat = tag.split(":")[0]
        return f"dh:{{{chat}}}:seq"

    async def load(self, chat_id: int, thread_id: int | None = None) -> GameRecord | None:
        tag = chat_tag(chat_id, thread_id)
        raw = await self._retry(lambda: self.redis.hmget(self._game_key(tag), "v", "d"))
        version, data = raw
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
        version = await self._retry(lambda: self._cas(keys=keys, args=[str(expected), data, str(ttl)]))
        if int(version) < 0:
            raise StaleVersion(tag)
        saved = record.model_copy(update={"version": int(version)})
        if record.phase == "cancelled":
            await self._retry(lambda: self.redis.srem(self.ACTIVE, tag))
        else:  # a finished game stays listed until its result is out (``retire``)
            await self._retry(lambda: self.redis.sadd(self.ACTIVE, tag))
        return saved

    async def active_tags(self) -> set[str]:
        members = await self._retry(lambda: self.redis.smembers(self.ACTIVE))
        return {str(m) for m in members}

    # The chat's live message (the lobby, then the board) is not versioned itself: re-sending it must not make
    # its own buttons stale. It remembers the record version it shows, so a board left behind by a crash
    # between a write and its redraw is noticed and redrawn (bot/runtime/recovery.py).

    def _live_key(self, chat_id: int, thread_id: int | None) -> str:
        return f"{self._game_key(chat_tag(chat_id, thread_id))}:live"

    async def live_message(self, chat_id: int, thread_id: int | None) -> LiveMessage | None:
        value = await self._retry(lambda: self.redis.get(self._live_key(chat_id, thread_id)))
        if not value:
            return None
        message_id, _, version = str(value).partition(":")
        return LiveMessage(int(message_id), int(version or 0))

    async def set_live_message(self, chat_id: int, thread_id: int | None, message_id: int, version: int) -> None:
        key = self._live_key(chat_id, thread_id)
        await self._retry(lambda: self.redis.set(key, f"{message_id}:{version}", ex=FINISHED_TTL * 4))

    async def clear_live_message(self, chat_id: int, thread_id: int | None) -> None:
        key = self._live_key(chat_id, thread_id)
        await self._retry(lambda: self.redis.delete(key))

    async def retire(self, chat_id: int, thread_id: int | None) -> None:
        """A finished game whose last board and result are out: nothing is left to bring up to date."""
        tag = chat_tag(chat_id, thread_id)
        await self._retry(lambda: self.redis.srem(self.ACTIVE, tag))

    # Each player's private message about a game (their hand), and what it shows, so that it is edited only
    # when the player's view or choices changed.

    def _hand_key(self, chat_id: int, thread_id: int | None, user_id: int) -> str:
        return f"{self._game_key(chat_tag(chat_id, thread_id))}:hand:{user_id}"

    async def hand_message(self, chat_id: int, thread_id: int | None, user_id: int) -> HandMessage | None:
        raw = await self._retry(lambda: self.redis.get(self._hand_key(chat_id, thread_id, user_id)))
        return HandMessage.model_validate_json(raw) if raw else None

    async def set_hand_message(self, chat_id: int, thread_id: int | None, user_id: int, hand: HandMessage) -> None:
        key, data = self._hand_key(chat_id, thread_id, user_id), hand.model_dump_json()
        await self._retry(lambda: self.redis.set(key, data, ex=FINISHED_TTL))

    # Group settings (shared by a forum's topics).

    async def group_settings(self, chat_id: int) -> GroupSettings:
        raw = await self._retry(lambda: self.redis.get(f"dh:{{{chat_id}}}:settings"))
        return GroupSettings.model_validate_json(raw) if raw else GroupSettings()

    async def set_group_settings(self, chat_id: int, settings: GroupSettings) -> None:
        data = settings.model_dump_json()
        await self._retry(lambda: self.redis.set(f"dh:{{{chat_id}}}:settings", data))

    # Users who opened a private chat with the bot can receive private messages.

    async def mark_reachable(self, user_id: int, reachable: bool = True) -> None:
        if reachable:
            await self._retry(lambda: self.redis.sadd("dh:reachable", user_id))
        else:
            await self._retry(lambda: self.redis.srem("dh:reachable", user_id))

    async def is_reachable(self, user_id: int) -> bool:
        return bool(await self._retry(lambda: self.redis.sismember("dh:reachable", str(user_id))))

    async def ping(self) -> bool:
        return bool(await self._retry(lambda: self.redis.ping()))
