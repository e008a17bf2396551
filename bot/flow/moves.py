"""A move written: a player's press (bot/handlers/play.py) and a computer player's choice
(bot/flow/computer_turns.py) become one compare-and-set write the same way."""

from __future__ import annotations

from typing import Any

from telegram.ext import ContextTypes

from bot.flow import absence
from bot.flow.commit import commit
from bot.games import PRESENTERS
from bot.messages import board
from bot.plumbing.figures import MOVES
from bot.plumbing.store import GameRecord
from rules import GAMES, Step


async def play_step(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int, step: Step[Any]) -> GameRecord:
    """Write a move ``seat`` made (a press, or a computer player's choice): its public lines, the default moves
    of the seats out of the game after it, the end if it came; returns the saved record (the caller redraws).
    Raises ``StaleVersion`` if another write won."""
    game = GAMES[record.game_id]
    record.timeouts.pop(seat, None)  # acting in time ends a run of time-outs
    public = [e for e in step.events if e.audience is None]  # secrets stay out of the group
    lines = PRESENTERS[record.game_id].describe(public, board.names(record), game.view(step.state, None))
    state, more = absence.autoplay(record, step.state)  # seats out of the game move at once
    record.recent = (record.recent + lines + more)[-board.RECENT_LINES :]
    record.state = state.model_dump(mode="json")
    if game.outcome(state) is not None:
        record.phase = "finished"
    saved = await commit(context, record)
    MOVES.labels(record.game_id, "computer" if record.players[seat].is_computer else "person").inc()
    return saved
