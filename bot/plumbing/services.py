"""What handlers share: the store, the chat locks and the settings, kept in ``application.bot_data``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.config import Settings
from bot.plumbing import logs
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.locks import ChatLocks
from bot.plumbing.store import GameRecord, Store, chat_tag
from bot.plumbing.thinking import Thinker


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


Send = Callable[[], Awaitable[Any]]


@dataclass(eq=False)
class _Later:
    """The sends a locked block asked for; ``held`` until its lock is let go (a task started under the lock
    inherits this, and must not queue a send that nobody will make)."""

    sends: list[Send] = field(default_factory=list)
    held: bool = True


_AFTER_UNLOCK: ContextVar[_Later | None] = ContextVar("dorehami_after_unlock", default=None)


@asynccontextmanager
async def locked_game(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None
) -> AsyncIterator[GameRecord | None]:
    """The chat's game record, read and acted on under the chat's lock, so one game's code never runs twice at
    once: a lock in this process with long polling, a lease in Redis shared by every worker in webhook mode
    (``bot.webhook`` puts a ``SharedChatLocks`` in ``Services.locks``). What the block asked to send with
    ``when_unlocked`` is sent, in order, once the lock is let go (not if the block failed)."""
    svc = services(context)
    later = _Later()
    token = _AFTER_UNLOCK.set(later)
    try:
        async with svc.locks.hold(chat_tag(chat_id, thread_id)):
            record = await svc.store.load(chat_id, thread_id)
            if record is not None:
                logs.playing(record.game_id)  # the records logged from here on name the game
            yield record
    finally:
        later.held = False
        _AFTER_UNLOCK.reset(token)
    for send in later.sends:
        await send()


async def when_unlocked(send: Send) -> None:
    """Send a message that needs nothing of the game's lock (a reply, a notice) once the chat's lock is let
    go, at once outside a lock: a send may wait for the chat's budget, and no move may wait behind it."""
    later = _AFTER_UNLOCK.get()
    if later is None or not later.held:
        await send()
    else:
        later.sends.append(send)


def parse_tag(tag: str) -> tuple[int, int | None]:
    """The chat and topic of a chat tag (``bot.store.chat_tag``)."""
    chat, _, thread = tag.partition(":")
    return int(chat), (int(thread) if thread else None)
