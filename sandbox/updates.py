"""The bot's update queue, shared by getUpdates long-polling and webhook delivery.

Each update also names the webhook queue Telegram delivers it in: Telegram's Bot API server puts a callback
query in its user's queue and a message in its chat's (tdlib/telegram-bot-api, Client.cpp: ``add_update(...,
user_id + (3 << 33))`` for callback queries, ``add_update(..., chat_id)`` for messages), and sends a queue's
next update only once the previous one was accepted, while different queues go in parallel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sandbox.signals import Signal

# Telegram's default when allowed_updates was never set (or set to an empty list).
_OPT_IN_KINDS = {"chat_member", "message_reaction", "message_reaction_count"}


@dataclass
class PendingUpdate:
    """An update waiting for confirmation (polling) or a successful POST (webhook)."""

    update_id: int
    kind: str
    payload: dict[str, Any]
    chat_id: int | None
    handed_out: bool = False

    @property
    def queue(self) -> tuple[str, int | None]:
        """The webhook queue this update waits in: its user's for a callback query, else its chat's."""
        if self.kind == "callback_query":
            return "user", int(self.payload["from"]["id"])
        return "chat", self.chat_id

    def as_json(self) -> dict[str, Any]:
        return {"update_id": self.update_id, self.kind: self.payload}


class UpdateQueue:
    """Update ids keep increasing across resets, so a polling bot's offset never hides new updates."""

    def __init__(self) -> None:
        self.items: list[PendingUpdate] = []
        self.allowed: list[str] | None = None
        self.changed = Signal()
        self._next_id = 1

    def set_allowed(self, kinds: list[Any] | None) -> None:
        """Like Telegram, an allowed_updates change applies to updates created from now on."""
        if kinds is not None:
            self.allowed = [str(kind) for kind in kinds] or None

    def is_allowed(self, kind: str) -> bool:
        return kind not in _OPT_IN_KINDS if self.allowed is None else kind in self.allowed

    def push(self, kind: str, payload: dict[str, Any], chat_id: int | None) -> PendingUpdate | None:
        if not self.is_allowed(kind):
            return None
        update = PendingUpdate(self._next_id, kind, payload, chat_id)
        self._next_id += 1
        self.items.append(update)
        self.changed.fire()
        return update

    def confirm(self, offset: int) -> None:
        """Forget updates before ``offset``; a negative offset keeps only the last ``-offset``."""
        if offset < 0:
            self.items = self.items[offset:]
        else:
            self.items = [u for u in self.items if u.update_id >= offset]

    def take(self, limit: int) -> list[PendingUpdate]:
        batch = self.items[:limit]
        for update in batch:
            update.handed_out = True
        return batch

    def remove(self, update: PendingUpdate) -> None:
        if update in self.items:
            self.items.remove(update)
        self.changed.fire()

    def clear(self) -> None:
        self.items.clear()
        self.changed.fire()

    def hand_back(self) -> None:
        """Make every queued update deliverable again, e.g. when a webhook replaces polling."""
        for update in self.items:
            update.handed_out = False
        self.changed.fire()

    def has_undelivered(self) -> bool:
        return any(not u.handed_out for u in self.items)
