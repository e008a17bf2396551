"""After a game changed: the group's board, every player's private message, and the result if it ended.

A move must not wait for Telegram's budget while it holds the chat's lock, and a group that plays faster than
its budget should see its newest board rather than every board in between. So ``redraw`` only notes the
version to draw and returns; the chat's drawer (one task per chat) waits outside the lock until the chat's
board may be edited, then takes the lock and draws the newest version there is, and goes round again while
newer ones arrive. Versions overtaken meanwhile are never rendered nor sent, and nobody waits for them. An
edit refused by Telegram (429) is not waited out under the lock: the drawer lets the lock go, waits, and draws
what is newest by then; the private messages are still drawn, so a game played there goes on.

A finished game is drawn at once by the caller, board, hands, then the result, because the result is a new
message that keeps its place among the chat's messages, and the game is retired after it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import ContextTypes

from bot.games import PRESENTERS
from bot.messages import board, hands
from bot.runtime.outage import STORE_DOWN, outage
from bot.runtime.pacing import deferring, retry_seconds
from bot.runtime.ratelimit import pacer_of
from bot.runtime.store import GameRecord, chat_tag
from bot.services import parse_tag, services

log = logging.getLogger(__name__)

DRAWERS = "drawers"
MAX_REFUSALS = 50  # 429s in a row before a drawer gives up (a stale press or a restart redraws the chat)


async def redraw(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    """Bring the chat's messages up to ``record``: now if the game finished, else soon by the chat's drawer."""
    tag = chat_tag(record.chat_id, record.thread_id)
    if record.phase == "finished":
        await draw(context, record, state)
        await board.announce_result(context, record, state)
        drawers(context).drawn(tag, record.version)
        return
    drawers(context).want(context, tag, record.version)


async def draw(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    """The board (unless it already shows this version) and the hands, waiting for Telegram as needed."""
    live = await services(context).store.live_message(record.chat_id, record.thread_id)
    if live is None or live.version != record.version:
        await board.refresh(context, record, state)
    await hands.refresh_hands(context, record, state)


async def draw_or_defer(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> float:
    """Like ``draw``, but an edit that Telegram would make wait is skipped; returns the seconds to wait before
    drawing again (0 when everything was drawn)."""
    wait = 0.0
    with deferring():
        try:
            live = await services(context).store.live_message(record.chat_id, record.thread_id)
            if live is None or live.version != record.version:
                await board.refresh(context, record, state)
        except RetryAfter as exc:
            wait = max(wait, retry_seconds(exc))
        if PRESENTERS[record.game_id].hands is not None and record.state is not None:
            for seat in range(len(record.players)):
                try:
                    await hands.send_hand(context, record, state, seat)
                except RetryAfter as exc:
                    wait = max(wait, retry_seconds(exc))
    return wait


@dataclass(eq=False)
class _Slot:
    wanted: int  # the newest version asked for
    drawn: int = 0  # the newest version drawn completely


class Drawers:
    """The chats whose messages are behind their game, each with the task bringing them up to date."""

    def __init__(self) -> None:
        self.slots: dict[str, _Slot] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def want(self, context: ContextTypes.DEFAULT_TYPE, tag: str, version: int) -> None:
        slot = self.slots.get(tag)
        if slot is not None:
            slot.wanted = max(slot.wanted, version)
            return
        self.slots[tag] = _Slot(wanted=version)
        coroutine = self._drain(context, tag)
        app = context.application
        # the application awaits its tasks when it stops, so a drawer running then still finishes its chat
        task = app.create_task(coroutine) if app.running else asyncio.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def drawn(self, tag: str, version: int) -> None:
        slot = self.slots.get(tag)
        if slot is not None:
            slot.drawn = max(slot.drawn, version)

    async def _drain(self, context: ContextTypes.DEFAULT_TYPE, tag: str) -> None:
        slot = self.slots[tag]
        svc = services(context)
        chat_id, thread_id = parse_tag(tag)
        pacer = pacer_of(context.bot)
        wait, refusals = 0.0, 0
        try:
            while slot.wanted > slot.drawn:
                if wait:
                    await asyncio.sleep(wait)
                if pacer is not None:
                    await pacer.clear(chat_id)  # outside the lock: moves go on meanwhile
                target = slot.wanted
                async with svc.locks.hold(tag):
                    record = await svc.store.load(chat_id, thread_id)
                    if record is None or record.phase != "playing" or record.version <= slot.drawn:
                        slot.drawn = max(slot.drawn, target)  # ended (drawn by its last move) or replaced
                        wait = 0.0
                        continue
                    wait = await draw_or_defer(context, record, board.load_state(record))
                if not wait:
                    slot.drawn = max(slot.drawn, record.version)
                    refusals = 0
                    continue
                refusals += 1
                if refusals > MAX_REFUSALS:
                    log.warning("chat %s: gave up redrawing after %d refusals", tag, refusals)
                    return
        except STORE_DOWN as exc:  # healed once Redis answers again (bot.runtime.outage)
            outage(context).met(tag)
            log.warning("chat %s: redraw waits for Redis (%s)", tag, exc)
        except Exception:
            log.exception("could not redraw chat %s; a stale press or a restart will", tag)
        finally:
            if self.slots.get(tag) is slot:
                del self.slots[tag]


def drawers(context: ContextTypes.DEFAULT_TYPE) -> Drawers:
    found = context.bot_data.get(DRAWERS)
    if not isinstance(found, Drawers):
        found = context.bot_data[DRAWERS] = Drawers()
    return found
