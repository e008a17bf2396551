"""Pre-drawn, anti-aliased pieces of the رکب pictures, cached: cards by kind and size, the tokens, chips.

Shapes are drawn at ``SUPERSAMPLE`` times the size and reduced; text is stamped afterwards at full size so it
stays crisp. Transparent pixels carry the outline's colour, so the reduction never lightens an edge.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from rendering.condottiere import labels
from rendering.condottiere.theme import CondottiereTheme
from rendering.hexgrid import Point
from rendering.text import draw_text, fitting_font, font, persian_digits
from rendering.theme import RGB
from rules.condottiere.data import KIND_OF_CODE, KINDS

SUPERSAMPLE = 4
RGBA = tuple[int, int, int, int]


def _opaque(colour: RGB, alpha: int = 255) -> RGBA:
    return (*colour, alpha)


def _canvas(width: int, height: int, clear: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (*clear, 0))
    return big, ImageDraw.Draw(big)


def kind_of(code: str) -> str:
    """The kind code of a card code ("5#03" -> "5", "bi#01" -> "bi")."""
    return code.split("#", 1)[0]


def is_mercenary(kind: str) -> bool:
    return KINDS[KIND_OF_CODE[kind]].type == "mercenary"


def sort_key(code: str) -> tuple[int, str]:
    """Mercenaries by value, then the specials in the rules' order; copies by their number."""
    return KIND_OF_CODE[kind_of(code)], code


# Symbols ----------------------------------------------------------------------------------------------------
# Each draws in a square of side ``size`` (supersampled px) centred at (cx, cy).


def _olive_branch(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, theme: CondottiereTheme) -> None:
    stem = max(2.0, size * 0.06)
    start, end = (cx - size * 0.38, cy + size * 0.36), (cx + size * 0.36, cy - size * 0.36)
    pen.line((start, end), fill=_opaque(theme.border), width=round(stem))
    leaf_w, leaf_h = size * 0.3, size * 0.13
    for k, t in enumerate((0.18, 0.38, 0.58, 0.78)):
        x = start[0] + (end[0] - start[0]) * t
        y = start[1] + (end[1] - start[1]) * t
        side = 1 if k % 2 else -1
        lx, ly = x + side * size * 0.13, y + side * size * 0.13
        _leaf(pen, (lx, ly), leaf_w, leaf_h, 45, theme.olive)
    _leaf(pen, (end[0] + size * 0.04, end[1] - size * 0.04), leaf_w, leaf_h, -45, theme.olive)


def _leaf(pen: ImageDraw.ImageDraw, centre: Point, length: float, width: float, angle: float, colour: RGB) -> None:
    a = math.radians(angle)
    points = []
    for k in range(24):
        t = 2 * math.pi * k / 24
        x, y = math.cos(t) * length / 2, math.sin(t) * width / 2
        points.append((centre[0] + x * math.cos(a) - y * math.sin(a), centre[1] + x * math.sin(a) + y * math.cos(a)))
    pen.polygon(points, fill=_opaque(colour))


def _swords(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, blade: RGB, hilt: RGB) -> None:
    """Two crossed swords, points up."""
    width = max(2, round(size * 0.1))
    for sign in (-1, 1):
        tip = (cx - sign * size * 0.4, cy - size * 0.4)
        pommel = (cx + sign * size * 0.36, cy + size * 0.36)
        pen.line((tip, pommel), fill=_opaque(blade), width=width)
        # guard, across the blade near the hilt
        gx, gy = cx + sign * size * 0.2, cy + size * 0.2
        d = size * 0.14
        pen.line(((gx - d, gy - sign * -d), (gx + d, gy + sign * -d)), fill=_opaque(hilt), width=width)
        r = size * 0.07
        pen.ellipse((pommel[0] - r, pommel[1] - r, pommel[0] + r, pommel[1] + r), fill=_opaque(hilt))


def _white_flag(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, theme: CondottiereTheme) -> None:
    pole_x = cx - size * 0.3
    width = max(2, round(size * 0.07))
    pen.line(((pole_x, cy - size * 0.45), (pole_x, cy + size * 0.45)), fill=_opaque(theme.border), width=width)
    top, bottom = cy - size * 0.42, cy + size * 0.05
    wave = [(pole_x, top)]
    for k in range(9):
        t = k / 8
        wave.append((pole_x + t * size * 0.72, top + math.sin(t * math.pi * 2) * size * 0.05))
    for k in range(8, -1, -1):
        t = k / 8
        wave.append((pole_x + t * size * 0.72, bottom + math.sin(t * math.pi * 2) * size * 0.05))
    pen.polygon(wave, fill=_opaque((255, 255, 255)), outline=_opaque(theme.outline), width=max(1, width // 2))


def _scarecrow(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, theme: CondottiereTheme) -> None:
    straw, cloth = (150, 104, 50), (180, 70, 50)
    width = max(2, round(size * 0.08))
    pen.line(((cx, cy - size * 0.2), (cx, cy + size * 0.48)), fill=_opaque(straw), width=width)
    pen.line(
        ((cx - size * 0.42, cy - size * 0.02), (cx + size * 0.42, cy - size * 0.02)), fill=_opaque(straw), width=width
    )
    pen.polygon(
        [
            (cx - size * 0.2, cy - size * 0.1),
            (cx + size * 0.2, cy - size * 0.1),
            (cx + size * 0.24, cy + size * 0.26),
            (cx - size * 0.24, cy + size * 0.26),
        ],
        fill=_opaque(cloth),
    )
    r = size * 0.13
    head = cy - size * 0.24
    pen.ellipse(
        (cx - r, head - r, cx + r, head + r), fill=_opaque((236, 200, 130)), outline=_opaque(straw), width=width // 2
    )
    pen.polygon(
        [(cx - size * 0.24, head - r * 0.5), (cx + size * 0.24, head - r * 0.5), (cx, head - size * 0.34)],
        fill=_opaque((120, 80, 40)),
    )


def _drum(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, theme: CondottiereTheme) -> None:
    body, rim = (190, 50, 40), theme.outline
    w, h = size * 0.7, size * 0.45
    top, bottom = cy - h / 2 + size * 0.08, cy + h / 2 + size * 0.08
    e = size * 0.12
    pen.rectangle((cx - w / 2, top, cx + w / 2, bottom), fill=_opaque(body))
    pen.ellipse((cx - w / 2, bottom - e, cx + w / 2, bottom + e), fill=_opaque(body))
    line = max(1, round(size * 0.03))
    for k in range(4):  # the cords
        x0 = cx - w / 2 + k * w / 3
        pen.line(((x0, top), (min(cx + w / 2, x0 + w / 6), bottom)), fill=_opaque((250, 230, 180)), width=line)
    pen.ellipse(
        (cx - w / 2, top - e, cx + w / 2, top + e), fill=_opaque((250, 240, 220)), outline=_opaque(rim), width=line
    )
    stick = max(2, round(size * 0.05))
    pen.line(((cx - size * 0.05, top - e * 0.2), (cx - size * 0.42, top - size * 0.3)), fill=_opaque(rim), width=stick)
    pen.line(((cx + size * 0.05, top - e * 0.2), (cx + size * 0.42, top - size * 0.3)), fill=_opaque(rim), width=stick)


def _heart(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB) -> None:
    points = []
    for k in range(60):
        t = 2 * math.pi * k / 60
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * size / 36, cy - y * size / 36 - size * 0.04))
    pen.polygon(points, fill=_opaque(colour))


def _star(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB, rim: RGB) -> None:
    points = []
    for k in range(10):
        r = size * (0.48 if k % 2 == 0 else 0.2)
        a = math.radians(-90 + 36 * k)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    pen.polygon(points, fill=_opaque(colour), outline=_opaque(rim), width=max(1, round(size * 0.03)))


def _snowflake(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB) -> None:
    width = max(2, round(size * 0.06))
    for k in range(6):
        a = math.radians(60 * k)
        end = (cx + size * 0.44 * math.cos(a), cy + size * 0.44 * math.sin(a))
        pen.line(((cx, cy), end), fill=_opaque(colour), width=width)
        for t, length in ((0.55, 0.14), (0.8, 0.1)):
            bx, by = cx + size * 0.44 * t * math.cos(a), cy + size * 0.44 * t * math.sin(a)
            for sign in (-1, 1):
                b = a + sign * math.radians(45)
                pen.line(
                    ((bx, by), (bx + size * length * math.cos(b), by + size * length * math.sin(b))),
                    fill=_opaque(colour),
                    width=width,
                )


def _flower(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    stem = max(2, round(size * 0.06))
    pen.line(((cx, cy), (cx, cy + size * 0.48)), fill=_opaque((60, 130, 50)), width=stem)
    _leaf(pen, (cx + size * 0.14, cy + size * 0.32), size * 0.26, size * 0.1, -30, (60, 130, 50))
    head = cy - size * 0.08
    for k in range(6):
        a = math.radians(60 * k)
        px, py = cx + size * 0.2 * math.cos(a), head + size * 0.2 * math.sin(a)
        r = size * 0.14
        pen.ellipse((px - r, py - r, px + r, py + r), fill=_opaque((232, 110, 150)))
    r = size * 0.11
    pen.ellipse((cx - r, head - r, cx + r, head + r), fill=_opaque((250, 200, 40)))


def _elder(pen: ImageDraw.ImageDraw, cx: float, cy: float, size: float, theme: CondottiereTheme) -> None:
    """The Bishop, ریش‌سفید ("white beard"): an elder's face with a long white beard over a dark robe, a
    turban above; nothing like the peace token's olive branch."""
    line = max(1, round(size * 0.025))
    rim = _opaque(theme.elder_rim)
    robe = [(cx - size * 0.4, cy + size * 0.5), (cx - size * 0.26, cy + size * 0.12)]
    robe += [(cx + size * 0.26, cy + size * 0.12), (cx + size * 0.4, cy + size * 0.5)]
    pen.polygon(robe, fill=_opaque(theme.elder_robe))
    face = (cx - size * 0.17, cy - size * 0.28, cx + size * 0.17, cy + size * 0.06)
    pen.ellipse(face, fill=_opaque(theme.elder_skin), outline=rim, width=line)
    beard = [(cx - size * 0.2, cy - size * 0.1)]
    for k in range(1, 12):  # a quarter ellipse from the left cheek down to the tip, mirrored below
        a = k / 12 * math.pi / 2
        beard.append((cx - size * 0.2 * math.cos(a), cy - size * 0.1 + size * 0.56 * math.sin(a)))
    beard.append((cx, cy + size * 0.5))
    beard += [(2 * cx - x, y) for x, y in reversed(beard[:-1])]
    pen.polygon(beard, fill=_opaque(theme.elder_beard), outline=rim, width=line)
    mouth = size * 0.05
    pen.line(((cx - mouth, cy - size * 0.02), (cx + mouth, cy - size * 0.02)), fill=rim, width=line)
    eye = size * 0.03
    for side in (-1, 1):
        ex, ey = cx + side * size * 0.075, cy - size * 0.14
        pen.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill=rim)
    turban = (cx - size * 0.23, cy - size * 0.48, cx + size * 0.23, cy - size * 0.16)
    pen.chord(turban, 180, 360, fill=_opaque(theme.elder_turban), outline=rim, width=line)
    pen.line(((cx - size * 0.23, cy - size * 0.32), (cx + size * 0.23, cy - size * 0.32)), fill=rim, width=line)


def _symbol(pen: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, size: float, theme: CondottiereTheme) -> None:
    if kind == "bi":
        _elder(pen, cx, cy, size, theme)
    elif kind == "sc":
        _scarecrow(pen, cx, cy, size, theme)
    elif kind == "su":
        _white_flag(pen, cx, cy, size, theme)
    elif kind == "dr":
        _drum(pen, cx, cy, size, theme)
    elif kind == "co":
        _heart(pen, cx, cy, size, theme.courtesan)
    elif kind == "he":
        _star(pen, cx, cy, size, (250, 196, 40), (150, 100, 10))
    elif kind == "wi":
        _snowflake(pen, cx, cy, size, (40, 110, 190))
    elif kind == "sp":
        _flower(pen, cx, cy, size)


# Cards ------------------------------------------------------------------------------------------------------


def _faces(kind: str, theme: CondottiereTheme) -> tuple[RGB, RGB]:
    """Rim and face colours of a card kind."""
    if is_mercenary(kind):
        return theme.mercenary_rim, theme.mercenary_face
    face = {"wi": theme.winter_face, "sp": theme.spring_face}.get(kind, theme.special_face)
    return theme.special_rim, face


@functools.lru_cache(maxsize=256)
def card_sprite(
    kind: str, width: int, height: int, theme: CondottiereTheme, *, smallest: int, named: bool
) -> Image.Image:
    """A face-up card of ``kind`` (a kind code: "5", "bi"): a mercenary shows its value big, a special its
    symbol. A ``named`` card (in the hand) also has a special's name under its symbol and, in the top-right
    corner, what it adds; otherwise the symbol fills the card (a battle line's small cards, whose strength is
    written beside them). No text is smaller than ``smallest``."""
    rim, face = _faces(kind, theme)
    big, pen = _canvas(width, height, theme.outline)
    s = SUPERSAMPLE
    radius = max(4, round(width * 0.1)) * s
    border = max(3.0, width * 0.07) * s
    pen.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius, fill=_opaque(theme.outline))
    pen.rounded_rectangle((s, s, width * s - 1 - s, height * s - 1 - s), radius - s, fill=_opaque(rim))
    pen.rounded_rectangle(
        (border, border, width * s - 1 - border, height * s - 1 - border),
        max(1, radius - border),
        fill=_opaque(face),
    )
    mercenary = is_mercenary(kind)
    if not mercenary:
        middle, size = (0.4, 0.66) if named else (0.5, 0.86)
        _symbol(pen, kind, width * s / 2, height * s * middle, width * s * size, theme)
    image = big.reduce(s)
    draw = ImageDraw.Draw(image)
    ink = _opaque(theme.card_ink)
    inset = max(4, width * 0.1)
    corner = (width - inset, inset)
    corner_font = font(max(smallest, round(height * 0.14)), bold=True)
    if mercenary:
        value = persian_digits(kind)
        size = max(smallest, round(height * (0.46 if len(kind) == 1 else 0.4)))
        draw_text(draw, (width / 2, height * 0.55), value, font=font(size, bold=True), fill=ink)
        return image
    if named:
        name = labels.card_name(kind)
        room = round(width - 2 * border / s)
        size = max(smallest, round(height * 0.15))
        name_font = fitting_font(name, room, size=size, min_size=smallest, bold=True)
        draw_text(draw, (width / 2, height * 0.83), name, font=name_font, fill=ink)
        mark = labels.CORNER.get(kind)
        if mark:
            draw_text(draw, corner, mark, font=corner_font, fill=ink, anchor="rt")
    return image


@functools.lru_cache(maxsize=32)
def card_back(width: int, height: int, theme: CondottiereTheme) -> Image.Image:
    """The back of a card: a dark frame with a diamond pattern."""
    big, pen = _canvas(width, height, theme.outline)
    s = SUPERSAMPLE
    radius = max(4, round(width * 0.1)) * s
    pen.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius, fill=_opaque(theme.outline))
    pen.rounded_rectangle((s, s, width * s - 1 - s, height * s - 1 - s), radius - s, fill=_opaque(theme.card_back))
    inset = width * 0.14 * s
    cx, cy = width * s / 2, height * s / 2
    pen.polygon(
        [(cx, inset), (width * s - inset, cy), (cx, height * s - inset), (inset, cy)],
        outline=_opaque(theme.card_back_pattern),
        width=round(2 * s),
    )
    _swords(pen, cx, cy, width * s * 0.42, theme.card_back_pattern, theme.card_back_pattern)
    return big.reduce(s)


@functools.lru_cache(maxsize=16)
def slot_sprite(width: int, height: int, theme: CondottiereTheme) -> Image.Image:
    """An empty place for a card: a dashed outline."""
    big, pen = _canvas(width, height, theme.slot)
    s = SUPERSAMPLE
    radius = max(4, round(width * 0.1)) * s
    pen.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius, fill=_opaque(theme.slot, 90))
    pen.rounded_rectangle(
        (s, s, width * s - 1 - s, height * s - 1 - s), radius, outline=_opaque(theme.muted), width=round(1.6 * s)
    )
    return big.reduce(s)


# Tokens and marks -----------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def battle_token(radius: int, theme: CondottiereTheme) -> Image.Image:
    """The black battle token with crossed swords, and a white ring so it stands out on any colour."""
    box = 2 * radius + 6
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    for r, colour in (
        (radius + 2.6, theme.outline),
        (radius + 1.6, (255, 255, 255)),
        (radius - 0.2, theme.battle_token),
    ):
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=_opaque(colour))
    _swords(pen, c, c, radius * s * 1.25, theme.battle_mark, (214, 170, 60))
    return big.reduce(s)


@functools.lru_cache(maxsize=16)
def peace_token(radius: int, theme: CondottiereTheme) -> Image.Image:
    """The white peace token with an olive branch."""
    box = 2 * radius + 6
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    for r, colour in ((radius + 1.4, theme.outline), (radius, theme.peace_token)):
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=_opaque(colour))
    _olive_branch(pen, c, c, radius * s * 1.3, theme)
    return big.reduce(s)


@functools.lru_cache(maxsize=64)
def chip_sprite(seat: int, radius: int, theme: CondottiereTheme, digit: int = 0) -> Image.Image:
    """A disc in a seat's colour, with its number (1-based, Persian digits, ``digit`` px) when ``digit``: the
    mark of a player."""
    box = 2 * radius + 4
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    for r, colour in ((radius, theme.outline), (radius - 1.5, theme.seat_fill(seat))):
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=_opaque(colour))
    image = big.reduce(s)
    if digit:
        draw_text(
            ImageDraw.Draw(image),
            (box / 2, box / 2 + 1),
            persian_digits(seat + 1),
            font=font(digit, bold=True),
            fill=_opaque(theme.seat_ink(seat)),
        )
    return image


@functools.lru_cache(maxsize=64)
def province_mark(seat: int | None, height: int, theme: CondottiereTheme) -> Image.Image:
    """A little hexagon in a seat's colour (the map's land with None): a province held, before its count."""
    radius = height / 2
    box = height + 2
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    fill = theme.land if seat is None else theme.seat_fill(seat)
    for r, colour in ((radius, theme.outline), (radius - 1.6, fill)):
        pen.polygon(
            [
                (c + r * s * math.cos(math.radians(a)), c + r * s * math.sin(math.radians(a)))
                for a in range(-90, 270, 60)
            ],
            fill=_opaque(colour),
        )
    return big.reduce(s)


@functools.lru_cache(maxsize=16)
def hand_mark(height: int, theme: CondottiereTheme) -> Image.Image:
    """Two card backs fanned: the cards in a player's hand, before their count."""
    width = round(height * 0.9)
    big, pen = _canvas(width, height, theme.outline)
    s = SUPERSAMPLE
    w, h = height * 0.52 * s, height * 0.78 * s
    for dx, dy in ((0.0, 0.0), (width * s - w, height * s - h)):
        pen.rounded_rectangle((dx, dy, dx + w - 1, dy + h - 1), s * 3, fill=_opaque(theme.outline))
        pen.rounded_rectangle(
            (dx + s * 1.5, dy + s * 1.5, dx + w - 1 - s * 1.5, dy + h - 1 - s * 1.5),
            s * 2,
            fill=_opaque(theme.card_back),
        )
    return big.reduce(s)


@functools.lru_cache(maxsize=16)
def heart_mark(height: int, theme: CondottiereTheme) -> Image.Image:
    """The Courtesan's heart: how many a player has in their line, before the count."""
    big, pen = _canvas(height, height, theme.outline)
    s = SUPERSAMPLE
    _heart(pen, height * s / 2, height * s / 2, height * s * 0.95, theme.courtesan)
    return big.reduce(s)


@functools.lru_cache(maxsize=64)
def label_sprite(name: str, size: int, ink: RGB, halo: RGB | None) -> Image.Image:
    """A province's name in the bold face; with ``halo``, ringed in that colour so that it reads where it
    leaves its province and crosses a border."""
    face = font(size, bold=True)
    left, top, right, bottom = face.getbbox(name, anchor="mm", direction="rtl", language="fa")
    pad = 4
    width, height = right - left + 2 * pad, bottom - top + 2 * pad
    image = Image.new("RGBA", (round(width), round(height)), (*ink, 0))
    pen = ImageDraw.Draw(image)
    centre = (-left + pad, -top + pad)
    if halo is not None:
        draw_text(pen, centre, name, font=face, fill=_opaque(ink), stroke_width=3, stroke_fill=_opaque(halo))
    else:
        draw_text(pen, centre, name, font=face, fill=_opaque(ink))
    return image


@functools.lru_cache(maxsize=64)
def win_sprite(seat: int | None, radius: int, theme: CondottiereTheme) -> Image.Image:
    """One battle won (a disc in the seat's colour with crossed swords) or, with ``seat`` None, one still to win."""
    box = 2 * radius + 4
    big, pen = _canvas(box, box, theme.outline)
    s = SUPERSAMPLE
    c = box * s / 2
    if seat is None:
        r = radius - 1
        pen.ellipse(
            (c - r * s, c - r * s, c + r * s, c + r * s),
            fill=_opaque(theme.win_slot),
            outline=_opaque(theme.muted),
            width=round(2 * s),
        )
        return big.reduce(s)
    for r, colour in ((radius, theme.outline), (radius - 2, theme.seat_fill(seat))):
        pen.ellipse((c - r * s, c - r * s, c + r * s, c + r * s), fill=_opaque(colour))
    _swords(pen, c, c, radius * s * 1.2, theme.seat_ink(seat), theme.seat_ink(seat))
    return big.reduce(s)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite onto an RGB canvas with its centre at ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)
