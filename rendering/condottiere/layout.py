"""Where everything sits on the رکب pictures, and the maps' geometry.

The maps are hexagon cells grouped into provinces (``maps.json``, axial q, r of pointy-top
hexagons: x = √3·(q + r/2), y = 1.5·r, y down); two provinces share a border exactly where their cells share a
side, and the tests hold that equal to the rules' borders. Persian reads right to left, so the players' rows
are on the right and each battle line starts at the right.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

from rendering.hexgrid import SQRT3, Point

Box = tuple[int, int, int, int]  # left, top, right, bottom
Hex = tuple[int, int]  # axial q, r

MAPS_FILE = Path(__file__).resolve().parent / "maps.json"

# The group picture ------------------------------------------------------------------------------------------
WIDTH, HEIGHT = 1280, 1000  # the map game; the two-player variant is shorter (DUEL_HEIGHT)
DUEL_HEIGHT = 620
MARGIN = 16
LEFT_RIGHT = 556  # the map's column
MAP_BOX: Box = (MARGIN, MARGIN, LEFT_RIGHT, 660)
PANEL_LEFT = LEFT_RIGHT + 14
HEADER_BOX: Box = (PANEL_LEFT, MARGIN, WIDTH - MARGIN, 120)
ROWS_TOP = 134
ROW_GAP = 8
MAX_ROW_HEIGHT = 280
ROW_NAME_LINE = 40  # the row's top line: name, counts, marks
ROW_PAD = 8
STRENGTH_WIDTH = 84  # the block at the row's left end
MAX_LINE_CARD_HEIGHT = 150
MIN_LINE_CARD_HEIGHT = 76  # below this, cards overlap instead of shrinking
CARD_RATIO = 0.69  # width / height
CARD_GAP = 6
MAP_PAD = 14  # between the map card's edge and the land


@dataclass(frozen=True, slots=True)
class Frame:
    """The group picture's size and cards for a number of players: the map (or, with two players, the
    battles won), the status card under it, the header and one row per player on the right."""

    width: int
    height: int
    map_box: Box
    status_box: Box
    header_box: Box
    rows: tuple[Box, ...]


@functools.cache
def frame(players: int, duel: bool) -> Frame:
    height = DUEL_HEIGHT if duel else HEIGHT
    map_box = (MARGIN, MARGIN, LEFT_RIGHT, 330) if duel else MAP_BOX
    status_box = (MARGIN, map_box[3] + 16, LEFT_RIGHT, height - MARGIN)
    left, top, right, bottom = PANEL_LEFT, ROWS_TOP, WIDTH - MARGIN, height - MARGIN
    n = max(1, players)
    row = min(MAX_ROW_HEIGHT, (bottom - top - ROW_GAP * (n - 1)) // n)
    rows = tuple((left, top + i * (row + ROW_GAP), right, top + i * (row + ROW_GAP) + row) for i in range(n))
    return Frame(WIDTH, height, map_box, status_box, HEADER_BOX, rows)


def card_size(height: int) -> tuple[int, int]:
    """Width and height of a card ``height`` px tall."""
    return round(height * CARD_RATIO), height


def line_card_height(row: Box, counts: tuple[int, ...]) -> int:
    """One card height for every battle line (rows of one picture are alike): the largest at which the longest
    line fits side by side, between ``MIN_LINE_CARD_HEIGHT`` and what the row has room for."""
    left, top, right, bottom = row
    area = right - ROW_PAD - (left + STRENGTH_WIDTH + 2 * ROW_PAD)
    height = min(MAX_LINE_CARD_HEIGHT, bottom - top - ROW_NAME_LINE - 2 * ROW_PAD)
    count = max(counts, default=0)
    if count:
        fit = (area - CARD_GAP * (count - 1)) / count / CARD_RATIO
        height = min(height, max(MIN_LINE_CARD_HEIGHT, math.floor(fit)))
    return height


def line_slots(row: Box, count: int, height: int) -> tuple[tuple[int, int], ...]:
    """Left and top edges of each card of a battle line of cards ``height`` px tall, first card at the right.
    When they do not fit side by side they overlap, each later card covering the left part of the one before
    (its corner index stays visible)."""
    left, top, right, bottom = row
    area_left, area_right = left + STRENGTH_WIDTH + 2 * ROW_PAD, right - ROW_PAD
    room = bottom - top - ROW_NAME_LINE - 2 * ROW_PAD
    width, _ = card_size(height)
    stride = float(width + CARD_GAP)
    if count > 1:
        stride = min(stride, (area_right - area_left - width) / (count - 1))
    top_y = top + ROW_PAD + ROW_NAME_LINE + (room - height) // 2
    return tuple((round(area_right - width - i * stride), top_y) for i in range(count))


# The hand picture -----------------------------------------------------------------------------------------
HAND_WIDTH = 1000
HAND_HEADER = 78
HAND_MARGIN = 20
HAND_PER_ROW = 8
HAND_CARD_W, HAND_CARD_H = 110, 158
HAND_GAP = 10
HAND_ROW_GAP = 14

# Axial directions, counter-clockwise on screen from east: side d of a cell faces direction d.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Label and marks inside a province.
LABEL_SIZE = 24
LABEL_MIN_SIZE = 16
TOKEN_RADIUS_FACTOR = 0.78  # of the cells' radius


# Maps -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapPlan:
    """A map laid out in ``MAP_BOX``: every cell's pixel centre and where each province's marks go."""

    key: str
    radius: float
    ids: tuple[str, ...]  # province ids, in the rules' order
    cells: tuple[tuple[Hex, ...], ...]  # per province
    lakes: tuple[Hex, ...]
    origin: Point  # pixel position of cell (0, 0)
    labels: tuple[Point, ...]  # per province: centre of its name
    label_widths: tuple[int, ...]  # room for the name
    tokens: tuple[Point, ...]  # where the battle or peace token stands
    fills: tuple[Point, ...]  # a point of plain fill: no name, token or border near it
    boxes: tuple[Box, ...]  # per province: bounding box of its hexagons, borders included

    def centre(self, cell: Hex) -> Point:
        q, r = cell
        return self.origin[0] + self.radius * SQRT3 * (q + r / 2), self.origin[1] + self.radius * 1.5 * r

    def owner_of(self) -> dict[Hex, int]:
        """Province index by cell."""
        return {cell: i for i, cells in enumerate(self.cells) for cell in cells}


@functools.cache
def map_cells() -> dict[str, tuple[tuple[str, ...], tuple[tuple[Hex, ...], ...], tuple[Hex, ...]]]:
    """The layout file: per map key, its province ids, their cells and the lakes."""
    raw = json.loads(MAPS_FILE.read_text(encoding="utf-8"))
    out = {}
    for key, layout in raw.items():
        if key.startswith("_"):
            continue
        ids = tuple(layout["provinces"])
        cells = tuple(tuple((q, r) for q, r in layout["provinces"][pid]) for pid in ids)
        out[key] = (ids, cells, tuple((q, r) for q, r in layout["lakes"]))
    return out


def unit_centre(cell: Hex) -> Point:
    q, r = cell
    return SQRT3 * (q + r / 2), 1.5 * r


def corner(centre: Point, radius: float, angle_degrees: float) -> Point:
    a = math.radians(angle_degrees)
    return centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)


def side_ends(centre: Point, radius: float, side: int) -> tuple[Point, Point]:
    """The two corners of side ``side`` (facing ``DIRECTIONS[side]``) of a pointy-top hexagon."""
    mid = -60 * side
    return corner(centre, radius, mid - 30), corner(centre, radius, mid + 30)


@functools.cache
def map_plan(key: str, order: tuple[str, ...], box: Box = MAP_BOX) -> MapPlan:
    """Fit map ``key`` in ``box`` and place each province's name, token and a plain-fill point; ``order`` is
    the rules' province ids, in the view's order."""
    ids, cells_by_id, lakes = map_cells()[key]
    if sorted(ids) != sorted(order):
        raise ValueError(f"the layout of {key} does not have the rules' provinces")
    cells = tuple(cells_by_id[ids.index(pid)] for pid in order)
    every = [c for group in cells for c in group]
    xs, ys = zip(*(unit_centre(c) for c in every), strict=True)
    left, right = min(xs) - SQRT3 / 2, max(xs) + SQRT3 / 2
    top, bottom = min(ys) - 1, max(ys) + 1
    bl, bt, br, bb = box[0] + MAP_PAD, box[1] + MAP_PAD, box[2] - MAP_PAD, box[3] - MAP_PAD
    radius = min((br - bl) / (right - left), (bb - bt) / (bottom - top))
    origin = ((bl + br) / 2 - radius * (left + right) / 2, (bt + bb) / 2 - radius * (top + bottom) / 2)
    plan = MapPlan(key, radius, order, cells, lakes, origin, (), (), (), (), ())
    labels, widths, tokens, fills, boxes = [], [], [], [], []
    for group in cells:
        label, width, run = _label_place(plan, group)
        members = set(group)
        # The token on the most enclosed cell near the name; the plain-fill point on the next one.
        others = sorted(
            (c for c in group if c not in run),
            key=lambda c: (-min(_enclosure(c, members), 4), math.dist(plan.centre(c), label)),
        )
        token = plan.centre(others[0]) if others else (label[0], label[1] + radius * 0.9)
        fill = plan.centre(others[1]) if len(others) > 1 else (label[0], label[1] - radius * 0.7)
        labels.append(label)
        widths.append(width)
        tokens.append(token)
        fills.append(fill)
        points = [plan.centre(c) for c in group]
        pad = radius + 4
        boxes.append(
            (
                math.floor(min(x for x, _ in points) - pad),
                math.floor(min(y for _, y in points) - pad),
                math.ceil(max(x for x, _ in points) + pad),
                math.ceil(max(y for _, y in points) + pad),
            )
        )
    return MapPlan(
        key,
        radius,
        order,
        cells,
        lakes,
        origin,
        tuple(labels),
        tuple(widths),
        tuple(tokens),
        tuple(fills),
        tuple(boxes),
    )


def _enclosure(cell: Hex, members: set[Hex]) -> int:
    """How many of a cell's sides face its own province."""
    return sum((cell[0] + dq, cell[1] + dr) in members for dq, dr in DIRECTIONS)


def _label_place(plan: MapPlan, group: tuple[Hex, ...]) -> tuple[Point, int, set[Hex]]:
    """The longest run of cells side by side in one row (ties: nearest the province's middle): its centre, its
    width and its cells."""
    points = [plan.centre(c) for c in group]
    middle = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
    members = set(group)
    best: tuple[float, float, Point, set[Hex]] | None = None
    for q, r in group:
        if (q - 1, r) in members:
            continue  # not the start of a run
        run = [(q, r)]
        while (run[-1][0] + 1, r) in members:
            run.append((run[-1][0] + 1, r))
        a, b = plan.centre(run[0]), plan.centre(run[-1])
        centre = ((a[0] + b[0]) / 2, a[1])
        score = (-len(run), math.dist(centre, middle))
        if best is None or score < best[:2]:
            best = (*score, centre, set(run))
    assert best is not None
    _, _, centre, run_cells = best
    width = round(len(run_cells) * SQRT3 * plan.radius - 0.3 * plan.radius)
    return centre, width, run_cells
