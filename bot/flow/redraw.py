"""After a change: the lobby message or the group's board, every player's private message, the result if the
game ended, and menu levels a player opened; all drawn by the chat's drawer, never waiting for a budget
under the chat's lock.

Telegram counts edits against the same per-chat budget as new messages (about 20 a minute in a group, one a
second in a private chat), so a move must not wait for that budget while it holds the chat's lock, and a
group that plays faster than its budget should see its newest board rather than every board in between. So
``redraw`` only notes the version to draw and returns; the chat's drawer (one task per chat) waits outside
the lock until the chat may be written to, then takes the lock and draws the newest version there is, and
goes round again while newer ones arrive. Versions overtaken meanwhile are never rendered nor sent, and
nobody waits for them. Inside the lock every send and edit is deferred (``pacing.deferring``): one that
would have to wait fails at once, unsent, and the drawer lets the lock go, waits, and draws what is newest by
then; the private messages are still drawn, so a game played there goes on.

A finished game is drawn the same way, board and hands first, then the result (a new message, so it comes
after the last board), and the game is retired. Once a version is drawn, the players whose turn began are told
(``bot/messages/notices.py``, in a task of its own). A menu level (``open_menu``) is shown at once when the
chat's budget has room, else noted in the drawer, which shows it when it can if the game has not moved on.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import ContextTypes

from bot.flow import results
from bot.flow.topics import is_topic_closed, stand_still, tell_general
from bot.games import PRESENTERS
from bot.messages import board, hands, notices, pictures
from bot.messages.lobby_message import show_lobby, show_lobby_menu
from bot.plumbing import activity, logs
from bot.plumbing.figures import EDITS_MERGED
from bot.plumbing.outage import STORE_DOWN, outage
from bot.plumbing.pacing import deferring, retry_seconds
from bot.plumbing.ratelimit import pacer_of
from bot.plumbing.services import parse_tag, services
from bot.plumbing.stop_points import stop_point
from bot.plumbing.store import GameRecord, chat_tag
from bot.plumbing.telegram_outage import out_of_reach, telegram_reach

log = logging.getLogger(__name__)

DRAWERS = "drawers"
MAX_REFUSALS = 50  # 429s in a row before a drawer gives up (a stale press or a restart redraws the chat)
DRAWN_PHASES = ("lobby", "playing", "finished", "cancelled")  # a cancelled lobby has nothing to draw: no state

Menu = tuple[int, str]  # the version it was opened on, and the menu's prefix


async def redraw(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, *, again: bool = False) -> None:
    """Bring the chat's messages up to ``record``, soon, by the chat's drawer (a finished game's result too, if
    it is not out yet). ``again``: draw this version even if it was drawn (a player asked for the board or
    their hand anew)."""
    tag = chat_tag(record.chat_id, record.thread_id)
    drawers(context).want(context, tag, record.version, again=again)


async def open_menu(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, prefix: str, seat: int | None = None
) -> None:
    """Show a menu level of the group's board (``seat`` None) or of a seat's private message: at once if the
    chat may be written to now, else by the chat's drawer as soon as it may (the caller holds the lock)."""
    tag = chat_tag(record.chat_id, record.thread_id)
    try:
        with deferring():
            await _show_menu(context, record, state, prefix, seat)
    except RetryAfter:
        drawers(context).want_menu(context, tag, record.version, seat, prefix)
        return
    drawers(context).shown_menu(tag, seat)  # an older level still waiting must not come after this one


async def _show_menu(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, prefix: str, seat: int | None
) -> None:
    if record.phase == "lobby":  # the lobby's own level: a computer player's levels
        await show_lobby_menu(context, record, prefix)
    elif seat is None:
        await board.show_menu(context, record, state, prefix)
    else:
        await hands.show_private_menu(context, record, state, seat, prefix)


@dataclass(eq=False)
class _Slot:
    wanted: int  # the newest version asked for
    drawn: int = 0  # the newest version drawn completely
    menus: dict[int | None, Menu] = field(default_factory=dict)  # seat (None: the board) -> menu to show
    asked: set[int] = field(default_factory=set)  # versions asked for and not drawn yet

    def drew(self, version: int) -> None:
        """``version`` is drawn completely; the versions asked for before it never will be (merged into it)."""
        self.drawn = version
        skipped = {asked for asked in self.asked if asked <= version}
        self.asked -= skipped
        if merged := len(skipped - {version}):
            EDITS_MERGED.labels("drawer").inc(merged)


class Drawers:
    """The chats whose messages are behind their game, each with the task bringing them up to date."""

    def __init__(self) -> None:
        self.slots: dict[str, _Slot] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def want(self, context: ContextTypes.DEFAULT_TYPE, tag: str, version: int, *, again: bool = False) -> None:
        slot = self._slot(context, tag, version)
        slot.wanted = max(slot.wanted, version)
        if again:
            slot.drawn = min(slot.drawn, version - 1)
        if version > slot.drawn:  # one drawn already is not merged into a later one
            slot.asked.add(version)

    def want_menu(
        self, context: ContextTypes.DEFAULT_TYPE, tag: str, version: int, seat: int | None, prefix: str
    ) -> None:
        self._slot(context, tag, version).menus[seat] = (version, prefix)

    def shown_menu(self, tag: str, seat: int | None) -> None:
        slot = self.slots.get(tag)
        if slot is not None:
            slot.menus.pop(seat, None)

    def _slot(self, context: ContextTypes.DEFAULT_TYPE, tag: str, version: int) -> _Slot:
        slot = self.slots.get(tag)
        if slot is not None:
            return slot
        slot = self.slots[tag] = _Slot(wanted=version)
        # the application awaits its tasks when it stops, so a drawer running then still finishes its chat
        task = activity.spawn(self._drain(context, tag), "redraw", context.application)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return slot

    async def _drain(self, context: ContextTypes.DEFAULT_TYPE, tag: str) -> None:
        # what it logs is about its chat (and game, once read), not the update that happened to start it
        with logs.about(*parse_tag(tag)):
            await self._draw_chat(context, tag)

    async def _draw_chat(self, context: ContextTypes.DEFAULT_TYPE, tag: str) -> None:
        slot = self.slots[tag]
        svc = services(context)
        chat_id, thread_id = parse_tag(tag)
        pacer = pacer_of(context.bot)
        wait, refusals, closed = 0.0, 0, False
        try:
            while slot.wanted > slot.drawn or slot.menus:
                stop_point("drawer-start", chat_id)  # tests stop here: a drawer due, the record not yet read
                if wait:
                    await asyncio.sleep(wait)
                if pacer is not None:  # outside the lock: moves go on meanwhile; room is held for the board
                    await pacer.clear(chat_id)
                try:
                    target = slot.wanted
                    async with svc.locks.hold(tag):  # the move that asked for this is answered first
                        record = await svc.store.load(chat_id, thread_id)
                    if record is not None:
                        logs.playing(record.game_id)
                    ready = await _render_ahead(context, record, slot)  # no lock: presses go on meanwhile
                    async with svc.locks.hold(tag):
                        record = await svc.store.load(chat_id, thread_id)
                        if record is None or not drawn(record):  # a lobby cancelled, or gone
                            slot.drawn = max(slot.drawn, target)
                            slot.asked = {asked for asked in slot.asked if asked > target}
                            slot.menus.clear()
                            wait = 0.0
                            continue
                        with pictures.rendered(ready):
                            wait = await draw_or_defer(context, record, slot)
                finally:
                    if pacer is not None:
                        pacer.release()  # the place held, if the board did not take it
                if not wait:
                    refusals = 0
                    notices.follow(context, record)  # the board is out: whose turn began is told now
                    continue
                refusals += 1
                if refusals > MAX_REFUSALS:
                    log.warning("chat %s: gave up redrawing after %d refusals", tag, refusals)
                    return
        except STORE_DOWN as exc:  # healed once Redis answers again (bot.plumbing.outage)
            outage(context).met(tag)
            log.warning("chat %s: redraw waits for Redis (%s)", tag, exc)
        except Exception as exc:
            if is_topic_closed(exc):  # not again and again: the game stands still until the topic reopens
                closed = True
                log.info("chat %s: its topic is closed; drawing waits until it reopens", tag)
            elif out_of_reach(exc):  # drawn again once Telegram answers (bot.plumbing.telegram_outage)
                telegram_reach(context).met(tag)
                log.warning("chat %s: redraw waits for Telegram (%s)", tag, exc)
            else:
                log.exception("could not redraw chat %s; a stale press or a restart will", tag)
        finally:
            if self.slots.get(tag) is slot:
                del self.slots[tag]
        if closed:  # after the slot is gone, so the redraw it asks for gets a drawer of its own
            await stop_if_closed(context, chat_id, thread_id)


async def _render_ahead(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord | None, slot: _Slot
) -> dict[pictures.Key, pictures.Picture]:
    """Render, without the lock, the board and the hands of ``record`` that are behind it."""
    ready: dict[pictures.Key, pictures.Picture] = {}
    if record is None or record.phase == "lobby" or not drawn(record) or record.version <= slot.drawn:
        return ready
    state = board.load_state(record)
    with pictures.rendered(ready):
        live = await services(context).store.live_message(record.chat_id, record.thread_id)
        if live is None or live.version != record.version:
            await board.picture(record, state)
        for seat in await hands.hands_behind(context, record, state):
            await hands.render_hand(record, state, seat)
    return ready


def drawn(record: GameRecord) -> bool:
    """Whether the record has messages to draw: a lobby's, or a game's board and hands (a cancelled game's
    too: they say so, and their buttons go)."""
    return record.phase in DRAWN_PHASES and (record.phase == "lobby" or record.state is not None)


async def draw_or_defer(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, slot: _Slot) -> float:
    """Draw what ``slot`` asks for of ``record``, every send and edit deferred; returns the seconds to wait
    before drawing again (0 when everything was drawn). Called under the chat's lock."""
    wait = 0.0
    with deferring():
        if record.version > slot.drawn:
            wait = await _draw(context, record)
            if not wait:
                slot.drew(record.version)
        for seat, (version, prefix) in list(slot.menus.items()):
            if version != record.version or record.phase not in ("playing", "lobby"):
                del slot.menus[seat]  # the game moved on: the menu's moment has passed
                continue
            if record.version > slot.drawn:
                continue  # the board and hands first
            try:
                state = board.load_state(record) if record.state is not None else None
                await _show_menu(context, record, state, prefix, seat)
                del slot.menus[seat]
            except RetryAfter as exc:
                wait = max(wait, retry_seconds(exc))
    return wait


async def _draw(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> float:
    """The lobby message, or the board (unless it already shows this version) and the hands, then a finished
    game's result if it is not out yet; the seconds to wait if Telegram would make something wait.

    Whether the result is out is read from Redis (the game leaves the active set once it is), never from
    what this process remembers: with several workers, the drawer that meets the finished record first may
    not be the one whose press finished it, and it announces (bot/flow/results.py)."""
    if record.phase == "lobby":
        try:
            await show_lobby(context, record)
        except RetryAfter as exc:
            return retry_seconds(exc)
        return 0.0
    state = board.load_state(record)
    store = services(context).store
    wait = 0.0
    try:
        live = await store.live_message(record.chat_id, record.thread_id)
        if live is None or live.version != record.version:
            await board.refresh(context, record, state)
    except RetryAfter as exc:
        wait = max(wait, retry_seconds(exc))
    if PRESENTERS[record.game_id].hands is not None and record.state is not None:
        for seat in hands.hand_seats(record):
            try:
                await hands.send_hand(context, record, state, seat)
            except RetryAfter as exc:
                wait = max(wait, retry_seconds(exc))
    if wait or record.phase != "finished":
        return wait
    try:
        await results.announce_result(context, record, state)  # once: then the game is retired
    except RetryAfter as exc:
        return retry_seconds(exc)
    return 0.0


async def stop_if_closed(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None, topic: str | None = None
) -> None:
    """A topic found closed (its service message, or a send Telegram refused): the game stands still (once),
    its board says so, and the General topic is told (bot/flow/topics.py)."""
    record = await stand_still(context, chat_id, thread_id)
    if record is None or thread_id is None:
        return
    if record.phase == "playing":
        await redraw(context, record)  # an edit: Telegram allows it in a closed topic
    await tell_general(context, chat_id, thread_id, topic)


def drawers(context: ContextTypes.DEFAULT_TYPE) -> Drawers:
    found = context.bot_data.get(DRAWERS)
    if not isinstance(found, Drawers):
        found = context.bot_data[DRAWERS] = Drawers()
    return found
