"""The update types the bot asks Telegram for (``bot.app.UPDATE_TYPES``, sent as allowed_updates) are exactly
the ones its handlers take, and no handler takes an edited message."""

from __future__ import annotations

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
)

from bot.app import UPDATE_TYPES, add_handlers


def _kinds(handler: object) -> set[str]:
    """The update types a handler can take; a handler of a kind not listed here fails the test."""
    if isinstance(handler, CallbackQueryHandler):
        return {Update.CALLBACK_QUERY}
    if isinstance(handler, ChatMemberHandler):
        return {
            ChatMemberHandler.MY_CHAT_MEMBER: {Update.MY_CHAT_MEMBER},
            ChatMemberHandler.CHAT_MEMBER: {Update.CHAT_MEMBER},
            ChatMemberHandler.ANY_CHAT_MEMBER: {Update.MY_CHAT_MEMBER, Update.CHAT_MEMBER},
        }[handler.chat_member_types]
    if isinstance(handler, CommandHandler | MessageHandler):
        # new messages only: the filter is "UpdateType.MESSAGE and ...", so an edit never runs a command again
        assert str(handler.filters).startswith("<filters.UpdateType.MESSAGE and "), handler.filters
        return {Update.MESSAGE}
    if isinstance(handler, TypeHandler) and handler.type is Update:
        return set()  # sees every update that is delivered (who wrote where), asks for no type of its own
    raise AssertionError(f"a handler whose update types UPDATE_TYPES does not know: {handler!r}")


def test_allowed_updates_are_exactly_what_the_handlers_take() -> None:
    app = Application.builder().token("1:test").build()
    add_handlers(app)
    taken = {kind for handlers in app.handlers.values() for handler in handlers for kind in _kinds(handler)}
    assert taken == set(UPDATE_TYPES)
    assert Update.EDITED_MESSAGE not in UPDATE_TYPES
