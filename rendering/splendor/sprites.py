"""Pre-drawn, anti-aliased pieces of the اسپلندور pictures, cached: pasting is far cheaper than drawing.

Shapes are drawn at ``SUPERSAMPLE`` times the size and reduced; text is written afterwards at full size so it
stays crisp. Transparent pixels carry the outline's colour, so the reduction never lightens an edge.

Every gem colour has its own cut (a shape), drawn on the bank's chips and faintly on card faces, and every
chip has a ring of edge marks in a contrasting tone, so white and black read on any ground.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering.splendor import layout as lay
from rendering.splendor.theme import SplendorTheme
from rendering.text import draw_text, font, persian_digits, text_size
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
    colour: int, radius: int, theme: SplendorTheme, *, cut: bool = False, faded: bool = False
) -> Image.Image:
    """A token: a disc in its colour with a dark edge and a ring of contrasting edge marks (a poker chip);
    ``cut`` draws the colour's gem in the middle (the bank), ``faded`` makes it see-through (none left)."""
    box = 2 * radius + 4
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    fill, mark = theme.gem(colour), theme.gem_mark(colour)

    def disc(r: float, colour_: RGB) -> None:
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=_opaque(colour_))

    disc(radius, theme.outline)
    disc(radius - 1.6, fill)
    # Edge marks: eight short bars across the rim.
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
    r_in = radius * 0.68
    pen.ellipse((c - r_in * s, c - r_in * s, c + r_in * s, c + r_in * s), outline=_opaque(mark), width=round(1.2 * s))
    if cut:
        edge = theme.outline if colour != 4 else theme.gem_mark(4)
        _draw_cut(pen, colour, (c, c), radius * 0.5 * s, fill, edge)
    image = big.reduce(s)
    if faded:
        image.putalpha(image.getchannel("A").point(lambda a: a * 40 // 100))
    return image


@functools.lru_cache(maxsize=256)
def token_sprite(colour: int, count: int, radius: int, digit_size: int, theme: SplendorTheme) -> Image.Image:
    """A chip with ``count`` in its middle; a faded chip without digit for none."""
    if count <= 0:
        return chip_sprite(colour, radius, theme, faded=True)
    image = chip_sprite(colour, radius, theme).copy()
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
    """The measures of a card at one size: the table's, the private picture's, and the panels' small one."""

    width: int
    height: int
    corner: int
    band: int  # the coloured top band, with the points and the bonus gem
    points_size: int
    gem_radius: float
    dot_radius: float
    digit_size: int
    dot_step: float
    dot_margin: float  # from the card's left and bottom edges to the nearest dot's centre, less the radius
    tag_size: int  # the label's font size
    tag_outside: bool  # the label under the card (small cards) rather than in its corner


TABLE_CARD = CardStyle(lay.CARD_W, lay.CARD_H, 10, 56, 44, 17, 15.5, 22, 33, 5, 28, False)
PRIVATE_CARD = CardStyle(lay.PRIVATE_CARD_W, lay.PRIVATE_CARD_H, 12, 62, 50, 19, 17.5, 25, 38, 7, 30, False)
SMALL_CARD = CardStyle(lay.SMALL_CARD_W, lay.SMALL_CARD_H, 6, 28, 22, 8.5, 9.5, 14, 19.5, 3, 21, True)


def _card_canvas(style: CardStyle, fill: RGB, theme: SplendorTheme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
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
def card_sprite(
    bonus: int, points: int, cost: CostKey, label: str, style: CardStyle, theme: SplendorTheme
) -> Image.Image:
    """A face-up development card: a pale face in its bonus colour, the colour's band on top with the points
    (when any) on the left and the bonus gem on the right, the cost as a column of dots at the bottom left
    (colour order from the bottom up), and ``label`` (its slot) in the bottom right corner."""
    s = SUPERSAMPLE
    big, pen = _card_canvas(style, theme.card_face(bonus), theme)
    x0, y0 = 2 * s, 2 * s
    w, h = style.width * s, style.height * s
    # A faint large gem on the face, the card's art.
    faint = mix(theme.card_face(bonus), theme.gem(bonus) if bonus else theme.muted, 0.28)
    art_r = min(w * 0.3, (h - style.band * s) * 0.3)
    pen.polygon(
        gem_cut(bonus, (x0 + w * 0.64, y0 + style.band * s + (h - style.band * s) * 0.42), art_r), fill=_opaque(faint)
    )
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
    if label and not style.tag_outside:
        _draw_tag(image, label, style, theme)
    return image


def _paste_costs(image: Image.Image, cost: CostKey, style: CardStyle, theme: SplendorTheme) -> None:
    x = 2 + style.dot_margin + style.dot_radius + 2
    y = 2 + style.height - style.dot_margin - style.dot_radius - 2
    for colour, amount in enumerate(cost):
        if amount:
            paste_centred(image, dot_sprite(colour, amount, style.dot_radius, style.digit_size, theme), (x, y))
            y -= style.dot_step


def _draw_tag(image: Image.Image, label: str, style: CardStyle, theme: SplendorTheme) -> None:
    """The slot label in a white rounded tag at the bottom right corner of a card."""
    tag = tag_sprite(label, style.tag_size, theme)
    right, bottom = 2 + style.width - 5, 2 + style.height - 5
    paste_at(image, tag, (right - tag.width, bottom - tag.height))


@functools.lru_cache(maxsize=128)
def tag_sprite(label: str, size: int, theme: SplendorTheme) -> Image.Image:
    """A label (``۲-۳``, ``دستهٔ ۱``) on a white rounded tag with a dark edge."""
    face = font(size, bold=True)
    width, height = text_size(label, font=face)[0] + round(size * 0.8), round(size * 1.35)
    big, pen = _canvas(width, height, theme.outline)
    s = SUPERSAMPLE
    pen.rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1),
        radius=height * s // 2 - s,
        fill=_opaque(theme.tag),
        outline=_opaque(theme.outline),
        width=round(1.3 * s),
    )
    image = big.reduce(s)
    draw_text(ImageDraw.Draw(image), (width / 2, height / 2), label, font=face, fill=_opaque(theme.tag_ink))
    return image


@functools.lru_cache(maxsize=64)
def back_sprite(level: int, count: int | None, label: str, style: CardStyle, theme: SplendorTheme) -> Image.Image:
    """A face-down card of ``level``: the level's colour with a diagonal pattern and as many pips as its
    level; ``count`` (a deck) is written in a white disc in the middle, None (a hidden reserved card) a
    question mark; ``label`` in the corner. A deck of 0 is an empty outline."""
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
    else:
        big, pen = _card_canvas(style, colour, theme)
        w, h = style.width * s, style.height * s
        inset = max(4, style.width // 14) * s
        stripe = mix(colour, theme.back_pattern, 0.14)
        step = max(8, style.width // 8) * s
        for k in range(-h // step - 1, w // step + 2):
            x = 2 * s + inset + k * step
            pen.line(
                (x, 2 * s + inset, x + (h - 2 * inset), 2 * s + h - inset), fill=_opaque(stripe), width=round(2.5 * s)
            )
        # Mask the stripes outside the inner frame by redrawing the margin.
        frame = (2 * s + inset, 2 * s + inset, 2 * s + w - inset, 2 * s + h - inset)
        margin = Image.new("L", big.size, 255)
        ImageDraw.Draw(margin).rounded_rectangle(frame, radius=style.corner * s // 2, fill=0)
        card_only, _pen = _card_canvas(style, colour, theme)
        big.paste(card_only, (0, 0), margin)
        pen.rounded_rectangle(
            frame,
            radius=style.corner * s // 2,
            outline=_opaque(mix(colour, (255, 255, 255), 0.45)),
            width=round(1.6 * s),
        )
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
            cx, cy = 2 * s + w / 2, 2 * s + h * 0.52
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
                (2 + style.width / 2, 2 + style.height * 0.52 + 1),
                persian_digits(count),
                font=font(round(style.width * 0.26), bold=True),
                fill=_opaque(theme.ink),
            )
        else:
            draw_text(
                draw,
                (2 + style.width / 2, 2 + style.height * 0.55),
                "؟",
                font=font(round(style.width * 0.5), bold=True),
                fill=_opaque((255, 255, 255)),
            )
    if label and not style.tag_outside:
        _draw_tag(image, label, style, theme)
    return image


@functools.lru_cache(maxsize=16)
def empty_slot_sprite(style: CardStyle, theme: SplendorTheme) -> Image.Image:
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
def noble_sprite(points: int, requires: CostKey, size: int, theme: SplendorTheme) -> Image.Image:
    """A noble's tile: a band on the left with the points over a crown, the required bonuses as small coloured
    cards with Persian digits in a column on the right (its button names them: no number is needed)."""
    s = SUPERSAMPLE
    big, pen = _canvas(size + 4, size + 4, theme.outline)
    x0, y0 = 2 * s, 2 * s
    side = size * s
    corner = 10 * s
    pen.rounded_rectangle(
        (x0, y0, x0 + side, y0 + side),
        radius=corner,
        fill=_opaque(theme.noble_band),
        outline=_opaque(theme.outline),
        width=round(1.8 * s),
    )
    band = round(size * 0.36) * s
    pen.rounded_rectangle(
        (x0 + band, y0 + 1.8 * s, x0 + side - 1.8 * s, y0 + side - 1.8 * s),
        radius=corner - 2 * s,
        fill=_opaque(theme.noble),
    )
    pen.rectangle((x0 + band, y0 + 1.8 * s, x0 + band + corner, y0 + side - 1.8 * s), fill=_opaque(theme.noble))
    pen.line((x0 + band, y0, x0 + band, y0 + side), fill=_opaque(theme.outline), width=round(1.4 * s))
    _draw_crown(pen, (x0 + band / 2, y0 + side * 0.55), band * 0.34, theme)
    image = big.reduce(s)
    draw = ImageDraw.Draw(image)
    band_px = band / s
    draw_text(
        draw,
        (2 + band_px / 2, 2 + size * 0.2),
        persian_digits(points),
        font=font(round(size * 0.27), bold=True),
        fill=_opaque(theme.on_noble_band),
    )
    needs = [(colour, n) for colour, n in enumerate(requires) if n]
    cell_w, cell_h = round(size * 0.36), round(size * 0.27)
    gap = (size - len(needs) * cell_h) / (len(needs) + 1)
    cx = 2 + band_px + (size - band_px) / 2
    for k, (colour, n) in enumerate(reversed(needs)):
        cy = 2 + gap * (k + 1) + cell_h * (k + 0.5)
        paste_centred(image, bonus_sprite(colour, n, cell_w, cell_h, round(size * 0.2), theme), (cx, cy))
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
    """A noble won, in a player's panel: a small tile with a crown."""
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
