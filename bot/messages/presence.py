"""Whether a player may not be looking: the one question behind every turn notice.

An edit notifies nobody, so a player whose turn begins is sent a new message (a turn notice, or their hand sent
anew) when they may be away from the game. One who pressed a button of this game (a move, a menu level) less
than ``AWAY_AFTER_SECONDS`` ago (a setting, 20 s) is at the screen: the board in the group names them and their
hand is edited in place, so a new message would only buzz their phone and cost a call. If they do turn away,
the turn timer's half-time reminder is a new message still (``bot/messages/notices.py``: ``remind``).
"""

from __future__ import annotations

import time

from telegram.ext import ContextTypes

from bot.plumbing.services import services
from bot.plumbing.store import GameRecord


async def note_press(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int) -> None:
    """``user_id`` pressed a button of ``record``'s game just now."""
    await services(context).store.note_press(record.chat_id, record.thread_id, user_id, time.time())


async def may_be_away(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int) -> bool:
    """Whether ``user_id`` has not pressed in ``record``'s game for ``AWAY_AFTER_SECONDS`` (or ever)."""
    svc = services(context)
    pressed = await svc.store.last_press(record.chat_id, record.thread_id, user_id)
    return pressed is None or time.time() - pressed >= svc.settings.away_after_seconds


async def pressed_since(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int, when: float) -> bool:
    """Whether ``user_id`` pressed in ``record``'s game at or after ``when`` (Unix seconds)."""
    pressed = await services(context).store.last_press(record.chat_id, record.thread_id, user_id)
    return pressed is not None and pressed >= when
