"""Pacing the bot's Bot API requests to Telegram's flood limits, and coalescing edits that wait.

What counts, and against which limit (Telegram's Bot FAQ, "My bot is hitting limits"):

=====================================================  =========================================================
request                                                paced here
=====================================================  =========================================================
a new message (``send*`` but ``sendChatAction``,        30 in any second across all chats; 20 in any 60 s in a
``copyMessage(s)``, ``forwardMessage(s)``), and an      group (5 at once, then one per 4 s); 1 per second in a
edit (``edit*``, ``stopPoll``): one budget for both     private chat, after a burst of 3
anything else (``answerCallbackQuery``,                 not paced: answering a press must never wait behind
``getChatMember``, ``deleteMessage``, ``getUpdates``)   messages, and Telegram does not count these as messages
=====================================================  =========================================================

The FAQ documents only messages; the Bot API's maintainer says edits share them: "For bots the limits for
message editing are the same as for message sending. They can edit messages about 20 times per minute in a
specific chat ... They share the limit" (tdlib/td#2592). So a group's 20 a minute are for its new messages
and its edits together.

The windows are seconds of real time (``PACE_GROUP_WINDOW``, 60, and ``PACE_GLOBAL_WINDOW``, 1). Only a test
against a sandbox that runs Telegram's clock faster shortens them, together with ``PACE_PRIVATE_PER_SECOND``
raised by the same factor (``bot/dev/harness.py: scaled_pacing``): the schedule is then the real one, faster.

How a request goes:

- Each chat has two FIFO lanes, one for new messages and one for edits, each worked by one task at a time,
  so a chat's messages reach Telegram in the order they were asked for (edits change messages in place and
  do not wait behind new ones, though they take from the same budget). Other chats are independent.
- A request waits at the head of its lane until every budget it counts against has room. The overall budget
  is a sliding one-second window; a chat's is a token bucket (``Bucket``), so a chat that keeps asking is
  served at a steady pace instead of in bursts a minute apart. Both count conservatively: a request counts
  from when it starts, and until its period has passed after its answer came back, because Telegram saw it
  somewhere in between.
- A 429 puts the whole chat on hold for ``retry_after``; the refused request stays at the head of its lane
  and is sent again, so nothing is lost or reordered. A refused request does not count (Telegram refused it).
- An edit that joins its lane while an older edit of the same message is still waiting replaces it in place
  when it sets everything the older one set (media ⊇ caption ⊇ buttons; text ⊇ buttons): only the newest
  content is sent, and the older caller gets ``True`` at once (what Telegram answers for an edit it need not
  show). New messages are never dropped.
- Inside ``deferring()``, an edit or a new message that would have to wait fails at once with ``RetryAfter``,
  unsent, so a caller holding a chat's lock can let it go and draw again later with newer content
  (``bot/flow/redraw.py``). Such a caller first waits, outside the lock, until its chat has room (``clear``),
  which also holds one place of the overall budget for the caller's next request, in whatever chat, until it
  is sent or given back (``release``): with the overall budget full, the lanes waiting in it would otherwise
  take every place that comes free before the caller is back with its request, and put it off again and again.
- With ``shared`` budgets (webhook mode, ``bot/plumbing/shared_budgets.py``), a new message or an edit also
  takes room from the same budgets in Redis just before it is sent, so that several workers together keep
  within them.

A well-kept library was considered: PTB's ``AIORateLimiter`` paces every request with a ``chat_id`` (edits
and member look-ups too) through ``aiolimiter``'s leaky buckets, which let up to twice the budget through
in a 60 s window; it halts every chat on any 429 and has no per-private-chat limit and no hook to coalesce.
The budgets below are a few lines each and match how the sandbox (and the FAQ) count.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import enum
import functools
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

from telegram.error import RetryAfter

from bot.config import Limits
from bot.plumbing.figures import EDITS_MERGED, PACING_QUEUED, PACING_WAIT

log = logging.getLogger(__name__)

POLL_SECONDS = 0.02  # how often a request re-checks a budget that is full of requests still in flight
HOLD_SECONDS = 10.0  # the longest a place of the overall budget stays held for a caller (``Pacer.clear``)
RETRY_MARGIN = 0.05  # waited beyond retry_after, so the retry does not land on the boundary
SWEEP_AT = 2048  # forget idle chats once this many are known (then again at twice as many as remain)


class Kind(enum.Enum):
    MESSAGE = "message"
    EDIT = "edit"
    OTHER = "other"


_NOT_MESSAGES = {"sendChatAction"}
_MESSAGE_PREFIXES = ("send", "copyMessage", "forwardMessage")

# What an edit sets. A newer edit replaces a waiting older one of the same message only if it sets all of it.
CONTENT: dict[str, frozenset[str]] = {
    "editMessageMedia": frozenset({"media", "caption", "buttons"}),
    "editMessageCaption": frozenset({"caption", "buttons"}),
    "editMessageText": frozenset({"text", "buttons"}),
    "editMessageReplyMarkup": frozenset({"buttons"}),
}


def kind_of(endpoint: str) -> Kind:
    if endpoint.startswith("edit") or endpoint == "stopPoll":
        return Kind.EDIT
    if endpoint.startswith(_MESSAGE_PREFIXES) and endpoint not in _NOT_MESSAGES:
        return Kind.MESSAGE
    return Kind.OTHER


def retry_seconds(exc: RetryAfter) -> float:
    """``retry_after`` in seconds, without PTB's deprecation warning about its type."""
    delay = getattr(exc, "_retry_after", None)  # PTB keeps a timedelta here whatever PTB_TIMEDELTA says
    if not isinstance(delay, timedelta):
        delay = exc.retry_after
    return delay.total_seconds() if isinstance(delay, timedelta) else float(delay)


def refusal(seconds: float) -> RetryAfter:
    return RetryAfter(timedelta(seconds=max(seconds, 0.001)))


_DEFER: ContextVar[bool] = ContextVar("dorehami_defer_edits", default=False)


@dataclass(eq=False)
class _Hold:
    """A place of the overall budget held for one caller's next request (``Pacer.clear``)."""

    until: float
    used: bool = False

    def valid(self, now: float) -> bool:
        return not self.used and self.until > now


_HELD: ContextVar[_Hold | None] = ContextVar("dorehami_held_place", default=None)


@contextlib.contextmanager
def deferring() -> Iterator[None]:
    """Within this block, an edit or a new message that would have to wait fails at once with ``RetryAfter``
    instead, unsent (``RetryAfter`` from Telegram too: a refused request was not sent either)."""
    token = _DEFER.set(True)
    try:
        yield
    finally:
        _DEFER.reset(token)


@contextlib.contextmanager
def waiting() -> Iterator[None]:
    """Within this block requests wait for their budgets again: for a task started inside ``deferring``,
    which inherits it, but holds no lock and may wait."""
    token = _DEFER.set(False)
    try:
        yield
    finally:
        _DEFER.reset(token)


class Window:
    """At most ``limit`` requests in any ``period`` seconds. A request counts from its start (``busy``) and
    then for ``period`` after its answer came back (``ends``), so the server's view can only be roomier."""

    def __init__(self, limit: int, period: float) -> None:
        self.limit = limit
        self.period = period
        self.ends: list[float] = []
        self.busy = 0
        self.held: list[_Hold] = []  # places held for requests to come (``Pacer.clear``)

    def _prune(self, now: float) -> None:
        cutoff = now - self.period
        drop = bisect.bisect_right(self.ends, cutoff)
        if drop:
            del self.ends[:drop]
        if self.held:
            self.held = [hold for hold in self.held if hold.valid(now)]

    def wait(self, now: float, hold: _Hold | None = None) -> float | None:
        """Seconds until one more request may start (with the place ``hold`` held for it); None while requests
        in flight and places held fill the window."""
        self._prune(now)
        own = int(hold is not None and hold in self.held)
        excess = len(self.ends) + self.busy + len(self.held) - own + 1 - self.limit
        if excess <= 0:
            return 0.0
        if excess > len(self.ends):
            return None
        return self.ends[excess - 1] + self.period - now

    def start(self) -> None:
        self.busy += 1

    def end(self, now: float, counted: bool) -> None:
        self.busy -= 1
        if counted:
            bisect.insort(self.ends, now)

    def hold(self, now: float) -> _Hold:
        hold = _Hold(now + HOLD_SECONDS)
        self.held.append(hold)
        return hold

    def unhold(self, hold: _Hold) -> None:
        """The place is taken by its request, or given back: either way no longer held."""
        hold.used = True
        if hold in self.held:
            self.held.remove(hold)

    def idle(self, now: float) -> bool:
        self._prune(now)
        return not self.ends and not self.busy and not self.held


class Bucket:
    """``capacity`` requests at once, then ``rate`` a second: a token bucket, kept as GCRA's theoretical
    arrival time. Any span of ``w`` seconds then holds at most ``capacity + rate * w`` requests, so 5 at once
    and then 15 a minute never make 21 in a minute, and a group that keeps asking waits 4 s at a time, never
    a whole minute as a plain window would make it. Counted at each request's answer (Telegram counted it
    earlier), one request at a time."""

    def __init__(self, capacity: int, rate: float) -> None:
        self.interval = 1.0 / rate
        self.tolerance = (capacity - 1) * self.interval
        self.tat = -math.inf
        self.busy = 0

    def wait(self, now: float) -> float | None:
        if self.busy:
            return None
        return max(0.0, self.tat - self.tolerance - now)

    def start(self) -> None:
        self.busy += 1

    def end(self, now: float, counted: bool) -> None:
        self.busy -= 1
        if counted:
            self.tat = max(self.tat, now) + self.interval

    def idle(self, now: float) -> bool:
        return not self.busy and self.tat <= now


def message_bucket(limits: Limits, chat: int | str) -> Bucket | None:
    """The budget of messages and edits in one chat: a user's private chat (a positive id) or a group's."""
    if isinstance(chat, int) and chat > 0:
        rate = limits.private_per_second
        return Bucket(limits.private_burst, rate) if rate > 0 else None
    return per_window(limits.group_per_minute, limits.group_burst, limits.group_window)


def per_window(limit: int, burst: int, period: float = 60.0) -> Bucket | None:
    """At most ``limit`` in any ``period`` seconds, ``burst`` of them at once and the rest spread over it."""
    if limit <= 0:
        return None
    if limit == 1:
        return Bucket(1, 1 / period)
    burst = max(1, min(burst, limit - 1))
    return Bucket(burst, (limit - burst) / period)


Budget = Window | Bucket


@dataclass(eq=False)
class _Item:
    call: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]
    message_id: int | None = None
    content: frozenset[str] | None = None
    defer: bool = False
    retries: int = 0
    attempts: int = 0
    sending: bool = False
    asked: float = 0.0  # when its caller asked (the pacer's clock), for dorehami_pacing_wait_seconds
    sent: bool = False  # tried once already: its wait is counted
    hold: _Hold | None = None  # the place of the overall budget its caller holds (``Pacer.clear``)


class Shared(Protocol):
    """Budgets kept outside this process, shared with the bot's other workers (``bot/plumbing/shared_budgets.py``)."""

    async def take(self, chat: int | str) -> float:
        """Room for one new message to ``chat``: 0 when taken, else seconds to wait before asking again."""
        ...


@dataclass(eq=False)
class _Chat:
    key: int | str
    messages: Budget | None  # new messages and edits alike
    blocked_until: float = 0.0
    lanes: dict[Kind, deque[_Item]] = field(default_factory=lambda: {Kind.MESSAGE: deque(), Kind.EDIT: deque()})
    workers: dict[Kind, asyncio.Task[None]] = field(default_factory=dict)
    direct: set[Kind] = field(default_factory=set)  # lanes whose request is sent by its caller right now


def _window(limit: float, period: float) -> Window | None:
    return Window(int(limit), period) if limit > 0 and period > 0 else None


class Pacer:
    """Runs Bot API requests within the budgets (see the module's docstring)."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        shared: Shared | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.shared = shared
        self.clock = clock
        self.sleep = sleep
        self.overall = _window(self.limits.global_per_second, self.limits.global_window)
        self.chats: dict[int | str, _Chat] = {}
        self._sweep_at = SWEEP_AT
        self.refusals = 0  # 429s met, for logs and tests
        self.dropped = 0  # edits replaced by newer ones before they were sent

    # -- public

    async def request(
        self,
        endpoint: str,
        chat_id: object,
        message_id: object,
        call: Callable[[], Awaitable[Any]],
        retries: int | None = None,
    ) -> Any:
        """Run ``call`` (one Bot API request) when its budgets allow; see the module's docstring."""
        kind = kind_of(endpoint)
        key = _chat_key(chat_id)
        retries = self.limits.max_retries if retries is None else retries
        if kind is Kind.OTHER or key is None:
            return await self._direct(key, call, retries)
        chat = self._chat(key)
        item = _Item(
            call=call,
            future=asyncio.get_running_loop().create_future(),
            message_id=message_id if isinstance(message_id, int) else None,
            content=CONTENT.get(endpoint) if kind is Kind.EDIT else None,
            defer=_DEFER.get(),
            retries=retries,
            asked=self.clock(),
            hold=_HELD.get(),
        )
        wait = self._wait(chat, kind, item.hold)
        if item.defer and wait != 0:
            raise refusal(wait or POLL_SECONDS)
        if wait == 0 and not self._busy(chat, kind):
            await self._at_once(chat, kind, item)
        else:
            self._enqueue(chat, kind, item)
            if kind not in chat.direct:
                self._kick(chat, kind)
        return await item.future

    def queued(self, kind: Kind) -> int:
        """Requests waiting in this kind of lane, in every chat."""
        return sum(len(chat.lanes[kind]) for chat in self.chats.values())

    def export(self) -> None:
        """This pacer's lanes on ``/metrics`` (``dorehami_pacing_queued``), read at each scrape."""
        for kind in (Kind.MESSAGE, Kind.EDIT):
            PACING_QUEUED.labels(kind.value).set_function(functools.partial(self.queued, kind))

    async def clear(self, chat_id: object) -> None:
        """Wait until an edit in this chat could be sent at once (no 429 hold, room in its budgets), then hold
        a place of the overall budget for the caller's next request (in any chat) until it is sent or
        ``release``d, ``HOLD_SECONDS`` at most. Awaited directly, so the hold is in the caller's context."""
        key = _chat_key(chat_id)
        if key is None:
            return
        chat = self._chat(key)
        while (wait := self._wait(chat, Kind.EDIT, _HELD.get())) != 0:
            await self.sleep(POLL_SECONDS if wait is None else wait)
        held = _HELD.get()
        if self.overall is not None and (held is None or not held.valid(self.clock())):
            _HELD.set(self.overall.hold(self.clock()))

    def release(self) -> None:
        """Give back the place ``clear`` held for this caller, if no request took it."""
        held = _HELD.get()
        if held is not None and self.overall is not None:
            self.overall.unhold(held)
        _HELD.set(None)

    async def close(self) -> None:
        """Stop the lanes' workers; callers still waiting get ``CancelledError``."""
        workers = [w for chat in self.chats.values() for w in chat.workers.values() if not w.done()]
        for worker in workers:
            worker.cancel()
        for worker in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        for chat in self.chats.values():
            for lane in chat.lanes.values():
                for item in lane:
                    item.future.cancel()
                lane.clear()

    # -- lanes

    def _chat(self, key: int | str) -> _Chat:
        chat = self.chats.get(key)
        if chat is None:
            if len(self.chats) >= self._sweep_at:
                self._sweep()
                self._sweep_at = max(SWEEP_AT, 2 * len(self.chats))
            chat = self.chats[key] = _Chat(key, message_bucket(self.limits, key))
        return chat

    def _sweep(self) -> None:
        now = self.clock()
        for key, chat in list(self.chats.items()):
            windows = [w for w in (chat.messages,) if w is not None]
            if (
                not any(chat.lanes.values())
                and not chat.direct
                and all(w.done() for w in chat.workers.values())
                and chat.blocked_until <= now
                and all(w.idle(now) for w in windows)
            ):
                del self.chats[key]

    def _enqueue(self, chat: _Chat, kind: Kind, item: _Item) -> None:
        lane = chat.lanes[kind]
        if item.content is not None and item.message_id is not None:
            older = [
                i
                for i, other in enumerate(lane)
                if other.message_id == item.message_id
                and other.content is not None
                and other.content <= item.content
                and not other.sending
            ]
            if older:
                replaced = [lane[i] for i in older]
                lane[older[0]] = item  # the newest content takes the oldest waiting one's place
                for i in reversed(older[1:]):
                    del lane[i]
                for other in replaced:
                    self.dropped += 1
                    EDITS_MERGED.labels("pacer").inc()
                    if not other.future.done():
                        other.future.set_result(True)
                return
        lane.append(item)

    def _busy(self, chat: _Chat, kind: Kind) -> bool:
        """Whether a request of this lane is waiting or on its way."""
        worker = chat.workers.get(kind)
        return bool(chat.lanes[kind]) or kind in chat.direct or (worker is not None and not worker.done())

    async def _at_once(self, chat: _Chat, kind: Kind, item: _Item) -> None:
        """Nothing ahead and room now: send from the caller's own task, saving the hand-over to a worker.
        Requests arriving meanwhile queue behind it; refused (429), it goes back to the head of its lane."""
        chat.direct.add(kind)
        try:
            if not await self._attempt(chat, kind, item):
                chat.lanes[kind].appendleft(item)
        except BaseException:  # the caller was cancelled: its request may or may not have gone; never twice
            item.future.cancel()
            raise
        finally:
            chat.direct.discard(kind)
            if chat.lanes[kind]:
                self._kick(chat, kind)

    def _kick(self, chat: _Chat, kind: Kind) -> None:
        worker = chat.workers.get(kind)
        if worker is None or worker.done():
            chat.workers[kind] = asyncio.create_task(self._work(chat, kind))

    async def _work(self, chat: _Chat, kind: Kind) -> None:
        """Send the lane's requests one by one, each when its budgets allow."""
        lane = chat.lanes[kind]
        while lane:
            item = lane[0]
            if item.future.done():  # its caller gave up (cancelled)
                lane.popleft()
                continue
            wait = self._wait(chat, kind, item.hold)
            if wait != 0:
                if item.defer:
                    lane.popleft()
                    item.future.set_exception(refusal(wait or POLL_SECONDS))
                    continue
                await self.sleep(POLL_SECONDS if wait is None else wait)
                continue
            if await self._attempt(chat, kind, item) and lane and lane[0] is item:
                lane.popleft()

    async def _attempt(self, chat: _Chat, kind: Kind, item: _Item) -> bool:
        """Send ``item`` once; False if it was refused with a 429, or the shared budgets had no room, and it
        stays at the head to be sent again."""
        if self.shared is not None:
            try:
                wait = await self.shared.take(chat.key)
            except Exception as exc:  # Redis away for a moment: the local budgets still hold
                log.warning("shared budgets unavailable (%s); pacing by this worker's alone", exc)
                wait = 0.0
            if wait:
                if item.defer:
                    item.future.set_exception(refusal(wait))
                    return True
                await self.sleep(wait)
                return False
        windows = self._windows(chat, kind)
        if item.hold is not None and self.overall is not None:
            self.overall.unhold(item.hold)  # the place held for it is the one it takes now
        for window in windows:
            window.start()
        item.sending = True
        if not item.sent:
            item.sent = True
            PACING_WAIT.labels(kind.value).observe(max(0.0, self.clock() - item.asked))
        counted = True
        try:
            result = await item.call()
        except RetryAfter as exc:
            counted = False
            self._refused(chat, exc)
            item.attempts += 1
            if item.defer or item.attempts > item.retries:
                if not item.future.done():
                    item.future.set_exception(exc)
                return True
            return False
        except Exception as exc:  # the caller handles Telegram's other answers
            if not item.future.done():
                item.future.set_exception(exc)
            return True
        finally:
            item.sending = False
            now = self.clock()
            for window in windows:
                window.end(now, counted)
        if not item.future.done():
            item.future.set_result(result)
        return True

    # -- budgets

    def _windows(self, chat: _Chat, kind: Kind) -> list[Budget]:
        """The budgets a message or an edit counts against: the overall one and its chat's."""
        return [w for w in (self.overall, chat.messages) if w is not None]

    def _wait(self, chat: _Chat, kind: Kind, hold: _Hold | None = None) -> float | None:
        """0 if a request of ``kind`` may start now (with the place ``hold`` of the overall budget held for
        it), else seconds to wait (None: until one in flight ends)."""
        now = self.clock()
        longest = max(0.0, chat.blocked_until - now)
        for window in self._windows(chat, kind):
            wait = window.wait(now, hold) if isinstance(window, Window) else window.wait(now)
            if wait is None:
                return None
            longest = max(longest, wait)
        return longest

    def _refused(self, chat: _Chat | None, exc: RetryAfter) -> None:
        seconds = retry_seconds(exc)
        self.refusals += 1
        if chat is not None:
            chat.blocked_until = max(chat.blocked_until, self.clock() + seconds + RETRY_MARGIN)
        log.info("429: waiting %.1f s before the next request to that chat", seconds)

    async def _direct(self, key: int | str | None, call: Callable[[], Awaitable[Any]], retries: int) -> Any:
        """Requests that are not paced: sent now; a 429 is waited out and the request sent again."""
        attempts = 0
        while True:
            try:
                return await call()
            except RetryAfter as exc:
                attempts += 1
                self._refused(self.chats.get(key) if key is not None else None, exc)
                if attempts > retries:
                    raise
                await self.sleep(retry_seconds(exc) + RETRY_MARGIN)


def _chat_key(chat_id: object) -> int | str | None:
    """Telegram's chat ids: a user's are positive, groups' and channels' negative; ``@name`` is a channel."""
    if isinstance(chat_id, bool) or chat_id is None:
        return None
    if isinstance(chat_id, int):
        return chat_id
    if isinstance(chat_id, str):
        with contextlib.suppress(ValueError):
            return int(chat_id)
        return chat_id
    return None
