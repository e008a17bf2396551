"""The chat's drawer: moves never wait for the board under the lock, only the newest version is drawn, a
refused edit is retried after the lock was let go, a finished game is drawn then announced by the drawer, and a
menu level that must wait is shown by the drawer unless the game moved on."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import REGISTRY
from telegram.error import RetryAfter

from bot.config import Settings
from bot.flow import redraw, results
from bot.messages import board, hands, notices
from bot.plumbing import pacing
from bot.plumbing.services import Services
from bot.plumbing.store import GameRecord, LiveMessage, Player, chat_tag

CHAT = -42
TAG = chat_tag(CHAT, None)


@pytest.fixture(autouse=True)
def _timedelta_durations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as bot/cli.py sets it


class FakeStore:
    def __init__(self) -> None:
        self.record: GameRecord | None = None
        self.live: LiveMessage | None = LiveMessage(1, 0)

    async def load(self, chat_id: int, thread_id: int | None = None) -> GameRecord | None:
        return self.record.model_copy() if self.record else None

    async def live_message(self, chat_id: int, thread_id: int | None) -> LiveMessage | None:
        return self.live


class Screen:
    """Stands in for Telegram: what was drawn and announced, in order; refuses board edits when told to."""

    def __init__(self, store: FakeStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.store = store
        self.events: list[str] = []
        self.refuse_boards = 0
        self.refuse_results = 0
        self.refuse_menus = 0
        self.deferred: list[bool] = []
        self.followed: list[str] = []  # the versions turn notices followed, once each was drawn
        self.refused = asyncio.Event()
        monkeypatch.setattr(board, "refresh", self.refresh)
        monkeypatch.setattr(results, "announce_result", self.announce)
        monkeypatch.setattr(board, "load_state", lambda record: record.state)
        monkeypatch.setattr(hands, "refresh_hands", self.hands)
        monkeypatch.setattr(hands, "send_hand", self.hand)
        monkeypatch.setattr(board, "show_menu", self.menu)
        monkeypatch.setattr(board, "picture", self.picture)
        monkeypatch.setattr(hands, "hands_behind", self.behind)
        monkeypatch.setattr(notices, "follow", self.follow)

    def follow(self, context: Any, record: GameRecord) -> None:
        held = context.bot_data["services"].locks._locks.get(TAG)
        locked = held is not None and held[0].locked()
        self.followed.append(f"notices v{record.version}{' under the lock' if locked else ''}")

    async def picture(self, record: GameRecord, state: Any, prefix: str = "") -> tuple[bytes, str]:
        self.events.append(f"rendered v{record.version}")  # before the lock: a press need not wait for it
        return b"", "board.png"

    async def behind(self, context: Any, record: GameRecord, state: Any) -> list[int]:
        return []

    async def refresh(self, context: Any, record: GameRecord, state: Any) -> None:
        await asyncio.sleep(0.001)  # rendering and the request take a moment
        self.deferred.append(pacing._DEFER.get())
        if self.refuse_boards:
            self.refuse_boards -= 1
            self.events.append(f"refused v{record.version}")
            self.refused.set()
            raise RetryAfter(timedelta(seconds=0.05))
        self.events.append(f"board v{record.version}")
        self.store.live = LiveMessage(1, record.version)

    async def announce(self, context: Any, record: GameRecord, state: Any) -> None:
        self.deferred.append(pacing._DEFER.get())
        if self.refuse_results:
            self.refuse_results -= 1
            self.events.append(f"refused result v{record.version}")
            raise RetryAfter(timedelta(seconds=0.05))
        self.events.append(f"result v{record.version}")

    async def menu(self, context: Any, record: GameRecord, state: Any, prefix: str) -> None:
        self.deferred.append(pacing._DEFER.get())
        if self.refuse_menus:
            self.refuse_menus -= 1
            self.events.append(f"refused menu {prefix} v{record.version}")
            raise RetryAfter(timedelta(seconds=0.05))
        self.events.append(f"menu {prefix} v{record.version}")

    async def hands(self, context: Any, record: GameRecord, state: Any) -> None:
        self.events.append(f"hands v{record.version}")

    async def hand(self, context: Any, record: GameRecord, state: Any, seat: int, *, again: bool = False) -> None:
        self.events.append(f"hand {seat} v{record.version}")


@pytest.fixture
def store() -> FakeStore:
    return FakeStore()


@pytest.fixture
def screen(store: FakeStore, monkeypatch: pytest.MonkeyPatch) -> Screen:
    return Screen(store, monkeypatch)


@pytest.fixture
def context(store: FakeStore) -> Any:
    svc = Services(store=store, settings=Settings(), deadlines=None)  # type: ignore[arg-type]
    return SimpleNamespace(
        bot=SimpleNamespace(rate_limiter=None), bot_data={"services": svc}, application=SimpleNamespace(running=False)
    )


def move(store: FakeStore, version: int, phase: str = "playing", game_id: str = "coin_age") -> GameRecord:
    """What a move commits: the stored record at its new version."""
    players = [Player(user_id=1, name="a"), Player(user_id=2, name="b")]
    store.record = GameRecord(
        chat_id=CHAT, game_id=game_id, phase=phase, version=version, creator=players[0], players=players, state={}
    )  # type: ignore[arg-type]
    return store.record


async def settle(context: Any) -> None:
    while redraw.drawers(context).tasks:
        await asyncio.gather(*redraw.drawers(context).tasks)


async def test_moves_faster_than_the_board_draw_only_the_newest(context: Any, store: FakeStore, screen: Screen) -> None:
    locks = context.bot_data["services"].locks
    merged = REGISTRY.get_sample_value("dorehami_edits_merged_total", {"by": "drawer"}) or 0.0
    for version in range(1, 6):
        async with locks.hold(TAG):  # each move holds the lock only for its own work
            record = move(store, version)
            await redraw.redraw(context, record)
            assert screen.events == []  # the caller does not wait for the picture
    await settle(context)
    assert screen.events == ["rendered v5", "board v5"]
    assert screen.followed == ["notices v5"]  # whose turn began is told once the board is out, the lock let go
    assert screen.deferred == [True]
    assert REGISTRY.get_sample_value("dorehami_edits_merged_total", {"by": "drawer"}) == merged + 4  # v1 to v4


async def test_a_refused_board_is_drawn_again_with_what_is_newest_then(
    context: Any, store: FakeStore, screen: Screen
) -> None:
    locks = context.bot_data["services"].locks
    screen.refuse_boards = 1
    async with locks.hold(TAG):
        record = move(store, 2)
        await redraw.redraw(context, record)
    await screen.refused.wait()
    async with locks.hold(TAG):  # the drawer let the lock go while it waits out the 429
        record = move(store, 3)
        await redraw.redraw(context, record)
    await settle(context)
    assert screen.events == ["rendered v2", "refused v2", "rendered v3", "board v3"]


async def test_private_hands_are_drawn_while_the_group_is_held(context: Any, store: FakeStore, screen: Screen) -> None:
    screen.refuse_boards = 1
    record = move(store, 4, game_id="condottiere")
    await redraw.redraw(context, record)
    await settle(context)
    assert [e for e in screen.events if not e.startswith("rendered")] == [
        "refused v4",
        *("hand 0 v4", "hand 1 v4"),
        "board v4",
        *("hand 0 v4", "hand 1 v4"),
    ]


async def test_a_finished_game_is_drawn_then_announced_by_the_drawer_outside_the_lock(
    context: Any, store: FakeStore, screen: Screen
) -> None:
    locks = context.bot_data["services"].locks
    screen.refuse_results = 1
    async with locks.hold(TAG):
        record = move(store, 7)
        await redraw.redraw(context, record)
        record = move(store, 8, phase="finished")
        await redraw.redraw(context, record)
        assert screen.events == []  # nothing is drawn, nor waited for, under the move's lock
    await settle(context)
    # v7 was overtaken: never drawn; the refused result is sent again, the board is not drawn twice
    assert screen.events == ["rendered v8", "board v8", "refused result v8", "result v8"]
    assert screen.followed == ["notices v8"]  # the game is over: every notice is taken back, once it is all out
    assert set(screen.deferred) == {True}


async def test_a_menu_that_must_wait_is_shown_by_the_drawer_unless_the_game_moved_on(
    context: Any, store: FakeStore, screen: Screen
) -> None:
    locks = context.bot_data["services"].locks
    record = move(store, 3)
    store.live = LiveMessage(1, 3)
    screen.refuse_menus = 1
    async with locks.hold(TAG):  # the press holds the lock: the menu is tried once, deferred
        await redraw.open_menu(context, record, {}, "m.1")
    await settle(context)
    assert screen.events == ["refused menu m.1 v3", "menu m.1 v3"]

    screen.events.clear()
    screen.refuse_menus = 1
    async with locks.hold(TAG):
        await redraw.open_menu(context, record, {}, "m.2")
        record = move(store, 4)  # a move before the drawer could show the menu
        await redraw.redraw(context, record)
    await settle(context)
    assert screen.events == ["refused menu m.2 v3", "rendered v4", "board v4"]  # the old version's menu is not shown
    assert set(screen.deferred) == {True}


async def test_a_menu_shown_at_once_is_not_overtaken_by_an_older_one_still_waiting(
    context: Any, store: FakeStore, screen: Screen
) -> None:
    locks = context.bot_data["services"].locks
    record = move(store, 3)
    store.live = LiveMessage(1, 3)
    screen.refuse_menus = 1
    async with locks.hold(TAG):
        await redraw.open_menu(context, record, {}, "m.1")  # must wait: noted in the drawer
        await redraw.open_menu(context, record, {}, "m.2")  # the budget has room again: shown at once
    await settle(context)
    assert screen.events == ["refused menu m.1 v3", "menu m.2 v3"]  # m.1 never comes after m.2
