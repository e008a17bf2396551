"""Bringing a chat's live message up to date after a crash, so that no game is ever left stuck.

Every change is written to Redis first and drawn second. A bot killed in between leaves a live message that
shows an older version than the record: its buttons are stale for everyone. ``heal`` redraws it (and, for a
finished game, sends the result that was never announced); the bot runs it for every active chat when it
starts, and for a chat whenever someone presses a stale button there.
"""

from __future__ import annotations

import logging

from telegram.ext import Application, CallbackContext, ContextTypes

from bot.messages import board
from bot.messages.lobby_message import show_lobby
from bot.messages.redraw import redraw
from bot.runtime.store import GameRecord
from bot.services import locked_game, parse_tag, services

log = logging.getLogger(__name__)


async def heal(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> bool:
    """Redraw the live message if it shows an older version than ``record``; True if it did."""
    store = services(context).store
    live = await store.live_message(record.chat_id, record.thread_id)
    if live is not None and live.version == record.version:
        if record.phase == "finished":
            await store.retire(record.chat_id, record.thread_id)
        return False
    log.info("chat %s: live message behind the record (v%s); redrawing", record.chat_id, record.version)
    if record.phase == "lobby":
        await show_lobby(context, record)
    elif record.phase in ("playing", "finished") and record.state is not None:
        await redraw(context, record, board.load_state(record))
    return True


async def reconcile(app: Application) -> None:  # type: ignore[type-arg]
    """At start-up: heal every chat with a lobby, a running game or an unannounced result."""
    context: ContextTypes.DEFAULT_TYPE = CallbackContext(app)
    svc = services(context)
    healed = 0
    for tag in sorted(await svc.store.active_tags()):
        chat_id, thread_id = parse_tag(tag)
        try:
            async with locked_game(context, chat_id, thread_id) as record:
                if record is None:
                    await svc.store.retire(chat_id, thread_id)
                elif await heal(context, record):
                    healed += 1
        except Exception:  # one broken chat must not keep the others from recovering
            log.exception("could not bring chat %s up to date", tag)
    log.info("start-up check: %d chat(s) redrawn", healed)
