"""Where everything sits on the اسپلندور pictures.

The table picture is 1280×960: the table on the left (nobles at the top, then the card rows, level 3 first as
on a real table, then the bank), the header and one panel per player on the right. Persian reads right to
left, so each row starts at the right with its deck, then slots 0, 1, 2, 3 leftwards, and colours run white
(right) to gold (left) everywhere.

The private picture (a seat's reserved cards) is 1000×500, or 1000×300 without reserved cards.
"""

from __future__ import annotations

import functools

Box = tuple[int, int, int, int]  # left, top, right, bottom

WIDTH, HEIGHT = 1280, 960
MARGIN = 16
GAP = 10

CARD_W, CARD_H = 132, 196
SLOTS = 4
TABLE_LEFT = MARGIN
TABLE_RIGHT = TABLE_LEFT + (SLOTS + 1) * CARD_W + SLOTS * GAP  # the deck and four slots
ROW_GAP = 10
ROWS_TOP = 152
NOBLE_SIZE = 118
NOBLE_GAP = 14
NOBLES_TOP = MARGIN + 4
BANK_BOX: Box = (TABLE_LEFT, 774, TABLE_RIGHT, HEIGHT - MARGIN)
BANK_TOKEN_RADIUS = 30

PANEL_LEFT, PANEL_RIGHT = TABLE_RIGHT + 16, WIDTH - MARGIN
HEADER_BOX: Box = (PANEL_LEFT, MARGIN, PANEL_RIGHT, 124)
PANELS_TOP, PANELS_BOTTOM = 138, HEIGHT - MARGIN
PANEL_GAP = 12
PANEL_MAX_HEIGHT = 250
PANEL_BODY_HEIGHT = 192  # the body's measures are given for a panel this tall (four players)

# Inside a player's panel, from its right edge (x) or top (y).
PANEL_NAME_Y = 30
GRID_LABEL_W = 58  # the row labels, right of the grid
GRID_CELL_W = 42
BONUS_W, BONUS_H = 32, 40
TOKEN_RADIUS = 19
SMALL_CARD_W, SMALL_CARD_H = 64, 108
SMALL_CARD_GAP = 6

# The private picture.
PRIVATE_WIDTH = 1000
PRIVATE_HEIGHT = 420
PRIVATE_EMPTY_HEIGHT = 300
PRIVATE_CARD_W, PRIVATE_CARD_H = 150, 222
PRIVATE_CARD_GAP = 24
PRIVATE_CARDS_TOP = 92


def slot_box(level: int, slot: int) -> Box:
    """A face-up card of ``level`` (1..3) in ``slot`` (0..3) on the table picture."""
    top = ROWS_TOP + (3 - level) * (CARD_H + ROW_GAP)
    right = TABLE_RIGHT - (slot + 1) * (CARD_W + GAP)
    return right - CARD_W, top, right, top + CARD_H


def deck_box(level: int) -> Box:
    top = ROWS_TOP + (3 - level) * (CARD_H + ROW_GAP)
    return TABLE_RIGHT - CARD_W, top, TABLE_RIGHT, top + CARD_H


def noble_box(index: int, count: int) -> Box:
    """Noble ``index`` of ``count`` on the table, the row centred over the cards, the first at the right."""
    width = count * NOBLE_SIZE + (count - 1) * NOBLE_GAP
    right = (TABLE_LEFT + TABLE_RIGHT + width) // 2 - index * (NOBLE_SIZE + NOBLE_GAP)
    return right - NOBLE_SIZE, NOBLES_TOP, right, NOBLES_TOP + NOBLE_SIZE


def bank_centre(colour: int) -> tuple[int, int]:
    """Where the bank's token of ``colour`` (0 white .. 5 gold) is drawn, white at the right."""
    left, top, right, _bottom = BANK_BOX
    label_w = 92  # the box's title at its right
    step = (right - left - label_w) / 6
    return round(right - label_w - step * (colour + 0.5)), top + 58


@functools.lru_cache(maxsize=8)
def panel_boxes(players: int) -> tuple[Box, ...]:
    """One box per seat down the right column, seat 0 at the top; with fewer players they are taller (to a
    limit), and what is left at the bottom may hold the labels' legend (``legend_box``)."""
    available = PANELS_BOTTOM - PANELS_TOP
    height = min(PANEL_MAX_HEIGHT, (available - (players - 1) * PANEL_GAP) // players)
    top = PANELS_TOP
    return tuple(
        (PANEL_LEFT, top + i * (height + PANEL_GAP), PANEL_RIGHT, top + i * (height + PANEL_GAP) + height)
        for i in range(players)
    )


def reserved_box(panel: Box, index: int) -> Box:
    """Small reserved card ``index`` (0..2) in a player's panel, the first at the right, its label below."""
    left = panel[0]
    x = left + 12 + (2 - index) * (SMALL_CARD_W + SMALL_CARD_GAP)
    y = panel_body(panel) + 52
    return x, y, x + SMALL_CARD_W, y + SMALL_CARD_H


def panel_body(panel: Box) -> int:
    """Where a panel's body (reserve, bonuses, tokens) is measured from, centred in taller panels."""
    return panel[1] + (panel[3] - panel[1] - PANEL_BODY_HEIGHT) // 2


def legend_box(players: int) -> Box | None:
    """The box under the players' panels for the labels' legend, when there is room for it (two players)."""
    bottom = panel_boxes(players)[-1][3]
    if PANELS_BOTTOM - bottom < LEGEND_MIN_HEIGHT + PANEL_GAP:
        return None
    return PANEL_LEFT, bottom + PANEL_GAP, PANEL_RIGHT, PANELS_BOTTOM


LEGEND_MIN_HEIGHT = 200


def grid_x(right: int, colour: int, *, cell: int = GRID_CELL_W, label_w: int = GRID_LABEL_W) -> int:
    """Centre x of a colour's column (white at the right) in a bonus/token grid whose right edge is ``right``."""
    return right - label_w - cell * colour - cell // 2


def private_card_box(index: int) -> Box:
    """Reserved card ``index`` (0..2) on the private picture, the first at the right of the cards' area."""
    right = PRIVATE_CARDS_RIGHT - index * (PRIVATE_CARD_W + PRIVATE_CARD_GAP)
    return right - PRIVATE_CARD_W, PRIVATE_CARDS_TOP, right, PRIVATE_CARDS_TOP + PRIVATE_CARD_H


PRIVATE_GRID_BOX: Box = (PRIVATE_WIDTH - MARGIN - 440, 92, PRIVATE_WIDTH - MARGIN, 314)
PRIVATE_EMPTY_GRID_BOX: Box = (PRIVATE_WIDTH - MARGIN - 440, 92, PRIVATE_WIDTH - MARGIN, 284)
PRIVATE_GRID_CELL, PRIVATE_GRID_LABEL_W = 56, 80
PRIVATE_CARDS_RIGHT = PRIVATE_GRID_BOX[0] - 24
