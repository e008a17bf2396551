"""Which users' messages reach the bot: Telegram's privacy mode for bots in groups.

Telegram (core.telegram.org/bots/features#privacy-mode and the Bot FAQ "What messages will my bot get?"):
in a group, a bot in privacy mode (BotFather's default) only receives commands explicitly meant for it
(``/command@this_bot``), general commands (``/start``) if it was the last bot to send a message to the
group, and replies to its messages; every bot receives service messages and everything in private chats;
a reply to bot A's message goes to bot A only ("replies have the highest priority"); and no bot ever sees
another bot's messages. BotFather's /setprivacy also names messages that mention the bot by username.
"""

from __future__ import annotations

import re

from sandbox.formatting import COMMAND
from sandbox.state import BOT_ID, BOT_USERNAME, Chat, Message, World

_MENTION = re.compile(r"(?<![A-Za-z0-9_])@([A-Za-z0-9_]{3,32})(?![A-Za-z0-9_])")


def reaches_bot(world: World, chat: Chat, message: Message) -> bool:
    """Whether Telegram would deliver a user's ``message`` to our bot. A general command goes to the bot that
    sent the group's latest bot message (``Chat.last_bot_sender``); while no bot has spoken there, to ours."""
    sender = world.users.get(message.from_id)
    if sender is not None and sender.is_bot:
        return False  # bots never see other bots' messages
    if chat.is_private or message.service or not chat.privacy:
        return True
    replied = chat.messages.get(message.reply_to_message_id) if message.reply_to_message_id else None
    if replied is not None:
        if replied.from_bot:
            return True
        replied_sender = world.users.get(replied.from_id)
        if replied_sender is not None and replied_sender.is_bot:
            return False  # the other bot has the reply, whatever command it holds
    text = message.text.text if message.text is not None else ""
    for command in COMMAND.finditer(text):
        _, at, target = command.group().partition("@")
        if at and target.lower() == BOT_USERNAME.lower():
            return True
        if not at and command.start() == 0 and chat.last_bot_sender in (None, BOT_ID):
            return True  # a general command: the last bot that spoke in the group takes it
    return any(m.group(1).lower() == BOT_USERNAME.lower() for m in _MENTION.finditer(text))
