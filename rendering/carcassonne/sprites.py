"""Pre-drawn, anti-aliased pieces of the قلعه رودخان picture, cached: a full board is 72 pastes.

A tile is drawn once per type, rotation, size and theme (at ``SUPERSAMPLE`` times the size, then reduced); its
houses, monastery and shield stand upright on every rotation, as a reader expects. Meeples, candidate squares and spot
labels are small RGBA sprites; text is written at full size so it stays crisp.
"""

from __future__ import annotations

import functools
import random

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from rendering.carcassonne.geometry import (
    BATTLEMENT,
    JUNCTION_HALF,
    MAP_SIZE,
    MONASTERY,
    SHIELD_SIZE,
    WALL_WIDTH,
    Path,
    Point,
    TileShapes,
    battlements,
    paint,
    segment_map,
    shield_outline,
    tile_shapes,
    turn,
    turn_vector,
)
from rendering.carcassonne.layout import MIN_FONT
from rendering.carcassonne.theme import CarcassonneTheme
from rendering.text import Ink, draw_text, font, text_size
from rendering.theme import RGB, mix
from rules.carcassonne.data import BY_LETTER

SUPERSAMPLE = 4
HOUSE = (0.17, 0.1, 0.055)  # a house's width, its roof's height and its front's, on a tile of side 1
HOUSE_INSET, HOUSE_GRID = 3, 6  # houses stand on a jittered 6 × 6 grid, 3 map pixels inside their city


def _rgba(colour: RGB, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*colour, alpha)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite with its centre at ``centre``."""
    canvas.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite)


# Tiles -----------------------------------------------------------------------------------------------------


def _tile_colour(theme: CarcassonneTheme) -> dict[str, RGB]:
    return {
        "road_edge": theme.road_edge,
        "road": theme.road,
        "city": theme.city,
        "wall": theme.wall,
        "junction": theme.village,
        "monastery": theme.monastery,
        "shield": theme.shield,
    }


@functools.cache
def _inside(letter: str, kind: str, inset: int, grid: int) -> tuple[Point, ...]:
    """Points of a jittered ``grid`` × ``grid`` (the same for every size and rotation) that lie ``inset`` map
    pixels deep inside the tile's segments of ``kind`` on the segment map: where grass tufts and roofs go."""
    values = {i + 1 for i, s in enumerate(BY_LETTER[letter].segments) if s.kind == kind}
    seg_map = segment_map(letter).point(lambda v: 255 if v in values else 0)
    if inset:
        seg_map = seg_map.filter(ImageFilter.MinFilter(2 * inset + 1))
    chooser = random.Random(f"{letter}:{kind}")
    points = []
    for row in range(grid):
        for col in range(grid):
            x = (col + 0.15 + 0.7 * chooser.random()) / grid
            y = (row + 0.15 + 0.7 * chooser.random()) / grid
            if seg_map.getpixel((int(x * MAP_SIZE), int(y * MAP_SIZE))):
                points.append((x, y))
    return tuple(points)


def _draw_grass(pen: ImageDraw.ImageDraw, letter: str, rotation: int, side: float, theme: CarcassonneTheme) -> None:
    width = max(1, round(side * 0.012))
    for point in _inside(letter, "field", 3, 7):
        x, y = turn(point, rotation)
        a, b, d = x * side, y * side, side * 0.022
        pen.line((a - d, b - d, a, b + d * 0.4, a + d, b - d * 1.2), fill=_rgba(theme.grass), width=width)


def _draw_walls(
    pen: ImageDraw.ImageDraw, shapes: TileShapes, rotation: int, side: float, theme: CarcassonneTheme
) -> None:
    """Each city wall over the houses, the battlements on its field side and a light along its top: a city
    reads as a walled town even where its houses are too small to see."""
    width, depth, _step = BATTLEMENT
    colour = _rgba(theme.wall)
    for city in shapes.cities:
        for wall in city.walls:
            points = [(x * side, y * side) for x, y in (turn(p, rotation) for p in wall)]
            pen.line(points, fill=colour, width=round(WALL_WIDTH * side), joint="curve")
    for foot, normal in battlements(shapes.letter):
        (fx, fy), (nx, ny) = turn(foot, rotation), turn_vector(normal, rotation)
        tx, ty = -ny, nx
        base = WALL_WIDTH / 2 - 0.01
        corners = [
            (fx + nx * (base + out) + tx * along, fy + ny * (base + out) + ty * along)
            for out, along in ((0, -width / 2), (depth, -width / 2), (depth, width / 2), (0, width / 2))
        ]
        pen.polygon([(x * side, y * side) for x, y in corners], fill=colour)
    top = _rgba(theme.wall_top)
    for city in shapes.cities:
        for wall in city.walls:
            points = [(x * side, y * side) for x, y in (turn(p, rotation) for p in wall)]
            pen.line(points, fill=top, width=max(1, round(WALL_WIDTH * 0.3 * side)), joint="curve")


def _draw_houses(image: Image.Image, shapes: TileShapes, rotation: int, theme: CarcassonneTheme) -> None:
    """Houses packed inside the cities, upright, the lower ones in front, kept inside the walls: a cream
    front under a red gable roof, its shaded half darker."""
    side = image.width
    w, roof_h, front_h = side * HOUSE[0], side * HOUSE[1], side * HOUSE[2]
    roof, shade = _rgba(theme.roof), _rgba(mix(theme.roof, (0, 0, 0), 0.3))
    front, door = _rgba(theme.house), _rgba(mix(theme.roof, (0, 0, 0), 0.55))
    layer = Image.new("RGBA", image.size, _rgba(theme.house, 0))
    pen = ImageDraw.Draw(layer)
    spots = _inside(shapes.letter, "city", HOUSE_INSET, HOUSE_GRID)
    for x, y in sorted((turn(point, rotation) for point in spots), key=lambda p: p[1]):
        a, b = x * side, y * side - front_h / 2 + roof_h / 2
        pen.rectangle((a - w * 0.4, b, a + w * 0.4, b + front_h), fill=front)
        pen.rectangle((a - w * 0.08, b + front_h * 0.4, a + w * 0.08, b + front_h), fill=door)
        pen.polygon(((a - w / 2, b), (a, b - roof_h), (a, b)), fill=roof)
        pen.polygon(((a, b - roof_h), (a + w / 2, b), (a, b)), fill=shade)
    within = Image.new("L", image.size, 0)
    for city in shapes.cities:
        ImageDraw.Draw(within).polygon(
            [(x * side, y * side) for x, y in (turn(p, rotation) for p in city.outline)], 255
        )
    image.paste(layer, (0, 0), ImageChops.multiply(layer.getchannel("A"), within))


def _draw_monastery(pen: ImageDraw.ImageDraw, side: float, theme: CarcassonneTheme) -> None:
    """The chapel's roofs, door, window and outline (``paint`` filled its walls)."""

    def px(points: Path) -> list[tuple[float, float]]:
        return [(x * side, y * side) for x, y in points]

    edge = _rgba(theme.monastery_edge)
    pen.polygon(px(MONASTERY.tower_roof), fill=_rgba(theme.monastery_roof))
    pen.polygon(px(MONASTERY.roof), fill=_rgba(theme.monastery_roof))
    pen.polygon(px(MONASTERY.outline), outline=edge, width=max(1, round(side * 0.014)))
    pen.rectangle([v * side for v in MONASTERY.door], fill=edge)
    pen.rectangle([v * side for v in MONASTERY.window], fill=edge)


def _draw_shield(pen: ImageDraw.ImageDraw, centre: Point, side: float, theme: CarcassonneTheme) -> None:
    """The shield, upright at ``centre``: blue with a light rim and cross, over the houses."""
    outline: Path = shield_outline(centre, SHIELD_SIZE)
    mark = _rgba(theme.shield_mark)
    pen.polygon(
        [(x * side, y * side) for x, y in outline],
        fill=_rgba(theme.shield),
        outline=mark,
        width=max(1, round(side * 0.02)),
    )
    x, y = centre
    arm = SHIELD_SIZE * 0.26
    width = max(1, round(side * 0.03))
    pen.line(((x - arm) * side, (y - 0.03) * side, (x + arm) * side, (y - 0.03) * side), fill=mark, width=width)
    pen.line((x * side, (y - arm - 0.03) * side, x * side, (y + arm) * side), fill=mark, width=width)


@functools.lru_cache(maxsize=512)
def tile_sprite(letter: str, rotation: int, size: int, theme: CarcassonneTheme) -> Image.Image:
    """Tile ``letter`` turned ``rotation`` quarter turns clockwise, ``size`` px square, RGB (opaque), with a
    faint seam at its border. The landscape turns; houses, the monastery and the shield stay upright."""
    rotation %= 4
    s = SUPERSAMPLE if size < 96 else 3
    side = size * s
    big = Image.new("RGBA", (side, side), _rgba(theme.field))
    pen = ImageDraw.Draw(big)
    shapes = tile_shapes(letter)
    colours = _tile_colour(theme)
    _draw_grass(pen, letter, rotation, side, theme)

    def fill(part: str, _segment: int) -> Ink:
        return _rgba(colours[part])

    paint(pen, shapes, side, fill, rotation)
    if shapes.cities:
        _draw_houses(big, shapes, rotation, theme)
        _draw_walls(pen, shapes, rotation, side, theme)
    if shapes.junction:
        h, c = JUNCTION_HALF * side, side / 2
        pen.rectangle((c - h, c - h, c + h, c + h), outline=_rgba(theme.village_edge), width=max(1, round(side * 0.02)))
    if shapes.monastery is not None:
        _draw_monastery(pen, side, theme)
    if shapes.shield is not None:
        _draw_shield(pen, turn(shapes.shield, rotation), side, theme)
    image = big.reduce(s).convert("RGB")
    frame = Image.new("L", image.size, 0)
    ImageDraw.Draw(frame).rectangle((0, 0, size - 1, size - 1), outline=90)
    image.paste(Image.new("RGB", image.size, theme.seam), (0, 0), frame)
    return image


# Meeples ---------------------------------------------------------------------------------------------------

# A meeple standing in a unit box: the head, then the body clockwise from the left of the neck.
_HEAD = (0.5, 0.2, 0.15)
_BODY: Path = (
    (0.40, 0.33),
    (0.14, 0.41),
    (0.07, 0.5),
    (0.12, 0.58),
    (0.32, 0.57),
    (0.17, 0.95),
    (0.42, 0.95),
    (0.5, 0.78),
    (0.58, 0.95),
    (0.83, 0.95),
    (0.68, 0.57),
    (0.88, 0.58),
    (0.93, 0.5),
    (0.86, 0.41),
    (0.60, 0.33),
)


LYING = (1.15, 0.72)  # a farmer's width and height, lying on its back, in a standing meeple's heights


def meeple_box(size: int, lying: bool) -> tuple[int, int]:
    """The width and height of a meeple ``size`` px tall, or of a farmer lying where it would stand."""
    return (round(size * LYING[0]), round(size * LYING[1])) if lying else (size, size)


def _meeple_mask(size: int, pad: int, lying: bool, grow: float) -> Image.Image:
    """The meeple's silhouette ``size`` px tall (supersampled) in its box ``pad`` px wider each side, grown
    by ``grow`` px all round (a stroke along its border), for the outline and the halo. Lying (a farmer),
    it is turned a quarter, head to the west, and drawn longer and lower than a standing one, so that it
    reads as lying even small."""
    s = SUPERSAMPLE
    width, height = meeple_box(size, lying)
    mask = Image.new("L", ((width + 2 * pad) * s, (height + 2 * pad) * s), 0)
    pen = ImageDraw.Draw(mask)
    hx, hy, hr = _HEAD
    rx, ry = (hr / 0.9 * width, hr / 0.86 * height) if lying else (hr * size, hr * size)

    def px(x: float, y: float) -> tuple[float, float]:
        if lying:  # turned a quarter, (x, y) -> (y, 1 - x), and stretched to its box
            x, y = (y - 0.05) / 0.9, (0.93 - x) / 0.86
        else:
            y = y * 0.9 + 0.05
        return (pad + x * width) * s, (pad + y * height) * s

    outline = [px(x, y) for x, y in _BODY]
    pen.polygon(outline, fill=255)
    if grow:
        pen.line([*outline, outline[0], outline[1]], fill=255, width=round(2 * grow * s), joint="curve")
    cx, cy = px(hx, hy)
    pen.ellipse((cx - (rx + grow) * s, cy - (ry + grow) * s, cx + (rx + grow) * s, cy + (ry + grow) * s), fill=255)
    return mask


@functools.lru_cache(maxsize=128)
def meeple_sprite(colour: RGB, size: int, lying: bool, theme: CarcassonneTheme) -> Image.Image:
    """A meeple ``size`` px tall in ``colour``, with a dark outline and a white halo so that it reads on
    fields, cities and roads alike; ``lying`` turns it on its back (a farmer on a field)."""
    s = SUPERSAMPLE
    outline_px = max(1.0, size * 0.05)
    halo_px = max(1.0, size * 0.08)
    pad = round(outline_px + halo_px + 1)
    halo = _meeple_mask(size, pad, lying, outline_px + halo_px)
    outline = _meeple_mask(size, pad, lying, outline_px)
    body = _meeple_mask(size, pad, lying, 0)
    big = Image.new("RGBA", halo.size, _rgba(theme.meeple_outline, 0))
    big.paste(Image.new("RGBA", halo.size, _rgba(theme.halo, 210)), (0, 0), halo)
    big.paste(Image.new("RGBA", halo.size, _rgba(theme.meeple_outline)), (0, 0), outline)
    big.paste(Image.new("RGBA", halo.size, _rgba(colour)), (0, 0), body)
    return big.reduce(s)


# Marks of the current decision ---------------------------------------------------------------------------


def number_size(tile: int) -> int:
    """The font size of a candidate's number on a tile of ``tile`` px: large, yet inside the square, and
    never under the picture's least size (the place stage's least tile holds two digits of it)."""
    return max(MIN_FONT, min(48, round(tile * 0.5)))


@functools.lru_cache(maxsize=256)
def candidate_sprite(label: str, tile: int, chosen: bool, theme: CarcassonneTheme) -> Image.Image:
    """An empty position the drawn tile may take, numbered: light, or in the highlight colour once
    ``chosen``. ``tile`` px square, RGBA."""
    s = SUPERSAMPLE
    inset = max(2, tile // 16)
    big = Image.new("RGBA", (tile * s, tile * s), _rgba(theme.table, 0))
    pen = ImageDraw.Draw(big)
    box = (inset * s, inset * s, (tile - inset) * s, (tile - inset) * s)
    radius = max(2, tile // 10) * s
    fill = theme.chosen if chosen else theme.candidate
    pen.rounded_rectangle(box, radius, fill=_rgba(fill), outline=_rgba(theme.halo), width=2 * s)
    image = big.reduce(s)
    text_font = font(number_size(tile), bold=True)
    draw_text(ImageDraw.Draw(image), (tile / 2, tile / 2 + 1), label, font=text_font, fill=_rgba(theme.candidate_ink))
    return image


@functools.lru_cache(maxsize=128)
def chosen_frame_sprite(tile: int, theme: CarcassonneTheme) -> Image.Image:
    """A highlight border laid over the tile being placed, thick enough to find it at a glance on a phone;
    its inner half see-through, so the tile's edges still show."""
    width = max(4, tile // 10)
    image = Image.new("RGBA", (tile, tile), _rgba(theme.chosen, 0))
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, tile - 1, tile - 1), outline=_rgba(theme.chosen, 150), width=width)
    pen.rectangle((0, 0, tile - 1, tile - 1), outline=_rgba(theme.chosen), width=width // 2)
    return image


@functools.lru_cache(maxsize=64)
def outline_sprite(tile: int, colour: RGB, width: int) -> Image.Image:
    """A square outline ``tile`` px wide, for the tile laid last."""
    image = Image.new("RGBA", (tile, tile), _rgba(colour, 0))
    ImageDraw.Draw(image).rectangle((0, 0, tile - 1, tile - 1), outline=_rgba(colour), width=width)
    return image


@functools.lru_cache(maxsize=128)
def spot_tag_box(label: str, size: int) -> tuple[int, int]:
    """The width and height of a meeple spot's label (``spot_tag_sprite``): a pill round its letters."""
    height = round(size * 1.35)
    return max(height, text_size(label, font=font(size, bold=True))[0] + round(size * 0.6)), height


@functools.lru_cache(maxsize=128)
def spot_tag_sprite(label: str, size: int, theme: CarcassonneTheme) -> Image.Image:
    """A meeple spot's label: Persian letters on a white pill with a red ring, ``size`` the font size; snug,
    so that a tile's eight spots keep apart."""
    face = font(size, bold=True)
    width, height = spot_tag_box(label, size)
    s = SUPERSAMPLE
    big = Image.new("RGBA", (width * s, height * s), _rgba(theme.spot_ring, 0))
    ring = max(2, round(size * 0.13)) * s
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1),
        radius=height * s // 2,
        fill=_rgba(theme.spot),
        outline=_rgba(theme.spot_ring),
        width=ring,
    )
    image = big.reduce(s)
    draw_text(ImageDraw.Draw(image), (width / 2, height / 2), label, font=face, fill=_rgba(theme.spot_ink))
    return image


def contact_sheet(size: int, theme: CarcassonneTheme) -> Image.Image:
    """Every tile type in its four rotations, two types to a row with their letter: for checking the drawing
    against the tiles' descriptions (and a golden image)."""
    gap = max(4, size // 12)
    cols, rows = 8, (len(BY_LETTER) + 1) // 2
    sheet = Image.new("RGB", (cols * (size + gap) + gap, rows * (size + gap) + gap), theme.table)
    pen = ImageDraw.Draw(sheet)
    letter_font = font(max(12, size // 5), bold=True)
    for i, letter in enumerate(sorted(BY_LETTER)):
        row, half = divmod(i, 2)
        y = gap + row * (size + gap)
        for rotation in range(4):
            x = gap + (4 * half + rotation) * (size + gap)
            sheet.paste(tile_sprite(letter, rotation, size, theme), (x, y))
        x = gap + 4 * half * (size + gap) + 3
        draw_text(
            pen,
            (x, y + 2),
            letter,
            font=letter_font,
            fill=theme.halo,
            anchor="lt",
            stroke_width=2,
            stroke_fill=theme.ink,
        )
    return sheet
