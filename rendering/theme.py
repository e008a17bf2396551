"""What every game's theme is made of: RGB colours and mixing them, so a palette is one object per game."""

from __future__ import annotations

RGB = tuple[int, int, int]


def mix(colour: RGB, other: RGB, amount: float) -> RGB:
    """``colour`` moved ``amount`` (0–1) of the way towards ``other``."""
    r, g, b = (round(a + (o - a) * amount) for a, o in zip(colour, other, strict=True))
    return r, g, b
