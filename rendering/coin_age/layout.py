"""Where everything sits on the 900×1072 Coin Age picture; one place for all the numbers.

The picture is made for a phone, which shows it about 480 px wide: the turn (or the result) across the top,
the map as wide as the picture below it, who leads each colour under the map, and the two players' cards at
the bottom. No text is smaller than ``MIN_TEXT`` px, which shows 10 px high at 480 px. Persian reads right to
left, so seat 0's card is the right-hand one.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering.hexgrid import SQRT3, Point, board_extent, hex_corners

Box = tuple[int, int, int, int]  # left, top, right, bottom

WIDTH = 900
MARGIN = 12
GAP = 10  # between the bands
INSET = 22  # text from a card's edge
MIN_TEXT = 25  # px: Vazirmatn's cap height is 19 px at this size, 10.1 px once the picture is 480 px wide

# The top band: whose turn and what can be done, or the result.
HEADER_BOX: Box = (MARGIN, MARGIN, WIDTH - MARGIN, 150)
HEADER_ROW_Y = (HEADER_BOX[1] + 42, HEADER_BOX[1] + 104)  # the two lines' middles
HEADER_NAME_SIZE = 34
HEADER_TEXT_SIZE = 27
HEADER_CHIP_RADIUS = 16
TOSS_STEP = 70  # px between tossed coins
TOSS_COIN_RADIUS = (22, 25, 28, 31)
TOSS_DIGIT_SIZE = 27
BANNER_PAD = 8  # the winner's banner inside the top band

# The map: a honeycomb as wide as the picture.
HEX_RADIUS = 126
HEX_GAP = 4  # px between neighbouring hexagons
SPACE_RADIUS = HEX_RADIUS - HEX_GAP / 2  # a space's hexagon, its border included
_MAP_W, _MAP_H = board_extent(HEX_RADIUS)
BOARD_BOX: Box = (MARGIN, HEADER_BOX[3] + GAP, WIDTH - MARGIN, HEADER_BOX[3] + GAP + round(_MAP_H))
BOARD_CENTRE = ((BOARD_BOX[0] + BOARD_BOX[2]) / 2, (BOARD_BOX[1] + BOARD_BOX[3]) / 2)

# Inside a hexagon, relative to its centre.
NAME_DY = -0.55 * HEX_RADIUS
NAME_MAX_WIDTH = round(0.8 * SQRT3 * HEX_RADIUS)
NAME_SIZE = 28
STACK_MID_DY = 0.25 * HEX_RADIUS  # a stack is centred vertically here, below the name
LAST_MOVE_BAND = 11  # px: the white band inside a space the last move changed (and a dark line on each side)

# Coins: radius by size (A..D) on the board, and the upward step between stacked coins.
BOARD_COIN_RADIUS = (27, 34, 41, 48)
STACK_STEP = 27
TOP_DIGIT_SIZE = 32
UNDER_DIGIT_SIZE = MIN_TEXT
UNDER_DIGIT_DY = 15  # an under coin's digit sits this far inside its lower edge, in the crescent left uncovered

# Who leads each colour: a row under the map.
LEAD_ROW_HEIGHT = 60
LEAD_ROW_Y = BOARD_BOX[3] + GAP + LEAD_ROW_HEIGHT // 2
LEAD_LABEL_SIZE = 26
LEAD_PIP_RADIUS = 13  # one pip per space of the colour, in the colour of the side holding it
LEAD_PIP_STEP = 31
LEAD_CELL_PAD = 9  # around the pips inside a colour's cell
LEAD_CELL_HALF_HEIGHT = 22
LEAD_BADGE = (52, 38)  # the ×۲ badge beside a colour's cell: width, height
LEAD_SPACING = 26  # between one colour (its cell and badge) and the next
LEAD_LABEL_GAP = 20  # between the row's label and the first colour
LEAD_BADGE_GAP = 5  # between a colour's cell and its badge

# The players' cards.
CARD_TOP = BOARD_BOX[3] + GAP + LEAD_ROW_HEIGHT + GAP
CARD_HEIGHT = 190
HEIGHT = CARD_TOP + CARD_HEIGHT + MARGIN
_CARD_W = (WIDTH - 2 * MARGIN - GAP) // 2
PLAYER_BOXES: tuple[Box, Box] = (
    (WIDTH - MARGIN - _CARD_W, CARD_TOP, WIDTH - MARGIN, CARD_TOP + CARD_HEIGHT),
    (MARGIN, CARD_TOP, MARGIN + _CARD_W, CARD_TOP + CARD_HEIGHT),
)
CARD_NAME_Y = 38
CARD_NAME_SIZE = 30
CARD_CHIP_RADIUS = 15
CARD_RULE_Y = 70  # the line under the name
SUPPLY_Y = 110  # the coins left, by size
SUPPLY_STEP = 70
SUPPLY_COIN_RADIUS = (21, 24, 27, 30)
SUPPLY_DIGIT_SIZE = 26
COUNT_DY = 52  # the count of a size under its coin
COUNT_RADIUS = 17
COUNT_SIZE = 27
SCORE_X = 62  # from the card's left edge
SCORE_SIZE = 54
SCORE_LABEL_Y = 160
SCORE_LABEL_SIZE = MIN_TEXT
TURN_OUTLINE = 5  # px: the card of the player to act, and the winner's


@dataclass(frozen=True, slots=True)
class StackSlot:
    """Where one coin of a stack is drawn: centre and whether it is the top coin."""

    centre: tuple[float, float]
    radius: int
    top: bool


@dataclass(frozen=True, slots=True)
class LeadCell:
    """One colour in the row under the map: its cell (pips inside, one per space) and its ×۲ badge's box."""

    box: Box
    pips: tuple[tuple[float, float], ...]
    badge: Box


def lead_row(label_width: int, spaces: tuple[int, ...]) -> tuple[tuple[float, float], list[LeadCell]]:
    """The row's label anchor (its right end) and, right to left, a cell per colour with ``spaces[i]`` pips
    and room for its badge; the row is centred on the picture."""
    cells_w = [n * LEAD_PIP_STEP - (LEAD_PIP_STEP - 2 * LEAD_PIP_RADIUS) + 2 * LEAD_CELL_PAD for n in spaces]
    total = label_width + LEAD_LABEL_GAP + sum(w + LEAD_BADGE_GAP + LEAD_BADGE[0] for w in cells_w)
    total += LEAD_SPACING * (len(spaces) - 1)
    right = round((WIDTH + total) / 2)
    label = (float(right), float(LEAD_ROW_Y))
    x = right - label_width - LEAD_LABEL_GAP
    y, half = LEAD_ROW_Y, LEAD_CELL_HALF_HEIGHT
    cells = []
    for n, w in zip(spaces, cells_w, strict=True):
        box = (x - w, y - half, x, y + half)
        first = x - LEAD_CELL_PAD - LEAD_PIP_RADIUS
        pips = tuple((float(first - i * LEAD_PIP_STEP), float(y)) for i in range(n))
        badge_right = x - w - LEAD_BADGE_GAP
        badge = (badge_right - LEAD_BADGE[0], y - LEAD_BADGE[1] // 2, badge_right, y + LEAD_BADGE[1] // 2)
        cells.append(LeadCell(box, pips, badge))
        x = badge[0] - LEAD_SPACING
    return label, cells


def toss_centres(count: int) -> list[tuple[float, float]]:
    """Where the tossed coins lie, in the order they fell: right to left, ending at the top band's left."""
    last = HEADER_BOX[0] + INSET + max(TOSS_COIN_RADIUS)
    first = last + (count - 1) * TOSS_STEP
    return [(float(first - i * TOSS_STEP), float(HEADER_ROW_Y[0])) for i in range(count)]


def stack_slots(centre: tuple[float, float], sizes: tuple[int, ...]) -> list[StackSlot]:
    """Bottom-to-top coin positions: each coin above is smaller and shifted up by ``STACK_STEP``, so every
    coin shows a crescent with its digit and the top one is whole; the pile is centred on ``STACK_MID_DY``."""
    if not sizes:
        return []
    cx, cy = centre
    top_extent = (len(sizes) - 1) * STACK_STEP + BOARD_COIN_RADIUS[sizes[-1]]
    bottom_extent = BOARD_COIN_RADIUS[sizes[0]]
    y0 = cy + STACK_MID_DY + (top_extent - bottom_extent) / 2
    slots = []
    for i, size in enumerate(sizes):
        slots.append(StackSlot((cx, y0 - i * STACK_STEP), BOARD_COIN_RADIUS[size], i == len(sizes) - 1))
    return slots


def space_corners(centre: Point) -> list[Point]:
    """The corners of a space's hexagon around its ``centre`` (``static.space_centres``), clockwise from the top."""
    return hex_corners(centre, SPACE_RADIUS)
