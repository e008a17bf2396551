"""Who may do what in a group: Telegram's creator and administrators, checked at every use, and who is really
writing (messages sent on behalf of a chat carry a shared fake user).

``getChatMember`` about other users is only guaranteed to answer when the bot is an administrator, so the
checks degrade to what a plain member bot can know: ``getChatAdministrators`` (answered to any member) for
admin rights, and the group's own messages and presses (``Store.note_seen``) for membership.
"""

from __future__ import annotations

from telegram import Bot, Message, Update
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, ChatMigrated, TelegramError

from bot.plumbing.store import Store

ANONYMOUS_ADMIN_BOT = 1087968824  # @GroupAnonymousBot: an anonymous admin writing as the group
CHANNEL_BOT = 136817688  # @Channel_Bot: someone writing as a channel
TELEGRAM_SERVICE = 777000  # "Telegram": a linked channel's post forwarded to its discussion group
FAKE_SENDERS = frozenset({ANONYMOUS_ADMIN_BOT, CHANNEL_BOT, TELEGRAM_SERVICE})


def on_behalf_of_a_chat(update: Update) -> bool:
    """True for a message sent as the group (an anonymous admin) or as a channel: nobody in particular wrote
    it, so it may not join, open a lobby or count as anyone's."""
    message = update.effective_message
    if message is not None and message.sender_chat is not None:
        return True
    user = update.effective_user
    return user is not None and user.id in FAKE_SENDERS


async def is_admin(bot: Bot, chat_id: int, user_id: int, message: Message | None = None) -> bool:
    """True for the group's creator and administrators, including an admin posting anonymously (the group is
    the sender); never for a channel or a fake user."""
    if message is not None and message.sender_chat is not None:
        return message.sender_chat.id == chat_id
    if user_id in FAKE_SENDERS:
        return False  # a button press never comes from a fake user; refuse rather than guess
    try:
        member = await bot.get_chat_member(chat_id, user_id)
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
    except ChatMigrated:
        raise  # the group moved: the caller's chat is gone (bot.handlers.membership follows it)
    except BadRequest:  # not an admin ourselves: Telegram need not tell us about other members
        pass
    except TelegramError:
        return False
    try:
        admins = await bot.get_chat_administrators(chat_id)
    except ChatMigrated:
        raise
    except TelegramError:
        return False
    return any(admin.user.id == user_id for admin in admins)


async def is_member(bot: Bot, store: Store, chat_id: int, user_id: int) -> bool | None:
    """Whether the user is in the group (a deep link must not let outsiders into a group's game): Telegram's
    answer when it gives one, else True if they wrote or pressed a button there, else None (cannot tell)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
        return member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    except ChatMigrated:
        raise
    except BadRequest:
        pass
    except TelegramError:
        return False
    return True if await store.was_seen(chat_id, user_id) else None
