"""The lobby message: who has joined, the options, and the buttons to join, leave, add computer players, start
and cancel. In a private chat (a game against computer players) there is nobody to join."""

from __future__ import annotations

import logging
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest
from telegram.ext import ContextTypes
from telegram.helpers import create_deep_linked_url

from bot.games import PRESENTERS
from bot.messages import keyboards, texts
from bot.messages.fa import name, num
from bot.messages.seats import computer_room_error, number
from bot.plumbing.services import services
from bot.plumbing.store import GameRecord, LiveMessage
from rules import GAMES

log = logging.getLogger(__name__)


def join_payload(chat_id: int, thread_id: int | None) -> str:
    """Deep-link payload (A-Z, a-z, 0-9, _ and - only): j<chat without sign>[_<topic>]. Groups' ids are
    negative, so the sign is implied."""
    return f"j{abs(chat_id)}" + (f"_{thread_id}" if thread_id is not None else "")


def parse_join_payload(payload: str) -> tuple[int, int | None] | None:
    if not payload.startswith("j"):
        return None
    chat, _, thread = payload[1:].partition("_")
    if not chat.isdigit() or (thread and not thread.isdigit()):
        return None
    return -int(chat), (int(thread) if thread else None)


def join_link(context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None) -> str:
    return create_deep_linked_url(context.bot.username, join_payload(chat_id, thread_id))


def options_of(record: GameRecord) -> Any:
    return GAMES[record.game_id].options_model.model_validate(record.options)


def lobby_text(record: GameRecord) -> str:
    game = GAMES[record.game_id]
    presenter = PRESENTERS[record.game_id]
    counts = (
        f"{num(game.min_players)} نفر"
        if game.min_players == game.max_players
        else f"{num(game.min_players)} تا {num(game.max_players)} نفر"
    )
    lines = [f"{presenter.emoji} <b>{game.title}</b> — اتاق انتظار", f"تعداد بازیکن: {counts}", ""]
    if record.players:
        lines.append(f"بازیکنان ({num(len(record.players))}):")
        for i, player in enumerate(record.players, 1):
            mark = " 👑" if player.user_id == record.creator.user_id else ""
            if player.is_computer:
                mark = f" {texts.COMPUTER_MARK}"
            lines.append(f"{num(i)}. {name(player.name)}{mark}")
    else:
        lines.append("هنوز کسی نپیوسته است.")
    options = options_of(record)
    chosen = [t.label for t in presenter.toggles if getattr(options, t.field)]
    if chosen:
        lines += ["", "گزینه‌ها: " + "، ".join(chosen)]
    if record.in_private:
        rivals = game.max_players - 1
        room = texts.COMPUTER_ROOM_ONE if rivals == 1 else texts.COMPUTER_ROOM_MANY.format(n=num(rivals))
        lines += ["", texts.PRIVATE_LOBBY_HELP.format(room=room)]
        return "\n".join(lines)
    lines += [
        "",
        "برای پیوستن «پیوستن» را بزنید؛ سازنده یا مدیر گروه با «شروع» بازی را آغاز می‌کند.",
        texts.GROUP_LOBBY_COMPUTERS,
        "هر بازیکن یک بار باید ربات را در گفتگوی خصوصی «شروع» کند (دکمهٔ پایین).",
    ]
    return "\n".join(lines)


LEVELS_MENU = "add"  # the lobby's menu level that offers the computer players' levels


def lobby_keyboard(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, menu: str = "") -> InlineKeyboardMarkup:
    """The lobby's buttons, or at ``menu`` ``LEVELS_MENU`` the levels a computer player may be added at."""
    if menu == LEVELS_MENU:
        return keyboards.computer_levels(record.version)
    return keyboards.lobby(
        record.version,
        record.game_id,
        options_of(record),
        join_link(context, record.chat_id, record.thread_id),
        computers=[(number(p), p.name) for p in record.players if p.is_computer],
        private=record.in_private,
        joinable=len(record.players) < GAMES[record.game_id].max_players,
        room_for_computers=computer_room_error(record) is None,
    )


async def show_lobby_menu(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, menu: str) -> None:
    """Open a level of the lobby's buttons (``menu`` "" is the top): only the buttons change."""
    live = await services(context).store.live_message(record.chat_id, record.thread_id)
    if live is None:
        return
    try:
        await context.bot.edit_message_reply_markup(
            chat_id=record.chat_id, message_id=live.message_id, reply_markup=lobby_keyboard(context, record, menu)
        )
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise


async def show_lobby(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> None:
    """Edit the lobby message to the record's state; send a new one if it cannot be edited."""
    store = services(context).store
    live = await store.live_message(record.chat_id, record.thread_id)
    text, markup = lobby_text(record), lobby_keyboard(context, record)
    if live is not None:
        try:
            await context.bot.edit_message_text(
                chat_id=record.chat_id, message_id=live.message_id, text=text,
                reply_markup=markup,
            )  # fmt: skip
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():
                log.info("lobby message %s cannot be edited (%s); sending a new one", live.message_id, exc)
                # forgotten first: if the new one must wait for the budget, the next try does not edit again
                await store.clear_live_message(record.chat_id, record.thread_id)
                live = None
    if live is None:
        message = await context.bot.send_message(
            chat_id=record.chat_id, message_thread_id=record.thread_id, text=text,
            reply_markup=markup,
        )  # fmt: skip
        live = LiveMessage(message.message_id, record.version)
    await store.set_live_message(record.chat_id, record.thread_id, live.message_id, record.version)
