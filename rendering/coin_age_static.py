"""The part of the Coin Age picture that never changes during a game, drawn once and cached.

Shapes are drawn at twice the size and halved (cheap anti-aliasing); text is drawn afterwards at full size so
it stays crisp.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering import coin_age_labels as labels
from rendering import coin_age_layout as lay
from rendering.hexgrid import Point, hex_centres, hex_corners
from rendering.text import draw_text, fitting_font, font
from rendering.theme import CoinAgeTheme

SpaceKey = tuple[str, str, str]  # id, Persian name, region id
RegionKey = tuple[str, str]  # id, Persian name

CARD_RADIUS = 18
LEGEND_TITLE_Y = 606
LEGEND_SIDES_Y = 648
LEGEND_ROWS_Y = (706, 766, 826, 886)
LEGEND_SWATCH_RADIUS = 22


def space_centres(space_ids: Sequence[str]) -> dict[str, Point]:
    """Pixel centres of the spaces on the picture."""
    return hex_centres(space_ids, centre=lay.BOARD_CENTRE, radius=lay.HEX_RADIUS)


def _scaled(points: Sequence[Point], factor: int) -> list[Point]:
    return [(x * factor, y * factor) for x, y in points]


def _card(pen: ImageDraw.ImageDraw, box: lay.Box, theme: CoinAgeTheme, factor: int) -> None:
    left, top, right, bottom = (v * factor for v in box)
    pen.rounded_rectangle(
        (left, top, right, bottom), CARD_RADIUS * factor, fill=theme.card, outline=theme.card_border, width=2 * factor
    )


@functools.lru_cache(maxsize=8)
def static_layer(
    theme: CoinAgeTheme, spaces: tuple[SpaceKey, ...], regions: tuple[RegionKey, ...], sides: tuple[str, str]
) -> Image.Image:
    """Background, cards, the honeycomb with names, and the legend's fixed part. Callers must copy it."""
    factor = 2
    big = Image.new("RGB", (lay.WIDTH * factor, lay.HEIGHT * factor), theme.background)
    pen = ImageDraw.Draw(big)
    for box in (lay.TURN_BOX, lay.LEGEND_BOX, *lay.PLAYER_BOXES):
        _card(pen, box, theme, factor)
    centres = space_centres([s[0] for s in spaces])
    for space_id, _name, region in spaces:
        outer = hex_corners(centres[space_id], lay.HEX_RADIUS - lay.HEX_GAP / 2)
        inner = hex_corners(centres[space_id], lay.HEX_RADIUS - lay.HEX_GAP / 2 - 3)
        pen.polygon(_scaled(outer, factor), fill=theme.hex_border)
        pen.polygon(_scaled(inner, factor), fill=theme.region_fill(region))
    right = lay.LEGEND_BOX[2] - 40
    for y, (region_id, _name) in zip(LEGEND_ROWS_Y, regions, strict=False):
        pen.polygon(_scaled(hex_corners((right, y), LEGEND_SWATCH_RADIUS), factor), fill=theme.hex_border)
        pen.polygon(
            _scaled(hex_corners((right, y), LEGEND_SWATCH_RADIUS - 2.5), factor), fill=theme.region_fill(region_id)
        )
    image = big.reduce(factor)
    _static_text(image, theme, spaces, regions, sides, centres)
    return image


def _static_text(
    image: Image.Image,
    theme: CoinAgeTheme,
    spaces: tuple[SpaceKey, ...],
    regions: tuple[RegionKey, ...],
    sides: tuple[str, str],
    centres: dict[str, Point],
) -> None:
    pen = ImageDraw.Draw(image)
    for space_id, name, region in spaces:
        x, y = centres[space_id]
        face = fitting_font(name, lay.NAME_MAX_WIDTH, size=27, min_size=21, bold=True)
        draw_text(pen, (x, y + lay.NAME_DY), name, font=face, fill=theme.region_ink(region))
    left, top, right, _bottom = lay.LEGEND_BOX
    draw_text(pen, (right - 24, LEGEND_TITLE_Y), labels.REGIONS, font=font(28, bold=True), fill=theme.ink, anchor="rm")
    for y, (_region_id, name) in zip(LEGEND_ROWS_Y, regions, strict=False):
        face = fitting_font(name, 150, size=25, min_size=20, bold=True)
        draw_text(pen, (right - 72, y), name, font=face, fill=theme.ink, anchor="rm")
    turn_left, turn_top, turn_right, _ = lay.TURN_BOX
    draw_text(
        pen,
        ((turn_left + turn_right) / 2, turn_top + 38),
        labels.TITLE,
        font=font(32, bold=True),
        fill=theme.ink,
    )
    pen.line((turn_left + 20, turn_top + 76, turn_right - 20, turn_top + 76), fill=theme.card_border, width=2)
    del left, top, sides
