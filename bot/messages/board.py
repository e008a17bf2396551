"""The game's board message: a picture with a caption and the current player's buttons, edited in place."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from telegram import InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import BadRequest, RetryAfter
from telegram.ext import ContextTypes

from bot.games import PRESENTERS
from bot.messages import hands, keyboards, pictures, texts
from bot.messages.fa import name
from bot.messages.page_buttons import page_button
from bot.messages.seats import addressed, gone_line, result_view, winners
from bot.messages.split import CAPTION_LIMIT, shorten, visible_length
from bot.plumbing import activity
from bot.plumbing.pacing import waiting
from bot.plumbing.services import services
from bot.plumbing.stop_points import stop_point
from bot.plumbing.store import GameRecord, chat_tag
from rules import GAMES

log = logging.getLogger(__name__)

UNEDITABLE = -1  # the live message's version when it cannot be edited into the board (the lobby's text)
RECENT_LINES = 4


def load_state(record: GameRecord) -> Any:
    return GAMES[record.game_id].state_model.model_validate(record.state)


def names(record: GameRecord) -> list[str]:
    return [p.name for p in record.players]


def caption(record: GameRecord, state: Any, *, on_page: bool = False) -> str:
    """The board's caption; ``on_page``: as the Mini App's page shows it, where every choice is made (no «in
    the private chat»)."""
    game = GAMES[record.game_id]
    presenter = PRESENTERS[record.game_id]
    view = game.view(state, None)
    lines = [f"{presenter.emoji} <b>{game.title}</b>"]
    ending = result_lines(record, state) if record.phase == "finished" else []
    recent = [line for line in record.recent[-RECENT_LINES:] if line not in ending]  # said once, with the result
    if recent:
        lines += ["", *recent]
    if record.phase == "finished":
        lines += ["", "🏁 <b>پایان بازی</b>", *ending]
    elif record.phase == "cancelled":  # nobody's turn any more
        lines += ["", texts.CANCELLED]
    else:
        lines += ["", *presenter.status(view, names(record))]
        if record.paused:
            lines.append("⏸ زمان‌سنج نوبت متوقف است.")
        if record.topic_closed:
            lines.append(texts.TOPIC_CLOSED_LINE)
        turn = [addressed(record.players[s]) for s in game.to_act(state)]
        codes, in_private = hands.group_codes(record, state)
        # not while there are buttons here too, nor on the page, where the private choices are made as well
        where = " (در گفتگوی خصوصی)" if in_private and not codes and not on_page else ""
        lines.append("👈 نوبت " + "، ".join(turn) + where)
    text = "\n".join(lines)
    while visible_length(text) > CAPTION_LIMIT and len(lines) > 3:  # drop the oldest news first
        del lines[2]
        text = "\n".join(lines)
    return shorten(text, CAPTION_LIMIT)  # the picture shows the whole board


def result_lines(record: GameRecord, state: Any) -> list[str]:
    """The game's own result with its winners among the players still in it, or the last one left."""
    if GAMES[record.game_id].outcome(state) is None:  # ended because too few players were left
        gone = [gone_line(record, seat) for seat in record.gone]
        staying = winners(record, state)
        if len(staying) > 1:  # nobody but computer players was left
            return [*gone, texts.NO_PERSON_LEFT]
        winner = " و ".join(name(record.players[s].name) for s in staying)
        return [*gone, texts.LAST_ONE.format(winner=winner)]
    lines = PRESENTERS[record.game_id].result(result_view(record, state), names(record))
    if record.gone:
        lines.append(texts.GONE_CANNOT_WIN.format(who="، ".join(name(record.players[s].name) for s in record.gone)))
    return lines


def keyboard(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, prefix: str = ""
) -> InlineKeyboardMarkup | None:
    """The board's buttons: the public choices of the seat to act, and a way to the private chat when the
    move is made there."""
    codes, in_private = hands.group_codes(record, state)
    extra = [hands.hand_button(context, record)] if in_private else []
    if (opener := page_button(context, record, private=False)) is not None:
        extra.append(opener)
    if not codes and not extra:
        return None
    view = GAMES[record.game_id].view(state, hands.board_seat(record))
    return keyboards.game_menu(record.game_id, record.version, codes, prefix, view, extra=extra)


async def picture(record: GameRecord, state: Any, prefix: str = "") -> tuple[bytes, str]:
    """Render off the event loop: drawing takes milliseconds that other chats should not wait for. ``prefix``
    is the menu level shown ("" the one the menu opens on), for a game whose picture previews the choice."""
    view = GAMES[record.game_id].view(state, None)
    presenter = PRESENTERS[record.game_id]
    if presenter.previews and not prefix:
        prefix = keyboards.menu(record.game_id, hands.group_codes(record, state)[0]).top()
    key = (chat_tag(record.chat_id, record.thread_id), record.version, None, prefix)
    return await pictures.render(key, lambda: presenter.picture(view, names(record), prefix))


async def post(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> Message:
    """Send the board as a new message at the bottom of the chat and make it the live message."""
    store = services(context).store
    old = await store.live_message(record.chat_id, record.thread_id)
    data, filename = await picture(record, state)
    message = await context.bot.send_photo(
        chat_id=record.chat_id,
        message_thread_id=record.thread_id,
        photo=data,
        filename=filename,
        caption=caption(record, state),
        reply_markup=keyboard(context, record, state),
    )
    await store.set_live_message(record.chat_id, record.thread_id, message.message_id, record.version)
    if old is not None and old.message_id != message.message_id:
        # the old board's buttons would only confuse (a press on them is stale); if the group's budget has no
        # room now, they are taken away when it has, by a task of their own that holds no lock
        try:
            with contextlib.suppress(BadRequest):
                await context.bot.edit_message_reply_markup(
                    chat_id=record.chat_id, message_id=old.message_id, reply_markup=None
                )
        except RetryAfter:
            activity.spawn(_strip_buttons(context, record.chat_id, old.message_id), "cleanup", context.application)
    return message


async def _strip_buttons(context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int) -> None:
    """Take an old board's buttons away, waiting for the group's budget (no lock is held here)."""
    with waiting(), contextlib.suppress(BadRequest):
        await context.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=None)


async def ask_repost(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> None:
    """/board: the chat's drawer posts the board anew at the bottom of the chat, as for a board that cannot
    be edited (and the old one loses its buttons)."""
    store = services(context).store
    live = await store.live_message(record.chat_id, record.thread_id)
    if live is not None:
        await store.set_live_message(record.chat_id, record.thread_id, live.message_id, UNEDITABLE)


async def refresh(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    """Redraw the live board in place; post a new board if it cannot be edited (deleted, or still the
    lobby's text message after a crash)."""
    await _refresh(context, record, state)
    stop_point("board-drawn", record.chat_id)  # tests kill the bot here: the board is new, the hands are not yet


async def _refresh(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    store = services(context).store
    live = await store.live_message(record.chat_id, record.thread_id)
    buried = (
        record.in_private and live is not None and await store.newest_private_message(record.chat_id) > live.message_id
    )
    if live is None or live.version == UNEDITABLE or buried:  # buried: a group's notice came below the board
        await post(context, record, state)
        return
    data, filename = await picture(record, state)
    media = InputMediaPhoto(media=data, filename=filename, caption=caption(record, state))
    try:
        await context.bot.edit_message_media(
            chat_id=record.chat_id,
            message_id=live.message_id,
            media=media,
            reply_markup=keyboard(context, record, state),
        )
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            log.info("board %s in %s cannot be edited (%s); posting a new one", live.message_id, record.chat_id, exc)
            # noted first: if the new board must wait for the budget, the next try posts it without trying
            # (and paying for) the edit that cannot work again
            await store.set_live_message(record.chat_id, record.thread_id, live.message_id, UNEDITABLE)
            await post(context, record, state)
            return
    await store.set_live_message(record.chat_id, record.thread_id, live.message_id, record.version)


async def show_menu(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, prefix: str) -> None:
    """Open a menu level: the buttons change, and the picture too for a game whose picture previews the
    choice made so far."""
    live = await services(context).store.live_message(record.chat_id, record.thread_id)
    if live is None:
        return
    markup = keyboard(context, record, state, prefix)
    try:
        if PRESENTERS[record.game_id].previews:
            data, filename = await picture(record, state, prefix)
            media = InputMediaPhoto(media=data, filename=filename, caption=caption(record, state))
            await context.bot.edit_message_media(
                chat_id=record.chat_id, message_id=live.message_id, media=media, reply_markup=markup
            )
        else:
            await context.bot.edit_message_reply_markup(
                chat_id=record.chat_id, message_id=live.message_id, reply_markup=markup
            )
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise
