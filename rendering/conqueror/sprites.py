"""Pre-drawn, anti-aliased pieces of the کشورگشا picture, cached: pasting is far cheaper than drawing.

Everything is drawn at ``SUPERSAMPLE`` times the size and reduced. Transparent pixels carry the outline's
colour, so the reduction never darkens or lightens an edge.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageChops, ImageDraw

from rendering.conqueror.layout import inset_hexagon
from rendering.conqueror.theme import ConquerorTheme
from rendering.hexgrid import Point
from rendering.text import draw_text, font, persian_digits
from rendering.theme import RGB

SUPERSAMPLE = 4


def _canvas(width: int, height: int, clear: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (*clear, 0))
    return big, ImageDraw.Draw(big)


def _opaque(colour: RGB) -> tuple[int, int, int, int]:
    return (*colour, 255)


# Hexagons ------------------------------------------------------------------------------------------------


def hex_box(radius: int) -> int:
    """Half the side of the square a camp's masks are drawn in (the camp's centre is its middle pixel)."""
    return radius + 3


@functools.lru_cache(maxsize=128)
def hex_mask(radius: int, insets: tuple[float, ...]) -> Image.Image:
    """An anti-aliased "L" mask of a camp's hexagon with its sides moved in by ``insets``; the camp's centre
    is at (``hex_box(radius)``, ``hex_box(radius)``)."""
    half = hex_box(radius)
    s = SUPERSAMPLE
    big = Image.new("L", (2 * half * s, 2 * half * s), 0)
    corners = inset_hexagon((half * s, half * s), radius * s, tuple(i * s for i in insets))
    ImageDraw.Draw(big).polygon(corners, fill=255)
    return big.reduce(s)


@functools.lru_cache(maxsize=128)
def solid_mask(radius: int, insets: tuple[float, ...]) -> Image.Image:
    """Every pixel ``hex_mask`` touches at all, fully on: repainting through it clears the old ground."""
    return hex_mask(radius, insets).point(lambda v: 255 if v else 0)


@functools.lru_cache(maxsize=32)
def ring_mask(radius: int, outer: float, inner: float) -> Image.Image:
    """An "L" mask of a hexagonal ring just inside a camp's sides, from ``outer`` to ``inner`` px in: the mark
    of a camp that can be chosen (same box as ``hex_mask``)."""
    return ImageChops.subtract(hex_mask(radius, (outer,) * 6), hex_mask(radius, (inner,) * 6))


# Pieces, castles, walls, marks ----------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def piece_sprite(seat: int, count: int, radius: int, digit_size: int, theme: ConquerorTheme) -> Image.Image:
    """A disc in a seat's colour with a white halo; ``count`` > 0 is written on it in Persian digits."""
    halo = max(2, radius // 7)
    box = 2 * (radius + halo + 2)
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2

    def disc(r: float, fill: RGB) -> None:
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=_opaque(fill))

    disc(radius + halo + 1, theme.outline)
    disc(radius + halo, theme.halo)
    disc(radius, theme.outline)
    disc(radius - 1.6, theme.side_fill(seat))
    image = big.reduce(s)
    if count > 0:
        draw_text(
            ImageDraw.Draw(image),
            (box / 2, box / 2),
            persian_digits(count),
            font=font(digit_size, bold=True),
            fill=_opaque(theme.side_ink(seat)),
        )
    return image


@functools.lru_cache(maxsize=64)
def castle_sprite(seat: int, width: int, height: int, manned: bool, theme: ConquerorTheme) -> Image.Image:
    """A crenellated castle in its owner's colour; ``manned`` puts a piece in its gate."""
    margin = 4
    box_w, box_h = width + 2 * margin, height + 2 * margin
    big, pen = _canvas(box_w, box_h, theme.outline)
    s = SUPERSAMPLE
    left, top = margin * s, margin * s
    w, h = width * s, height * s

    def at(u: float, v: float) -> Point:  # u, v in 0..1 across the castle
        return left + u * w, top + v * h

    merlon = 0.32  # of the height
    outline = [at(0, 1)]
    for i, (u0, u1) in enumerate(((0, 0.22), (0.39, 0.61), (0.78, 1))):
        if i:
            outline.append(at(u0, merlon))
        outline += [at(u0, 0), at(u1, 0)]
        if i < 2:
            outline.append(at(u1, merlon))
    outline.append(at(1, 1))
    pen.polygon(outline, fill=_opaque(theme.side_fill(seat)), outline=_opaque(theme.outline), width=round(2.2 * s))
    # The gate: an arch at the bottom middle, dark when empty.
    gate_w, gate_h = 0.36 * w, 0.46 * h
    gx0, gx1, gy1 = left + (w - gate_w) / 2, left + (w + gate_w) / 2, top + h
    gy0 = gy1 - gate_h
    pen.rectangle((gx0, gy0 + gate_w / 2, gx1, gy1), fill=_opaque(theme.outline))
    pen.ellipse((gx0, gy0, gx1, gy0 + gate_w), fill=_opaque(theme.outline))
    if manned:
        r = 0.25 * w
        cx, cy = left + w / 2, gy1 - gate_h * 0.42
        halo = r + 2.4 * s
        pen.ellipse((cx - halo, cy - halo, cx + halo, cy + halo), fill=_opaque(theme.halo))
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_opaque(theme.outline))
        r -= 1.4 * s
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_opaque(theme.side_fill(seat)))
    return big.reduce(s)


def side_angle(side: int) -> int:
    """Direction (degrees, on screen, modulo 180) of side ``side`` of a pointy-top camp."""
    return (90 - 60 * side) % 180


@functools.lru_cache(maxsize=32)
def wall_sprite(seat: int, angle_degrees: int, length: int, thickness: int, theme: ConquerorTheme) -> Image.Image:
    """A thick bar in the builder's colour with a dark casing, at ``angle_degrees`` (see ``side_angle``)."""
    angle = math.radians(angle_degrees)
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    box = length + thickness + 8
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    ends = ((c - dx * s, c - dy * s), (c + dx * s, c + dy * s))
    for half_width, colour in ((thickness / 2 + 2.2, theme.outline), (thickness / 2, theme.side_fill(seat))):
        r = half_width * s
        pen.line(ends, fill=_opaque(colour), width=round(2 * r))
        for x, y in ends:
            pen.ellipse((x - r, y - r, x + r, y + r), fill=_opaque(colour))
    return big.reduce(s)


@functools.lru_cache(maxsize=32)
def ghost_wall_sprite(angle_degrees: int, length: int, thickness: int, theme: ConquerorTheme) -> Image.Image:
    """A wall that may be built there: a see-through bar in the colour of what a menu offers."""
    angle = math.radians(angle_degrees)
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    box = length + thickness + 8
    big, pen = _canvas(box, box, theme.choice_ring)
    s = SUPERSAMPLE
    c = box * s / 2
    r = thickness / 2 * s
    ends = ((c - dx * s, c - dy * s), (c + dx * s, c + dy * s))
    colour = (*theme.choice_ring, theme.ghost_opacity)
    pen.line(ends, fill=colour, width=round(2 * r))
    for x, y in ends:
        pen.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    return big.reduce(s)


@functools.lru_cache(maxsize=32)
def pips_sprite(count: int, radius: float, gap: float, colour: RGB) -> Image.Image:
    """A camp's capacity: ``count`` dots in a row, ``gap`` px apart (dots, not a digit, so the camp's one
    number is its label's)."""
    width = math.ceil((count - 1) * gap + 2 * radius) + 4
    height = math.ceil(2 * radius) + 4
    big, pen = _canvas(width, height, colour)
    s = SUPERSAMPLE
    x0, cy = (width / 2 - (count - 1) * gap / 2) * s, height / 2 * s
    for k in range(count):
        cx = x0 + k * gap * s
        pen.ellipse((cx - radius * s, cy - radius * s, cx + radius * s, cy + radius * s), fill=_opaque(colour))
    return big.reduce(s)


@functools.lru_cache(maxsize=16)
def grass_sprite(size: int, theme: ConquerorTheme) -> Image.Image:
    """A tuft of three blades, the mark of a plain (size: its width in px)."""
    box = size + 4
    big, pen = _canvas(box, box, theme.grass)
    s = SUPERSAMPLE
    base_x, base_y = box * s / 2, (box / 2 + size * 0.4) * s
    width = max(2, round(size * 0.13 * s))
    for dx, top in ((-0.42, 0.55), (0.0, 0.85), (0.42, 0.55)):
        tip = (base_x + dx * size * s, base_y - top * size * s)
        pen.line(((base_x + dx * size * 0.25 * s, base_y), tip), fill=_opaque(theme.grass), width=width)
    return big.reduce(s)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite onto an RGB canvas with its centre at ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)
