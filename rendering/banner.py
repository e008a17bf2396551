"""The result banner a finished game's picture shows: a coloured plate with a headline and the winners."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw, ImageFont

from rendering.text import draw_text, ellipsize

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


def draw_result_banner(
    pen: ImageDraw.ImageDraw,
    box: Box,
    headline: str,
    line: str,
    *,
    fill: RGB,
    ink: RGB,
    radius: int,
    headline_font: ImageFont.FreeTypeFont,
    line_font: ImageFont.FreeTypeFont,
) -> None:
    """Fill ``box`` (less a small margin) with a rounded plate; ``headline`` centred near its top and ``line``
    (the winners, cut to fit) under it."""
    left, top, right, bottom = box
    pen.rounded_rectangle((left + 6, top + 6, right - 6, bottom - 6), radius, fill=fill)
    cx = (left + right) / 2
    draw_text(pen, (cx, top + 33), headline, font=headline_font, fill=ink)
    draw_text(pen, (cx, top + 76), ellipsize(line, right - left - 36, font=line_font), font=line_font, fill=ink)


def winners_line(winners: Sequence[int], names: Sequence[str], one: str, several: str, separator: str) -> str:
    """ "برنده: …" for one winner, "برندگان: … و …" for a shared win (the game's own templates)."""
    template = one if len(winners) == 1 else several
    return template.format(names=separator.join(names[seat] for seat in winners))
