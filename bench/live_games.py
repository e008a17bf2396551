"""Many games at once through the sandbox, for the benchmarks: tables set up concurrently, random players who
think before they press, and the sandbox's call log followed to time each press until its board is redrawn.

Imported by ``press_latency.py`` and ``scale_games.py`` (run from the checkout: ``python bench/<name>.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from bot.dev.simulate import (
    Table,
    board_of,
    button,
    buttons,
    choose,
    finished,
    lobby_of,
    player_to_act,
    seat,
    start_on_screen,
    until,
)
from bot.messages import texts
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.pacing import Kind, kind_of
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

BOARD_CHANGES = {"editMessageMedia", "editMessageReplyMarkup", "editMessageCaption", "sendPhoto"}


@dataclass
class LogWatcher:
    """Follows the sandbox's call log: when each chat's board changed (waking the game that waits for it),
    and every new message, edit and 429, for the figures at the end."""

    client: ControlClient
    board_changes: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    messages: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    edits: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    refused: int = 0
    after: int = 0
    _waiters: dict[int, asyncio.Event] = field(default_factory=lambda: defaultdict(asyncio.Event))
    shown: dict[int, int] = field(default_factory=lambda: defaultdict(int))  # messages and edits per chat
    _pulse: asyncio.Event = field(default_factory=asyncio.Event)

    async def start_here(self) -> None:
        """Ignore what is already in the log."""
        self.after = (await self.client.log(after=self.after))["next"]

    async def run(self) -> None:
        while True:
            page = await self.client.log(after=self.after, wait=1.0)
            self.after = page["next"]
            for item in page["items"]:
                self.note(item)

    def note(self, item: dict[str, Any]) -> None:
        chat, method = item["chat_id"], item["method"]
        if item["status"] == 429:
            self.refused += 1
        if item["status"] != 200 or chat is None:
            return
        if kind_of(method) is Kind.MESSAGE:
            self.messages[chat].append(item["t"])
        elif kind_of(method) is Kind.EDIT:
            self.edits[chat].append(item["t"])
        if kind_of(method) is not Kind.OTHER:
            self.shown[chat] += 1
            self._pulse.set()
            self._pulse = asyncio.Event()
        if method in BOARD_CHANGES:
            self.board_changes[chat].append(item["t"])
            self._waiters[chat].set()

    def seen(self, chats: list[int]) -> int:
        """How many messages and edits the bot made in ``chats`` so far (for ``changed_since``)."""
        return sum(self.shown[chat] for chat in chats)

    async def changed_since(self, chats: list[int], seen: int, timeout: float) -> None:
        """Until the bot sent or edited anything more in ``chats`` than ``seen`` (or ``timeout`` passed)."""
        deadline = time.monotonic() + timeout
        while self.seen(chats) == seen and (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._pulse.wait(), left)

    async def next_change(self, chat_id: int, since: float, timeout: float = 60) -> float:
        """When the chat's board was next edited (or re-sent) at or after ``since``."""
        deadline = time.monotonic() + timeout
        while True:
            later = [t for t in self.board_changes[chat_id] if t >= since]
            if later:
                return later[0]
            event = self._waiters[chat_id]
            event.clear()
            await asyncio.wait_for(event.wait(), max(0.01, deadline - time.monotonic()))


async def set_up(
    client: ControlClient,
    games: list[str],
    store: Store | None = None,
    turn_seconds: int | None = None,
    at_once: int = 25,
) -> list[Table]:
    """One table per entry of ``games``, each with that game started; ``turn_seconds`` sets the groups' turn
    timer (through the store, as /settings would) before the game starts."""
    gate = asyncio.Semaphore(at_once)

    async def one(n: int, game: str) -> Table:
        async with gate:
            t = await seat(client, n, "bench")
            if store is not None and turn_seconds is not None:
                await store.set_group_settings(t.chat_id, GroupSettings(turn_seconds=turn_seconds))
            await start_on_screen(client, t, game)
            return t

    return list(await asyncio.gather(*(one(n, game) for n, game in enumerate(games))))


@dataclass
class Played:
    """One table's presses: each one's latency until its board changed, how many found the board moved on
    by a turn timer (and did nothing), and how many were taken but never redrawn (must be none)."""

    latencies: list[float] = field(default_factory=list)
    stale: int = 0
    never_redrawn: int = 0


async def play(client: ControlClient, watcher: LogWatcher, t: Table, moves: int, think: float, seed: int) -> Played:
    """A random player at the table's board for ``moves`` presses."""
    rng = random.Random(seed)
    played = Played()
    board = board_of(await client.messages(t.chat_id))
    for _ in range(moves):
        if finished(board) or not buttons(board):
            break
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
            board = board_of(await client.messages(t.chat_id))  # a timer may have moved it meanwhile
            if finished(board) or not buttons(board):
                break
        player = player_to_act(t, board)
        data = choose(board, rng)
        pressed = time.monotonic()
        try:
            answer = await client.press(t.chat_id, board["message_id"], player["id"], data)
        except RuntimeError:  # the board changed between the look and the press
            answer = {"text": texts.STALE}
        if answer["text"]:  # stale: a time-out moved the game on just before
            played.stale += 1
        else:
            try:
                played.latencies.append(await watcher.next_change(t.chat_id, pressed) - pressed)
            except TimeoutError:
                played.never_redrawn += 1
        board = board_of(await client.messages(t.chat_id))
    return played


@contextlib.asynccontextmanager
async def following(client: ControlClient) -> AsyncIterator[LogWatcher]:
    """A watcher of the sandbox's call log from now on, read in the background until the block ends."""
    watcher = LogWatcher(client)
    await watcher.start_here()
    follower = asyncio.create_task(watcher.run())
    try:
        yield watcher
    finally:
        follower.cancel()


async def play_all(
    client: ControlClient, watcher: LogWatcher, tables: list[Table], moves: int, think: float
) -> tuple[list[Played], float]:
    """Every table played at once by its random player; the results and the seconds they took."""
    started = time.monotonic()
    results = await asyncio.gather(*(play(client, watcher, t, moves, think, i) for i, t in enumerate(tables)))
    return list(results), time.monotonic() - started


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile, in milliseconds."""
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000


# Games against computer players, kept busy while other games are measured -----------------------------------


async def set_up_against_computers(
    client: ControlClient, count: int, game: str, level: str, at_once: int = 25
) -> list[Table]:
    """``count`` groups of one person against a computer player of ``level``, each game started by buttons as
    a person would: /new, «➕ بازیکن رایانه‌ای», the level, «شروع»."""
    gate = asyncio.Semaphore(at_once)

    def lobby_with_computer(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        lobby = lobby_of(messages)
        return lobby if lobby is not None and texts.COMPUTER_MARK in (lobby["text"] or "") else None

    async def one(n: int) -> Table:
        async with gate:
            t = await seat(client, n, "cbench", names=("نفر", "ناظر", "گروه رایانه"), players=1)
            host = t.players[0]
            await client.send(t.chat_id, host["id"], f"/new {game}")
            lobby = await until(client, t.chat_id, lobby_of)
            await client.press(t.chat_id, lobby["message_id"], host["id"], button(lobby, ":add")["data"])
            levels = await until(
                client,
                t.chat_id,
                lambda ms: next(
                    (m for m in ms if any(b.get("data", "").endswith(f":add:{level}") for b in buttons(m))), None
                ),
            )
            await client.press(t.chat_id, levels["message_id"], host["id"], button(levels, f":add:{level}")["data"])
            lobby = await until(client, t.chat_id, lobby_with_computer)
            await client.press(t.chat_id, lobby["message_id"], host["id"], button(lobby, ":start")["data"])
            await until(client, t.chat_id, lambda ms: [m for m in ms if m["from_bot"] and m.get("photo")])
            return t

    return list(await asyncio.gather(*(one(10_000 + n) for n in range(count))))


# the caption's turn line names a computer (its name isolated for bidi: the marks are taken out first)
COMPUTER_TO_MOVE = "👈 نوبت " + texts.COMPUTER_NAME.split("{", 1)[0]


def _offers(message: dict[str, Any], level: str) -> bool:
    """The lobby shows the computer players' levels."""
    return any(b.get("data", "").endswith(f":add:{level}") for b in buttons(message))


@dataclass
class AgainstComputer:
    """One game against a computer player: its moves made, and how long each took from the person's press
    until the person could move again (the group's pause, the wait for the thinking pool, the search)."""

    computer_moves: int = 0
    turn_seconds: list[float] = field(default_factory=list)


async def keep_playing(
    client: ControlClient, watcher: LogWatcher, t: Table, think: float, seed: int, stop: asyncio.Event
) -> AgainstComputer:
    """The person of a game against a computer player, pressing whenever it is their turn, until ``stop``."""
    rng = random.Random(seed)
    played = AgainstComputer()
    pressed = time.monotonic()
    computer_since: float | None = None  # when the computer's turn began (the press that handed it over)
    while not stop.is_set():
        since = time.monotonic()
        board = board_of(await client.messages(t.chat_id))
        if finished(board):
            break
        if COMPUTER_TO_MOVE in (board["caption"] or "").replace("\u2068", ""):
            computer_since = computer_since or pressed
        else:
            if computer_since is not None:
                played.computer_moves += 1
                played.turn_seconds.append(since - computer_since)
                computer_since = None
            if any(b.get("data", "").startswith(("g:", "n:")) for b in buttons(board)):
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
                with contextlib.suppress(RuntimeError):  # the board changed under the finger: look again
                    await client.press(t.chat_id, board["message_id"], t.players[0]["id"], choose(board, rng))
                pressed = since = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await watcher.next_change(t.chat_id, since, timeout=60)  # looks again only when the board changed
    return played
