"""A record of every Bot API call, for tests (what did the bot send?) and benchmarks (when?)."""

from __future__ import annotations

from typing import Any

from sandbox.signals import Signal


class CallLog:
    """Sequence numbers keep increasing across resets so log readers never miss entries."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.changed = Signal()
        self._last_seq = 0

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def add(
        self,
        t: float,
        method: str,
        chat_id: int | None,
        message_id: int | None,
        params: dict[str, Any],
        status: int,
        duration: float,
    ) -> dict[str, Any]:
        self._last_seq += 1
        entry = {
            "seq": self._last_seq,
            "t": t,
            "method": method,
            "chat_id": chat_id,
            "message_id": message_id,
            "params": params,
            "status": status,
            "duration": duration,
        }
        self.items.append(entry)
        self.changed.fire()
        return entry

    def after(self, seq: int, limit: int | None = None) -> list[dict[str, Any]]:
        # Sequence numbers are dense within the current items, so slicing finds the start.
        start = 0
        if self.items:
            start = max(0, min(len(self.items), seq - self.items[0]["seq"] + 1))
        selected = self.items[start:]
        return selected[:limit] if limit is not None else selected

    def clear(self) -> None:
        self.items.clear()
        self.changed.fire()
