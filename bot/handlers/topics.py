"""A forum topic closed or reopened while it holds a game.

Telegram refuses every new message in a closed topic ("TOPIC_CLOSED") and tells the bot with a
``forum_topic_closed`` service message, which every bot receives whatever its privacy mode. The game then
stands still instead of trying to send into the topic again and again: its deadlines are dropped (no
reminder, no time-out: nobody can talk there) and the group is told in its General topic, the one place
left to say it. When the topic is reopened (``forum_topic_reopened``) the game goes on with a full turn and
a note in the topic. A send that meets a closed topic before the service message arrived stops the game
the same way (``stop_if_closed``). A game that ended just as its topic closed keeps its result until the topic
reopens (the result is a new message; it is announced then).
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot.messages import texts
from bot.messages.fa import name
from bot.messages.lobby_message import show_lobby
from bot.messages.redraw import redraw
from bot.runtime.commit import commit
from bot.runtime.recovery import heal
from bot.runtime.store import StaleVersion
from bot.services import locked_game, where

log = logging.getLogger(__name__)


def is_topic_closed(error: BaseException | None) -> bool:
    """Telegram's answer to a message sent into a closed forum topic."""
    return isinstance(error, BadRequest) and "topic_closed" in error.message.lower()


async def on_topic_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat_id, thread_id = where(update)
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    created = replied.forum_topic_created if replied is not None else None
    await stop_if_closed(context, chat_id, thread_id, created.name if created is not None else None)


async def stop_if_closed(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None, topic: str | None = None
) -> None:
    """Stand the topic's game still (once) and say so in the General topic."""
    if thread_id is None:
        return
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or not record.active or record.topic_closed:
            return
        record.topic_closed = True
        try:
            record = await commit(context, record)  # arms no deadline while the topic is closed
        except StaleVersion:
            return
    if record.phase == "playing":
        await redraw(context, record)  # an edit: Telegram allows it in a closed topic
    log.info("chat %s: topic %s closed; its game stands still", chat_id, thread_id)
    note = texts.TOPIC_CLOSED_NOTE.format(topic=f"«{name(topic)}» " if topic else "")
    try:
        await context.bot.send_message(chat_id=chat_id, text=note)  # the General topic
    except TelegramError as exc:
        log.info("chat %s: could not tell the General topic that topic %s closed: %s", chat_id, thread_id, exc)


async def on_topic_reopened(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is not None and record.phase == "finished":
            await heal(context, record)  # a result that met the closed topic goes out now
            return
        if record is None or not record.active or not record.topic_closed:
            return
        record.topic_closed = False
        record = await commit(context, record)  # a full turn from now
    await context.bot.send_message(chat_id=chat_id, message_thread_id=thread_id, text=texts.TOPIC_REOPENED)
    if record.phase == "playing":
        await redraw(context, record)
    else:
        await show_lobby(context, record)  # perhaps never shown: opened by an admin while the topic was closed
