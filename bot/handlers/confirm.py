"""The yes or no asked before what cannot be undone: /cancel of a running game, /kick of a player from one.

The question is a message with two buttons (``f:<what>:<seed>:<user>:y|n``, bot/messages/keyboards.py), for
the one who asked alone (for any admin when an anonymous admin asked: nobody knows who); the seed names the
game, so a question left over from an earlier game is stale. The answer is checked again under the chat's lock
(the asker may no longer be allowed, the player may be gone), the question is taken away, and only then is the
game cancelled or the player taken out.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.flow.cancel import cancel
from bot.handlers.access import is_admin
from bot.handlers.lobby import may_manage, said_yes, take_out
from bot.messages import texts
from bot.plumbing.services import locked_game, where


async def on_confirm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, what, seed, asker, choice = query.data.split(":")
    if asker != "0" and str(query.from_user.id) != asker:
        await query.answer(texts.NOT_FOR_YOU, show_alert=True)
        return
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or record.phase != "playing" or str(record.seed) != seed:
            await query.answer(texts.STALE, show_alert=True)
            return
        seat = int(what.removeprefix("kick")) if what.startswith("kick") else None
        allowed = (  # asked again: the asker may have lost the right meanwhile
            await is_admin(context.bot, chat_id, query.from_user.id)
            if seat is not None or asker == "0"
            else await may_manage(context, record, query.from_user.id, None)
        )
        if not allowed:
            await query.answer(texts.NOT_ADMIN if seat is not None else texts.NOT_ALLOWED, show_alert=True)
            return
        if seat is not None and (seat >= len(record.players) or seat in record.gone):
            await query.answer(texts.STALE, show_alert=True)
            return
        if not await said_yes(query, choice):
            return
        if seat is None:
            await cancel(context, record)
        else:
            await take_out(context, record, seat, "kicked")
