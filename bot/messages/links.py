"""Links that open a group's message in Telegram, as Telegram's own apps make them.

Telegram's deep links (https://core.telegram.org/api/links#message-links): a public group's message is
``t.me/<username>/<id>``, a private supergroup's ``t.me/c/<channel>/<id>`` where ``<channel>`` is the
supergroup's own id (the Bot API's chat id is -100 followed by it), and in a forum topic the topic's id comes
before the message's (``t.me/c/<channel>/<topic>/<id>``). Only members can open a private group's link, which
the players are. A basic group has no message links at all.

Made here rather than by PTB's ``Message.link``: no ``Message`` is at hand where a link is needed (a notice
knows the board by the id kept in Redis and the group by ``getChat``), and ``Message.link`` writes a topic's
message as ``?thread=<topic>``, the form of a comment thread, not Telegram's ``/<topic>/<id>``.
"""

from __future__ import annotations

from bot.plumbing.chat_cards import ChatCard

_SUPERGROUP_BASE = -(10**12)  # a supergroup's Bot API id is this minus its own id


def message_link(card: ChatCard, message_id: int, thread_id: int | None = None) -> str | None:
    """The link to ``message_id`` in the group ``card`` (in topic ``thread_id``), or None if it has none."""
    if not card.supergroup:
        return None
    where = f"{thread_id}/{message_id}" if thread_id is not None else f"{message_id}"
    if card.username:
        return f"https://t.me/{card.username}/{where}"
    channel = _SUPERGROUP_BASE - card.chat_id
    if channel <= 0:
        return None  # not an id Telegram gives a supergroup
    return f"https://t.me/c/{channel}/{where}"
