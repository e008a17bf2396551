"""Where everything sits on the 1280×960 کشورگشا picture, and the board's geometry from the cells' axial
coordinates (pointy-top: x = √3·(q + r/2), y = 1.5·r, y down), scaled to fit whatever board the view describes.

Persian reads right to left, so the panel (whose turn, scores) is on the right of the board.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from rendering.hexgrid import SQRT3, Point

Box = tuple[int, int, int, int]  # left, top, right, bottom
Hex = tuple[int, int]  # axial q, r

WIDTH, HEIGHT = 1280, 960
MARGIN = 16

BOARD_BOX: Box = (MARGIN, MARGIN, 904, HEIGHT - MARGIN)
PANEL_LEFT, PANEL_RIGHT = 920, WIDTH - MARGIN
TURN_BOX: Box = (PANEL_LEFT, MARGIN, PANEL_RIGHT, 268)
PLAYER_BOXES: tuple[Box, Box] = ((PANEL_LEFT, 284, PANEL_RIGHT, 488), (PANEL_LEFT, 504, PANEL_RIGHT, 708))
LEGEND_BOX: Box = (PANEL_LEFT, 724, PANEL_RIGHT, HEIGHT - MARGIN)

MAX_RADIUS = 72  # a small board is not blown up beyond this
MIN_RADIUS = 20
REFERENCE_RADIUS = 64  # the fixed board's; sizes inside a camp are given at this radius and scaled

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


def scaled(size: float, radius: int, minimum: int = 1) -> int:
    """A size given at ``REFERENCE_RADIUS``, for hexagons of ``radius`` (at least ``minimum``)."""
    return max(minimum, round(size * radius / REFERENCE_RADIUS))


def offset(distance: float, radius: int) -> int:
    """A signed distance from a camp's centre given at ``REFERENCE_RADIUS``, for hexagons of ``radius``."""
    return round(distance * radius / REFERENCE_RADIUS)


def unit_centre(q: int, r: int) -> Point:
    """Centre of a camp on a board of radius 1."""
    return SQRT3 * (q + r / 2), 1.5 * r


@functools.lru_cache(maxsize=32)
def fit_board(coords: tuple[Hex, ...], box: Box = BOARD_BOX) -> BoardGeometry:
    """The largest whole radius (up to ``MAX_RADIUS``) at which every hexagon lies inside ``box``, centred."""
    if not coords:
        raise ValueError("a board has at least one camp")
    xs, ys = zip(*(unit_centre(q, r) for q, r in coords), strict=True)
    half_width = SQRT3 / 2
    left, right = min(xs) - half_width, max(xs) + half_width
    top, bottom = min(ys) - 1, max(ys) + 1
    box_left, box_top, box_right, box_bottom = box
    radius = math.floor(min((box_right - box_left) / (right - left), (box_bottom - box_top) / (bottom - top)))
    radius = max(MIN_RADIUS, min(MAX_RADIUS, radius))
    ox = (box_left + box_right) / 2 - radius * (left + right) / 2
    oy = (box_top + box_bottom) / 2 - radius * (top + bottom) / 2
    centres = tuple((round(ox + radius * x), round(oy + radius * y)) for x, y in zip(xs, ys, strict=True))
    return BoardGeometry(radius, centres)


def side_midpoint(centre: tuple[int, int], side: int, radius: float) -> Point:
    """Middle of side ``side`` (0 east, then counter-clockwise on screen) of a camp."""
    angle = math.radians(-60 * side)
    apothem = radius * SQRT3 / 2
    return centre[0] + apothem * math.cos(angle), centre[1] + apothem * math.sin(angle)


# Inside a camp, at REFERENCE_RADIUS, relative to its centre.
LABEL_DY = -35
LABEL_SIZE = 27
CAPACITY_DY = 38
CAPACITY_RADIUS = 12
CAPACITY_SIZE = 19
PIECE_RADIUS = 17
PIECE_SIZE = 21
PIECE_DY = 3  # discs without a castle
PIECE_DX = 19  # half the distance between the two colours' discs
CASTLE_DY = -3
CASTLE_WIDTH = 41
CASTLE_HEIGHT = 36
CASTLE_PIECE_DX = 38  # discs beside a castle
CASTLE_PIECE_DY = 10
CASTLE_PIECE_RADIUS = 14
CASTLE_PIECE_SIZE = 20
GRASS_SPOTS = ((-44, -6), (44, -6), (-31, 30), (31, 30))  # clear of the label, discs and capacity
THIN_BORDER = 1.3  # half the band between two camps of a tile
TILE_BORDER = 4.0  # half the band between two tiles, and the board's edge
RING_OUTER = 4  # the ring that marks a camp to choose, in px from its sides at REFERENCE_RADIUS
RING_INNER = 15
WALL_LENGTH = 46
WALL_THICKNESS = 13
