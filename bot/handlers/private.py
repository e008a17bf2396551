"""The private chat: /start (welcome, or a deep link back to a game) and reachability of users."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import ChatMigrated
from telegram.ext import ContextTypes

from bot.flow.redraw import redraw
from bot.handlers.access import is_member
from bot.handlers.lobby import add_player, join_error
from bot.handlers.membership import migrate_chat
from bot.handlers.notify import switch_button
from bot.messages import hands, texts
from bot.messages.fa import name
from bot.messages.links import message_link
from bot.messages.lobby_message import parse_join_payload
from bot.messages.notices import cards
from bot.plumbing.services import locked_game, services, when_unlocked
from rules import GAMES

log = logging.getLogger(__name__)


async def cmd_start_private(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    svc = services(context)
    await svc.store.mark_reachable(user.id)
    payload = context.args[0] if context.args else ""
    if payload.startswith("h"):
        await _reopen_hand(update, context, payload)
        return
    target = parse_join_payload(payload)
    if target is None:
        await _welcome(update, context)
        return
    chat_id, thread_id = target
    chat_id = await svc.store.moved_to(chat_id) or chat_id  # a link made before the group became a supergroup
    try:
        await _join_by_link(update, context, chat_id, thread_id)
    except ChatMigrated as moved:  # the group became a supergroup just now: follow it, then join there
        await migrate_chat(context, chat_id, int(moved.new_chat_id))
        await _join_by_link(update, context, int(moved.new_chat_id), thread_id)


async def _welcome(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The welcome; for a player who turned their turn notices off, with the button to turn them on again."""
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    if await services(context).store.wants_notices(user.id):
        await message.reply_text(texts.WELCOME)
        return
    markup = InlineKeyboardMarkup([[switch_button(False)]])
    await message.reply_text(f"{texts.WELCOME}\n\n{texts.NOTICES_ARE_OFF}", reply_markup=markup)


async def _join_by_link(
    update: Update, context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None
) -> None:
    """``/start j<chat>[_<topic>]``: join that chat's lobby from the private chat, if one may."""
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    svc = services(context)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or not record.active:
            await when_unlocked(lambda: message.reply_text(texts.PRIVATE_GONE))
            return
        chat_title = await _chat_title(context, chat_id)
        title = GAMES[record.game_id].title
        back = await _back_to_group(context, chat_id, thread_id)
        if record.seat_of(user.id) is not None:
            already = texts.PRIVATE_ALREADY.format(game=title, chat=chat_title)
            await when_unlocked(lambda: message.reply_text(already, reply_markup=back))
            return
        error = join_error(record, user.id) if record.phase == "lobby" else texts.ALREADY_STARTED
        if error is None:
            member = await is_member(context.bot, svc.store, chat_id, user.id)
            error = texts.NOT_A_MEMBER if member is False else texts.NOT_A_MEMBER_UNKNOWN if member is None else None
        if error:
            await when_unlocked(lambda: message.reply_text(error))
            return
        await add_player(context, record, user)
    await message.reply_text(texts.PRIVATE_JOINED.format(game=title, chat=chat_title), reply_markup=back)


async def _back_to_group(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None
) -> InlineKeyboardMarkup | None:
    """A button to the group's lobby (or board) message, where Telegram can link to it (not in a basic
    group)."""
    live = await services(context).store.live_message(chat_id, thread_id)
    if live is None:
        return None
    url = message_link(await cards(context).card(context.bot, chat_id), live.message_id, thread_id)
    return InlineKeyboardMarkup([[InlineKeyboardButton(texts.BACK_TO_GROUP, url=url)]]) if url else None


async def _reopen_hand(update: Update, context: ContextTypes.DEFAULT_TYPE, payload: str) -> None:
    """``/start h<chat>[_<topic>]``: send the player's hand for that chat's game again, at the bottom."""
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    target = parse_join_payload("j" + payload[1:])
    if target is None:
        await message.reply_text(texts.WELCOME)
        return
    chat_id = await services(context).store.moved_to(target[0]) or target[0]
    async with locked_game(context, chat_id, target[1]) as record:
        seat = record.seat_of(user.id) if record is not None else None
        if record is None or record.phase != "playing" or record.state is None or seat is None:
            await when_unlocked(lambda: message.reply_text(texts.NO_HAND))
            return
        await hands.ask_again(context, record, seat)
        await redraw(context, record, again=True)


async def _chat_title(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> str:
    """The group's title, escaped and isolated for an HTML message (``name``)."""
    try:
        chat = await context.bot.get_chat(chat_id)
        return name(chat.title or "")
    except ChatMigrated:
        raise
    except Exception:  # the title is decoration; never fail a join over it
        log.debug("no title for chat %s", chat_id, exc_info=True)
        return ""


async def note_reachable(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any private message shows the user can be written to."""
    if update.effective_user is not None:
        await services(context).store.mark_reachable(update.effective_user.id)
