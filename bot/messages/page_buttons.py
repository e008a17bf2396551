"""The buttons that open the Mini App: only when the operator set it up (WEBAPP_URL and WEBAPP_NAME).

Telegram refuses inline ``web_app`` buttons outside private chats, so a group's board carries a ``url``
button to the bot's Direct Link Mini App (``https://t.me/<bot>/<app>?startapp=<chat>``), which any client
opens as the app; in the private chat (a solo game's board, a hand) a ``web_app`` button opens the page
itself, the chat named in its address. Either way the chat is named by a parameter the bot signed
(bot/plumbing/page_link.py).
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, WebAppInfo
from telegram.ext import ContextTypes

from bot.messages import texts
from bot.plumbing import page_link
from bot.plumbing.services import services
from bot.plumbing.store import GameRecord


def page_button(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, *, private: bool
) -> InlineKeyboardButton | None:
    """The button to the game's page on a message in the group (``private`` False) or in a private chat; None
    when there is no Mini App or no game running."""
    settings = services(context).settings
    if settings.webapp_url is None or settings.webapp_name is None or record.phase != "playing":
        return None
    payload = page_link.make(context.bot.token, record.chat_id, record.thread_id)
    if private or record.in_private:
        address = str(settings.webapp_url)
        return InlineKeyboardButton(texts.PAGE_BUTTON, web_app=WebAppInfo(f"{address}?p={payload}"))
    link = f"https://t.me/{context.bot.username}/{settings.webapp_name}?startapp={payload}"
    return InlineKeyboardButton(texts.PAGE_BUTTON, url=link)
