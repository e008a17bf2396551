"""What a turn notice says about a group: its title, whether it is a supergroup, and its public username.

``getChat`` is not a message (it takes nothing from the flood budgets), but a notice for every turn need not ask
Telegram each time what a group is called: its answer is kept in the process for a few minutes. A title
changed meanwhile shows in the next notices after that; nothing else depends on it, so nothing is kept in Redis.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import TTLCache
from telegram import Bot
from telegram.constants import ChatType
from telegram.error import ChatMigrated

log = logging.getLogger(__name__)

KEEP_SECONDS = 600.0
_MAX_KEPT = 4096  # groups remembered at once; the least recently asked for are forgotten first


@dataclass(frozen=True, slots=True)
class ChatCard:
    """A group as its members know it; ``kind`` is Telegram's chat type ("group" for a basic group)."""

    chat_id: int
    kind: str
    title: str = ""
    username: str | None = None

    @property
    def supergroup(self) -> bool:
        return self.kind == ChatType.SUPERGROUP


class ChatCards:
    """``getChat`` answers, each kept for ``KEEP_SECONDS``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._kept: TTLCache[int, ChatCard] = TTLCache(maxsize=_MAX_KEPT, ttl=KEEP_SECONDS, timer=clock)

    async def card(self, bot: Bot, chat_id: int) -> ChatCard:
        """The group's card; when Telegram cannot say (an outage, a refusal), what its id alone tells: a
        supergroup's ids begin with -100 (the Bot API's numbering of channels and supergroups)."""
        kept = self._kept.get(chat_id)
        if kept is not None:
            return kept
        try:
            chat = await bot.get_chat(chat_id)
        except ChatMigrated:
            raise
        except Exception as exc:  # a notice goes out without the title rather than not at all
            log.info("no card for chat %s (%s)", chat_id, exc)
            return ChatCard(chat_id, ChatType.SUPERGROUP if str(chat_id).startswith("-100") else ChatType.GROUP)
        card = ChatCard(chat_id, str(chat.type), chat.title or "", chat.username)
        self._kept[chat_id] = card
        return card
