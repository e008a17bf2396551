"""What handlers share: the store, the chat locks and the settings, kept in ``application.bot_data``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from telegram import Update
from telegram.ext import ContextTypes

from bot.config import Settings
from bot.runtime.deadlines import Deadlines
from bot.runtime.locks import ChatLocks
from bot.runtime.store import GameRecord, Store, chat_tag
from bot.runtime.thinking import Thinker


@dataclass
class Services:
    store: Store
    settings: Settings
    deadlines: Deadlines
    locks: ChatLocks = field(default_factory=ChatLocks)  # SharedChatLocks with several workers (webhook mode)
    thinker: Thinker = field(default_factory=lambda: Thinker(1))  # the computer players' process pool


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


@asynccontextmanager
async def locked_game(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None
) -> AsyncIterator[GameRecord | None]:
    """The chat's game record, read and acted on under the chat's lock, so one game's code never runs twice at
    once: a lock in this process with long polling, a lease in Redis shared by every worker in webhook mode
    (``bot.webhook`` puts a ``SharedChatLocks`` in ``Services.locks``)."""
    svc = services(context)
    async with svc.locks.hold(chat_tag(chat_id, thread_id)):
        yield await svc.store.load(chat_id, thread_id)


def parse_tag(tag: str) -> tuple[int, int | None]:
    """The chat and topic of a chat tag (``bot.store.chat_tag``)."""
    chat, _, thread = tag.partition(":")
    return int(chat), (int(thread) if thread else None)
