"""The Bot API methods the sandbox implements, looked up case-insensitively like Telegram does."""

from __future__ import annotations

from sandbox.methods import bot, chats, menu, messages, updates
from sandbox.methods.common import Call, Handler

_ALL: dict[str, Handler] = {
    **bot.HANDLERS,
    **chats.HANDLERS,
    **menu.HANDLERS,
    **messages.HANDLERS,
    **updates.HANDLERS,
}
METHODS: dict[str, tuple[str, Handler]] = {name.lower(): (name, handler) for name, handler in _ALL.items()}

__all__ = ["METHODS", "Call", "Handler"]
