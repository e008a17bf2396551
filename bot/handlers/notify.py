"""A player turns their own turn notices off or on: the «🔕 خاموش کردن یادآوری» button on a notice, and /notify in the
private chat (which says how they are set and offers the other way)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.messages import texts
from bot.messages.notices import NOTICES_OFF_DATA, NOTICES_ON_DATA
from bot.plumbing.services import services


def switch_button(on: bool) -> InlineKeyboardButton:
    """The button that turns notices the other way from ``on``."""
    if on:
        return InlineKeyboardButton(texts.NOTICES_OFF, callback_data=NOTICES_OFF_DATA)
    return InlineKeyboardButton(texts.NOTICES_ON, callback_data=NOTICES_ON_DATA)


def switched(markup: InlineKeyboardMarkup | None, on: bool) -> InlineKeyboardMarkup:
    """``markup`` with its on/off button turned to offer the other way (a notice keeps its link to the game)."""
    rows = [
        [switch_button(on) if b.callback_data in (NOTICES_OFF_DATA, NOTICES_ON_DATA) else b for b in row]
        for row in (markup.inline_keyboard if markup is not None else ())
    ]
    if not any(b.callback_data in (NOTICES_OFF_DATA, NOTICES_ON_DATA) for row in rows for b in row):
        rows.append([switch_button(on)])
    return InlineKeyboardMarkup(rows)


async def cmd_notify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/notify`` in private: how the player's turn notices are set, with the button to change it."""
    user, message = update.effective_user, update.effective_message
    assert user is not None and message is not None
    on = await services(context).store.wants_notices(user.id)
    text = texts.NOTICES_ARE_ON if on else texts.NOTICES_ARE_OFF
    await message.reply_text(text, reply_markup=InlineKeyboardMarkup([[switch_button(on)]]))


async def on_notices_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``u:off`` / ``u:on``: the presser's own notices, from a notice, /notify or /start."""
    query = update.callback_query
    assert query is not None and query.data is not None
    on = query.data == NOTICES_ON_DATA
    await services(context).store.set_notices(query.from_user.id, on)
    await query.answer(texts.NOTICES_TURNED_ON if on else texts.NOTICES_TURNED_OFF, show_alert=not on)
    message = query.message
    if not isinstance(message, Message):
        return
    markup = switched(message.reply_markup, on)
    try:  # the message now offers the other way (a private chat's budget, never a group's)
        if message.text in (texts.NOTICES_ARE_ON, texts.NOTICES_ARE_OFF):  # /notify's answer says how it is set
            await message.edit_text(texts.NOTICES_ARE_ON if on else texts.NOTICES_ARE_OFF, reply_markup=markup)
        else:
            await message.edit_reply_markup(reply_markup=markup)
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise
