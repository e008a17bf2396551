"""Who may do what in a group: Telegram's creator and administrators, checked at every use."""

from __future__ import annotations

from telegram import Bot, Message
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

ANONYMOUS_ADMIN_BOT = 1087968824  # "GroupAnonymousBot": messages from anonymous admins come from it


async def is_admin(bot: Bot, chat_id: int, user_id: int, message: Message | None = None) -> bool:
    """True for the group's creator and administrators, including an admin posting anonymously."""
    if message is not None and message.sender_chat is not None and message.sender_chat.id == chat_id:
        return True
    if user_id == ANONYMOUS_ADMIN_BOT:
        return False  # a button press never comes from the anonymous bot; refuse rather than guess
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """True if the user is in the group (a deep link must not let outsiders into a group's game)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
