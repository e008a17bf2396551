"""The part of the کشورگشا picture that never changes during a game, drawn once per board and theme, cached:
the background and the board with every camp on its bare ground (plain or camp colour), its label and its
capacity's dots.

``paint_camp`` is shared with the per-call drawing, which repaints only the camps whose ground changed
(owned, or holding a castle).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.conqueror import labels
from rendering.conqueror import layout as lay
from rendering.conqueror.sprites import grass_sprite, hex_box, hex_mask, paste_centred, pips_sprite, solid_mask
from rendering.conqueror.theme import ConquerorTheme
from rendering.text import draw_text, font
from rendering.theme import RGB

CellKey = tuple[str, str, int, int, int, bool]  # label, tile, q, r, capacity, plain

OUTER_INSETS = (-1.0,) * 6  # the dark band under a camp reaches a little past it: no seams between camps


@dataclass(frozen=True, slots=True)
class BoardPlan:
    """A board laid out on the picture: the canvas, where each camp is and how thick each of its borders is."""

    canvas: lay.Canvas
    cells: tuple[CellKey, ...]
    index: dict[str, int]  # camp label -> position in ``cells``
    insets: tuple[tuple[float, ...], ...]  # per camp, per side: how far its ground stops short of the side

    @property
    def geometry(self) -> lay.BoardGeometry:
        return self.canvas.board

    @property
    def radius(self) -> int:
        return self.canvas.board.radius

    def centre(self, i: int) -> tuple[int, int]:
        return self.canvas.board.centres[i]


@functools.lru_cache(maxsize=16)
def board_plan(cells: tuple[CellKey, ...]) -> BoardPlan:
    """Fit the board under the header; sides towards another tile or off the board get the thick border."""
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
        canvas=lay.canvas(tuple((q, r) for _l, _t, q, r, _c, _p in cells)),
        cells=cells,
        index={cell[0]: i for i, cell in enumerate(cells)},
        insets=tuple(insets),
    )


def paint_camp(image: Image.Image, plan: BoardPlan, i: int, ground: RGB, theme: ConquerorTheme) -> None:
    """Paint camp ``i`` on ``ground`` with its marks: plain tufts, label and capacity (not its contents)."""
    radius = plan.radius
    half = hex_box(radius)
    cx, cy = plan.centre(i)
    label, _tile, _q, _r, capacity, plain = plan.cells[i]
    tile = camp_tile(radius, plan.insets[i], label, capacity, plain, ground, theme)
    image.paste(tile, (cx - half, cy - half), solid_mask(radius, plan.insets[i]))


@functools.lru_cache(maxsize=320)
def camp_tile(
    radius: int, insets: tuple[float, ...], label: str, capacity: int, plain: bool, ground: RGB, theme: ConquerorTheme
) -> Image.Image:
    """A camp painted on ``ground`` over the border colour, with its marks, in a square of ``2 * hex_box``
    px; pasted through ``solid_mask`` it replaces everything the camp's ground covers, edges blended."""
    half = hex_box(radius)
    tile = Image.new("RGB", (2 * half, 2 * half), theme.border)
    tile.paste(ground, (0, 0), hex_mask(radius, insets))
    if plain:
        tuft = grass_sprite(lay.scaled(lay.GRASS_SIZE, radius, 8), theme)
        for dx, dy in lay.GRASS_SPOTS:
            paste_centred(tile, tuft, (half + lay.offset(dx, radius), half + lay.offset(dy, radius)))
    draw_text(
        ImageDraw.Draw(tile),
        (half, half + lay.offset(lay.LABEL_DY, radius)),
        labels.camp_label(label),
        font=font(lay.scaled(lay.LABEL_SIZE, radius, lay.SMALLEST_TEXT), bold=True),
        fill=theme.label,
    )
    scale = radius / lay.REFERENCE_RADIUS
    pips = pips_sprite(capacity, lay.PIP_RADIUS * scale, lay.PIP_GAP * scale, theme.pip)
    paste_centred(tile, pips, (half, half + lay.offset(lay.PIP_DY, radius)))
    return tile


@functools.lru_cache(maxsize=8)
def static_layer(theme: ConquerorTheme, cells: tuple[CellKey, ...]) -> Image.Image:
    """Background and the board on bare ground. Callers must copy it."""
    plan = board_plan(cells)
    image = Image.new("RGB", (plan.canvas.width, plan.canvas.height), theme.background)
    radius = plan.radius
    half = hex_box(radius)
    for cx, cy in plan.geometry.centres:
        image.paste(theme.border, (cx - half, cy - half), hex_mask(radius, OUTER_INSETS))
    for i, cell in enumerate(cells):
        paint_camp(image, plan, i, theme.ground(plain=cell[5]), theme)
    return image
