"""The part of the Coin Age picture that never changes during a game, drawn once and cached.

Shapes are drawn at twice the size and halved (cheap anti-aliasing); text is drawn afterwards at full size so
it stays crisp.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.coin_age import labels
from rendering.coin_age import layout as lay
from rendering.coin_age.theme import CoinAgeTheme
from rendering.hexgrid import Point, hex_centres, hex_corners
from rendering.text import draw_text, fitting_font, font

SpaceKey = tuple[str, str, str]  # id, Persian name, region id
RegionKey = tuple[str, str]  # id, Persian name

SUPERSAMPLE = 2
CARD_RADIUS = 18
LEGEND_TITLE_Y = 606
LEGEND_SIDES_Y = 650
LEGEND_ROWS_Y = (706, 766, 826, 886)
LEGEND_SWATCH_RADIUS = 22
LEGEND_SWATCH_X = lay.LEGEND_BOX[2] - 40


def space_centres(space_ids: Sequence[str]) -> dict[str, Point]:
    """Pixel centres of the spaces on the picture."""
    return hex_centres(space_ids, centre=lay.BOARD_CENTRE, radius=lay.HEX_RADIUS)


def _scaled(points: Sequence[Point]) -> list[Point]:
    return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]


def _hexagon(
    pen: ImageDraw.ImageDraw, centre: Point, radius: float, border: float, theme: CoinAgeTheme, region: str
) -> None:
    pen.polygon(_scaled(hex_corners(centre, radius)), fill=theme.hex_border)
    pen.polygon(_scaled(hex_corners(centre, radius - border)), fill=theme.region_fill(region))


@functools.lru_cache(maxsize=8)
def static_layer(theme: CoinAgeTheme, spaces: tuple[SpaceKey, ...], regions: tuple[RegionKey, ...]) -> Image.Image:
    """Background, cards, the honeycomb with names, and the legend's fixed part. Callers must copy it."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (lay.WIDTH * s, lay.HEIGHT * s), theme.background)
    pen = ImageDraw.Draw(big)
    for left, top, right, bottom in (lay.TURN_BOX, lay.LEGEND_BOX, *lay.PLAYER_BOXES):
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            CARD_RADIUS * s,
            fill=theme.card,
            outline=theme.card_border,
            width=2 * s,
        )
    centres = space_centres([space[0] for space in spaces])
    for space_id, _name, region in spaces:
        _hexagon(pen, centres[space_id], lay.HEX_RADIUS - lay.HEX_GAP / 2, 3, theme, region)
    for y, (region_id, _name) in zip(LEGEND_ROWS_Y, regions, strict=False):
        _hexagon(pen, (LEGEND_SWATCH_X, y), LEGEND_SWATCH_RADIUS, 2.5, theme, region_id)
    image = big.reduce(s)
    _draw_names(image, theme, spaces, centres)
    _draw_panel_text(image, theme, regions)
    return image


def _draw_names(
    image: Image.Image, theme: CoinAgeTheme, spaces: tuple[SpaceKey, ...], centres: dict[str, Point]
) -> None:
    pen = ImageDraw.Draw(image)
    for space_id, name, region in spaces:
        x, y = centres[space_id]
        face = fitting_font(name, lay.NAME_MAX_WIDTH, size=27, min_size=19, bold=True)
        draw_text(pen, (x, y + lay.NAME_DY), name, font=face, fill=theme.region_ink(region))


def _draw_panel_text(image: Image.Image, theme: CoinAgeTheme, regions: tuple[RegionKey, ...]) -> None:
    pen = ImageDraw.Draw(image)
    left, _top, right, _bottom = lay.TURN_BOX
    draw_text(pen, ((left + right) / 2, lay.TURN_BOX[1] + 38), labels.TITLE, font=font(32, bold=True), fill=theme.ink)
    pen.line((left + 20, lay.TURN_BOX[1] + 76, right - 20, lay.TURN_BOX[1] + 76), fill=theme.card_border, width=2)

    left, _top, right, _bottom = lay.LEGEND_BOX
    draw_text(pen, (right - 24, LEGEND_TITLE_Y), labels.REGIONS, font=font(28, bold=True), fill=theme.ink, anchor="rm")
    draw_text(pen, (left + 20, LEGEND_TITLE_Y + 2), labels.DOUBLED_HINT, font=font(19), fill=theme.muted, anchor="lm")
    for y, (_region_id, name) in zip(LEGEND_ROWS_Y, regions, strict=False):
        face = fitting_font(name, 150, size=25, min_size=20, bold=True)
        draw_text(pen, (LEGEND_SWATCH_X - 32, y), name, font=face, fill=theme.ink, anchor="rm")
