"""Deadlines in Redis that survive restarts and fire exactly once among any number of workers.

A deadline is a member ``<kind>|<chat tag>|<version>`` of the sorted set ``due`` scored by its time. A worker
*claims* due members with one script that moves them to ``leases`` (scored by when the lease runs out), so
two workers never take the same one; it renews the lease while it works on it (a computer player's move may
wait for its turn in the thinking pool longer than a lease) and removes it when done. A worker that dies
holding a lease leaves it to run out, and the next poll moves it back to ``due``: nothing is lost. A bot that
polls Telegram is the only worker there is, so at start-up it takes back at once every lease its killed
predecessor held (``take_back``) instead of waiting for them to run out. Firing checks the game's version,
so a deadline of a game that moved on does nothing, and firing twice is harmless.

Each chat keeps one set of armed members; arming replaces them, so the set stays as small as the number of
running games. All keys share the ``{deadlines}`` hash tag so the scripts work on a Redis Cluster too.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.plumbing.figures import DEADLINE_LATENESS, REDIS_SECONDS
from bot.plumbing.keys import Keys
from bot.plumbing.redis_connect import Client, script

LEASE_SECONDS = 10.0  # a dead worker's deadlines wait this long at most (a live one renews its leases)

# KEYS: due, armed set of the chat. ARGV: member, score, member, score, ...
_ARM = """
local old = redis.call('SMEMBERS', KEYS[2])
for _, member in ipairs(old) do redis.call('ZREM', KEYS[1], member) end
redis.call('DEL', KEYS[2])
for i = 1, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
  redis.call('SADD', KEYS[2], ARGV[i])
end
return #ARGV / 2
"""

# KEYS: due, leases. ARGV: now, lease end, limit. Expired leases go back to due first. Returns member, due
# time, member, due time, ...
_CLAIM = """
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, member in ipairs(expired) do
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZADD', KEYS[1], ARGV[1], member)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
for i = 1, #due, 2 do
  redis.call('ZREM', KEYS[1], due[i])
  redis.call('ZADD', KEYS[2], ARGV[2], due[i])
end
return due
"""

# KEYS: due, leases. ARGV: now. Every lease goes back to due, due now.
_TAKE_BACK = """
local leased = redis.call('ZRANGE', KEYS[2], 0, -1)
for _, member in ipairs(leased) do
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZADD', KEYS[1], ARGV[1], member)
end
return #leased
"""


@dataclass(frozen=True, slots=True)
class Deadline:
    kind: str  # "timeout", "remind", "lobby" or "computer" (a computer player is to move)
    tag: str  # the chat (and topic) the game is in
    version: int  # the game version the deadline was armed for

    @property
    def member(self) -> str:
        return f"{self.kind}|{self.tag}|{self.version}"

    @classmethod
    def parse(cls, member: str) -> Deadline:
        kind, tag, version = member.split("|")
        return cls(kind, tag, int(version))


class Deadlines:
    def __init__(self, client: Client, keys: Keys) -> None:
        self.redis = client
        self.keys = keys
        self._arm = script(client, _ARM)
        self._claim = script(client, _CLAIM)
        self._take_back = script(client, _TAKE_BACK)

    def armed_key(self, tag: str) -> str:
        """The set of the chat's armed members (``bot.plumbing.chat_move`` moves it)."""
        return self.keys.armed(tag)

    async def arm(self, tag: str, deadlines: dict[Deadline, float]) -> None:
        """Replace the chat's armed deadlines with these (an empty dict disarms the chat)."""
        args: list[str] = []
        for deadline, at in deadlines.items():
            args += [deadline.member, repr(at)]
        await self._arm(keys=[self.keys.due, self.armed_key(tag)], args=args)

    async def claim(self, now: float, limit: int = 100) -> list[Deadline]:
        """Take the deadlines due by ``now``; how late each was claimed goes to /metrics (one whose lease ran out
        comes back due at the poll that finds it: 0)."""
        with REDIS_SECONDS.labels("claim").time():
            found = await self._claim(
                keys=[self.keys.due, self.keys.leases], args=[repr(now), repr(now + LEASE_SECONDS), str(limit)]
            )
        claimed = []
        for member, at in zip(found[::2], found[1::2], strict=True):
            deadline = Deadline.parse(member.decode() if isinstance(member, bytes) else str(member))
            DEADLINE_LATENESS.labels(deadline.kind).observe(max(0.0, now - float(at)))
            claimed.append(deadline)
        return claimed

    async def renew(self, deadlines: list[Deadline], now: float) -> None:
        """Extend the leases of deadlines still being worked on (a lease already gone stays gone)."""
        if deadlines:
            until = now + LEASE_SECONDS
            await self.redis.zadd(self.keys.leases, {d.member: until for d in deadlines}, xx=True)

    async def take_back(self, now: float) -> int:
        """Every lease back to due (the only worker starting: whoever held them is dead); how many."""
        return int(await self._take_back(keys=[self.keys.due, self.keys.leases], args=[repr(now)]))

    async def done(self, deadline: Deadline) -> None:
        await self.redis.zrem(self.keys.leases, deadline.member)
        await self.redis.srem(self.armed_key(deadline.tag), deadline.member)

    async def pending(self, tag: str) -> dict[str, float]:
        """The chat's armed deadlines still waiting (for /status and tests)."""
        members = await self.redis.smembers(self.armed_key(tag))
        out: dict[str, float] = {}
        for member in members:
            text = member.decode() if isinstance(member, bytes) else str(member)
            score = await self.redis.zscore(self.keys.due, text)
            if score is not None:
                out[text] = float(score)
        return out
