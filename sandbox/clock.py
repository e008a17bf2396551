"""The sandbox's clock for Telegram's timings: real seconds, or faster by a visible ``time_scale``.

Every rule that depends on time (the flood limits' windows and rates, ``retry_after`` and its escalation,
how long a callback query may wait for its answer) reads this clock and counts in Telegram seconds, so a
scaled run keeps exactly the real schedule and only runs it faster: at ``time_scale`` 0.05 a group's minute
lasts 3 s, and a 429 that asks for 40 s asks for 2 s. No rule becomes kinder.
"""

from __future__ import annotations

import time

MIN_SCALE = 0.001


class TelegramClock:
    """Telegram seconds from ``time.monotonic``; changing the scale continues the count (never backwards)."""

    def __init__(self, scale: float = 1.0) -> None:
        self._scale = 1.0
        self._base_wall = time.monotonic()
        self._base = self._base_wall
        self.scale = scale

    @property
    def scale(self) -> float:
        return self._scale

    @scale.setter
    def scale(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not MIN_SCALE <= value <= 1:
            raise ValueError(f"time_scale must be a number from {MIN_SCALE} to 1 (1: Telegram's real timings)")
        self._base = self.now()
        self._base_wall = time.monotonic()
        self._scale = float(value)

    def now(self) -> float:
        """Telegram seconds: as ``time.monotonic`` at scale 1, faster below it."""
        return self._base + (time.monotonic() - self._base_wall) / self._scale

    def wall(self, seconds: float) -> float:
        """How long ``seconds`` of Telegram time last in real time."""
        return seconds * self._scale
