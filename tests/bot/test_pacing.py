"""The pacer on a fake clock, against the sandbox's own model of Telegram's limits: budgets kept, order kept,
429s waited out in place, and waiting edits of one message coalesced."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from prometheus_client import REGISTRY
from telegram.error import RetryAfter

from bot.dev.harness import scaled_pacing
from bot.plumbing import pacing
from bot.plumbing.pacing import Kind, Limits, Pacer, deferring, kind_of, retry_seconds
from sandbox import clock as sandbox_clock
from sandbox import ratelimit as sandbox_limits
from sandbox.errors import ApiError

T = TypeVar("T")
GROUP, OTHER_GROUP, USER = -100, -200, 7


@pytest.fixture(autouse=True)
def _timedelta_durations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as bot/cli.py sets it


class FakeClock:
    """Time stands still until every task is waiting; then it jumps to the earliest sleeper's deadline."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(0.0, delay), next(self._order), future))
        await future

    async def run(self, awaitable: Awaitable[T]) -> T:
        task = asyncio.ensure_future(awaitable)
        while True:
            for _ in range(50):
                await asyncio.sleep(0)
            if task.done():
                return task.result()
            assert self._sleepers, "everything waits and nobody sleeps: a deadlock"
            self.now = max(self.now, self._sleepers[0][0])
            while self._sleepers and self._sleepers[0][0] <= self.now:
                future = heapq.heappop(self._sleepers)[2]
                if not future.done():
                    future.set_result(None)


class FakeTelegram:
    """Answers requests, refusing what the sandbox's limiter refuses (on the same fake clock), or what a
    test scripts; remembers what it accepted and when."""

    def __init__(self, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, scale: float = 1.0, **config: Any) -> None:
        monkeypatch.setattr(sandbox_clock.time, "monotonic", clock)
        self.clock = clock
        self.limits = sandbox_limits.RateLimiter(
            sandbox_limits.RateLimitConfig(**config), sandbox_clock.TelegramClock(scale)
        )
        self.accepted: list[tuple[float, str, int, Any]] = []
        self.refused: list[tuple[float, str, int, Any]] = []
        self.refuse_next: dict[tuple[str, int], int] = {}  # (endpoint, chat) -> retry_after, once

    def call(self, endpoint: str, chat_id: int, payload: Any) -> Callable[[], Awaitable[Any]]:
        async def send() -> Any:
            await asyncio.sleep(0)  # a round trip that takes no time
            scripted = self.refuse_next.pop((endpoint, chat_id), None)
            try:
                if scripted is not None:
                    raise ApiError(429, "Too Many Requests", retry_after=scripted)
                if kind_of(endpoint) is Kind.MESSAGE:
                    self.limits.check_send(chat_id, chat_id > 0)
                elif kind_of(endpoint) is Kind.EDIT:
                    self.limits.check_edit(chat_id)
            except ApiError as error:
                self.refused.append((self.clock.now, endpoint, chat_id, payload))
                raise RetryAfter(timedelta(seconds=error.retry_after or 1)) from None
            self.accepted.append((self.clock.now, endpoint, chat_id, payload))
            return {"ok": payload}

        return send

    def sent(self, chat_id: int) -> list[Any]:
        return [payload for _, _, chat, payload in self.accepted if chat == chat_id]

    def times(self, chat_id: int) -> list[float]:
        return [t - 1000.0 for t, _, chat, _ in self.accepted if chat == chat_id]


def pacer(clock: FakeClock, **limits: Any) -> Pacer:
    return Pacer(Limits(**limits), clock=clock, sleep=clock.sleep)


def send(p: Pacer, tg: FakeTelegram, chat_id: int, payload: Any, endpoint: str = "sendMessage") -> Awaitable[Any]:
    return p.request(endpoint, chat_id, None, tg.call(endpoint, chat_id, payload))


def edit(p: Pacer, tg: FakeTelegram, chat_id: int, message_id: int, payload: Any, endpoint: str) -> Awaitable[Any]:
    return p.request(endpoint, chat_id, message_id, tg.call(endpoint, chat_id, payload))


def test_what_counts_as_a_message() -> None:
    assert kind_of("sendPhoto") is kind_of("copyMessage") is kind_of("forwardMessages") is Kind.MESSAGE
    assert kind_of("editMessageMedia") is kind_of("editMessageReplyMarkup") is Kind.EDIT
    assert kind_of("answerCallbackQuery") is kind_of("sendChatAction") is kind_of("getChatMember") is Kind.OTHER


async def test_a_group_gets_five_at_once_then_one_every_four_seconds_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Never 21 in a minute (the sandbox would refuse it), and never a minute's wait either."""
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)
    results = await clock.run(asyncio.gather(*(send(p, tg, GROUP, n) for n in range(25))))
    assert results == [{"ok": n} for n in range(25)]
    assert tg.sent(GROUP) == list(range(25)) and not tg.refused
    assert tg.times(GROUP) == [0.0] * 5 + [4.0 * k for k in range(1, 21)]


async def test_a_private_chat_gets_bursts_of_three_then_one_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)
    await clock.run(asyncio.gather(*(send(p, tg, USER, n) for n in range(7))))
    assert tg.sent(USER) == list(range(7)) and not tg.refused
    assert tg.times(USER) == [0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]


async def test_thirty_messages_a_second_across_chats(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)
    await clock.run(asyncio.gather(*(send(p, tg, USER + n, n) for n in range(75))))
    assert not tg.refused and len(tg.accepted) == 75
    seconds = [int(t - 1000.0) for t, *_ in tg.accepted]
    assert [seconds.count(s) for s in range(3)] == [30, 30, 15]


async def test_answers_go_at_once_while_edits_are_paced(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)
    edits = [edit(p, tg, GROUP, n, n, "editMessageMedia") for n in range(10)]
    answers = [p.request("answerCallbackQuery", None, None, tg.call("answerCallbackQuery", 0, n)) for n in range(40)]
    await clock.run(asyncio.gather(*edits, *answers))
    assert not tg.refused and tg.times(0) == [0.0] * 40
    assert tg.times(GROUP) == [0.0] * 5 + [4.0 * k for k in range(1, 6)]


async def test_edits_share_the_messages_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """As Telegram's developers describe it (and the sandbox counts it): 20 a minute in a group in all.
    Edits of different messages: none replaces another."""
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)
    edits = [edit(p, tg, GROUP, n, n, "editMessageCaption") for n in range(24)]
    await clock.run(asyncio.gather(send(p, tg, GROUP, "a"), *edits, send(p, tg, GROUP, "b")))
    assert not tg.refused and len(tg.accepted) == 26
    assert [round(t) for t in tg.times(GROUP)] == [0] * 5 + [4 * k for k in range(1, 22)]


async def test_a_429_holds_only_its_chat_and_the_request_is_sent_again_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    tg.refuse_next[("sendMessage", GROUP)] = 5
    p = pacer(clock)
    here = [send(p, tg, GROUP, n) for n in range(3)]
    there = [send(p, tg, OTHER_GROUP, n) for n in range(3)]
    results = await clock.run(asyncio.gather(*here, *there))
    assert results == [{"ok": n} for n in range(3)] * 2
    assert tg.sent(GROUP) == [0, 1, 2] and len(tg.refused) == 1
    assert all(5.0 <= t < 5.5 for t in tg.times(GROUP)) and tg.times(OTHER_GROUP) == [0.0] * 3
    assert p.refusals == 1


async def test_edits_waiting_for_one_message_are_coalesced_and_messages_keep_their_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A group over its budget: its first board edit is refused; while it waits, newer boards arrive.
    Only the newest is sent; the replaced callers get True at once; new messages all go, in order."""
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    tg.refuse_next[("editMessageMedia", GROUP)] = 5
    p = pacer(clock)
    merged = REGISTRY.get_sample_value("dorehami_edits_merged_total", {"by": "pacer"}) or 0.0
    returned: dict[str, tuple[float, Any]] = {}

    async def track(name: str, awaitable: Awaitable[Any]) -> None:
        result = await awaitable
        returned[name] = (clock.now - 1000.0, result)

    async def scenario() -> None:
        first = asyncio.create_task(track("board v1", edit(p, tg, GROUP, 10, "v1", "editMessageMedia")))
        await clock.sleep(1)  # v1 was refused and waits at the head of the chat's edit lane
        later = [
            track("board v2", edit(p, tg, GROUP, 10, "v2", "editMessageMedia")),
            track("menu", edit(p, tg, GROUP, 10, "menu", "editMessageReplyMarkup")),  # sets less: kept
            track("board v3", edit(p, tg, GROUP, 10, "v3", "editMessageMedia")),  # replaces v2 and the menu
            track("other message", edit(p, tg, GROUP, 11, "old board", "editMessageReplyMarkup")),
            track("result", send(p, tg, GROUP, "result")),
            track("reminder", send(p, tg, GROUP, "reminder")),
        ]
        await asyncio.gather(first, *later)

    await clock.run(scenario())
    edits = [payload for _, endpoint, _, payload in tg.accepted if endpoint.startswith("edit")]
    assert edits == ["v3", "old board"] and len(tg.accepted) == 4
    assert [payload for _, endpoint, _, payload in tg.accepted if endpoint == "sendMessage"] == ["result", "reminder"]
    assert [payload for *_, payload in tg.refused] == ["v1"]
    for replaced in ("board v1", "board v2", "menu"):
        assert returned[replaced][1] is True
    assert returned["board v2"][0] == 1.0 and returned["menu"][0] == 1.0  # replaced callers do not wait
    assert returned["board v3"][1] == {"ok": "v3"} and returned["board v3"][0] >= 5.0
    assert p.dropped == 3
    assert REGISTRY.get_sample_value("dorehami_edits_merged_total", {"by": "pacer"}) == merged + 3


async def test_a_newer_edit_that_sets_less_goes_after_the_older(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    tg.refuse_next[("editMessageText", GROUP)] = 2
    p = pacer(clock)

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(edit(p, tg, GROUP, 3, "text v1", "editMessageText"))
        await clock.sleep(1)
        return list(await asyncio.gather(first, edit(p, tg, GROUP, 3, "buttons", "editMessageReplyMarkup")))

    assert await clock.run(scenario()) == [{"ok": "text v1"}, {"ok": "buttons"}]
    assert tg.sent(GROUP) == ["text v1", "buttons"]


async def test_a_deferred_edit_fails_at_once_while_its_chat_is_held(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    tg.refuse_next[("sendMessage", GROUP)] = 4
    p = pacer(clock)

    async def scenario() -> float:
        message = asyncio.ensure_future(send(p, tg, GROUP, "news"))
        await clock.sleep(1)
        with deferring(), pytest.raises(RetryAfter) as refused:
            await edit(p, tg, GROUP, 5, "board", "editMessageMedia")
        assert clock.now == 1001.0  # no waiting under the caller's lock
        await message
        return retry_seconds(refused.value)

    assert 2.9 < await clock.run(scenario()) <= 3.1
    await clock.run(edit(p, tg, GROUP, 5, "board", "editMessageMedia"))  # outside: it simply goes
    assert tg.sent(GROUP) == ["news", "board"]


async def test_a_caller_that_cleared_its_chat_keeps_its_place_while_lanes_wait_in_a_full_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A drawer clears its chat outside its lock, then reads and draws before it sends, deferred: meanwhile
    the lanes waiting in a full overall budget would take each place that comes free, and put its board off
    again and again (seen at the ceiling: a drawer gave up after 51 refusals). The place it cleared is held for
    its next request, in whatever chat, and never lets more through than the budget."""
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch, global_per_second=2)
    p = pacer(clock, global_per_second=2)
    deferred = 0

    async def drawer(chat_id: int, payload: str) -> None:
        nonlocal deferred
        while True:
            await p.clear(GROUP)
            try:
                await clock.sleep(0.3)  # the record read and the board drawn
                with deferring():
                    await edit(p, tg, chat_id, 5, payload, "editMessageMedia")
                return
            except RetryAfter:
                deferred += 1
            finally:
                p.release()

    async def others() -> None:  # other chats ask as fast as the overall budget lets them through
        asked = []
        for n in range(1, 25):
            asked.append(asyncio.ensure_future(send(p, tg, USER + n, n)))
            await clock.sleep(0.5)
        await asyncio.gather(*asked)

    async def scenario() -> None:
        crowd = asyncio.ensure_future(others())
        await clock.sleep(0.25)
        await drawer(GROUP, "board")  # the chat it cleared
        await drawer(USER, "hand")  # another chat: the place is the caller's, not the chat's
        await crowd

    await clock.run(scenario())
    assert deferred == 0 and not tg.refused  # the sandbox refuses a third request in any second
    assert tg.sent(GROUP) == ["board"] and tg.sent(USER) == ["hand"]
    assert p.overall is not None and not p.overall.held  # every place held was taken or given back


async def test_a_deferred_edit_refused_by_telegram_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    tg.refuse_next[("editMessageMedia", GROUP)] = 3
    p = pacer(clock)

    async def scenario() -> None:
        with deferring(), pytest.raises(RetryAfter):
            await edit(p, tg, GROUP, 5, "board", "editMessageMedia")

    await clock.run(scenario())
    assert clock.now == 1000.0 and not tg.accepted


async def test_retries_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    p = pacer(clock, max_retries=2)
    calls = 0

    async def always_refused() -> Any:
        nonlocal calls
        calls += 1
        raise RetryAfter(timedelta(seconds=1))

    with pytest.raises(RetryAfter):
        await clock.run(p.request("sendMessage", GROUP, None, always_refused))
    with pytest.raises(RetryAfter):
        await clock.run(p.request("answerCallbackQuery", None, None, always_refused))
    assert calls == 6


async def test_other_errors_reach_the_caller_and_the_lane_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)

    async def broken() -> Any:
        raise ValueError("bad request")

    async def scenario() -> list[Any]:
        return list(
            await asyncio.gather(
                p.request("sendMessage", GROUP, None, broken), send(p, tg, GROUP, "next"), return_exceptions=True
            )
        )

    first, second = await clock.run(scenario())
    assert isinstance(first, ValueError) and second == {"ok": "next"}


async def test_idle_chats_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pacing, "SWEEP_AT", 4)
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch)
    p = pacer(clock)
    await clock.run(asyncio.gather(*(send(p, tg, chat, chat) for chat in (1, 2, -3, -4))))
    clock.now += 61  # every window has emptied
    await clock.run(send(p, tg, 5, "news"))
    assert set(p.chats) == {5}


async def test_scaled_budgets_against_a_scaled_sandbox_keep_the_real_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The e2e tests' set-up (bot/dev/harness.py: scaled_pacing): the sandbox's Telegram clock 20 times as
    fast, the bot's windows 20 times as short: the same sends and edits at a twentieth of the times."""
    clock = FakeClock()
    tg = FakeTelegram(clock, monkeypatch, scale=0.05)
    p = pacer(clock, **{key.removeprefix("PACE_").lower(): value for key, value in scaled_pacing(0.05).items()})
    group = [edit(p, tg, GROUP, n, n, "editMessageMedia") for n in range(12)]
    private = [send(p, tg, USER, n) for n in range(6)]
    await clock.run(asyncio.gather(*group, *private))
    assert not tg.refused
    assert tg.times(GROUP) == pytest.approx([0.0] * 5 + [0.2 * k for k in range(1, 8)])
    assert tg.times(USER) == pytest.approx([0.0] * 3 + [0.05, 0.1, 0.15])
