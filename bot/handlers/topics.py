"""A forum topic closed or reopened while it holds a game: closed, the game stands still (bot/flow/topics.py);
reopened, it goes on with a full turn and a note in the topic. A game that ended just as its topic closed
keeps its result until the topic reopens (the result is a new message; it is announced then).
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.flow.commit import commit
from bot.flow.recovery import heal
from bot.flow.redraw import redraw, stop_if_closed
from bot.messages import texts
from bot.messages.lobby_message import show_lobby
from bot.plumbing.services import locked_game, where


async def on_topic_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat_id, thread_id = where(update)
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    created = replied.forum_topic_created if replied is not None else None
    await stop_if_closed(context, chat_id, thread_id, created.name if created is not None else None)


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
