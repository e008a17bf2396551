"""Where everything sits on the کشورگشا picture, and the board's geometry from the cells' axial coordinates
(pointy-top: x = √3·(q + r/2), y = 1.5·r, y down), scaled to fit whatever board the view describes.

The picture is made for a phone, which shows it about 480 px wide: a 960-px-wide canvas, so every size here
is twice what the phone shows. The two players' cards and the turn line sit on top; the board fills the whole
width under them, and the canvas is as tall as the board needs (``canvas``). Persian reads right to left, so
the first player's card is on the right.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from rendering.hexgrid import SQRT3, Point

Box = tuple[int, int, int, int]  # left, top, right, bottom
Hex = tuple[int, int]  # axial q, r

WIDTH = 960
MARGIN = 14
SMALLEST_TEXT = 27  # px: a cap height of 20 px, 10 px on a phone's 480
MAX_HEIGHT = 1280  # Telegram shows at most this on the long side
MIN_HEIGHT = 700  # no wider than 1.4 times the height, whatever the board

# The header: a card per player, then the turn line (or the result).
CARD_TOP, CARD_BOTTOM = MARGIN, 164
CARD_BOXES: tuple[Box, Box] = (  # by place from the right: the first player's, or the first ranked
    (WIDTH // 2 + MARGIN // 2, CARD_TOP, WIDTH - MARGIN, CARD_BOTTOM),
    (MARGIN, CARD_TOP, WIDTH // 2 - MARGIN // 2, CARD_BOTTOM),
)
CARD_RADIUS = 20
CARD_OUTLINE = 6  # the card of the player to act
CHIP_DX, CHIP_DY, CHIP_RADIUS = 38, 44, 19  # the colour disc, from the card's right and top
NAME_DX, NAME_SIZE = 72, 36  # the name ends this far from the card's right
SCORE_DX, SCORE_DY, SCORE_SIZE = 72, 62, 70  # the score's centre, from the card's left and top
TARGET_DY, TARGET_SIZE = 122, 30  # «از ۲۷» under the score, or the place once the game is over
STATS_DY, STATS_SIZE = 106, 32  # supplies: pieces, walls, castles (icons and numbers)
STATS_DX, STATS_STEP = 40, 100  # the first icon's centre from the card's right, and from one to the next
STAT_ICON_DX = 24  # an icon's centre, right of its number's right end
STAT_PIECE_RADIUS = 13
STAT_WALL = (26, 10)  # length, thickness
STAT_CASTLE = (28, 24)  # width, height
BAR_DY, BAR_HEIGHT = 140, 10  # the score bar along the card's foot
BAR_INSET = 24

LINE_BOX: Box = (MARGIN, 176, WIDTH - MARGIN, 228)  # the turn line, or the result plate
LINE_SIZE = 30
ACTION_BOX, ACTION_GAP = 30, 10  # the squares of the actions left

BOARD_TOP = 238

MAX_RADIUS = 80  # a small board is not blown up beyond this
MIN_RADIUS = 20
REFERENCE_RADIUS = 64  # sizes inside a camp are given at this radius and scaled

# Axial directions, counter-clockwise on screen from east: side d of a camp faces direction d.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Camp centres in pixels (whole pixels, so cached sprites line up with them) and the hexagons' radius."""

    radius: int
    centres: tuple[tuple[int, int], ...]  # in the order of the coordinates given

    def scaled(self, size: float, minimum: int = 1) -> int:
        return scaled(size, self.radius, minimum)

    def offset(self, distance: float) -> int:
        return offset(distance, self.radius)

    def castle(self, centre: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
        """A castle in the camp at ``centre``: the middle of its drawing and its width and height."""
        size = self.scaled(CASTLE_WIDTH, 12), self.scaled(CASTLE_HEIGHT, 10)
        return (centre[0], centre[1] + self.offset(CASTLE_DY)), size

    def pieces(self, centre: tuple[int, int], castle: bool, both: bool) -> tuple[int, tuple[tuple[int, int], ...]]:
        """The discs of the pieces standing in the camp at ``centre``: their radius and each seat's disc's
        centre, red on the right and yellow on the left; beside a castle, at its feet; else side by side when
        ``both`` colours stand there, in the middle when one does."""
        cx, cy = centre
        if castle:
            radius, dx, y = self.scaled(CASTLE_PIECE_RADIUS, 6), self.offset(CASTLE_PIECE_DX), cy
            y += self.offset(CASTLE_PIECE_DY)
        else:
            radius, y = self.scaled(PIECE_RADIUS, 7), cy + self.offset(PIECE_DY)
            dx = self.offset(PIECE_DX) if both else 0
        return radius, ((cx + dx, y), (cx - dx, y))

    def wall(self) -> tuple[int, int]:
        """A wall's length and thickness."""
        return self.scaled(WALL_LENGTH, 10), self.scaled(WALL_THICKNESS, 5)


@dataclass(frozen=True, slots=True)
class Canvas:
    """The picture's size for a board, and the board on it."""

    width: int
    height: int
    board: BoardGeometry


def scaled(size: float, radius: int, minimum: int = 1) -> int:
    """A size given at ``REFERENCE_RADIUS``, for hexagons of ``radius`` (at least ``minimum``)."""
    return max(minimum, round(size * radius / REFERENCE_RADIUS))


def offset(distance: float, radius: int) -> int:
    """A signed distance from a camp's centre given at ``REFERENCE_RADIUS``, for hexagons of ``radius``."""
    return round(distance * radius / REFERENCE_RADIUS)


def unit_centre(q: int, r: int) -> Point:
    """Centre of a camp on a board of radius 1."""
    return SQRT3 * (q + r / 2), 1.5 * r


def _extent(coords: tuple[Hex, ...]) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of the board's hexagons at radius 1."""
    xs, ys = zip(*(unit_centre(q, r) for q, r in coords), strict=True)
    return min(xs) - SQRT3 / 2, min(ys) - 1, max(xs) + SQRT3 / 2, max(ys) + 1


@functools.lru_cache(maxsize=32)
def canvas(coords: tuple[Hex, ...]) -> Canvas:
    """The board as large as the width allows (and the tallest picture Telegram shows), the canvas as tall as
    the board then needs, the board centred in what is left under the header."""
    if not coords:
        raise ValueError("a board has at least one camp")
    left, top, right, bottom = _extent(coords)
    room_w = WIDTH - 2 * MARGIN
    room_h = MAX_HEIGHT - BOARD_TOP - MARGIN
    radius = math.floor(min(room_w / (right - left), room_h / (bottom - top)))
    radius = max(MIN_RADIUS, min(MAX_RADIUS, radius))
    height = max(MIN_HEIGHT, min(MAX_HEIGHT, BOARD_TOP + math.ceil(radius * (bottom - top)) + MARGIN))
    box = (MARGIN, BOARD_TOP, WIDTH - MARGIN, height - MARGIN)
    return Canvas(WIDTH, height, fit_board(coords, box, radius))


def fit_board(coords: tuple[Hex, ...], box: Box, radius: int) -> BoardGeometry:
    """Hexagons of ``radius`` centred in ``box``."""
    left, top, right, bottom = _extent(coords)
    box_left, box_top, box_right, box_bottom = box
    ox = (box_left + box_right) / 2 - radius * (left + right) / 2
    oy = (box_top + box_bottom) / 2 - radius * (top + bottom) / 2
    centres = tuple((round(ox + radius * x), round(oy + radius * y)) for x, y in (unit_centre(q, r) for q, r in coords))
    return BoardGeometry(radius, centres)


def side_towards(camp: Hex, across: Hex) -> int:
    """The side of the camp at ``camp`` that faces its neighbour at ``across`` (axial coordinates)."""
    return DIRECTIONS.index((across[0] - camp[0], across[1] - camp[1]))


def wall_centre(camp: tuple[int, int], across: tuple[int, int]) -> Point:
    """Where the wall on the side between two neighbouring camps is drawn, from their centres: halfway."""
    return (camp[0] + across[0]) / 2, (camp[1] + across[1]) / 2


def inset_hexagon(centre: Point, radius: float, insets: tuple[float, ...]) -> list[Point]:
    """Corners of a pointy-top hexagon whose side d (0 east, counter-clockwise on screen) is moved
    ``insets[d]`` px inwards; from the upper right, counter-clockwise on screen: corner d is where sides d and
    d + 1 meet."""
    apothem = radius * math.sqrt(3) / 2
    normals = [(math.cos(math.radians(-60 * d)), math.sin(math.radians(-60 * d))) for d in range(6)]
    corners = []
    for d in range(6):
        (a1, b1), (a2, b2) = normals[d], normals[(d + 1) % 6]
        c1, c2 = apothem - insets[d], apothem - insets[(d + 1) % 6]
        det = a1 * b2 - a2 * b1
        corners.append((centre[0] + (c1 * b2 - c2 * b1) / det, centre[1] + (a1 * c2 - a2 * c1) / det))
    return corners


def side_midpoint(centre: tuple[int, int], side: int, radius: float) -> Point:
    """Middle of side ``side`` (0 east, then counter-clockwise on screen) of a camp."""
    angle = math.radians(-60 * side)
    apothem = radius * SQRT3 / 2
    return centre[0] + apothem * math.cos(angle), centre[1] + apothem * math.sin(angle)


# Inside a camp, at REFERENCE_RADIUS, relative to its centre: the label on top, what stands there in the
# middle, the capacity's dots at the foot; each clear of the others and of walls on the sides.
LABEL_DY = -29
LABEL_SIZE = 32
PIP_DY = 40  # the capacity: one dot per piece the camp takes
PIP_RADIUS = 6.5
PIP_GAP = 16  # between the dots' centres
PIECE_RADIUS = 19
PIECE_SIZE = 28  # the count on a disc
PIECE_DY = 9  # discs without a castle
PIECE_DX = 22  # half the distance between the two colours' discs
CASTLE_DY = 0
CASTLE_WIDTH = 36
CASTLE_HEIGHT = 34
CASTLE_PIECE_DX = 37  # discs beside a castle, red right and yellow left, clear of it
CASTLE_PIECE_DY = 10
CASTLE_PIECE_RADIUS = 14
GRASS_SPOTS = ((-41, -3), (41, -3), (-20, 38), (20, 38))  # a plain's tufts, in the corners of the camp
GRASS_SIZE = 14
THIN_BORDER = 1.3  # half the band between two camps of a tile
TILE_BORDER = 4.0  # half the band between two tiles, and the board's edge
RING_OUTER = -2  # the ring of a camp to choose, in px from its sides (over the border band) ...
RING_INNER = 6  # ... to this far in: clear of the label
WALL_LENGTH = 46
WALL_THICKNESS = 13
