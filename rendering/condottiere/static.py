"""The parts of the رکب pictures that never change during a game, drawn once and cached: the background and
cards of the group picture, and the map with every province on neutral land, its borders and its name.

``MapArt`` holds what the per-call drawing needs to recolour a province: a mask of its land and the border
lines over it, cut to the province's box, so an owned province is one colour paste and one overlay paste.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.condottiere import layout as lay
from rendering.condottiere.theme import CondottiereTheme
from rendering.hexgrid import Point
from rendering.text import draw_text, fitting_font
from rendering.theme import RGB

SUPERSAMPLE = 3
CARD_RADIUS = 18
BORDER_WIDTH = 2.6  # px between two provinces
COAST_WIDTH = 3.6  # px along the sea
SITE_WIDTH = 5.0  # px: the battle site's outline


@dataclass(frozen=True, slots=True)
class MapArt:
    """A map drawn on neutral land (``image``, the size of ``MAP_BOX``, in picture coordinates from
    ``offset``), with per-province masks and overlays in picture coordinates."""

    plan: lay.MapPlan
    image: Image.Image
    masks: tuple[Image.Image, ...]  # "L", the province's land, in its box
    lines: tuple[Image.Image, ...]  # "RGBA", every border line inside the province's box
    site_lines: tuple[Image.Image, ...]  # "RGBA", the province's own outline in the battle-site colour


def _hexagon(centre: Point, radius: float) -> list[Point]:
    return [lay.corner(centre, radius, a) for a in (-90, -30, 30, 90, 150, 210)]


def _segments(plan: lay.MapPlan, province: int | None = None) -> list[tuple[Point, Point, bool]]:
    """Every side between a province and something else (another province: False; sea or lake: True), once;
    with ``province``, only that province's own outline."""
    owner = plan.owner_of()
    out = []
    for cell, i in owner.items():
        if province is not None and i != province:
            continue
        for side, (dq, dr) in enumerate(lay.DIRECTIONS):
            other = owner.get((cell[0] + dq, cell[1] + dr))
            if other == i or (province is None and other is not None and other < i):
                continue
            ends = lay.side_ends(plan.centre(cell), plan.radius, side)
            out.append((ends[0], ends[1], other is None))
    return out


def _stroke(
    pen: ImageDraw.ImageDraw,
    segments: list[tuple[Point, Point, bool]],
    width: float,
    colour: tuple[int, ...],
    offset: Point,
    scale: int,
) -> None:
    ox, oy = offset
    r = width * scale / 2
    for (x0, y0), (x1, y1), _coast in segments:
        a = ((x0 - ox) * scale, (y0 - oy) * scale)
        b = ((x1 - ox) * scale, (y1 - oy) * scale)
        pen.line((a, b), fill=colour, width=round(width * scale))
        for x, y in (a, b):
            pen.ellipse((x - r, y - r, x + r, y + r), fill=colour)


@functools.lru_cache(maxsize=4)
def map_art(theme: CondottiereTheme, key: str, order: tuple[str, ...], names: tuple[str, ...]) -> MapArt:
    """Draw map ``key`` (provinces in ``order``, Persian ``names``) on neutral land, with its masks."""
    plan = lay.map_plan(key, order)
    s = SUPERSAMPLE
    left, top, right, bottom = lay.MAP_BOX
    width, height = right - left, bottom - top
    big = Image.new("RGB", (width * s, height * s), theme.sea)
    pen = ImageDraw.Draw(big)

    def scaled(points: list[Point]) -> list[Point]:
        return [((x - left) * s, (y - top) * s) for x, y in points]

    land = [cell for cells in plan.cells for cell in cells]
    for cell in land:  # shallow water along the coast
        pen.polygon(scaled(_hexagon(plan.centre(cell), plan.radius * 1.45)), fill=theme.shallows)
    for cell in land:
        pen.polygon(scaled(_hexagon(plan.centre(cell), plan.radius + 0.7)), fill=theme.land)
    for cell in plan.lakes:
        pen.polygon(scaled(_hexagon(plan.centre(cell), plan.radius + 0.7)), fill=theme.lake)
    segments = _segments(plan)
    _stroke(pen, [seg for seg in segments if not seg[2]], BORDER_WIDTH, theme.border, (left, top), s)
    _stroke(pen, [seg for seg in segments if seg[2]], COAST_WIDTH, theme.coast, (left, top), s)
    image = big.reduce(s)

    # The overlays: the same lines on a transparent layer (the whole map), cut per province.
    overlay = Image.new("RGBA", (width * s, height * s), (*theme.border, 0))
    opens = ImageDraw.Draw(overlay)
    _stroke(opens, [seg for seg in segments if not seg[2]], BORDER_WIDTH, (*theme.border, 255), (left, top), s)
    _stroke(opens, [seg for seg in segments if seg[2]], COAST_WIDTH, (*theme.coast, 255), (left, top), s)
    overlay = overlay.reduce(s)
    masks, lines, site_lines = [], [], []
    for i, cells in enumerate(plan.cells):
        bl, bt, br, bb = plan.boxes[i]
        mask = Image.new("L", ((br - bl) * s, (bb - bt) * s), 0)
        mpen = ImageDraw.Draw(mask)
        for cell in cells:
            mpen.polygon(
                [((x - bl) * s, (y - bt) * s) for x, y in _hexagon(plan.centre(cell), plan.radius + 0.7)], fill=255
            )
        masks.append(mask.reduce(s))
        lines.append(overlay.crop((bl - left, bt - top, br - left, bb - top)))
        site = Image.new("RGBA", ((br - bl) * s, (bb - bt) * s), (*theme.site_outline, 0))
        _stroke(ImageDraw.Draw(site), _segments(plan, i), SITE_WIDTH, (*theme.site_outline, 255), (bl, bt), s)
        site_lines.append(site.reduce(s))
    pen_small = ImageDraw.Draw(image)
    for i, name in enumerate(names):
        x, y = plan.labels[i]
        draw_label(pen_small, (x - left, y - top), name, plan.label_widths[i], theme.label)
    return MapArt(plan, image, tuple(masks), tuple(lines), tuple(site_lines))


def draw_label(pen: ImageDraw.ImageDraw, centre: Point, name: str, width: int, ink: RGB) -> None:
    face = fitting_font(name, width, size=lay.LABEL_SIZE, min_size=lay.LABEL_MIN_SIZE, bold=True)
    draw_text(pen, centre, name, font=face, fill=ink)


@functools.lru_cache(maxsize=16)
def static_layer(
    theme: CondottiereTheme, map_key: tuple[str, tuple[str, ...], tuple[str, ...]] | None, players: int
) -> Image.Image:
    """Background, the cards (map or battles won, status, header, rows) and the map on neutral land. Callers
    must copy it."""
    f = lay.frame(players, map_key is None)
    s = 2
    big = Image.new("RGB", (f.width * s, f.height * s), theme.background)
    pen = ImageDraw.Draw(big)
    boxes = [f.status_box, f.header_box, *f.rows]
    if map_key is None:
        boxes.append(f.map_box)
    for left, top, right, bottom in boxes:
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            CARD_RADIUS * s,
            fill=theme.card,
            outline=theme.card_border,
            width=2 * s,
        )
    if map_key is not None:
        left, top, right, bottom = f.map_box
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            CARD_RADIUS * s,
            fill=theme.sea,
            outline=theme.coast,
            width=2 * s,
        )
    image = big.reduce(s)
    if map_key is not None:
        art = map_art(theme, *map_key)
        left, top, right, bottom = f.map_box
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).rounded_rectangle((2, 2, right - left - 3, bottom - top - 3), CARD_RADIUS - 2, fill=255)
        image.paste(art.image, (left, top), mask)
    return image
