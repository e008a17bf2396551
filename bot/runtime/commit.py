"""Writing a game: compare-and-set in Redis, then the chat's deadlines re-armed for the new version."""

from __future__ import annotations

import time

from telegram.ext import ContextTypes

from bot.runtime.deadlines import Deadline
from bot.runtime.store import GameRecord, chat_tag
from bot.services import services


async def commit(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, expected: int | None = None) -> GameRecord:
    """Save ``record`` if the stored version is still ``expected`` (default: the record's own) and arm what
    must happen if nobody acts: the turn's reminder and time-out, or closing an idle lobby.

    Raises ``StaleVersion`` when another write won."""
    svc = services(context)
    saved = await svc.store.save(record, expected=record.version if expected is None else expected)
    await schedule(context, saved)
    return saved


async def schedule(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> None:
    """Replace the chat's deadlines with the ones this version of the game needs."""
    svc = services(context)
    tag = chat_tag(record.chat_id, record.thread_id)
    settings = await svc.store.group_settings(record.chat_id)
    now = time.time()
    armed: dict[Deadline, float] = {}
    if record.topic_closed:
        pass  # nobody can write in a closed topic, so nothing may time out there
    elif record.phase == "playing" and settings.turn_seconds and not record.paused:
        armed[Deadline("timeout", tag, record.version)] = now + settings.turn_seconds
        if settings.reminder:
            armed[Deadline("remind", tag, record.version)] = now + settings.turn_seconds / 2
    elif record.phase == "lobby" and settings.lobby_idle_seconds:
        armed[Deadline("lobby", tag, record.version)] = now + settings.lobby_idle_seconds
    await svc.deadlines.arm(tag, armed)
