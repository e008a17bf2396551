"""Pre-drawn, anti-aliased pieces of the اسپلندور pictures, cached: pasting is far cheaper than drawing.

Shapes are drawn at ``SUPERSAMPLE`` times the size and reduced; text is written afterwards at full size so it
stays crisp. Transparent pixels carry the outline's colour, so the reduction never lightens an edge.

Every gem colour has its own cut (a shape), drawn on a card's band and faintly on its face, and every chip
has a ring of edge marks in a contrasting tone, so white and black read on any ground. Every number on them
is at least the picture's smallest text (``layout``), so that a phone shows it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.splendor import layout as lay
from rendering.splendor.theme import SplendorTheme
from rendering.text import draw_text, font, persian_digits
from rendering.theme import RGB, mix

SUPERSAMPLE = 4
Point = tuple[float, float]
CostKey = tuple[int, ...]


def _canvas(width: int, height: int, clear: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (*clear, 0))
    return big, ImageDraw.Draw(big)


def _opaque(colour: RGB, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*colour, alpha)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite with its centre at ``centre``."""
    canvas.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite)


def paste_at(canvas: Image.Image, sprite: Image.Image, corner: tuple[int, int]) -> None:
    """Paste an RGBA sprite with its top left corner at ``corner``."""
    canvas.paste(sprite, corner, sprite)


# Gem cuts -------------------------------------------------------------------------------------------------


def _polygon(sides: int, rotation: float, centre: Point, radius: float, squash: float = 1.0) -> list[Point]:
    return [
        (
            centre[0] + radius * math.cos(math.radians(rotation + 360 * k / sides)),
            centre[1] + squash * radius * math.sin(math.radians(rotation + 360 * k / sides)),
        )
        for k in range(sides)
    ]


def gem_cut(colour: int, centre: Point, radius: float) -> list[Point]:
    """The outline of a colour's cut: white a diamond, blue a hexagon, green an emerald cut, red a drop-like
    triangle, black a square, gold a star."""
    x, y = centre
    r = radius
    if colour == 0:
        return [(x, y - r), (x + 0.72 * r, y), (x, y + r), (x - 0.72 * r, y)]
    if colour == 1:
        return _polygon(6, 30, centre, r)
    if colour == 2:
        w, h, c = 0.78 * r, 0.95 * r, 0.3 * r
        corners = (
            (-w + c, -h),
            (w - c, -h),
            (w, -h + c),
            (w, h - c),
            (w - c, h),
            (-w + c, h),
            (-w, h - c),
            (-w, -h + c),
        )
        return [(x + dx, y + dy) for dx, dy in corners]
    if colour == 3:
        return _polygon(3, 90, (x, y - 0.15 * r), 1.08 * r)
    if colour == 4:
        return _polygon(4, 45, centre, 1.02 * r)
    points = []
    for k in range(10):
        radius_k = r * (1.0 if k % 2 == 0 else 0.45)
        angle = math.radians(-90 + 36 * k)
        points.append((x + radius_k * math.cos(angle), y + radius_k * math.sin(angle)))
    return points


def _draw_cut(pen: ImageDraw.ImageDraw, colour: int, centre: Point, radius: float, fill: RGB, edge: RGB) -> None:
    """A gem's cut with an edge and a light facet on its upper left, at supersampled coordinates."""
    s = SUPERSAMPLE
    outline = gem_cut(colour, centre, radius)
    pen.polygon(outline, fill=_opaque(fill), outline=_opaque(edge), width=round(1.4 * s))
    facet = gem_cut(colour, (centre[0] - 0.18 * radius, centre[1] - 0.2 * radius), radius * 0.38)
    pen.polygon(facet, fill=_opaque(mix(fill, (255, 255, 255), 0.55)))


# Chips, dots and bonus cards ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=128)
def chip_sprite(
    colour: int, radius: int, theme: SplendorTheme, *, faded: bool = False, marks: bool = True
) -> Image.Image:
    """A token: a disc in its colour with a dark edge and a ring of contrasting edge marks (a poker chip), its
    middle plain for a count; without ``marks`` a plain disc, so that a small chip's count fills it; ``faded``
    makes it see-through (none left)."""
    box = 2 * radius + 4
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    fill, mark = theme.gem(colour), theme.gem_mark(colour)

    def ring(r: float, colour_: RGB, width: float) -> None:
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), outline=_opaque(colour_), width=round(width * s))

    pen.ellipse((c - radius * s, c - radius * s, c + radius * s, c + radius * s), fill=_opaque(theme.outline))
    r_fill = radius - 1.6
    pen.ellipse((c - r_fill * s, c - r_fill * s, c + r_fill * s, c + r_fill * s), fill=_opaque(fill))
    if marks:  # eight short bars across the rim, and a ring inside them
        for k in range(8):
            angle = math.radians(22.5 + 45 * k)
            inner, outer = radius * 0.72, radius - 2.2
            pen.line(
                (
                    c + inner * s * math.cos(angle),
                    c + inner * s * math.sin(angle),
                    c + outer * s * math.cos(angle),
                    c + outer * s * math.sin(angle),
                ),
                fill=_opaque(mark),
                width=round(max(2.0, radius * 0.22) * s),
            )
        ring(radius * 0.68, mark, 1.2)
    elif colour == 4:  # black: a light inner ring, so it reads on dark grounds too
        ring(radius - 3.2, mark, 1.0)
    image = big.reduce(s)
    if faded:
        image.putalpha(image.getchannel("A").point(lambda a: a * 40 // 100))
    return image


@functools.lru_cache(maxsize=256)
def token_sprite(
    colour: int, count: int, radius: int, digit_size: int, theme: SplendorTheme, *, marks: bool = True
) -> Image.Image:
    """A chip with ``count`` in its middle; a faded chip without digit for none."""
    if count <= 0:
        return chip_sprite(colour, radius, theme, faded=True, marks=marks)
    image = chip_sprite(colour, radius, theme, marks=marks).copy()
    centre = image.width / 2
    draw_text(
        ImageDraw.Draw(image),
        (centre, centre),
        persian_digits(count),
        font=font(digit_size, bold=True),
        fill=_opaque(theme.gem_ink(colour)),
    )
    return image


@functools.lru_cache(maxsize=256)
def dot_sprite(colour: int, count: int, radius: float, digit_size: int, theme: SplendorTheme) -> Image.Image:
    """A card's cost of one colour: a disc with a dark edge and the amount in Persian digits."""
    box = math.ceil(2 * radius) + 4
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    r = radius * s
    pen.ellipse((c - r, c - r, c + r, c + r), fill=_opaque(theme.outline))
    r -= 1.5 * s
    pen.ellipse((c - r, c - r, c + r, c + r), fill=_opaque(theme.gem(colour)))
    if colour == 4:  # black: a light inner ring, so it reads on dark grounds too
        r -= 1.3 * s
        pen.ellipse((c - r, c - r, c + r, c + r), outline=_opaque(theme.gem_mark(4)), width=round(1.0 * s))
    image = big.reduce(s)
    draw_text(
        ImageDraw.Draw(image),
        (box / 2, box / 2 + 0.5),
        persian_digits(count),
        font=font(digit_size, bold=True),
        fill=_opaque(theme.gem_ink(colour)),
    )
    return image


@functools.lru_cache(maxsize=256)
def bonus_sprite(
    colour: int, count: int, width: int, height: int, digit_size: int, theme: SplendorTheme
) -> Image.Image:
    """A player's bonuses of one colour: a small card in that colour with the count; faded for none."""
    box_w, box_h = width + 4, height + 4
    big, pen = _canvas(box_w, box_h, theme.outline)
    s = SUPERSAMPLE
    rect = (2 * s, 2 * s, (width + 2) * s, (height + 2) * s)
    pen.rounded_rectangle(
        rect, radius=5 * s, fill=_opaque(theme.gem(colour)), outline=_opaque(theme.outline), width=round(1.6 * s)
    )
    if colour == 4:
        inner = (rect[0] + 3.5 * s, rect[1] + 3.5 * s, rect[2] - 3.5 * s, rect[3] - 3.5 * s)
        pen.rounded_rectangle(inner, radius=3 * s, outline=_opaque(theme.gem_mark(4)), width=round(1.0 * s))
    image = big.reduce(s)
    if count <= 0:
        image.putalpha(image.getchannel("A").point(lambda a: a * 35 // 100))
        return image
    draw_text(
        ImageDraw.Draw(image),
        (box_w / 2, box_h / 2 + 1),
        persian_digits(count),
        font=font(digit_size, bold=True),
        fill=_opaque(theme.gem_ink(colour)),
    )
    return image


# Cards ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardStyle:
    """The measures of a card at one size: the table's and the private picture's."""

    width: int
    height: int
    corner: int
    band: int  # the coloured top band, with the points and the bonus gem
    points_size: int
    gem_radius: float
    dot_radius: float
    digit_size: int
    dot_step: float
    dot_margin: float  # from the card's left and bottom edges to the nearest dot's edge


TABLE_CARD = CardStyle(lay.CARD_W, lay.CARD_H, 10, 44, 38, 14, 17.5, lay.TEXT, 38, 6)
PRIVATE_CARD = CardStyle(lay.PRIVATE_CARD_W, lay.PRIVATE_CARD_H, 12, 60, 50, 19, 23, 32, 50, 9)


def _card_canvas(
    style: CardStyle | MiniStyle, fill: RGB, theme: SplendorTheme
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big, pen = _canvas(style.width + 4, style.height + 4, theme.outline)
    s = SUPERSAMPLE
    pen.rounded_rectangle(
        (2 * s, 2 * s, (style.width + 2) * s, (style.height + 2) * s),
        radius=style.corner * s,
        fill=_opaque(fill),
        outline=_opaque(theme.outline),
        width=round(1.8 * s),
    )
    return big, pen


@functools.lru_cache(maxsize=512)
def card_sprite(bonus: int, points: int, cost: CostKey, style: CardStyle, theme: SplendorTheme) -> Image.Image:
    """A face-up development card: a pale face in its bonus colour, the colour's band on top with the points
    (when any) on the left and the bonus gem on the right, the cost as coloured dots at the bottom left, two
    to a column from the bottom up in colour order. Nothing else on the card is a number in a circle: its
    label stands outside it (``label_centre``), so no label can be read as a cost."""
    s = SUPERSAMPLE
    big, pen = _card_canvas(style, theme.card_face(bonus), theme)
    x0, y0 = 2 * s, 2 * s
    w, h = style.width * s, style.height * s
    # A faint large gem on the right of the face, the card's art, clear of the costs.
    faint = mix(theme.card_face(bonus), theme.gem(bonus) if bonus else theme.muted, 0.28)
    face = h - style.band * s
    art_r = min(w * 0.19, face * 0.3)
    pen.polygon(gem_cut(bonus, (x0 + w - art_r * 1.35, y0 + style.band * s + face * 0.55), art_r), fill=_opaque(faint))
    # The band: clipped to the card's rounded top by drawing a rounded rectangle and squaring its bottom.
    band = style.band * s
    pen.rounded_rectangle(
        (x0, y0, x0 + w, y0 + band),
        radius=style.corner * s,
        fill=_opaque(theme.gem(bonus)),
        outline=_opaque(theme.outline),
        width=round(1.8 * s),
    )
    pen.rectangle(
        (x0 + 1.8 * s, y0 + band - style.corner * s, x0 + w - 1.8 * s, y0 + band - 0.9 * s),
        fill=_opaque(theme.gem(bonus)),
    )
    pen.line((x0, y0 + band, x0 + w, y0 + band), fill=_opaque(theme.outline), width=round(1.4 * s))
    gem_centre = (x0 + w - (style.gem_radius + style.band * 0.2) * s, y0 + band / 2)
    edge = theme.gem_mark(4) if bonus == 4 else theme.outline
    _draw_cut(pen, bonus, gem_centre, style.gem_radius * s, theme.gem(bonus), edge)
    image = big.reduce(s)
    draw = ImageDraw.Draw(image)
    if points:
        draw_text(
            draw,
            (2 + style.band * 0.2 + style.points_size * 0.3, 2 + style.band / 2 + 1),
            persian_digits(points),
            font=font(style.points_size, bold=True),
            fill=_opaque(theme.gem_ink(bonus)),
        )
    _paste_costs(image, cost, style, theme)
    return image


def _paste_costs(image: Image.Image, cost: CostKey, style: CardStyle, theme: SplendorTheme) -> None:
    """Two dots to a column, from the bottom up, columns from the left: four colours fit a short card."""
    first_x = 2 + style.dot_margin + style.dot_radius
    bottom_y = 2 + style.height - style.dot_margin - style.dot_radius
    paid = [(colour, amount) for colour, amount in enumerate(cost) if amount]
    for k, (colour, amount) in enumerate(paid):
        centre = (first_x + (k // 2) * style.dot_step, bottom_y - (k % 2) * style.dot_step)
        paste_centred(image, dot_sprite(colour, amount, style.dot_radius, style.digit_size, theme), centre)


@functools.lru_cache(maxsize=64)
def back_sprite(level: int, count: int | None, style: CardStyle, theme: SplendorTheme) -> Image.Image:
    """A face-down card of ``level``: the level's colour with a diagonal pattern and as many pips as its
    level; ``count`` (a deck) is written in a white disc in the middle, None (a hidden reserved card) a
    question mark. A deck of 0 is an empty outline."""
    s = SUPERSAMPLE
    colour = theme.back(level)
    if count == 0:
        big, pen = _canvas(style.width + 4, style.height + 4, theme.outline)
        pen.rounded_rectangle(
            (2 * s, 2 * s, (style.width + 2) * s, (style.height + 2) * s),
            radius=style.corner * s,
            outline=_opaque(mix(colour, theme.background, 0.3)),
            width=round(2.5 * s),
        )
        image = big.reduce(s)
        draw_text(
            ImageDraw.Draw(image),
            (2 + style.width / 2, 2 + style.height * 0.52),
            persian_digits(0),
            font=font(round(style.width * 0.26), bold=True),
            fill=_opaque(mix(colour, theme.background, 0.3)),
        )
        return image
    big, pen = _card_canvas(style, colour, theme)
    _draw_back_pattern(big, pen, style, colour, theme)
    w, h = style.width * s, style.height * s
    inset = max(4, style.width // 14) * s
    # Level pips at the top.
    pip = max(3.0, style.width / 28) * s
    top = 2 * s + inset + pip * 2.6
    for k in range(level):
        cx = 2 * s + w / 2 + (k - (level - 1) / 2) * pip * 3
        pen.ellipse(
            (cx - pip, top - pip, cx + pip, top + pip),
            fill=_opaque((255, 255, 255)),
            outline=_opaque(theme.outline),
            width=round(0.8 * s),
        )
    if count is not None:
        r = style.width * 0.27 * s
        cx, cy = 2 * s + w / 2, 2 * s + h * 0.56
        pen.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=_opaque((255, 255, 255)),
            outline=_opaque(theme.outline),
            width=round(1.6 * s),
        )
    image = big.reduce(s)
    draw = ImageDraw.Draw(image)
    if count is not None:
        draw_text(
            draw,
            (2 + style.width / 2, 2 + style.height * 0.56 + 1),
            persian_digits(count),
            font=font(round(style.width * 0.26), bold=True),
            fill=_opaque(theme.ink),
        )
    else:
        draw_text(
            draw,
            (2 + style.width / 2, 2 + style.height * 0.58),
            "؟",
            font=font(round(style.width * 0.5), bold=True),
            fill=_opaque((255, 255, 255)),
        )
    return image


def _draw_back_pattern(
    big: Image.Image, pen: ImageDraw.ImageDraw, style: CardStyle | MiniStyle, colour: RGB, theme: SplendorTheme
) -> None:
    """Diagonal stripes inside an inner frame, on a card's back drawn at ``SUPERSAMPLE`` on ``big``."""
    s = SUPERSAMPLE
    w, h = style.width * s, style.height * s
    inset = max(4, style.width // 14) * s
    stripe = mix(colour, theme.back_pattern, 0.14)
    step = max(8, style.width // 8) * s
    for k in range(-h // step - 1, w // step + 2):
        x = 2 * s + inset + k * step
        pen.line((x, 2 * s + inset, x + (h - 2 * inset), 2 * s + h - inset), fill=_opaque(stripe), width=round(2.5 * s))
    # Mask the stripes outside the inner frame by redrawing the margin.
    frame = (2 * s + inset, 2 * s + inset, 2 * s + w - inset, 2 * s + h - inset)
    margin = Image.new("L", big.size, 255)
    ImageDraw.Draw(margin).rounded_rectangle(frame, radius=style.corner * s // 2, fill=0)
    card_only, _pen = _card_canvas(style, colour, theme)
    big.paste(card_only, (0, 0), margin)
    pen.rounded_rectangle(
        frame, radius=style.corner * s // 2, outline=_opaque(mix(colour, (255, 255, 255), 0.45)), width=round(1.6 * s)
    )


@dataclass(frozen=True, slots=True)
class MiniStyle:
    """A reserved card in a player's row: its colour and points only (its cost is its owner's business, and
    shown to them in private)."""

    width: int
    height: int
    corner: int
    digit_size: int


MINI_CARD = MiniStyle(lay.MINI_W, lay.MINI_H, 6, lay.TEXT)


@functools.lru_cache(maxsize=64)
def mini_sprite(bonus: int | None, level: int, points: int, style: MiniStyle, theme: SplendorTheme) -> Image.Image:
    """A reserved card, small: its bonus colour with its points (None: hidden, the back of its level with a
    question mark)."""
    s = SUPERSAMPLE
    fill = theme.back(level) if bonus is None else theme.gem(bonus)
    big, pen = _card_canvas(style, fill, theme)
    if bonus is None:
        _draw_back_pattern(big, pen, style, fill, theme)
    elif bonus == 4:
        inner = (2 * s + 3.5 * s, 2 * s + 3.5 * s, (style.width - 1.5) * s, (style.height - 1.5) * s)
        pen.rounded_rectangle(inner, radius=3 * s, outline=_opaque(theme.gem_mark(4)), width=round(1.0 * s))
    image = big.reduce(s)
    text = "؟" if bonus is None else persian_digits(points) if points else ""
    if text:
        ink = (255, 255, 255) if bonus is None else theme.gem_ink(bonus)
        centre = (2 + style.width / 2, 2 + style.height / 2)
        draw_text(ImageDraw.Draw(image), centre, text, font=font(style.digit_size, bold=True), fill=_opaque(ink))
    return image


@functools.lru_cache(maxsize=16)
def empty_slot_sprite(style: CardStyle | MiniStyle, theme: SplendorTheme) -> Image.Image:
    """Where a card was and none came to replace it (its deck is empty)."""
    big, pen = _canvas(style.width + 4, style.height + 4, theme.outline)
    s = SUPERSAMPLE
    pen.rounded_rectangle(
        (2 * s, 2 * s, (style.width + 2) * s, (style.height + 2) * s),
        radius=style.corner * s,
        fill=_opaque(theme.empty_slot, 150),
        outline=_opaque(theme.card_border),
        width=round(2 * s),
    )
    return big.reduce(s)


# Nobles ---------------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def noble_sprite(points: int, requires: CostKey, theme: SplendorTheme) -> Image.Image:
    """A noble's tile, wider than high: a band on the left with the points over a crown, the bonuses asked for
    as small coloured cards with their counts in a row on the right, white first at the right (its button
    names them: no other number is needed)."""
    s = SUPERSAMPLE
    width, height = lay.NOBLE_W, lay.NOBLE_H
    big, pen = _canvas(width + 4, height + 4, theme.outline)
    x0, y0 = 2 * s, 2 * s
    corner = 10 * s
    pen.rounded_rectangle(
        (x0, y0, x0 + width * s, y0 + height * s),
        radius=corner,
        fill=_opaque(theme.noble_band),
        outline=_opaque(theme.outline),
        width=round(1.8 * s),
    )
    band = lay.NOBLE_BAND * s
    inner = (x0 + band, y0 + 1.8 * s, x0 + width * s - 1.8 * s, y0 + height * s - 1.8 * s)
    pen.rounded_rectangle(inner, radius=corner - 2 * s, fill=_opaque(theme.noble))
    pen.rectangle((x0 + band, inner[1], x0 + band + corner, inner[3]), fill=_opaque(theme.noble))
    pen.line((x0 + band, y0, x0 + band, y0 + height * s), fill=_opaque(theme.outline), width=round(1.4 * s))
    _draw_crown(pen, (x0 + band / 2, y0 + height * s * 0.74), band * 0.32, theme)
    image = big.reduce(s)
    draw = ImageDraw.Draw(image)
    draw_text(
        draw,
        (2 + lay.NOBLE_BAND / 2, 2 + height * 0.32),
        persian_digits(points),
        font=font(lay.TEXT, bold=True),
        fill=_opaque(theme.on_noble_band),
    )
    needs = [(colour, n) for colour, n in enumerate(requires) if n]
    step = lay.NOBLE_NEED_W + 6
    area = width - lay.NOBLE_BAND
    right = 2 + lay.NOBLE_BAND + (area + len(needs) * step - 6) / 2
    for k, (colour, n) in enumerate(needs):
        cx = right - lay.NOBLE_NEED_W / 2 - k * step
        sprite = bonus_sprite(colour, n, lay.NOBLE_NEED_W, lay.NOBLE_NEED_H, lay.TEXT, theme)
        paste_centred(image, sprite, (cx, 2 + height / 2))
    return image


def _draw_crown(pen: ImageDraw.ImageDraw, centre: Point, half: float, theme: SplendorTheme) -> None:
    x, y = centre
    points = [
        (x - half, y + 0.6 * half),
        (x - half, y - 0.5 * half),
        (x - 0.5 * half, y),
        (x, y - 0.8 * half),
        (x + 0.5 * half, y),
        (x + half, y - 0.5 * half),
        (x + half, y + 0.6 * half),
    ]
    pen.polygon(points, fill=_opaque(theme.crown), outline=_opaque(theme.outline), width=round(1.2 * SUPERSAMPLE))


@functools.lru_cache(maxsize=8)
def crown_sprite(size: int, theme: SplendorTheme) -> Image.Image:
    """A noble won, in a player's row: a small tile with a crown."""
    s = SUPERSAMPLE
    big, pen = _canvas(size + 4, size + 4, theme.outline)
    pen.rounded_rectangle(
        (2 * s, 2 * s, (size + 2) * s, (size + 2) * s),
        radius=5 * s,
        fill=_opaque(theme.noble_band),
        outline=_opaque(theme.outline),
        width=round(1.4 * s),
    )
    _draw_crown(pen, ((size + 4) * s / 2, (size + 4) * s / 2 + size * 0.04 * s), size * 0.32 * s, theme)
    return big.reduce(s)
