"""Telegram's flood budgets shared by every worker of one bot, in Redis, for webhook mode.

Each worker's pacer (``bot/plumbing/pacing.py``) keeps its own lanes, coalescing and 429 holds, and its own budgets.
With several workers behind one URL a group's updates go to all of them, so budgets kept per process would
let the bot as a whole send several times a group's 20 messages a minute, or the 30 a second overall.
So before a worker sends a new message or an edit (they share the budgets) it also takes room from the
same budgets in Redis: the overall window (a second) and the chat's token bucket (the GCRA shape of
``pacing.Bucket``). A worker that finds no room waits as long as Redis says and asks again.

Both are counted when the request starts, by Redis's clock, one script each (the two keys may live in
different cluster slots). The window is taken first: when the chat's bucket then says wait, the slot taken
in the window is wasted for at most a second, which only errs on the side of sending later.

Keys: ``<prefix>:pace:overall`` (a sorted set of request ids by start, kept for one window) and
``<prefix>:{<chat>}:pace`` (the chat's theoretical arrival time in ms); both expire on their own.
"""

from __future__ import annotations

import itertools

from bot.config import Limits
from bot.plumbing.keys import Keys
from bot.plumbing.locks import LUA_NOW
from bot.plumbing.pacing import message_bucket
from bot.plumbing.redis_connect import Client, script

# KEYS: the window. ARGV: limit, request id, window ms. 0 when taken, else ms to wait.
_WINDOW = (
    LUA_NOW
    + """
local period = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - period)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + period - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], math.ceil(2 * period))
return 0
"""
)

# KEYS: the chat's bucket. ARGV: interval ms, tolerance ms. 0 when taken, else ms to wait.
_BUCKET = (
    LUA_NOW
    + """
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local allowed = tat - tonumber(ARGV[2])
if allowed > now then return math.max(1, allowed - now) end
local next_tat = math.max(tat, now) + tonumber(ARGV[1])
redis.call('SET', KEYS[1], next_tat, 'PX', math.ceil(next_tat - now) + 1000)
return 0
"""
)


def bucket_key(keys: Keys, chat: int | str) -> str:
    return f"{keys.chat(chat)}pace"


class SharedBudgets:
    """The overall window and each chat's bucket, as ``Limits`` sets them, shared through one Redis."""

    def __init__(self, client: Client, keys: Keys, limits: Limits, worker: str) -> None:
        self.keys = keys
        self.limits = limits
        self._ids = (f"{worker}:{n}" for n in itertools.count(1))
        self._window = script(client, _WINDOW)
        self._bucket = script(client, _BUCKET)

    async def take(self, chat: int | str) -> float:
        """Take room for one new message or edit in ``chat``: 0 when taken, else the seconds to wait before asking
        again (nothing was taken from the chat's bucket then)."""
        overall = self.limits.global_per_second
        if overall > 0:
            period = self.limits.global_window * 1000
            wait = int(await self._window(keys=[self.keys.pace_overall], args=[overall, next(self._ids), period]))
            if wait:
                return wait / 1000
        bucket = message_bucket(self.limits, chat)  # the shape the local pacer gives the chat's budget
        if bucket is None:
            return 0.0
        wait = int(
            await self._bucket(
                keys=[bucket_key(self.keys, chat)], args=[bucket.interval * 1000, bucket.tolerance * 1000]
            )
        )
        return wait / 1000
