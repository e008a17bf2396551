"""The turn loop: a button press becomes one checked, compare-and-set move and a redrawn board."""

from __future__ import annotations

import logging
from typing import Any

from telegram import CallbackQuery, Update
from telegram.ext import ContextTypes

from bot import board, texts
from bot.commit import commit
from bot.games import PRESENTERS
from bot.lobby_message import show_lobby
from bot.recovery import heal
from bot.services import locked_game, services, where
from bot.store import GameRecord, StaleVersion
from rules import GAMES, IllegalAction, NotYourTurn

log = logging.getLogger(__name__)


async def _checked(
    context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, record: GameRecord | None, game_id: str, version: str
) -> tuple[int, Any] | None:
    """The presser's seat and the state if this press may act now; otherwise answer why not."""
    live = None
    if record is not None:
        live = await services(context).store.live_message(record.chat_id, record.thread_id)
    if (
        record is None
        or record.phase != "playing"
        or record.game_id != game_id
        or str(record.version) != version
        or live is None
        or (query.message is not None and query.message.message_id != live.message_id)
    ):
        await query.answer(texts.STALE, show_alert=True)
        if record is not None and record.game_id == game_id:
            await heal(context, record)
        return None
    seat = record.seat_of(query.from_user.id)
    if seat is None:
        await query.answer(texts.NOT_A_PLAYER, show_alert=True)
        return None
    state = board.load_state(record)
    if seat not in GAMES[game_id].to_act(state):
        await query.answer(texts.NOT_YOUR_TURN, show_alert=True)
        return None
    return seat, state


async def on_action(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``g:<game>:<version>:<code>``: play the action."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, game_id, version, code = query.data.split(":", 3)
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        checked = await _checked(context, query, record, game_id, version)
        if checked is None:
            return
        assert record is not None
        seat, state = checked
        game = GAMES[game_id]
        try:
            step = game.apply(state, seat, game.decode(code))
        except NotYourTurn:
            await query.answer(texts.NOT_YOUR_TURN, show_alert=True)
            return
        except IllegalAction:
            await query.answer(texts.ILLEGAL, show_alert=True)
            return
        record.timeouts.pop(seat, None)  # acting in time ends a run of time-outs
        names = board.names(record)
        record.recent = (record.recent + PRESENTERS[game_id].describe(step.events, names))[-board.RECENT_LINES :]
        record.state = step.state.model_dump(mode="json")
        finished = game.outcome(step.state) is not None
        if finished:
            record.phase = "finished"
        try:
            record = await commit(context, record)
        except StaleVersion:
            await query.answer(texts.STALE, show_alert=True)
            return
        await query.answer()
        await board.refresh(context, record, step.state)
        if finished:
            await board.announce_result(context, record, step.state)


async def on_menu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``n:<game>:<version>:<prefix>``: show a level of the action menu; the game does not change."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, game_id, version, prefix = query.data.split(":", 3)
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        checked = await _checked(context, query, record, game_id, version)
        if checked is None:
            return
        assert record is not None
        await query.answer()
        await board.show_menu(context, record, checked[1], prefix)


async def cmd_board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Send the board again at the bottom of the chat (the old one loses its buttons)."""
    svc = services(context)
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        message = update.effective_message
        if record is None or record.phase not in ("playing", "finished") or record.state is None:
            if record is not None and record.phase == "lobby":
                await svc.store.clear_live_message(chat_id, thread_id)
                await show_lobby(context, record)
            elif message is not None:
                await message.reply_text(texts.NO_GAME)
            return
        await board.post(context, record, board.load_state(record))
