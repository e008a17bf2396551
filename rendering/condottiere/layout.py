"""Where everything sits on the رکب pictures, and the maps' geometry.

Both pictures are read on a phone, about 480 px wide: the smallest text on each is sized so that its capital
height shows at least 10 px there (``MIN_TEXT``, ``HAND_MIN_TEXT``), and neither picture is wider than 1.4
times its height. The group picture is the map with the battle's panel beside it, over one row per player;
the hand picture is the cards in a grid.

The maps are hexagon cells grouped into provinces (``maps.json``, axial q, r of pointy-top hexagons:
x = √3·(q + r/2), y = 1.5·r, y down); two provinces share a border exactly where their cells share a side,
and the tests hold that equal to the rules' borders. Where four provinces meet at one point (the printed
board's corner contacts), a hexagon grid has no such point: a *meeting cell* is shared out among the
provinces around it, each taking the wedge that faces it, so the four wedges meet at the cell's centre.
Persian reads right to left, so a row starts at the right and each battle line runs leftwards.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

from rendering.hexgrid import SQRT3, Point
from rendering.text import font

Box = tuple[int, int, int, int]  # left, top, right, bottom
Hex = tuple[int, int]  # axial q, r

MAPS_FILE = Path(__file__).resolve().parent / "maps.json"

# The group picture ------------------------------------------------------------------------------------------
WIDTH = 900
MIN_TEXT = 28  # the smallest font: a capital 20 px high, 10.7 px at a phone's 480
MARGIN = 12
GAP = 10
MAP_WIDTH = 552  # the map's column; the battle's panel takes the rest of the top
TOP_HEIGHT = 628  # the map and the panel
DUEL_TOP_HEIGHT = 420  # two players: the battles won and the panel
DUEL_WINS_WIDTH = 470
MAX_ROWS_HEIGHT = 538  # the players' rows at most: the picture at most 1200 px high, 3 wide for 4 high
MAX_ROW = 116
ROW_GAP = 6
CARD_RADIUS = 16  # the corners of the picture's cards (map, panel, rows)

# A player's row, from the right: chip and name over the counts, a badge (to act, passed, winner), the battle
# line, and its strength at the left end.
ROW_PAD = 8
NAME_BLOCK = 276
NAME_SIZE = 30
CHIP_RADIUS = 19  # a seat's chip with its number in MIN_TEXT
STAT_ICON = 30  # height of the little hand, province and Courtesan marks before the counts
BADGE_ZONE = 86
BADGE_HEIGHT = 40
STRENGTH_WIDTH = 74
STRENGTH_SIZE = 40
CARD_RATIO = 0.69  # width / height
CARD_GAP = 5
LINE_FIT = 6  # a battle line's cards are small enough for this many side by side
MIN_LINE_CARD = 60  # below this, cards overlap instead of shrinking

# The battle's panel, top to bottom: the battle and its site, whose turn, season and piles, the peace token;
# when the game is over: the winners and why.
PANEL_PAD = 12
HEADLINE_SIZE = 40
PANEL_NAME_SIZE = 32
PANEL_GAP = 14
TURN_BOX_HEIGHT = 96
CAPTION = 36  # a caption's line over a block of the panel
PILE_CARD = (54, 78)  # the deck and the discards
SEASON_ICON = (38, 55)  # the season card beside its name
ICON_LINE = 56  # a line with an icon: the battle site, the season, the peace token
TOKEN_ICON_RADIUS = 20

# The two-player variant's battles won.
WIN_RADIUS = 34
WIN_GAP = 12

# Maps.
MAP_PAD = 10  # between the map card's edge and the land
LABEL_SIZE = 30
LABEL_PAD = (6, 2)  # around a name's ink, kept inside its province
TOKEN_RADIUS_FACTOR = 0.72  # of the cells' radius: inside the cell the token stands on
MARK_CLEARANCE = 4  # px between a token (or chip) and its province's name
MAP_CHIP_RADIUS = 19
OUTLINE_WIDTH = 5.0  # the battle site's, the peace token's and the winners' outlines

# The hand picture ----------------------------------------------------------------------------------------
HAND_WIDTH = 720
HAND_MIN_TEXT = 22  # a capital 16 px high, 10.7 px at 480
HAND_MARGIN = 20
HAND_TITLE_SIZE = 34
HAND_HEADER = 112  # the title and the reminder under it
HAND_GAP = 12
HAND_MIN_HEIGHT = 540  # never wider than 4 : 3, however few the cards
HAND_COLUMNS = ((8, 4), (15, 5), (10**6, 6))  # at most this many cards: this many a row


@dataclass(frozen=True, slots=True)
class Frame:
    """The group picture's size and cards for a number of players: the map (or, with two players, the
    battles won), the battle's panel beside it, and one row per player under them."""

    width: int
    height: int
    map_box: Box
    panel_box: Box
    rows: tuple[Box, ...]


@functools.cache
def frame(players: int, duel: bool) -> Frame:
    top_height = DUEL_TOP_HEIGHT if duel else TOP_HEIGHT
    left_width = DUEL_WINS_WIDTH if duel else MAP_WIDTH
    map_box = (MARGIN, MARGIN, MARGIN + left_width, MARGIN + top_height)
    panel_box = (map_box[2] + GAP, MARGIN, WIDTH - MARGIN, map_box[3])
    n = max(1, players)
    row = min(MAX_ROW, (MAX_ROWS_HEIGHT - ROW_GAP * (n - 1)) // n)
    top = map_box[3] + GAP
    rows = tuple((MARGIN, top + i * (row + ROW_GAP), WIDTH - MARGIN, top + i * (row + ROW_GAP) + row) for i in range(n))
    return Frame(WIDTH, rows[-1][3] + MARGIN, map_box, panel_box, rows)


def card_size(height: int) -> tuple[int, int]:
    """Width and height of a card ``height`` px tall."""
    return round(height * CARD_RATIO), height


@dataclass(frozen=True, slots=True)
class RowPlan:
    """The parts of one player's row."""

    chip: Point
    name_right: int
    name_y: float
    stats_y: float
    badge: Box
    strength: Box
    cards: Box  # the battle line's room; cards start at its right


def row_plan(row: Box) -> RowPlan:
    left, top, right, bottom = row
    middle = (top + bottom) / 2
    name_y, stats_y = middle - 19, middle + 20
    if bottom - top > 100:  # taller rows: the two lines apart a little more
        name_y, stats_y = middle - 22, middle + 23
    strength = (left + ROW_PAD, top + ROW_PAD, left + ROW_PAD + STRENGTH_WIDTH, bottom - ROW_PAD)
    name_left = right - NAME_BLOCK
    badge = (name_left - BADGE_ZONE, round(middle - BADGE_HEIGHT / 2), name_left - 8, round(middle + BADGE_HEIGHT / 2))
    cards = (strength[2] + ROW_PAD, top + ROW_PAD, badge[0] - ROW_PAD, bottom - ROW_PAD)
    chip = (right - ROW_PAD - CHIP_RADIUS - 4, name_y)
    return RowPlan(chip, round(chip[0] - CHIP_RADIUS - 10), name_y, stats_y, badge, strength, cards)


def line_card_height(row: Box, counts: tuple[int, ...]) -> int:
    """One card height for every battle line (the rows of a picture alike): as tall as the row allows, but
    low enough that the longest line, or ``LINE_FIT`` cards, stand side by side, and never below
    ``MIN_LINE_CARD``."""
    left, top, right, bottom = row_plan(row).cards
    count = max(LINE_FIT, *counts)
    fit = ((right - left) - CARD_GAP * (count - 1)) / count / CARD_RATIO
    return max(MIN_LINE_CARD, min(bottom - top, math.floor(fit)))


def line_slots(row: Box, count: int, height: int) -> tuple[tuple[int, int], ...]:
    """Left and top edges of each card of a battle line of cards ``height`` px tall, first card at the right,
    in the middle of the row's height. When they do not fit side by side they overlap, each later card
    covering the left part of the one before (its number, in the middle, stays visible)."""
    area_left, top, area_right, bottom = row_plan(row).cards
    width, _ = card_size(height)
    stride = float(width + CARD_GAP)
    if count > 1:
        stride = min(stride, (area_right - area_left - width) / (count - 1))
    y = top + (bottom - top - height) // 2
    return tuple((round(area_right - width - i * stride), y) for i in range(count))


def line_boxes(row: Box, count: int, counts: tuple[int, ...]) -> tuple[Box, ...]:
    """The cards of a battle line of ``count`` cards in ``row``, the first at the right, in a picture whose lines
    hold ``counts`` cards (``line_card_height``, ``line_slots``)."""
    height = line_card_height(row, counts)
    width, _ = card_size(height)
    return tuple((x, y, x + width, y + height) for x, y in line_slots(row, count, height))


# The hand picture -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The hand picture's size, its cards' size and each card's top-left corner (first card at the top right);
    ``empty``: where an empty hand shows an empty place for a card, in the middle."""

    width: int
    height: int
    card: tuple[int, int]
    slots: tuple[tuple[int, int], ...]
    empty: tuple[int, int]


@functools.cache
def hand_plan(count: int) -> HandPlan:
    columns = next(n for most, n in HAND_COLUMNS if count <= most)
    width = (HAND_WIDTH - 2 * HAND_MARGIN - (columns - 1) * HAND_GAP) // columns
    height = round(width / CARD_RATIO)
    rows = max(1, math.ceil(count / columns))
    grid = rows * height + (rows - 1) * HAND_GAP
    total = max(HAND_MIN_HEIGHT, HAND_HEADER + grid + HAND_MARGIN)
    top = HAND_HEADER + (total - HAND_MARGIN - HAND_HEADER - grid) // 2  # few cards: in the middle of the room
    slots = []
    for i in range(count):
        row, column = divmod(i, columns)
        in_row = min(columns, count - row * columns)  # a row not full is centred
        right = (HAND_WIDTH + in_row * width + (in_row - 1) * HAND_GAP) // 2
        slots.append((right - (column + 1) * width - column * HAND_GAP, top + row * (height + HAND_GAP)))
    empty = ((HAND_WIDTH - width) // 2, top)
    return HandPlan(HAND_WIDTH, total, (width, height), tuple(slots), empty)


# Maps -------------------------------------------------------------------------------------------------------

# Axial directions, counter-clockwise on screen from east: side d of a cell faces direction d.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True, slots=True)
class MapPlan:
    """A map laid out in a box: every cell's pixel centre and where each province's name and mark go."""

    key: str
    radius: float
    ids: tuple[str, ...]  # province ids, in the rules' order
    cells: tuple[tuple[Hex, ...], ...]  # per province
    meeting: tuple[tuple[Hex, tuple[int, ...]], ...]  # meeting cells: the province of each of its six wedges
    origin: Point  # pixel position of cell (0, 0)
    labels: tuple[Point, ...]  # per province: centre of its name
    label_sizes: tuple[int, ...]  # per province: the name's font size
    label_inside: tuple[bool, ...]  # per province: whether the name lies wholly inside it
    tokens: tuple[Point, ...]  # where the battle or peace token, or the owner's chip, stands
    fills: tuple[Point, ...]  # a point of plain fill: no name, token or border near it
    boxes: tuple[Box, ...]  # per province: bounding box of its hexagons, borders included

    def centre(self, cell: Hex) -> Point:
        q, r = cell
        return self.origin[0] + self.radius * SQRT3 * (q + r / 2), self.origin[1] + self.radius * 1.5 * r

    def owner_of(self) -> dict[Hex, int]:
        """Province index by cell (meeting cells are nobody's whole)."""
        return {cell: i for i, cells in enumerate(self.cells) for cell in cells}

    def province_at(self, point: Point) -> int | None:
        """The province under a pixel (None: sea)."""
        cell = self.cell_at(point)
        owner = self.owner_of().get(cell)
        if owner is not None:
            return owner
        for meeting, wedges in self.meeting:
            if meeting == cell:
                cx, cy = self.centre(cell)
                angle = math.degrees(math.atan2(point[1] - cy, point[0] - cx))
                return wedges[round(-angle / 60) % 6]
        return None

    def cell_at(self, point: Point) -> Hex:
        """The cell whose hexagon holds a pixel (cube rounding)."""
        r = (point[1] - self.origin[1]) / (1.5 * self.radius)
        q = (point[0] - self.origin[0]) / (SQRT3 * self.radius) - r / 2
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        return rq, rr


@functools.cache
def map_cells() -> dict[str, tuple[tuple[str, ...], tuple[tuple[Hex, ...], ...], tuple[Hex, ...]]]:
    """The layout file: per map key, its province ids, their cells and the meeting cells."""
    raw = json.loads(MAPS_FILE.read_text(encoding="utf-8"))
    out = {}
    for key, layout in raw.items():
        if key.startswith("_"):
            continue
        ids = tuple(layout["provinces"])
        cells = tuple(tuple((q, r) for q, r in layout["provinces"][pid]) for pid in ids)
        out[key] = (ids, cells, tuple((q, r) for q, r in layout["meeting"]))
    return out


def wedges(meeting: Hex, owner: dict[Hex, int]) -> tuple[int, ...]:
    """The province across each side of a meeting cell: each wedge belongs to it."""
    out = []
    for dq, dr in DIRECTIONS:
        other = owner.get((meeting[0] + dq, meeting[1] + dr))
        if other is None:
            raise ValueError(f"meeting cell {meeting} is not surrounded by land")
        out.append(other)
    return tuple(out)


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
def map_plan(key: str, order: tuple[str, ...], names: tuple[str, ...], box: Box) -> MapPlan:
    """Fit map ``key`` in ``box`` and place each province's name (``names``, in the rules' ``order`` of
    province ids) as large as it fits inside the province, its mark away from the name, and a plain-fill
    point."""
    ids, cells_by_id, meeting_cells = map_cells()[key]
    if sorted(ids) != sorted(order):
        raise ValueError(f"the layout of {key} does not have the rules' provinces")
    cells = tuple(cells_by_id[ids.index(pid)] for pid in order)
    owner = {cell: i for i, group in enumerate(cells) for cell in group}
    meeting = tuple((m, wedges(m, owner)) for m in meeting_cells)
    every = [c for group in cells for c in group] + list(meeting_cells)
    xs, ys = zip(*(unit_centre(c) for c in every), strict=True)
    left, right = min(xs) - SQRT3 / 2, max(xs) + SQRT3 / 2
    top, bottom = min(ys) - 1, max(ys) + 1
    bl, bt, br, bb = box[0] + MAP_PAD, box[1] + MAP_PAD, box[2] - MAP_PAD, box[3] - MAP_PAD
    radius = min((br - bl) / (right - left), (bb - bt) / (bottom - top))
    origin = ((bl + br) / 2 - radius * (left + right) / 2, (bt + bb) / 2 - radius * (top + bottom) / 2)
    plan = MapPlan(key, radius, order, cells, meeting, origin, (), (), (), (), (), ())
    labels, sizes, inside, tokens, fills, boxes = [], [], [], [], [], []
    for i, group in enumerate(cells):
        label, size, fits, marks = _label_place(plan, i, names[i])
        token = plan.centre(marks[0])
        fill = plan.centre(marks[1]) if len(marks) > 1 else token
        labels.append(label)
        sizes.append(size)
        inside.append(fits)
        tokens.append(token)
        fills.append(fill)
        points = [plan.centre(c) for c in group] + [plan.centre(m) for m, w in meeting if i in w]
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
        meeting,
        origin,
        tuple(labels),
        tuple(sizes),
        tuple(inside),
        tuple(tokens),
        tuple(fills),
        tuple(boxes),
    )


def label_box(name: str, size: int, centre: Point) -> tuple[float, float, float, float]:
    """The ink of ``name`` drawn centred at ``centre`` in the bold face, with ``LABEL_PAD`` around it."""
    left, top, right, bottom = font(size, bold=True).getbbox(name, anchor="mm", direction="rtl", language="fa")
    px, py = LABEL_PAD
    x, y = centre
    return x + left - px, y + top - py, x + right + px, y + bottom + py


def _samples(box: tuple[float, float, float, float]) -> list[Point]:
    left, top, right, bottom = box
    xs = [left + (right - left) * k / 8 for k in range(9)]
    ys = [top + (bottom - top) * k / 3 for k in range(4)]
    return [(x, y) for x in xs for y in ys]


def _label_place(plan: MapPlan, province: int, name: str) -> tuple[Point, int, bool, list[Hex]]:
    """Where the name goes, its size, whether it lies wholly inside the province, and the province's cells from
    the best for its mark (a token or the owner's chip) to the worst.

    The name takes the largest size (``LABEL_SIZE`` down to ``MIN_TEXT``) at which it fits inside the
    province somewhere; of those places, the one that leaves its mark the best cell (clear of the name, most
    enclosed by the province), then the one nearest the province's middle. A name that fits nowhere goes
    where most of it lies inside, at ``MIN_TEXT``. Places tried: cell centres and the midpoints of
    neighbouring cells."""
    group = plan.cells[province]
    members = set(group) | {cell for cell, _ in plan.meeting}  # a meeting cell's wedge facing us is ours
    points = [plan.centre(c) for c in group]
    middle = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
    places = set(points)
    for q, r in group:
        for dq, dr in DIRECTIONS:
            if (q + dq, r + dr) in group:
                a, b = plan.centre((q, r)), plan.centre((q + dq, r + dr))
                places.add(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    ordered = sorted(places, key=lambda p: (math.dist(p, middle), p))

    def marks(box: tuple[float, float, float, float]) -> list[Hex]:
        return sorted(group, key=lambda c: _mark_cost(plan, c, members, box))

    for size in range(LABEL_SIZE, MIN_TEXT - 1, -1):
        boxes = [(place, label_box(name, size, place)) for place in ordered]
        fitting = [(p, b) for p, b in boxes if all(plan.province_at(s) == province for s in _samples(b))]
        if fitting:
            place, box = min(fitting, key=lambda pb: _mark_cost(plan, marks(pb[1])[0], members, pb[1])[:2])
            return place, size, True, marks(box)

    def share(place: Point) -> int:
        return sum(plan.province_at(p) == province for p in _samples(label_box(name, MIN_TEXT, place)))

    best = max(ordered, key=share)
    return best, MIN_TEXT, False, marks(label_box(name, MIN_TEXT, best))


def _mark_cost(
    plan: MapPlan, cell: Hex, members: set[Hex], label: tuple[float, float, float, float]
) -> tuple[float, ...]:
    """Where a token or chip goes: clear of the name first, then on a cell with fewest sides against another
    province (the sea is no rival: a mark by the coast is plainly this province's), then near the name."""
    x, y = plan.centre(cell)
    reach = plan.radius * TOKEN_RADIUS_FACTOR + MARK_CLEARANCE
    left, top, right, bottom = label
    dx = max(left - x, 0.0, x - right)
    dy = max(top - y, 0.0, y - bottom)
    overlap = max(0.0, reach - math.hypot(dx, dy))
    land = plan.owner_of()
    rivals = sum(
        (cell[0] + dq, cell[1] + dr) in land and (cell[0] + dq, cell[1] + dr) not in members for dq, dr in DIRECTIONS
    )
    return (round(overlap), rivals, math.hypot(dx, dy))
