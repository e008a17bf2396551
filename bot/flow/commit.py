"""Writing a game: compare-and-set in Redis, then the chat's deadlines re-armed for the new version.

A computer player to move gets a deadline due at once (``bot/flow/computer_turns.py`` thinks, then waits
out the rest of the group's pause); a turn times out only while a person is to move, and never in a private
chat, where one person plays against computer players at their own pace.
"""

from __future__ import annotations

import time

from telegram.ext import ContextTypes

from bot.flow.computers import computer_to_act, has_computers, person_to_act
from bot.plumbing.deadlines import Deadline
from bot.plumbing.services import services
from bot.plumbing.store import GameRecord, chat_tag
from rules import GAMES


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
    elif record.phase == "playing":
        state = None  # read only for a game with computer players: the others need not pay for it
        if has_computers(record):
            state = GAMES[record.game_id].state_model.model_validate(record.state)
            if computer_to_act(record, state) is not None:
                armed[Deadline("computer", tag, record.version)] = now
        timed = settings.turn_seconds and not record.paused and not record.in_private
        if timed and (state is None or person_to_act(record, state)):
            armed[Deadline("timeout", tag, record.version)] = now + settings.turn_seconds
            if settings.reminder:
                armed[Deadline("remind", tag, record.version)] = now + settings.turn_seconds / 2
    elif record.phase == "lobby" and settings.lobby_idle_seconds:
        armed[Deadline("lobby", tag, record.version)] = now + settings.lobby_idle_seconds
    await svc.deadlines.arm(tag, armed)
