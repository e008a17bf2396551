"""The part of the کشورگشا picture that never changes during a game, drawn once per board and theme, cached:
the board with every camp on its bare ground (plain or camp colour), labels and capacities, the panel's
cards, title and legend.

``paint_camp`` is shared with the per-call drawing, which repaints only the camps whose ground changed
(owned, or holding a castle).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.conqueror import labels
from rendering.conqueror import layout as lay
from rendering.conqueror.sprites import (
    capacity_sprite,
    castle_sprite,
    grass_sprite,
    hex_box,
    hex_mask,
    paste_centred,
    solid_mask,
)
from rendering.conqueror.theme import ConquerorTheme
from rendering.text import draw_text, font
from rendering.theme import RGB

CellKey = tuple[str, str, int, int, int, bool]  # label, tile, q, r, capacity, plain

SUPERSAMPLE = 2
CARD_RADIUS = 18
OUTER_INSETS = (-1.0,) * 6  # the dark band under a camp reaches a little past it: no seams between camps
LEGEND_ROW_Y = tuple(lay.LEGEND_BOX[1] + 34 + i * 42 for i in range(5))
LEGEND_SWATCH_X = lay.LEGEND_BOX[2] - 40
LEGEND_TEXT_X = lay.LEGEND_BOX[2] - 82


@dataclass(frozen=True, slots=True)
class BoardPlan:
    """A board laid out on the picture: where each camp is and how thick each of its borders is."""

    geometry: lay.BoardGeometry
    cells: tuple[CellKey, ...]
    index: dict[str, int]  # camp label -> position in ``cells``
    insets: tuple[tuple[float, ...], ...]  # per camp, per side: how far its ground stops short of the side

    @property
    def radius(self) -> int:
        return self.geometry.radius

    def centre(self, i: int) -> tuple[int, int]:
        return self.geometry.centres[i]


@functools.lru_cache(maxsize=16)
def board_plan(cells: tuple[CellKey, ...]) -> BoardPlan:
    """Fit the board in ``BOARD_BOX``; sides towards another tile or off the board get the thick border."""
    tile_at = {(q, r): tile for _label, tile, q, r, _capacity, _plain in cells}
    insets = []
    for _label, tile, q, r, _capacity, _plain in cells:
        insets.append(
            tuple(
                lay.THIN_BORDER if tile_at.get((q + dq, r + dr)) == tile else lay.TILE_BORDER
                for dq, dr in lay.DIRECTIONS
            )
        )
    return BoardPlan(
        geometry=lay.fit_board(tuple((q, r) for _l, _t, q, r, _c, _p in cells)),
        cells=cells,
        index={cell[0]: i for i, cell in enumerate(cells)},
        insets=tuple(insets),
    )


def paint_camp(
    image: Image.Image, plan: BoardPlan, i: int, ground: RGB, theme: ConquerorTheme, *, castle: bool = False
) -> None:
    """Paint camp ``i`` on ``ground`` with its marks: plain tufts, label and capacity (not its contents)."""
    radius = plan.radius
    half = hex_box(radius)
    cx, cy = plan.centre(i)
    label, _tile, _q, _r, capacity, plain = plan.cells[i]
    tile = camp_tile(radius, plan.insets[i], label, capacity, plain, ground, castle, theme)
    image.paste(tile, (cx - half, cy - half), solid_mask(radius, plan.insets[i]))


@functools.lru_cache(maxsize=320)
def camp_tile(
    radius: int,
    insets: tuple[float, ...],
    label: str,
    capacity: int,
    plain: bool,
    ground: RGB,
    castle: bool,
    theme: ConquerorTheme,
) -> Image.Image:
    """A camp painted on ``ground`` over the border colour, with its marks, in a square of ``2 * hex_box``
    px; pasted through ``solid_mask`` it replaces everything the camp's ground covers, edges blended."""
    half = hex_box(radius)
    tile = Image.new("RGB", (2 * half, 2 * half), theme.border)
    tile.paste(ground, (0, 0), hex_mask(radius, insets))
    if plain:
        tuft = grass_sprite(lay.scaled(15, radius, 8), theme)
        for dx, dy in lay.GRASS_SPOTS:
            paste_centred(tile, tuft, (half + lay.offset(dx, radius), half + lay.offset(dy, radius)))
    draw_text(
        ImageDraw.Draw(tile),
        (half, half + lay.offset(lay.LABEL_DY, radius)),
        labels.camp_label(label),
        font=font(lay.scaled(lay.LABEL_SIZE, radius, 13), bold=True),
        fill=theme.label_on_castle_ground if castle else theme.label,
    )
    badge = capacity_sprite(
        capacity, lay.scaled(lay.CAPACITY_RADIUS, radius, 8), lay.scaled(lay.CAPACITY_SIZE, radius, 11), theme
    )
    paste_centred(tile, badge, (half, half + lay.offset(lay.CAPACITY_DY, radius)))
    return tile


@functools.lru_cache(maxsize=8)
def static_layer(theme: ConquerorTheme, cells: tuple[CellKey, ...]) -> Image.Image:
    """Background, cards, the board on bare ground, and the panel's fixed text. Callers must copy it."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (lay.WIDTH * s, lay.HEIGHT * s), theme.background)
    pen = ImageDraw.Draw(big)
    for left, top, right, bottom in (lay.TURN_BOX, *lay.PLAYER_BOXES, lay.LEGEND_BOX):
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            CARD_RADIUS * s,
            fill=theme.card,
            outline=theme.card_border,
            width=2 * s,
        )
    image = big.reduce(s)
    plan = board_plan(cells)
    radius = plan.radius
    half = hex_box(radius)
    for cx, cy in plan.geometry.centres:
        image.paste(theme.border, (cx - half, cy - half), hex_mask(radius, OUTER_INSETS))
    for i, cell in enumerate(cells):
        paint_camp(image, plan, i, theme.ground(plain=cell[5]), theme)
    _draw_panel(image, theme)
    return image


def _swatch(image: Image.Image, centre: tuple[int, int], ground: RGB, theme: ConquerorTheme) -> None:
    radius = 19
    half = hex_box(radius)
    corner = (centre[0] - half, centre[1] - half)
    image.paste(theme.border, corner, hex_mask(radius, OUTER_INSETS))
    image.paste(ground, corner, hex_mask(radius, (2.0,) * 6))


def _draw_panel(image: Image.Image, theme: ConquerorTheme) -> None:
    pen = ImageDraw.Draw(image)
    left, top, right, _bottom = lay.TURN_BOX
    draw_text(pen, ((left + right) / 2, top + 38), labels.TITLE, font=font(32, bold=True), fill=theme.ink)
    pen.line((left + 20, top + 72, right - 20, top + 72), fill=theme.card_border, width=2)

    x = LEGEND_SWATCH_X
    plain_y, owned_y, castle_y, manned_y, capacity_y = LEGEND_ROW_Y
    _swatch(image, (x, plain_y), theme.plain, theme)
    paste_centred(image, grass_sprite(12, theme), (x, plain_y))
    _swatch(image, (x + 8, owned_y), theme.side_tint(0), theme)
    _swatch(image, (x - 24, owned_y), theme.side_tint(1), theme)
    _swatch(image, (x, castle_y), theme.castle_ground, theme)
    paste_centred(image, castle_sprite(0, 22, 19, False, theme), (x, castle_y))
    paste_centred(image, castle_sprite(1, 36, 31, True, theme), (x, manned_y))
    paste_centred(image, capacity_sprite(2, 13, 19, theme), (x, capacity_y))
    rows = (
        (plain_y, labels.LEGEND_PLAIN, LEGEND_TEXT_X),
        (owned_y, labels.LEGEND_OWNED, LEGEND_TEXT_X - 22),
        (castle_y, labels.LEGEND_CASTLE, LEGEND_TEXT_X),
        (manned_y, labels.LEGEND_MANNED, LEGEND_TEXT_X),
        (capacity_y, labels.LEGEND_CAPACITY, LEGEND_TEXT_X),
    )
    for y, text, text_x in rows:
        draw_text(pen, (text_x, y), text, font=font(21), fill=theme.ink, anchor="rm")
