"""Whose turn each game is waiting for, as last drawn, and the one notice each of those players was sent.

An edit notifies nobody, so a player whose turn begins is sent one real message (``bot/messages/notices.py``),
and it is deleted when their turn ends (or, never answered, said again in place at their next), so notices never
pile up. Both must happen once, whichever worker drew
the board and in whatever order their tasks run. So every drawn version is noted here with the players it
waits for, in one script: compared with those noted for the newest version before it, it answers whose turn
began and whose ended; a version no newer than one already noted answers nothing (drawn twice, or late).

Keys, beside the game's record (so they follow a group that becomes a supergroup):
``<game>:turns``, a hash of the newest version noted (``v``), the game it belongs to (``g``, its seed: a new
game in the chat starts every turn afresh) and each waiting user's id with the version their turn began at;
``<game>:notice:<user>``, the user's notice as ``<chat id>:<message id>:<board id>:<reminder>:<sent at>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.plumbing.keys import Keys
from bot.plumbing.redis_connect import Client, script
from bot.plumbing.store import FINISHED_TTL

# KEYS: turns. ARGV: version, game, ttl, then the users waited for. Nil if not newer, else {began, ended}.
_ADVANCE = """
local version = tonumber(ARGV[1])
if tonumber(redis.call('HGET', KEYS[1], 'v') or '0') >= version then return false end
local fresh = redis.call('HGET', KEYS[1], 'g') ~= ARGV[2]
local now, kept, began, ended = {}, {}, {}, {}
for i = 4, #ARGV do now[ARGV[i]] = true end
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if field ~= 'v' and field ~= 'g' then
    if now[field] and not fresh then
      kept[field] = true
    else
      redis.call('HDEL', KEYS[1], field)
      table.insert(ended, field)
    end
  end
end
for i = 4, #ARGV do
  if not kept[ARGV[i]] then
    redis.call('HSET', KEYS[1], ARGV[i], version)
    table.insert(began, ARGV[i])
  end
end
redis.call('HSET', KEYS[1], 'v', version, 'g', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {began, ended}
"""

# KEYS: the notice. ARGV: the value it must have ("" for any). The value taken, or nil.
_TAKE = """
local value = redis.call('GET', KEYS[1])
if not value or (ARGV[1] ~= '' and value ~= ARGV[1]) then return false end
redis.call('DEL', KEYS[1])
return value
"""


@dataclass(frozen=True, slots=True)
class Turns:
    """Since the last version noted: the users whose turn began (at this version) and whose turn ended."""

    began: tuple[int, ...]
    ended: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Notice:
    """A message that told a player it was their turn: in their private chat, or in the group; the board
    message its button leads to (0: none), whether it is the half-time reminder, and when it was sent (Unix
    seconds; 0: not known), to tell whether the player pressed since."""

    chat_id: int
    message_id: int
    board_id: int = 0
    reminder: bool = False
    sent: float = 0.0

    def encode(self) -> str:
        return f"{self.chat_id}:{self.message_id}:{self.board_id}:{int(self.reminder)}:{self.sent!r}"

    @classmethod
    def decode(cls, value: str) -> Notice:
        """Also a notice kept before the board, the reminder and the time were noted (``<chat>:<message>``)."""
        chat, message, board, reminder, sent = [*value.split(":"), "0", "0", "0"][:5]
        return cls(int(chat), int(message), int(board), reminder == "1", float(sent))


class TurnBook:
    """The turns and notices of every game, in Redis."""

    def __init__(self, client: Client, keys: Keys) -> None:
        self.redis = client
        self.keys = keys
        self._advance = script(client, _ADVANCE)
        self._take = script(client, _TAKE)

    def _turns_key(self, tag: str) -> str:
        return f"{self.keys.game(tag)}:turns"

    def _notice_key(self, tag: str, user_id: int) -> str:
        return f"{self.keys.game(tag)}:notice:{user_id}"

    async def advance(self, tag: str, game: str, version: int, waiting: Iterable[int]) -> Turns | None:
        """Note that ``version`` of ``game`` (its seed) waits for the users ``waiting``; None if a version as new
        was noted already."""
        args = [str(version), game, str(FINISHED_TTL), *map(str, dict.fromkeys(waiting))]
        found = await self._advance(keys=[self._turns_key(tag)], args=args)
        if found is None:
            return None
        began, ended = found
        return Turns(tuple(int(u) for u in began), tuple(int(u) for u in ended))

    async def turn_began(self, tag: str, user_id: int) -> int | None:
        """The version at which the user's current turn began, or None if it is not their turn."""
        value = await self.redis.hget(self._turns_key(tag), str(user_id))
        return int(value) if value else None

    async def kept(self, tag: str, user_id: int) -> Notice | None:
        """The user's notice still out, if any."""
        value = await self.redis.get(self._notice_key(tag, user_id))
        return Notice.decode(value.decode() if isinstance(value, bytes) else str(value)) if value else None

    async def keep(self, tag: str, user_id: int, notice: Notice) -> None:
        await self.redis.set(self._notice_key(tag, user_id), notice.encode(), ex=FINISHED_TTL)

    async def take(self, tag: str, user_id: int, only: Notice | None = None) -> Notice | None:
        """Forget the user's notice (only if it is ``only``, when given) and return it, to be deleted."""
        value = await self._take(keys=[self._notice_key(tag, user_id)], args=[only.encode() if only else ""])
        if value is None:
            return None
        return Notice.decode(value.decode() if isinstance(value, bytes) else str(value))
