"""A lobby or a game ended without a result: by an admin's /cancel, or a lobby left idle too long."""

from __future__ import annotations

import contextlib

from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.flow.commit import commit
from bot.flow.redraw import redraw
from bot.messages import notices, texts
from bot.plumbing.services import services, when_unlocked
from bot.plumbing.store import GameRecord, StaleVersion


async def cancel(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, text: str = texts.CANCELLED) -> None:
    """End a lobby or a game without a result; ``text`` tells the group why."""
    store = services(context).store
    record.phase = "cancelled"
    try:
        record = await commit(context, record)
    except StaleVersion:
        return
    notices.follow(context, record)  # nobody's turn any more: notices taken back
    if record.state is not None:  # a game: its board and hands say so, their buttons gone, by the drawer
        await redraw(context, record)
    live = None if record.state is not None else await store.live_message(record.chat_id, record.thread_id)

    async def tell() -> None:  # the game is over: nothing of this needs the lock any more
        if live is not None:  # a lobby's message: its buttons go
            with contextlib.suppress(BadRequest):
                await context.bot.edit_message_reply_markup(
                    chat_id=record.chat_id, message_id=live.message_id, reply_markup=None
                )
        await context.bot.send_message(chat_id=record.chat_id, message_thread_id=record.thread_id, text=text)

    await when_unlocked(tell)
