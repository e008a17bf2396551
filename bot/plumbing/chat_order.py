"""A chat's updates handled one at a time in the order they arrived, by any number of workers behind one URL.

Telegram (and the sandbox) queue a chat's messages, and each user's callback queries, and send a queue's
next update only once the previous one was answered with 200 (sandbox/README.md, "Webhook delivery"). The
worker that receives an update takes the chat's next *ticket* in Redis before it answers, so a chat's
messages keep Telegram's order, as do one user's presses; a press and a message of the same chat (or two
users' presses) are in two queues and may arrive in either order, and the tickets record the order they did
arrive in. That is all the bot needs: every press carries the version of the board it was made on, so a
press that a message overtook (a /cancel, a /kick) is refused as stale, never applied to the wrong game.
The worker handles the update once the chat's ``served`` counter reaches the ticket before its own, and
moves the counter on when done. Until then other workers' tickets of that chat wait (the release publishes
on the bot's ``Keys.wake`` channel), while other chats go on in parallel.

A ticket is held under a lease that its worker renews while it waits and while it works. A worker that dies
holding one leaves it to run out (``LEASE``); the next ticket's worker then skips it, so a chat is held up
for a few seconds at most, never for good. An update whose worker died after answering 200 is lost, as it
would be with one worker.

The chat also remembers the update ids of its last ``SEEN`` tickets: the same update delivered again (the 200
got lost on the way, so Telegram retried, perhaps to another worker, and meanwhile the chat's other queue may
have delivered more) is dropped while its first delivery is in hand or done, and taken again only if that
delivery's worker died before handling it.

Keys: ``<prefix>:{<chat>}:order`` (a hash: next, served), ``<prefix>:{<chat>}:order:alive`` (a sorted set:
ticket -> lease end in ms, Redis's clock) and ``<prefix>:{<chat>}:order:seen`` (a sorted set: ticket -> update
id). All expire after a day without updates.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.plumbing import activity
from bot.plumbing.keys import Keys
from bot.plumbing.locks import (
    LEASE,
    LUA_NOW,
    POLL,
    LateReleases,
    Wakeups,
    keep_renewing,
    raise_if_cancelled,
    wait_for_wakeup,
)
from bot.plumbing.redis_connect import Client, each_script, script

log = logging.getLogger(__name__)

IDLE_TTL = 24 * 3600
SEEN = 64  # update ids remembered per chat: far more than can be in flight at once
RETRIES = 5  # Redis away while a ticket waits: retry for a few seconds before giving the update up

# KEYS: state, alive, seen. ARGV: update id, lease ms, idle ttl, seen size. The new ticket (0 for a repeated
# delivery) and the served counter, so that a ticket that is next already needs no second round trip.
_TAKE = (
    LUA_NOW
    + """
local earlier = redis.call('ZRANGEBYSCORE', KEYS[3], ARGV[1], ARGV[1])[1]
if earlier then
  local lease = redis.call('ZSCORE', KEYS[2], earlier)
  if not lease or tonumber(lease) > now then return {0, 0} end
  redis.call('ZREM', KEYS[3], earlier)
end
local ticket = redis.call('HINCRBY', KEYS[1], 'next', 1)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ticket)
redis.call('ZADD', KEYS[3], ARGV[1], ticket)
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[4]) - 1)
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
return {ticket, tonumber(redis.call('HGET', KEYS[1], 'served') or '0')}
"""
)

# KEYS: state, alive, seen. ARGV: ticket. Skips dead tickets before this one (their updates may come again);
# returns the served counter and how many tickets it skipped.
_TURN = (
    LUA_NOW
    + """
local ticket = tonumber(ARGV[1])
local served = tonumber(redis.call('HGET', KEYS[1], 'served') or '0')
local skipped = served
while served + 1 < ticket do
  local lease = redis.call('ZSCORE', KEYS[2], served + 1)
  if lease and tonumber(lease) > now then break end
  served = served + 1
  redis.call('ZREM', KEYS[2], served)
  redis.call('ZREM', KEYS[3], served)
end
if served ~= skipped then redis.call('HSET', KEYS[1], 'served', served) end
return {served, served - skipped}
"""
)

# KEYS: state, alive. ARGV: ticket, channel, idle ttl. Done (or given up): the next ticket may go. Returns
# whether later tickets wait, and whether this one had been skipped as dead before it was done.
_FINISH = """
local ticket = tonumber(ARGV[1])
redis.call('ZREM', KEYS[2], ticket)
local served = tonumber(redis.call('HGET', KEYS[1], 'served') or '0')
if served == ticket - 1 then redis.call('HSET', KEYS[1], 'served', ticket) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
local waiting = 0
if tonumber(redis.call('HGET', KEYS[1], 'next') or '0') > ticket then
  redis.call('PUBLISH', ARGV[2], KEYS[1])
  waiting = 1
end
return {waiting, served >= ticket and 1 or 0}
"""

# KEYS: alive. ARGV: lease ms, ticket... Extends the leases of tickets still alive (never revives one).
_RENEW = (
    LUA_NOW
    + """
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
return #ARGV - 1
"""
)


@dataclass(frozen=True, slots=True)
class Ticket:
    chat_id: int
    number: int
    next_up: bool = field(default=False, compare=False)  # nothing was ahead of it when taken


def state_key(keys: Keys, chat_id: int) -> str:
    return f"{keys.chat(chat_id)}order"


def alive_key(keys: Keys, chat_id: int) -> str:
    return f"{keys.chat(chat_id)}order:alive"


def seen_key(keys: Keys, chat_id: int) -> str:
    return f"{keys.chat(chat_id)}order:seen"


class ChatOrder:
    """Tickets per chat in Redis; ``take`` when an update arrives, ``turn`` around handling it."""

    def __init__(self, client: Client, keys: Keys, wakeups: Wakeups, lease: float = LEASE, poll: float = POLL) -> None:
        self.redis = client
        self.keys = keys
        self.wakeups = wakeups
        self.lease_ms = int(lease * 1000)
        self.poll = poll
        self._held: set[Ticket] = set()
        self._releasing: set[asyncio.Task[None]] = set()
        self._late = LateReleases(poll)
        self._take = script(client, _TAKE)
        self._turn = script(client, _TURN)
        self._finish = script(client, _FINISH)
        self._renew = script(client, _RENEW)

    async def take(self, chat_id: int, update_id: int) -> Ticket | None:
        """The chat's next ticket, or None if this update was delivered before and is in hand or done."""
        keys = [state_key(self.keys, chat_id), alive_key(self.keys, chat_id), seen_key(self.keys, chat_id)]
        args = [update_id, self.lease_ms, IDLE_TTL, SEEN]
        number, served = (int(n) for n in await self._take(keys=keys, args=args))
        if not number:
            return None
        ticket = Ticket(chat_id, number, next_up=served + 1 == number)
        self._held.add(ticket)
        return ticket

    @asynccontextmanager
    async def turn(self, ticket: Ticket) -> AsyncIterator[None]:
        """Wait until every earlier ticket of the chat is done (or given up as dead), hold the turn, and
        pass it on however the body ends. A ticket given up as dead meanwhile (its worker stalled for a whole
        lease) is handled anyway, out of order, rather than lost; ``release`` logs it."""
        try:
            await self._wait(ticket)
            yield
        finally:
            await self.release(ticket)

    async def _wait(self, ticket: Ticket) -> None:
        if ticket.next_up:  # the usual case; only this ticket's own death could move the counter on since
            return
        chat = ticket.chat_id
        keys = [state_key(self.keys, chat), alive_key(self.keys, chat), seen_key(self.keys, chat)]
        failures = 0
        while True:
            with self.wakeups.watch(keys[0]) as woken:
                try:
                    served, skipped = (int(n) for n in await self._turn(keys=keys, args=[ticket.number]))
                except (RedisConnectionError, RedisTimeoutError, OSError):
                    failures += 1
                    if failures > RETRIES:
                        raise
                    log.warning("chat %s: redis unavailable while waiting for ticket %s", *_ids(ticket))
                    await asyncio.sleep(POLL * failures)
                    continue
                raise_if_cancelled()
                if skipped:
                    log.warning("chat %s: skipped %d ticket(s) whose worker died", ticket.chat_id, skipped)
                if served + 1 >= ticket.number:
                    return
                await wait_for_wakeup(woken, self.poll)

    async def release(self, ticket: Ticket) -> None:
        """The ticket is done: the chat's next one may go (here at once, elsewhere through pub/sub)."""
        self._held.discard(ticket)
        keys = [state_key(self.keys, ticket.chat_id), alive_key(self.keys, ticket.chat_id)]
        finish = functools.partial(self._finish, keys=keys, args=[ticket.number, self.keys.wake, IDLE_TTL])
        try:
            waiting, late = await finish()
        except Exception:  # tried again while its lease lasts; after it, the next ticket skips this one
            log.warning("chat %s: could not pass on ticket %s; trying again", *_ids(ticket), exc_info=True)
            self._late.add(finish, self.lease_ms / 1000)
            return
        if late:
            log.warning("chat %s: ticket %s ran out (worker stalled) and was handled late", *_ids(ticket))
        if waiting:
            self.wakeups.wake(keys[0])

    def release_soon(self, ticket: Ticket) -> None:
        """Pass the turn on if ``ticket`` is still held: for a handler task that ended without running
        ``turn`` at all (cancelled before it started), which would otherwise hold its chat for good."""
        if ticket in self._held:
            task = activity.spawn(self.release(ticket), "cleanup")
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    async def renew(self) -> None:
        """Extend the lease of every ticket this worker holds (waiting or running)."""
        by_chat: dict[int, list[int]] = {}
        for ticket in list(self._held):
            by_chat.setdefault(ticket.chat_id, []).append(ticket.number)
        if not by_chat:
            return
        calls = [([alive_key(self.keys, chat_id)], [self.lease_ms, *numbers]) for chat_id, numbers in by_chat.items()]
        await each_script(self.redis, self._renew, calls)

    async def keep_leases(self) -> None:
        """Renew held tickets three times per lease until cancelled."""
        await keep_renewing(self.renew, self.lease_ms / 3000)

    def __len__(self) -> int:
        return len(self._held)


def _ids(ticket: Ticket) -> tuple[int, int]:
    return ticket.chat_id, ticket.number
