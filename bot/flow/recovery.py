"""Bringing a chat's live messages up to date after a crash or an outage, so that no game is ever left stuck.

Every change is written to Redis first and drawn second. A bot killed in between, or a redraw that failed
while Redis was away, leaves messages that show an older version than the record: the group's board (its
buttons stale for everyone) or a player's private hand (no buttons, old buttons, or cards they no longer
hold). ``heal`` redraws whatever is behind (and, for a finished game, sends the result that was never
announced); the bot runs it for every active chat when it starts and when Redis answers again after an
outage, for a chat whose redraw failed, and for a chat whenever someone presses a stale button there.
"""

from __future__ import annotations

import logging

from telegram.ext import Application, CallbackContext, ContextTypes

from bot.flow.redraw import redraw
from bot.messages import board, hands
from bot.plumbing import logs
from bot.plumbing.outage import STORE_DOWN, outage
from bot.plumbing.services import locked_game, parse_tag, services
from bot.plumbing.store import GameRecord

log = logging.getLogger(__name__)


async def heal(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> bool:
    """Redraw the board and every private hand that shows an older version than ``record``, and announce a
    finished game's result if it is not out yet; True if anything was behind."""
    store = services(context).store
    live = await store.live_message(record.chat_id, record.thread_id)
    board_behind = live is None or live.version != record.version
    state = board.load_state(record) if record.state is not None else None
    drawn = record.phase in ("playing", "finished") and state is not None
    behind = await hands.hands_behind(context, record, state) if drawn else []
    # the result is sent after the last board and hands, and the game retired right after it: a finished
    # game still active was never announced, however current its board (a crash just before the result)
    unannounced = drawn and record.phase == "finished" and await store.is_active(record.chat_id, record.thread_id)
    if not board_behind and not behind and not unannounced:
        return False
    log.info(
        "chat %s: behind the record (v%s): %s; redrawing",
        record.chat_id,
        record.version,
        ", ".join(
            (["board"] if board_behind else [])
            + [f"hand of seat {seat}" for seat in behind]
            + (["result"] if unannounced else [])
        ),
    )
    await redraw(context, record)  # what is behind of the board and hands, then a result not yet out
    return True


async def reconcile(app: Application, only: set[str] | None = None, why: str = "start-up check") -> None:  # type: ignore[type-arg]
    """Heal every chat with a lobby, a running game or an unannounced result (at start-up, and when Redis is
    back after an outage), or only the chats ``only`` names."""
    context: ContextTypes.DEFAULT_TYPE = CallbackContext(app)
    svc = services(context)
    healed = 0
    tags = await svc.store.active_tags()
    for tag in sorted(tags if only is None else tags & only):
        chat_id, thread_id = parse_tag(tag)
        with logs.about(chat_id, thread_id):
            try:
                async with locked_game(context, chat_id, thread_id) as record:
                    if record is None:
                        await svc.store.retire(chat_id, thread_id)
                    elif await heal(context, record):
                        healed += 1
            except STORE_DOWN as exc:  # away again: the next poll that works repairs this chat
                outage(context).met(tag)
                log.warning("%s: chat %s waits for Redis (%s)", why, tag, exc)
            except Exception:  # one broken chat must not keep the others from recovering
                log.exception("could not bring chat %s up to date", tag)
    log.info("%s: %d chat(s) redrawn", why, healed)
