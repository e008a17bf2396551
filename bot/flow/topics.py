"""A forum topic closed under a game: the game stands still until the topic reopens.

Telegram refuses every new message in a closed topic ("TOPIC_CLOSED") and tells the bot with a
``forum_topic_closed`` service message, which every bot receives whatever its privacy mode. The game then
stands still instead of trying to send into the topic again and again: its deadlines are dropped (no
reminder, no time-out: nobody can talk there) and the group is told in its General topic, the one place
left to say it. A send that meets a closed topic before the service message arrived stops the game the same
way (``bot.flow.redraw.stop_if_closed``, which also redraws the board). Reopening is bot/handlers/topics.py.
"""

from __future__ import annotations

import logging

from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot.flow.commit import commit
from bot.messages import texts
from bot.messages.fa import name
from bot.plumbing.services import locked_game
from bot.plumbing.store import GameRecord, StaleVersion

log = logging.getLogger(__name__)


def is_topic_closed(error: BaseException | None) -> bool:
    """Telegram's answer to a message sent into a closed forum topic."""
    return isinstance(error, BadRequest) and "topic_closed" in error.message.lower()


async def stand_still(context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int | None) -> GameRecord | None:
    """Mark the topic's game as standing still (once) and drop its deadlines; the record saved, or None if
    there was nothing to stop."""
    if thread_id is None:
        return None
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or not record.active or record.topic_closed:
            return None
        record.topic_closed = True
        try:
            return await commit(context, record)  # arms no deadline while the topic is closed
        except StaleVersion:
            return None


async def tell_general(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, thread_id: int, topic: str | None = None
) -> None:
    """Say in the General topic that the topic's game stands still."""
    log.info("chat %s: topic %s closed; its game stands still", chat_id, thread_id)
    note = texts.TOPIC_CLOSED_NOTE.format(topic=f"«{name(topic)}» " if topic else "")
    try:
        await context.bot.send_message(chat_id=chat_id, text=note)  # the General topic
    except TelegramError as exc:
        log.info("chat %s: could not tell the General topic that topic %s closed: %s", chat_id, thread_id, exc)
