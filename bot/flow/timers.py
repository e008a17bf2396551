"""What happens when nobody acts: the half-time reminder, the turn's time-out, an idle lobby closing.

Every worker polls the deadline queue (``bot/plumbing/deadlines.py``); each deadline is claimed by one worker and
fires only if the game is still at the version it was armed for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from telegram.error import BadRequest, ChatMigrated, Forbidden
from telegram.ext import Application, CallbackContext, ContextTypes

from bot.flow import absence, computer_turns
from bot.flow.cancel import cancel
from bot.flow.commit import commit
from bot.flow.recovery import reconcile
from bot.flow.redraw import redraw, stop_if_closed
from bot.flow.topics import is_topic_closed
from bot.games import PRESENTERS
from bot.messages import board, notices, texts
from bot.messages.fa import duration, name
from bot.plumbing import activity, liveness, logs
from bot.plumbing.deadlines import LEASE_SECONDS, Deadline
from bot.plumbing.figures import MOVES
from bot.plumbing.outage import STORE_DOWN, outage
from bot.plumbing.services import locked_game, parse_tag, services
from bot.plumbing.store import GameRecord, StaleVersion
from bot.plumbing.telegram_outage import out_of_reach, telegram_reach
from rules import GAMES

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25
RENEW_SECONDS = LEASE_SECONDS / 4  # the leases of deadlines still firing are renewed this often


async def run(app: Application) -> None:  # type: ignore[type-arg]
    """Poll for due deadlines until cancelled; fire each in its own task, renewing its lease while it runs. A
    poll that fails is an outage (``bot.plumbing.outage``): logged once, polled with back-off, and repaired when
    Redis answers. A polling bot is the only worker: it first takes back the leases a killed run left."""
    context: ContextTypes.DEFAULT_TYPE = CallbackContext(app)
    svc = services(context)
    deadlines = svc.deadlines
    watch = outage(context)
    running: dict[asyncio.Task[None], Deadline] = {}
    repairing: asyncio.Task[None] | None = None
    renewed = time.monotonic()
    if not svc.settings.webhook_mode:
        with contextlib.suppress(*STORE_DOWN):  # Redis away: the leases run out by themselves
            if taken := await deadlines.take_back(time.time()):
                log.info("took back %d deadline(s) a previous run had claimed", taken)
    try:
        while True:
            try:
                # a stopping bot claims nothing new: the deadlines firing finish, their leases renewed meanwhile
                claimed = [] if activity.stopping() else await deadlines.claim(time.time())
                if watch.pending():
                    await svc.store.take_write()
                liveness.answered("redis")
                if running and time.monotonic() - renewed > RENEW_SECONDS:
                    await deadlines.renew(list(running.values()), time.time())
                    renewed = time.monotonic()
            except STORE_DOWN as exc:
                await asyncio.sleep(watch.failed(exc))
                continue
            for deadline in claimed:
                task = activity.spawn(_fire(context, deadline), "deadline")
                running[task] = deadline
                task.add_done_callback(lambda done: running.pop(done, None))
            if (repairing is None or repairing.done()) and not activity.stopping():
                heal_all, chats = watch.answered()
                chats |= telegram_reach(context).to_heal()  # what Telegram's outage kept from the screen
                if heal_all or chats:
                    why = "after the outage" if heal_all else "redraws that failed"
                    repairing = activity.spawn(reconcile(app, None if heal_all else chats, why), "recovery")
            await asyncio.sleep(POLL_SECONDS)
    finally:
        pending = [*running, *([repairing] if repairing is not None else [])]
        for task in pending:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*pending, return_exceptions=True)


async def _fire(context: ContextTypes.DEFAULT_TYPE, deadline: Deadline) -> None:
    with logs.about(*parse_tag(deadline.tag)):  # what it logs is about its chat (and game, once read)
        await _fire_logged(context, deadline)


async def _fire_logged(context: ContextTypes.DEFAULT_TYPE, deadline: Deadline) -> None:
    try:
        await fire(context, deadline)
    except (Forbidden, BadRequest, ChatMigrated) as exc:
        if is_topic_closed(exc):  # a closed topic: not again and again; the game stands still until it reopens
            try:
                await stop_if_closed(context, *parse_tag(deadline.tag))
            except Exception:
                log.exception("deadline %s met a closed topic and could not stop its game", deadline.member)
                return
        else:
            # The chat refused (the bot removed or muted, the group moved): trying again every lease cannot
            # help. What was saved stays saved; bot.handlers.membership stops or moves the chat's game.
            log.warning("deadline %s: Telegram refused (%s); not retried", deadline.member, exc)
    except STORE_DOWN:  # the lease runs out and it is tried again; the poll logs the outage, once
        outage(context).met()
        return
    except Exception as exc:  # the lease runs out and the deadline is tried again
        if out_of_reach(exc):  # the outage is logged once (bot.plumbing.telegram_outage)
            log.warning("deadline %s waits for Telegram (%s); it will be retried", deadline.member, exc)
        else:
            log.exception("deadline %s failed; it will be retried", deadline.member)
        return
    await services(context).deadlines.done(deadline)


async def fire(context: ContextTypes.DEFAULT_TYPE, deadline: Deadline) -> None:
    if deadline.kind == "computer":  # thinks without the chat's lock, then moves under it
        await computer_turns.move(context, deadline)
        return
    chat_id, thread_id = parse_tag(deadline.tag)
    reminder: GameRecord | None = None
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or record.version != deadline.version:
            return  # the game moved on: this deadline is obsolete
        if deadline.kind == "lobby" and record.phase == "lobby":
            await cancel(context, record, texts.LOBBY_EXPIRED)
        elif deadline.kind == "remind" and record.phase == "playing":
            reminder = record
        elif deadline.kind == "timeout" and record.phase == "playing":
            await time_out(context, record)
    if reminder is not None:  # outside the chat's lock: a send that waits for a budget holds up no move
        settings = await services(context).store.group_settings(chat_id)
        await notices.remind(context, reminder, duration(settings.turn_seconds - settings.turn_seconds // 2))


async def time_out(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> None:
    """Play the game's default move for every person whose time ran out (a computer player's move has its own
    deadline); a seat that timed out too often in a row is taken out of the game (bot/flow/absence.py), or
    handed to a computer player if the group's settings say so."""
    game = GAMES[record.game_id]
    presenter = PRESENTERS[record.game_id]
    settings = await services(context).store.group_settings(record.chat_id)
    names = board.names(record)
    state: Any = board.load_state(record)
    lines: list[str] = []
    defaults = 0  # default moves played for people out of time
    for seat in game.to_act(state):
        if seat not in game.to_act(state) or record.players[seat].is_computer:
            continue  # an earlier default move already settled this seat's decision, or a computer decides
        count = record.timeouts.get(seat, 0) + 1
        record.timeouts[seat] = count
        lines.append(texts.TIMED_OUT.format(who=name(names[seat])))
        if count >= settings.max_timeouts and absence.may_stand_in(record, seat, settings.stand_in):
            lines += absence.stand_in(record, seat, settings.stand_in)
            names = board.names(record)
            continue  # the computer player moves for the seat now, by its own deadline
        if count >= settings.max_timeouts:
            state, more = absence.remove(record, state, seat, "timeouts")
            lines += more
            if record.phase == "finished":
                break
            continue
        step = game.apply(state, seat, game.default_action(state, seat))
        state = step.state
        defaults += 1
        public = [e for e in step.events if e.audience is None]
        lines += presenter.describe(public, names, game.view(state, None))
    if record.phase != "finished":
        state, more = absence.autoplay(record, state)
        lines += more
    record.state = state.model_dump(mode="json")
    record.recent = (record.recent + lines)[-board.RECENT_LINES :]
    if game.outcome(state) is not None:
        record.phase = "finished"
    try:
        record = await commit(context, record)
    except StaleVersion:
        return
    if defaults:
        MOVES.labels(record.game_id, "timeout").inc(defaults)
    await redraw(context, record)
