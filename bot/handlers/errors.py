"""The one global error handler: log with the chat and the update, apologise, keep the game as stored. A poll
that did not reach Telegram comes here too, and was logged once already (bot/plumbing/telegram_outage.py).

Handlers write a game only through compare-and-set after every check has passed, so an exception at any
point leaves the stored game as it was (or fully moved on); the user gets a short Persian answer.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import ChatMigrated, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.flow.redraw import stop_if_closed
from bot.flow.topics import is_topic_closed
from bot.messages import texts
from bot.plumbing.outage import STORE_DOWN, outage
from bot.plumbing.services import where
from bot.plumbing.telegram_outage import telegram_reach

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    error = context.error
    if update is None and telegram_reach(context).seen(error):  # Telegram out of reach: logged once, not every poll
        return
    chat = update.effective_chat.id if isinstance(update, Update) and update.effective_chat else None
    if isinstance(update, Update) and chat is not None and is_topic_closed(error):
        await _topic_closed(update, context)
        return
    if isinstance(error, STORE_DOWN):  # the outage is logged once by bot.plumbing.outage, not per update
        log.warning("update in chat %s met the Redis outage: %r", chat, error)
    else:
        log.error(
            "error handling update in chat %s: %r; update=%s",
            chat,
            error,
            update.to_dict() if isinstance(update, Update) else update,
            exc_info=error,
        )
    if isinstance(error, STORE_DOWN):  # whatever this update had saved is redrawn once Redis answers
        outage(context).met()
    if not isinstance(update, Update):
        return
    if isinstance(error, ChatMigrated):  # what was saved follows the group (bot.handlers.membership)
        text = texts.CHAT_MOVED
    else:
        text = texts.STORE_DOWN if isinstance(error, STORE_DOWN) else texts.APOLOGY
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text, show_alert=True)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(text)
    except Forbidden:
        pass
    except TelegramError:
        log.info("could not deliver the apology in chat %s", chat)


async def _topic_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A send met a closed forum topic: the game there stands still, and nothing is said in the topic."""
    log.info("update in chat %s met a closed topic", update.effective_chat.id if update.effective_chat else None)
    await stop_if_closed(context, *where(update))
    if update.callback_query is not None:
        try:
            await update.callback_query.answer(texts.TOPIC_CLOSED_LINE, show_alert=True)
        except TelegramError:
            log.info("could not answer a press in a closed topic")
