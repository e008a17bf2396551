"""Where everything sits on the 1280×960 Coin Age picture; one place for all the numbers.

Persian reads right to left, so the turn panel (what to do now) is on the right and the seat-0 card is the
right-hand one of the two player cards under the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering.hexgrid import SQRT3

Box = tuple[int, int, int, int]  # left, top, right, bottom

WIDTH, HEIGHT = 1280, 960
MARGIN = 16

BOARD_BOX: Box = (MARGIN, MARGIN, 888, 668)
HEX_RADIUS = 124
HEX_GAP = 4  # px between neighbouring hexagons
BOARD_CENTRE = ((BOARD_BOX[0] + BOARD_BOX[2]) / 2, (BOARD_BOX[1] + BOARD_BOX[3]) / 2)

TURN_BOX: Box = (904, MARGIN, WIDTH - MARGIN, 560)
LEGEND_BOX: Box = (904, 576, WIDTH - MARGIN, HEIGHT - MARGIN)
PLAYER_BOXES: tuple[Box, Box] = ((460, 684, 888, HEIGHT - MARGIN), (MARGIN, 684, 444, HEIGHT - MARGIN))

# Inside a hexagon, relative to its centre.
NAME_DY = -0.52 * HEX_RADIUS
NAME_MAX_WIDTH = round(0.66 * SQRT3 * HEX_RADIUS)
STACK_MID_DY = 0.24 * HEX_RADIUS  # a stack is centred vertically here, below the name
LAST_MOVE_BAND = 11  # px: the white band inside a space the last move changed (and a dark line on each side)

# Coins: radius by size (A..D) on the board, and the upward step between stacked coins.
BOARD_COIN_RADIUS = (27, 34, 41, 48)
STACK_STEP = 26
SMALL_COIN_RADIUS = (19, 23, 27, 31)  # supplies, toss and legend chips


@dataclass(frozen=True, slots=True)
class StackSlot:
    """Where one coin of a stack is drawn: centre and whether it is the top coin."""

    centre: tuple[float, float]
    radius: int
    top: bool


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
