"""What handlers share: the store, the chat locks and the settings, kept in ``application.bot_data``."""

from __future__ import annotations

from dataclasses import dataclass, field

from telegram import Update
from telegram.ext import ContextTypes

from bot.config import Settings
from bot.locks import ChatLocks
from bot.store import Store, chat_tag


@dataclass
class Services:
    store: Store
    settings: Settings
    locks: ChatLocks = field(default_factory=ChatLocks)


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    svc = context.bot_data["services"]
    assert isinstance(svc, Services)
    return svc


def where(update: Update) -> tuple[int, int | None]:
    """The chat and, in a forum topic, the topic: each topic holds its own game."""
    message = update.effective_message
    chat = update.effective_chat
    assert chat is not None
    thread = message.message_thread_id if message is not None and message.is_topic_message else None
    return chat.id, thread


def lock_key(chat_id: int, thread_id: int | None) -> str:
    return chat_tag(chat_id, thread_id)
