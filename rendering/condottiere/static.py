"""The parts of the رکب group picture that never change during a game, drawn once and cached: the background
and cards of the picture, and the map with every province on neutral land, its borders and its name.

``MapArt`` holds what the per-call drawing needs to recolour a province: a mask of its land and the border
lines over it, cut to the province's box, so an owned province is one colour paste and one overlay paste; and
a mask of its outline, through which the battle site, the peace token's province and the winners' provinces
are marked in their colours.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.condottiere import layout as lay
from rendering.condottiere.sprites import label_sprite, paste_centred
from rendering.condottiere.theme import CondottiereTheme
from rendering.hexgrid import Point

SUPERSAMPLE = 3
BORDER_WIDTH = 2.6  # px between two provinces
COAST_WIDTH = 3.6  # px along the sea

MapKey = tuple[str, tuple[str, ...], tuple[str, ...]]  # map key, province ids, Persian names
Segment = tuple[Point, Point, bool]  # two ends; True along the sea


@dataclass(frozen=True, slots=True)
class MapArt:
    """A map drawn on neutral land (``image``, the size of the map box), with per-province masks and overlays
    in picture coordinates."""

    plan: lay.MapPlan
    image: Image.Image
    masks: tuple[Image.Image, ...]  # "L", the province's land, in its box
    lines: tuple[Image.Image, ...]  # "RGBA", every border line inside the province's box
    outlines: tuple[Image.Image, ...]  # "L", the province's own outline, ``OUTLINE_WIDTH`` wide, in its box


def _hexagon(centre: Point, radius: float) -> list[Point]:
    return [lay.corner(centre, radius, a) for a in (-90, -30, 30, 90, 150, 210)]


def _land(plan: lay.MapPlan, province: int | None = None) -> list[list[Point]]:
    """The polygons of a province's land (every province's with None): its hexagons and its meeting wedges."""
    out = [
        _hexagon(plan.centre(cell), plan.radius + 0.7)
        for i, cells in enumerate(plan.cells)
        if province is None or i == province
        for cell in cells
    ]
    for cell, owners in plan.meeting:
        centre = plan.centre(cell)
        for side, owner in enumerate(owners):
            if province is None or owner == province:
                a, b = lay.side_ends(centre, plan.radius + 0.7, side)
                out.append([centre, a, b])
    return out


def border_segments(plan: lay.MapPlan, province: int | None = None) -> list[Segment]:
    """Every side between a province and something else (another province: False; the sea: True), once; with
    ``province``, only that province's own outline. In a meeting cell, the spokes between wedges of different
    provinces."""
    owner = plan.owner_of()
    meeting = dict(plan.meeting)
    out = []
    for cell, i in owner.items():
        if province is not None and i != province:
            continue
        for side, (dq, dr) in enumerate(lay.DIRECTIONS):
            neighbour = (cell[0] + dq, cell[1] + dr)
            if neighbour in meeting:
                continue  # the wedge facing this side is the same province's
            other = owner.get(neighbour)
            if other == i or (province is None and other is not None and other < i):
                continue
            ends = lay.side_ends(plan.centre(cell), plan.radius, side)
            out.append((ends[0], ends[1], other is None))
    for cell, owners in plan.meeting:
        centre = plan.centre(cell)
        for side in range(6):
            here, then = owners[side], owners[(side + 1) % 6]
            if here != then and (province is None or province in (here, then)):
                out.append((centre, lay.corner(centre, plan.radius, -60 * side - 30), False))
    return out


@functools.lru_cache(maxsize=64)  # a map's outlines never change: the page asks for them on every request
def province_outline(plan: lay.MapPlan, province: int) -> tuple[Point, ...]:
    """The corners of a province's outline in order, as one polygon: the sides of its ``border_segments`` joined
    end to end (the line its outline mask is stroked along); of several rings, the longest."""
    segments = border_segments(plan, province)
    corners: list[Point] = []  # each corner once: the same corner of two cells differs in the last bits

    def index(point: Point) -> int:
        for i, known in enumerate(corners):
            if math.dist(point, known) < 0.01:
                return i
        corners.append(point)
        return len(corners) - 1

    sides = [(index(a), index(b)) for a, b, _coast in segments]
    left = set(range(len(sides)))
    rings = []
    while left:
        first, here = sides[left.pop()]
        ring = [first]
        while here != first:
            side = next((k for k in left if here in sides[k]), None)
            if side is None:
                break
            left.discard(side)
            ring.append(here)
            a, b = sides[side]
            here = b if a == here else a
        rings.append(ring)
    return tuple(corners[i] for i in max(rings, key=len))


def _stroke(
    pen: ImageDraw.ImageDraw,
    segments: list[Segment],
    width: float,
    colour: tuple[int, ...] | int,
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
def map_art(theme: CondottiereTheme, key: MapKey, box: lay.Box) -> MapArt:
    """Draw map ``key`` in ``box`` on neutral land, with its masks and names."""
    plan = lay.map_plan(*key, box)
    s = SUPERSAMPLE
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    big = Image.new("RGB", (width * s, height * s), theme.sea)
    pen = ImageDraw.Draw(big)

    def scaled(points: list[Point]) -> list[Point]:
        return [((x - left) * s, (y - top) * s) for x, y in points]

    land = [cell for cells in plan.cells for cell in cells] + [cell for cell, _ in plan.meeting]
    for cell in land:  # shallow water along the coast
        pen.polygon(scaled(_hexagon(plan.centre(cell), plan.radius * 1.45)), fill=theme.shallows)
    for polygon in _land(plan):
        pen.polygon(scaled(polygon), fill=theme.land)
    segments = border_segments(plan)
    _stroke(pen, [seg for seg in segments if not seg[2]], BORDER_WIDTH, theme.border, (left, top), s)
    _stroke(pen, [seg for seg in segments if seg[2]], COAST_WIDTH, theme.coast, (left, top), s)
    image = big.reduce(s)

    # The overlays: the same lines on a transparent layer (the whole map), cut per province.
    overlay = Image.new("RGBA", (width * s, height * s), (*theme.border, 0))
    opens = ImageDraw.Draw(overlay)
    _stroke(opens, [seg for seg in segments if not seg[2]], BORDER_WIDTH, (*theme.border, 255), (left, top), s)
    _stroke(opens, [seg for seg in segments if seg[2]], COAST_WIDTH, (*theme.coast, 255), (left, top), s)
    overlay = overlay.reduce(s)
    masks, lines, outlines = [], [], []
    for i in range(len(plan.cells)):
        bl, bt, br, bb = plan.boxes[i]
        mask = Image.new("L", ((br - bl) * s, (bb - bt) * s), 0)
        mpen = ImageDraw.Draw(mask)
        for polygon in _land(plan, i):
            mpen.polygon([((x - bl) * s, (y - bt) * s) for x, y in polygon], fill=255)
        masks.append(mask.reduce(s))
        lines.append(overlay.crop((bl - left, bt - top, br - left, bb - top)))
        outline = Image.new("L", ((br - bl) * s, (bb - bt) * s), 0)
        _stroke(ImageDraw.Draw(outline), border_segments(plan, i), lay.OUTLINE_WIDTH, 255, (bl, bt), s)
        outlines.append(outline.reduce(s))
    names = key[2]
    for i, name in enumerate(names):
        x, y = plan.labels[i]
        sprite = label_sprite(name, plan.label_sizes[i], theme.label, None if plan.label_inside[i] else theme.land)
        paste_centred(image, sprite, (x - left, y - top))
    return MapArt(plan, image, tuple(masks), tuple(lines), tuple(outlines))


@functools.lru_cache(maxsize=16)
def static_layer(theme: CondottiereTheme, key: MapKey | None, players: int) -> Image.Image:
    """Background, the cards (map or battles won, the panel, the rows) and the map on neutral land. Callers
    must copy it."""
    f = lay.frame(players, key is None)
    s = 2
    big = Image.new("RGB", (f.width * s, f.height * s), theme.background)
    pen = ImageDraw.Draw(big)
    boxes = [f.panel_box, *f.rows]
    if key is None:
        boxes.append(f.map_box)
    for left, top, right, bottom in boxes:
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            lay.CARD_RADIUS * s,
            fill=theme.card,
            outline=theme.card_border,
            width=2 * s,
        )
    if key is not None:
        left, top, right, bottom = f.map_box
        pen.rounded_rectangle(
            (left * s, top * s, right * s, bottom * s),
            lay.CARD_RADIUS * s,
            fill=theme.sea,
            outline=theme.coast,
            width=2 * s,
        )
    image = big.reduce(s)
    if key is not None:
        art = map_art(theme, key, f.map_box)
        left, top, right, bottom = f.map_box
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (2, 2, right - left - 3, bottom - top - 3), lay.CARD_RADIUS - 2, fill=255
        )
        image.paste(art.image, (left, top), mask)
    return image
