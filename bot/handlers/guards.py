"""Which button presses reach a button's handler: data the bot could have made, pressed where it is shown.

Telegram is said to deliver only callback data that is on the pressed message, but old keyboards, another
chat's buttons and our own mistakes still reach the bot, so nothing relies on it. A press reaches the
handler of its kind only if its data is a non-empty ASCII string of at most 64 bytes that matches the kind's
pattern in full (``bot.messages.keyboards.PATTERNS``, bounded fields), and it was pressed in a chat where
that kind of button is shown (``SHOWN_IN``: group buttons in groups, hands in the private chat, the lobby
and board of a game against computer players in either), on a
message that really carries that button (so no handler acts on, deletes or edits a message that is not the
one its button was on; a message too old to be shown to the bot is left to the handler's own checks).
Anything else is no handler's: it falls through to the one catch-all that answers with the "stale" alert
(``bot/app.py``), and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.ext import CallbackQueryHandler, ContextTypes

from bot.messages.keyboards import MAX_CALLBACK, PATTERNS, SHOWN_IN, has_button

ButtonCallback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]

CHAT_TYPES: dict[str, frozenset[str]] = {
    "group": frozenset({ChatType.GROUP, ChatType.SUPERGROUP}),
    "private": frozenset({ChatType.PRIVATE}),
    "anywhere": frozenset({ChatType.GROUP, ChatType.SUPERGROUP, ChatType.PRIVATE}),  # games against computers
}


def pressed_where_shown(update: Update, kind: str) -> bool:
    """True if the press's data could be a button of ``kind`` (short ASCII; its pattern is checked by the
    handler), it came from a chat where such buttons are shown, and the pressed message shows it. A press
    from an inline message has no chat: the bot never sends one."""
    query = update.callback_query
    chat = update.effective_chat
    if query is None or chat is None or chat.type not in CHAT_TYPES[SHOWN_IN[kind]]:
        return False
    data = query.data
    if not (isinstance(data, str) and data.isascii() and 0 < len(data) <= MAX_CALLBACK):
        return False
    return not isinstance(query.message, Message) or has_button(query.message.reply_markup, data)


class ButtonHandler(CallbackQueryHandler[ContextTypes.DEFAULT_TYPE, None]):
    """``CallbackQueryHandler`` for one kind of button: its pattern in full, and ``pressed_where_shown``."""

    __slots__ = ("kind",)

    def __init__(self, kind: str, callback: ButtonCallback) -> None:
        super().__init__(callback, pattern=PATTERNS[kind])
        self.kind = kind

    def check_update(self, update: object) -> bool | object | None:
        if not isinstance(update, Update) or not pressed_where_shown(update, self.kind):
            return False
        return super().check_update(update)
