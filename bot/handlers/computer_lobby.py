"""Computer players in a lobby: «➕ بازیکن رایانه‌ای», then its level, adds one; its «✖️» button takes it out.

Only the lobby's creator or a group admin may add or remove them (others get an alert). They count toward the
game's player limits, and a game may not be all computers: the last free seat is kept for a person, and a
lobby of computers alone does not start (bot/handlers/lobby.py).
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.flow.commit import commit
from bot.flow.computers import new_computer
from bot.flow.redraw import open_menu, redraw
from bot.handlers.lobby import lobby_pressed, may_manage, stale_text
from bot.messages import texts
from bot.messages.lobby_message import LEVELS_MENU
from bot.messages.seats import computer_room_error, number
from bot.plumbing.services import locked_game, where


async def on_computer_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``c:<version>:add`` opens the levels, ``c:<version>:add:<level>`` adds a computer player of that level,
    ``c:<version>:back`` goes back to the lobby's buttons, ``c:<version>:rm:<n>`` takes computer n out."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, version, op = query.data.split(":", 2)
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        if not await lobby_pressed(context, query, record, version) or record is None:
            return
        if not await may_manage(context, record, query.from_user.id, None):
            await query.answer(texts.NOT_ALLOWED, show_alert=True)
            return
        kind, _, arg = op.partition(":")
        if kind == "back":
            await query.answer()
            await open_menu(context, record, None, "")
            return
        if kind == "rm":
            seat = next((s for s, p in enumerate(record.players) if p.is_computer and number(p) == int(arg)), None)
            if seat is None:
                await query.answer(stale_text(record), show_alert=True)
                return
            gone = record.players.pop(seat)
            await query.answer(texts.COMPUTER_REMOVED.format(name=gone.name))
        else:
            error = computer_room_error(record)
            if error:
                await query.answer(error, show_alert=True)
                return
            if not arg:
                await query.answer()
                await open_menu(context, record, None, LEVELS_MENU)
                return
            computer = new_computer(record, arg)
            record.players.append(computer)
            await query.answer(texts.COMPUTER_ADDED.format(name=computer.name))
        record = await commit(context, record)
        await redraw(context, record)
