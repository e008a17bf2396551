"""Geometry of Coin Age's honeycomb: pointy-top hexagons in rows of 3 / 4 / 3.

Row A sits between B_i and B_{i+1}, as does row C, which makes the shared sides exactly the map's borders
(tests check this against the view's neighbours).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)
ROW_OFFSET = {"A": 0, "B": 1, "C": 2}  # row index, top to bottom
ROW_LENGTH = {"A": 3, "B": 4, "C": 3}


def grid_position(space_id: str) -> tuple[int, float]:
    """(row, column) of a space id like "B3"; columns of rows A and C fall between those of row B."""
    row, number = space_id[:1], space_id[1:]
    if row not in ROW_OFFSET or not number.isdigit() or not 1 <= int(number) <= ROW_LENGTH[row]:
        raise ValueError(f"not a Coin Age space id: {space_id!r}")
    column = int(number) - 1 + (0.5 if row != "B" else 0.0)
    return ROW_OFFSET[row], column


def hex_centres(space_ids: Iterable[str], *, centre: Point, radius: float) -> dict[str, Point]:
    """Pixel centre of every space for hexagons of circumradius ``radius`` around the board's ``centre``."""
    width = SQRT3 * radius
    cx, cy = centre
    out: dict[str, Point] = {}
    for space_id in space_ids:
        row, column = grid_position(space_id)
        out[space_id] = (cx + (column - 1.5) * width, cy + (row - 1) * 1.5 * radius)
    return out


def hex_corners(centre: Point, radius: float) -> list[Point]:
    """Six corners of a pointy-top hexagon, clockwise from the top."""
    cx, cy = centre
    return [
        (cx + radius * math.cos(math.radians(angle)), cy + radius * math.sin(math.radians(angle)))
        for angle in (-90, -30, 30, 90, 150, 210)
    ]


def board_extent(radius: float) -> tuple[float, float]:
    """Width and height of the whole honeycomb (4 hexagons wide, 5 radii tall)."""
    return 4 * SQRT3 * radius, 5 * radius


def touching(a: Point, b: Point, radius: float) -> bool:
    """Whether two hexagons of this grid share a side (their centres are one hexagon width apart)."""
    return abs(math.dist(a, b) - SQRT3 * radius) < radius * 0.05
