"""Players' names fitted to their place: a long name is first drawn a little smaller, then shortened by whole
words, and a computer player's level in brackets («رایانه ۱ (سخت)») is always kept whole."""

from __future__ import annotations

import functools
import re

from PIL import ImageFont

from rendering.text import ellipsis_mark, ellipsize, font, text_size

SHRINK = 4  # px a name may lose before it is shortened
_BRACKETED_TAIL = re.compile(r"^(?P<head>.*?\S)(?P<tail>\s*\([^()]*\))$")


@functools.lru_cache(maxsize=256)
def fitted(name: str, max_width: int, size: int, min_size: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """``name`` as it fits in ``max_width`` px, bold, and the font to draw it with (never under ``min_size``)."""
    smallest = max(min_size, size - SHRINK)
    for candidate in range(size, smallest - 1, -1):
        face = font(candidate, bold=True)
        if _width(name, face) <= max_width:
            return name, face
    face = font(smallest, bold=True)
    match = _BRACKETED_TAIL.match(name)
    head, tail = (match["head"], match["tail"]) if match else (name, "")
    room = max_width - _width(tail, face)
    words = head.split()
    for count in range(len(words) - 1, 0, -1):  # whole words first: «آرمان دلاوری‌نژاد…»
        short = " ".join(words[:count]) + ellipsis_mark(head)
        if _width(short, face) <= room:
            return short + tail, face
    return ellipsize(head, room, font=face) + tail, face


def _width(text: str, face: ImageFont.FreeTypeFont) -> int:
    return text_size(text, font=face)[0]
