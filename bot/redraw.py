"""After a game changed: the group's board, every player's private message, and the result if it ended."""

from __future__ import annotations

from typing import Any

from telegram.ext import ContextTypes

from bot import board, hands
from bot.store import GameRecord


async def redraw(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    await board.refresh(context, record, state)
    await hands.refresh_hands(context, record, state)
    if record.phase == "finished":
        await board.announce_result(context, record, state)
