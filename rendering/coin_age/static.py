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
from rendering.text import draw_text, fitting_font, font, text_size

SpaceKey = tuple[str, str, str]  # id, Persian name, region id
RegionKey = tuple[str, int]  # id, how many spaces

SUPERSAMPLE = 2
CARD_RADIUS = 18
CELL_RADIUS = 12


def space_centres(space_ids: Sequence[str]) -> dict[str, Point]:
    """Pixel centres of the spaces on the picture."""
    return hex_centres(space_ids, centre=lay.BOARD_CENTRE, radius=lay.HEX_RADIUS)


@functools.cache
def lead_row(spaces: tuple[int, ...]) -> tuple[Point, list[lay.LeadCell]]:
    """The row under the map for colours of ``spaces`` spaces each: its label's anchor and the colours' cells."""
    return lay.lead_row(text_size(labels.LEADS, font=font(lay.LEAD_LABEL_SIZE, bold=True))[0], spaces)


def _scaled(points: Sequence[Point]) -> list[Point]:
    return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]


def _hexagon(pen: ImageDraw.ImageDraw, centre: Point, border: float, theme: CoinAgeTheme, region: str) -> None:
    pen.polygon(_scaled(lay.space_corners(centre)), fill=theme.hex_border)
    pen.polygon(_scaled(hex_corners(centre, lay.SPACE_RADIUS - border)), fill=theme.region_fill(region))


@functools.lru_cache(maxsize=8)
def static_layer(theme: CoinAgeTheme, spaces: tuple[SpaceKey, ...], regions: tuple[RegionKey, ...]) -> Image.Image:
    """Background, cards, the honeycomb with names, and the colours' cells under it. Callers must copy it."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (lay.WIDTH * s, lay.HEIGHT * s), theme.background)
    pen = ImageDraw.Draw(big)
    for left, top, right, bottom in (lay.HEADER_BOX, *lay.PLAYER_BOXES):
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            CARD_RADIUS * s,
            fill=theme.card,
            outline=theme.card_border,
            width=2 * s,
        )
    centres = space_centres([space[0] for space in spaces])
    for space_id, _name, region in spaces:
        _hexagon(pen, centres[space_id], 3, theme, region)
    _label, cells = lead_row(tuple(n for _id, n in regions))
    for (region_id, _n), cell in zip(regions, cells, strict=True):
        left, top, right, bottom = cell.box
        box = (left * s, top * s, right * s, bottom * s)
        pen.rounded_rectangle(
            box, CELL_RADIUS * s, fill=theme.region_fill(region_id), outline=theme.hex_border, width=s
        )
    image = big.reduce(s)
    _draw_names(image, theme, spaces, centres)
    label, _cells = lead_row(tuple(n for _id, n in regions))
    draw_text(
        ImageDraw.Draw(image),
        label,
        labels.LEADS,
        font=font(lay.LEAD_LABEL_SIZE, bold=True),
        fill=theme.ink,
        anchor="rm",
    )
    return image


def _draw_names(
    image: Image.Image, theme: CoinAgeTheme, spaces: tuple[SpaceKey, ...], centres: dict[str, Point]
) -> None:
    pen = ImageDraw.Draw(image)
    for space_id, name, region in spaces:
        x, y = centres[space_id]
        face = fitting_font(name, lay.NAME_MAX_WIDTH, size=lay.NAME_SIZE, min_size=lay.MIN_TEXT, bold=True)
        draw_text(pen, (x, y + lay.NAME_DY), name, font=face, fill=theme.region_ink(region))
