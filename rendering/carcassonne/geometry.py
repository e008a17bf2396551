"""Where everything lies on a قلعه رودخان tile, worked out from the tile data alone (no image assets).

Coordinates are in the unit square of a tile in its reference orientation: x eastwards, y southwards, north
up. A city's shape follows its edges: one edge is a cap, two adjacent edges a corner, two opposite edges a
band, three edges everything but a cap on the open side, four the whole tile. Roads run from an edge's middle
to the opposite edge (straight), round a corner (a quarter circle) or to the centre, where a village square,
the monastery or the city wall ends them.

The same shapes paint the sprite and the segment map, a small label image naming each pixel's segment; the
fields are filled on the map from their half-edges. So the meeple spots (each segment's deepest point on the
map), the tests' checks and the picture cannot disagree.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter

from rendering.text import Ink
from rules.carcassonne.data import BY_LETTER, TileType

Point = tuple[float, float]
Path = tuple[Point, ...]

CAP_DEPTH = 0.3  # how far a one-edge city reaches in, at the edge's middle
BAND_DEPTH = 0.27  # how far each field cap reaches into a band city (the band is narrowest in the middle)
OPEN_DEPTH = 0.3  # the field cap on the open side of a three-edge city
CORNER_BULGE = 0.1  # a two-edge corner city's wall bows this far past the diagonal (not when roads cross)
ROAD_WIDTH = 0.12
ROAD_EDGE = 0.028  # the darker verge each side of a road
WALL_WIDTH = 0.065
BATTLEMENT = (0.06, 0.05, 0.115)  # a merlon's width along the wall, its depth outwards, the step between two
JUNCTION_HALF = 0.095  # half the side of the village square where three or four roads end
MONASTERY_BOX = (0.24, 0.2, 0.76, 0.76)  # the building's extent, upright on every rotation
SHIELD_SIZE = 0.29
MONASTERY_SPOT = (0.58, 0.64)  # on the chapel, below its roof; the building stands upright, so this never turns
ROAD_END_SPOT = 0.44  # a meeple on a road that ends on the tile stands this far from the edge to the centre
CURVE_STEPS = 24
MAP_SIZE = 64  # the segment map's side in pixels
UNASSIGNED, DECOR, SHIELD = 0, 250, 251  # map values other than a segment (index + 1)

# Points just inside each half-edge, clockwise from N_W (the data's half-edge numbering).
HALF_ANCHORS: tuple[Point, ...] = (
    (0.25, 0.03),
    (0.75, 0.03),
    (0.97, 0.25),
    (0.97, 0.75),
    (0.75, 0.97),
    (0.25, 0.97),
    (0.03, 0.75),
    (0.03, 0.25),
)
EDGE_MIDDLES: tuple[Point, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))  # N, E, S, W
CORNERS: dict[frozenset[int], Point] = {
    frozenset((0, 1)): (1.0, 0.0),
    frozenset((1, 2)): (1.0, 1.0),
    frozenset((2, 3)): (0.0, 1.0),
    frozenset((3, 0)): (0.0, 0.0),
}


def turn(point: Point, rotation: int) -> Point:
    """``point`` turned ``rotation`` quarter turns clockwise about the tile's centre (north goes east)."""
    x, y = point
    for _ in range(rotation % 4):
        x, y = 1.0 - y, x
    return x, y


def _turn_all(points: Sequence[Point], rotation: int) -> Path:
    return tuple(turn(p, rotation) for p in points)


def _arch(start: Point, end: Point, depth: float, towards: Point) -> Path:
    """A curve from ``start`` to ``end`` bowing ``depth`` (a sine arch) in the direction ``towards`` (a unit
    vector); its slope at the ends stays under 45°, so two caps that share a corner never overlap."""
    steps = CURVE_STEPS
    return tuple(
        (
            start[0] + (end[0] - start[0]) * k / steps + towards[0] * depth * math.sin(math.pi * k / steps),
            start[1] + (end[1] - start[1]) * k / steps + towards[1] * depth * math.sin(math.pi * k / steps),
        )
        for k in range(steps + 1)
    )


@dataclass(frozen=True, slots=True)
class CityShape:
    segment: int  # index in the tile type's segments
    outline: Path  # the area, a polygon
    walls: tuple[Path, ...]  # its inner border (not along the tile's edges), drawn as walls


@dataclass(frozen=True, slots=True)
class RoadShape:
    segment: int
    path: Path  # from an edge's middle to another edge's middle or to the centre


@dataclass(frozen=True, slots=True)
class TileShapes:
    """A tile type's picture in its reference orientation, as shapes."""

    letter: str
    cities: tuple[CityShape, ...]
    roads: tuple[RoadShape, ...]
    junction: bool  # a village square where three or four roads end
    monastery: int | None  # the monastery's segment index
    shield: Point | None  # the shield's centre


# Cities ----------------------------------------------------------------------------------------------------


# Each city shape drawn once, for these edges; other edge sets of the same shape are turned from it.
_CANONICAL: dict[str, frozenset[int]] = {
    "cap": frozenset((0,)),
    "corner": frozenset((0, 1)),
    "band": frozenset((1, 3)),
    "open": frozenset((0, 1, 3)),
    "full": frozenset(range(4)),
}
# Where the shield goes on each shape, before turning: deep inside, clear of the meeple's spot.
_SHIELD_AT: dict[str, Point] = {
    "cap": (0.5, 0.15),
    "corner": (0.78, 0.22),
    "band": (0.2, 0.5),
    "open": (0.22, 0.22),
    "full": (0.27, 0.27),
}


def _city_shape(edges: frozenset[int]) -> tuple[str, int]:
    """The shape of a city on ``edges`` and the rotation that turns its canonical edges onto them."""
    if len(edges) == 2:
        shape = "corner" if edges in CORNERS else "band"
    else:
        shape = {1: "cap", 3: "open", 4: "full"}[len(edges)]
    rotation = next(r for r in range(4) if frozenset((e + r) % 4 for e in _CANONICAL[shape]) == edges)
    return shape, rotation


def _canonical_city(shape: str, bulge: float) -> tuple[Path, tuple[Path, ...]]:
    """The outline and walls of a canonical city: a cap on N, a corner on N and E, a band from E to W, three
    edges open to the S, or the whole tile."""
    down, up = (0.0, 1.0), (0.0, -1.0)
    if shape == "cap":
        wall = _arch((1.0, 0.0), (0.0, 0.0), CAP_DEPTH, down)
        return ((0.0, 0.0), *wall), (wall,)
    if shape == "corner":
        diagonal = (-math.sqrt(0.5), math.sqrt(0.5))  # towards the south-west corner
        wall = _arch((1.0, 1.0), (0.0, 0.0), bulge, diagonal)
        return ((0.0, 0.0), (1.0, 0.0), *wall), (wall,)
    if shape == "band":
        top = _arch((0.0, 0.0), (1.0, 0.0), BAND_DEPTH, down)
        bottom = _arch((1.0, 1.0), (0.0, 1.0), BAND_DEPTH, up)
        return (*top, *bottom), (top, bottom)
    if shape == "open":
        wall = _arch((1.0, 1.0), (0.0, 1.0), OPEN_DEPTH, up)
        return ((0.0, 0.0), (1.0, 0.0), *wall), (wall,)
    return ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)), ()


def _city(segment: int, edges: tuple[int, ...], bulge: float) -> CityShape:
    shape, rotation = _city_shape(frozenset(edges))
    outline, walls = _canonical_city(shape, bulge)
    return CityShape(segment, _turn_all(outline, rotation), tuple(_turn_all(w, rotation) for w in walls))


def _shield_point(edges: tuple[int, ...]) -> Point:
    shape, rotation = _city_shape(frozenset(edges))
    return turn(_SHIELD_AT[shape], rotation)


# Roads -----------------------------------------------------------------------------------------------------


def _road(segment: int, edges: tuple[int, ...]) -> RoadShape:
    if len(edges) == 1:
        return RoadShape(segment, (EDGE_MIDDLES[edges[0]], (0.5, 0.5)))
    a, b = edges
    if (a - b) % 2 == 0:
        return RoadShape(segment, (EDGE_MIDDLES[a], EDGE_MIDDLES[b]))
    cx, cy = CORNERS[frozenset(edges)]
    start = math.atan2(EDGE_MIDDLES[a][1] - cy, EDGE_MIDDLES[a][0] - cx)
    end = math.atan2(EDGE_MIDDLES[b][1] - cy, EDGE_MIDDLES[b][0] - cx)
    sweep = (end - start + math.pi) % (2 * math.pi) - math.pi  # the quarter turn inside the tile
    return RoadShape(
        segment,
        tuple(
            (cx + 0.5 * math.cos(start + sweep * k / CURVE_STEPS), cy + 0.5 * math.sin(start + sweep * k / CURVE_STEPS))
            for k in range(CURVE_STEPS + 1)
        ),
    )


# A tile ----------------------------------------------------------------------------------------------------


@functools.cache
def tile_shapes(letter: str) -> TileShapes:
    """The shapes of tile type ``letter`` (A–X) in its reference orientation."""
    tile = BY_LETTER[letter]
    roads = tuple(_road(i, s.edges) for i, s in enumerate(tile.segments) if s.kind == "road")
    bulge = 0.0 if roads else CORNER_BULGE  # a corner city leaves room for a road round the other corner
    cities = tuple(_city(i, s.edges, bulge) for i, s in enumerate(tile.segments) if s.kind == "city")
    ends = sum(len(s.edges) for s in tile.segments if s.kind == "road" and len(s.edges) == 1)
    monastery = next((i for i, s in enumerate(tile.segments) if s.kind == "monastery"), None)
    shield = _shield_point(tile.segments[cities[0].segment].edges) if tile.shield and cities else None
    return TileShapes(letter, cities, roads, ends >= 3, monastery, shield)


def _inside_polygon(point: Point, polygon: Path) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@functools.cache
def battlements(letter: str) -> tuple[tuple[Point, Point], ...]:
    """The merlons along tile ``letter``'s city walls in its reference orientation: each one's foot on the
    wall and the unit vector outwards, towards the field (every ``BATTLEMENT`` step along the wall, clear of
    the tile's edges, where the next tile's wall goes on)."""
    _width, _depth, step = BATTLEMENT
    out: list[tuple[Point, Point]] = []
    for city in tile_shapes(letter).cities:
        for wall in city.walls:
            lengths = [0.0]
            for (x0, y0), (x1, y1) in itertools.pairwise(wall):
                lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
            count = max(1, round(lengths[-1] / step) - 1)
            margin = (lengths[-1] - (count - 1) * step) / 2
            for k in range(count):
                at = margin + k * step
                i = next(i for i in range(1, len(wall)) if lengths[i] >= at)
                (x0, y0), (x1, y1) = wall[i - 1], wall[i]
                share = (at - lengths[i - 1]) / max(1e-9, lengths[i] - lengths[i - 1])
                foot = (x0 + (x1 - x0) * share, y0 + (y1 - y0) * share)
                length = math.hypot(x1 - x0, y1 - y0)
                normal = (-(y1 - y0) / length, (x1 - x0) / length)
                probe = (foot[0] + normal[0] * 0.05, foot[1] + normal[1] * 0.05)
                if _inside_polygon(probe, city.outline):
                    normal = (-normal[0], -normal[1])
                if min(foot) < 0.04 or max(foot) > 0.96:
                    continue
                out.append((foot, normal))
    return tuple(out)


def turn_vector(vector: Point, rotation: int) -> Point:
    """A direction turned ``rotation`` quarter turns clockwise."""
    x, y = vector
    for _ in range(rotation % 4):
        x, y = -y, x
    return x, y


Fill = Callable[[str, int], Ink]  # (part, segment index) -> the colour (or map value) to paint with


def shield_outline(centre: Point, size: float) -> Path:
    """A heater shield: square shoulders, a pointed base."""
    x, y = centre
    w, h = size * 0.42, size * 0.5
    return (
        (x - w, y - h),
        (x + w, y - h),
        (x + w, y + 0.05 * h),
        (x + 0.55 * w, y + 0.65 * h),
        (x, y + h),
        (x - 0.55 * w, y + 0.65 * h),
        (x - w, y + 0.05 * h),
    )


@dataclass(frozen=True, slots=True)
class Monastery:
    """The monastery's building, upright in the tile's middle: a chapel with a pitched roof and a bell tower
    on its left."""

    outline: Path
    tower_roof: Path
    roof: Path
    door: tuple[float, float, float, float]  # left, top, right, bottom
    window: tuple[float, float, float, float]


def _monastery() -> Monastery:
    left, top, right, bottom = MONASTERY_BOX
    w, h = right - left, bottom - top
    eaves = top + 0.45 * h
    tower = left + 0.32 * w  # the tower's right side
    ridge = ((tower + right) / 2, eaves - 0.32 * h)
    door_x, door_w = (tower + right) / 2, 0.08 * w
    window_x, window_y, window = left + 0.16 * w, top + 0.36 * h, 0.05 * w
    return Monastery(
        outline=(
            (left, bottom),
            (left, top + 0.2 * h),
            (left + 0.16 * w, top),
            (tower, top + 0.2 * h),
            (tower, eaves - 0.16 * h),
            ridge,
            (right, eaves),
            (right, bottom),
        ),
        tower_roof=((left, top + 0.2 * h), (left + 0.16 * w, top), (tower, top + 0.2 * h)),
        roof=((tower, eaves), (tower, eaves - 0.16 * h), ridge, (right, eaves)),
        door=(door_x - door_w, bottom - 0.24 * h, door_x + door_w, bottom),
        window=(window_x - window, window_y - 1.5 * window, window_x + window, window_y + 1.5 * window),
    )


MONASTERY = _monastery()


def paint(pen: ImageDraw.ImageDraw, shapes: TileShapes, side: float, fill: Fill, rotation: int = 0) -> None:
    """Paint ``shapes`` turned ``rotation`` quarter turns on a ``side``-pixel square in order: roads, cities
    with walls, the village square, the monastery, the shield. ``fill(part, segment)`` gives each part's
    colour (or map value); parts are road_edge, road, city, wall, junction, monastery, shield. The monastery
    and the shield stand upright whatever the rotation (the shield at its turned place)."""

    def px(points: Path, turned: bool = True) -> list[tuple[float, float]]:
        return [(x * side, y * side) for x, y in (_turn_all(points, rotation) if turned else points)]

    for road in shapes.roads:
        width = round((ROAD_WIDTH + 2 * ROAD_EDGE) * side)
        pen.line(px(road.path), fill=fill("road_edge", road.segment), width=width, joint="curve")
    for road in shapes.roads:
        pen.line(px(road.path), fill=fill("road", road.segment), width=round(ROAD_WIDTH * side), joint="curve")
    for city in shapes.cities:
        pen.polygon(px(city.outline), fill=fill("city", city.segment))
    for city in shapes.cities:
        for wall in city.walls:
            pen.line(px(wall), fill=fill("wall", city.segment), width=round(WALL_WIDTH * side), joint="curve")
    if shapes.junction:
        h = JUNCTION_HALF
        pen.rectangle(px(((0.5 - h, 0.5 - h), (0.5 + h, 0.5 + h)), turned=False), fill=fill("junction", -1))
    if shapes.monastery is not None:
        pen.polygon(px(MONASTERY.outline, turned=False), fill=fill("monastery", shapes.monastery))
    if shapes.shield is not None:
        centre = turn(shapes.shield, rotation)
        pen.polygon(px(shield_outline(centre, SHIELD_SIZE), turned=False), fill=fill("shield", -1))


# The segment map and the meeple spots -----------------------------------------------------------------


def _map_value(part: str, segment: int) -> int:
    if part == "junction":
        return DECOR
    if part == "shield":
        return SHIELD
    return segment + 1


@functools.cache
def segment_map(letter: str) -> Image.Image:
    """A ``MAP_SIZE`` square "L" image of the tile in its reference orientation: each pixel holds its
    segment's index + 1 (fields included), ``DECOR`` on the village square, ``SHIELD`` on the shield.
    Raises ValueError when the drawing does not separate the data's fields (a geometry bug)."""
    tile = BY_LETTER[letter]
    image = Image.new("L", (MAP_SIZE, MAP_SIZE), UNASSIGNED)
    pen = ImageDraw.Draw(image)
    paint(pen, tile_shapes(letter), MAP_SIZE, _map_value)
    for index, segment in enumerate(tile.segments):
        for half in segment.halves:
            x, y = HALF_ANCHORS[half]
            xy = (min(MAP_SIZE - 1, int(x * MAP_SIZE)), min(MAP_SIZE - 1, int(y * MAP_SIZE)))
            found = image.getpixel(xy)
            if found == index + 1:
                continue
            if found != UNASSIGNED:
                raise ValueError(f"tile {letter}: half-edge {half} of {segment.spot} lies on value {found}")
            _flood(image, xy, index + 1)
    return image


def _flood(image: Image.Image, start: tuple[int, int], value: int) -> None:
    """Paint the 4-connected ``UNASSIGNED`` region of an "L" image around ``start`` with ``value``."""
    width, height = image.size
    pixels = bytearray(image.tobytes())
    todo = [start[1] * width + start[0]]
    pixels[todo[0]] = value
    while todo:
        i = todo.pop()
        x = i % width
        for j, inside in (
            (i - 1, x > 0),
            (i + 1, x < width - 1),
            (i - width, i >= width),
            (i + width, i < width * (height - 1)),
        ):
            if inside and pixels[j] == UNASSIGNED:
                pixels[j] = value
                todo.append(j)
    image.frombytes(bytes(pixels))


def _deepest(mask: Image.Image) -> tuple[int, int]:
    """The pixel of a binary mask farthest inside it (what survives the most erosions), nearest its middle."""
    last = mask
    while True:
        eroded = last.filter(ImageFilter.MinFilter(3))
        if eroded.getbbox() is None:
            break
        last = eroded
    width = last.width
    pixels = [(i % width, i // width) for i, value in enumerate(last.tobytes()) if value]
    cx = sum(x for x, _ in pixels) / len(pixels)
    cy = sum(y for _, y in pixels) / len(pixels)
    return min(pixels, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)


def _road_spot(road: RoadShape) -> Point:
    """A road's meeple: halfway along a through road, near the edge on a road that ends on the tile (clear
    of the village square, the monastery or the city wall that ends it)."""
    if road.path[-1] == (0.5, 0.5):
        (x0, y0), (x1, y1) = road.path
        return x0 + (x1 - x0) * ROAD_END_SPOT, y0 + (y1 - y0) * ROAD_END_SPOT
    return road.path[len(road.path) // 2] if len(road.path) > 2 else (0.5, 0.5)


@functools.cache
def reference_spots(letter: str) -> dict[str, Point]:
    """Each segment's meeple spot in the reference orientation: the monastery's middle, else the point
    deepest inside the segment on the segment map (clear of walls, roads and the shield)."""
    tile: TileType = BY_LETTER[letter]
    shapes = tile_shapes(letter)
    seg_map = segment_map(letter)
    spots: dict[str, Point] = {}
    for index, segment in enumerate(tile.segments):
        if index == shapes.monastery:
            spots[segment.spot] = MONASTERY_SPOT
            continue
        if segment.kind == "road":
            spots[segment.spot] = _road_spot(next(r for r in shapes.roads if r.segment == index))
            continue
        mask = seg_map.point(lambda v, wanted=index + 1: 255 if v == wanted else 0)
        # Keep a border so that a segment along the tile's edge is not eroded from outside only.
        framed = Image.new("L", (MAP_SIZE + 2, MAP_SIZE + 2), 0)
        framed.paste(mask, (1, 1))
        x, y = _deepest(framed)
        spots[segment.spot] = ((x - 0.5) / MAP_SIZE, (y - 0.5) / MAP_SIZE)  # framed pixel x is map pixel x - 1
    return spots


def spot_point(letter: str, spot: str, rotation: int) -> Point:
    """Where a meeple on segment ``spot`` of tile ``letter`` laid with ``rotation`` stands, in the unit square."""
    point = reference_spots(letter)[spot]
    return point if spot == "m" else turn(point, rotation)
