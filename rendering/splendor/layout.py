"""Where everything sits on the اسپلندور pictures, drawn for a phone: Telegram shows a picture about 480 px wide,
so every text is at least ``TEXT_SMALL`` on a picture ``WIDTH`` wide (a cap height of 10 px there).

The table picture is 900 px wide and about as high (916 to 1076 px, by the number of players), from the top:
the header (whose turn), the nobles, then the bank's column at the left beside the three card rows (level 3
first, as on a real table), then one row per player. Persian reads right to left, so each card row starts at
the right with its deck, then slots 0, 1, 2, 3 leftwards, and colours run white (right) to gold (left) in a
player's row. Each card's label (the number its button says) stands above the card, on the cloth, so that no
number in a circle but a cost is ever on a card.

The private picture (a seat's reserved cards, with its tokens and bonuses) is 720×620, with or without cards.
"""

from __future__ import annotations

Box = tuple[int, int, int, int]  # left, top, right, bottom

WIDTH = 900
MARGIN = 12
BOX_RADIUS = 14

# Text sizes on the table: on a 900-px picture shown 480 px wide, 26 px of Vazirmatn is 10 px of cap height.
TEXT_SMALL = 26  # the secondary words: «امتیاز», colour names, the tokens held, the round
TEXT = 28  # labels, costs' digits, a player's name
TEXT_BIG = 32  # whose turn it is

# The header: whose turn, the round, the final round; the result when the game is over.
HEADER_BOX: Box = (MARGIN, MARGIN, WIDTH - MARGIN, 68)

# Nobles, a row centred over the cards: a band with the points at the left, the bonuses asked for at the right.
NOBLES_TOP = 76
NOBLE_W, NOBLE_H = 168, 76
NOBLE_GAP = 8
NOBLE_BAND = 40
NOBLE_NEED_W, NOBLE_NEED_H = 34, 46
# The result banner takes the header's and the nobles' place at the end.
RESULT_BOX: Box = (MARGIN, MARGIN + 14, WIDTH - MARGIN, MARGIN + 14 + 112)

# The card rows: each row a strip for the labels, then the cards.
ROWS_TOP = 160
LABEL_H = 30
CARD_W, CARD_H = 148, 160
CARD_GAP = 10
ROW_GAP = 6
ROW_PITCH = LABEL_H + CARD_H + ROW_GAP
SLOTS = 4
TABLE_RIGHT = WIDTH - MARGIN
CARDS_LEFT = TABLE_RIGHT - (SLOTS + 1) * CARD_W - SLOTS * CARD_GAP
ROWS_BOTTOM = ROWS_TOP + 2 * ROW_PITCH + LABEL_H + CARD_H

# The bank: a column at the left of the rows, its title in the first labels' strip, a chip per colour with its
# count, the colour's name under it.
BANK_BOX: Box = (MARGIN, ROWS_TOP, CARDS_LEFT - CARD_GAP, ROWS_BOTTOM)
BANK_CHIP_RADIUS = 28
BANK_DIGIT = 30

# The players: a row each, under the table.
PLAYERS_TOP = ROWS_BOTTOM + 8
PLAYER_H = 74
PLAYER_GAP = 6
PAD = 12  # inside a player's row, from its edges
RANK_W = 44  # the place at the end of the game, at the right of the name
NAME_W = 230  # with the place's room too while the game goes on
POINTS_W = 70
CELL_W = 46  # a colour's column: the bonus (a small card) over the tokens (a chip)
BONUS_W, BONUS_H = 34, 30
TOKEN_RADIUS = 17
NOBLES_W = 50
CROWN = 28
MINI_W, MINI_H = 40, 56  # a reserved card in a player's row
MINI_GAP = 6
SECTION_GAP = 10

# The private picture.
PRIVATE_WIDTH, PRIVATE_HEIGHT = 720, 620
PRIVATE_TEXT_SMALL = 22  # on a 720-px picture shown 480 px wide, 22 px of Vazirmatn is 10.7 px of cap height
PRIVATE_TEXT = 26
PRIVATE_TITLE = 32
PRIVATE_TITLE_Y = 42
PRIVATE_LABELS_Y = 92
PRIVATE_CARD_W, PRIVATE_CARD_H = 200, 236
PRIVATE_CARD_GAP = 20
PRIVATE_CARDS_TOP = 112
PRIVATE_STATUS_Y = PRIVATE_CARDS_TOP + PRIVATE_CARD_H + 28
PRIVATE_NOTE_Y = PRIVATE_STATUS_Y + 34
# the reserved cards alone (the private chat's picture): no wider than 1.4 times its height
PRIVATE_CARDS_ONLY_HEIGHT = -(-PRIVATE_WIDTH * 5 // 7)
PRIVATE_GRID_BOX: Box = (40, 446, PRIVATE_WIDTH - 40, PRIVATE_HEIGHT - 20)
PRIVATE_GRID_LABEL_W = 120
PRIVATE_CELL_W = 72
PRIVATE_BONUS_W, PRIVATE_BONUS_H = 46, 50
PRIVATE_TOKEN_RADIUS = 25
PRIVATE_DIGIT = 30


def height(players: int) -> int:
    """The table picture's height for ``players``: the rows of the players are all that grows."""
    return PLAYERS_TOP + players * PLAYER_H + (players - 1) * PLAYER_GAP + MARGIN


def slot_box(level: int, slot: int) -> Box:
    """A face-up card of ``level`` (1..3) in ``slot`` (0..3) on the table picture."""
    top = ROWS_TOP + (3 - level) * ROW_PITCH + LABEL_H
    right = TABLE_RIGHT - (slot + 1) * (CARD_W + CARD_GAP)
    return right - CARD_W, top, right, top + CARD_H


def deck_box(level: int) -> Box:
    top = ROWS_TOP + (3 - level) * ROW_PITCH + LABEL_H
    return TABLE_RIGHT - CARD_W, top, TABLE_RIGHT, top + CARD_H


def label_y(box: Box) -> float:
    """Where the label of the card or deck in ``box`` stands: in the strip above it."""
    return box[1] - LABEL_H / 2 - 1


def noble_box(index: int, count: int) -> Box:
    """Noble ``index`` of ``count`` on the table, the row centred over the cards, the first at the right."""
    width = count * NOBLE_W + (count - 1) * NOBLE_GAP
    right = (MARGIN + TABLE_RIGHT + width) // 2 - index * (NOBLE_W + NOBLE_GAP)
    return right - NOBLE_W, NOBLES_TOP, right, NOBLES_TOP + NOBLE_H


def bank_centre(colour: int) -> tuple[int, int]:
    """Where the bank's chip of ``colour`` (0 white .. 5 gold) is drawn, white at the top; its name under it."""
    left, top, right, bottom = BANK_BOX
    step = (bottom - top - LABEL_H) / 6
    return (left + right) // 2, round(top + LABEL_H + step * colour + BANK_CHIP_RADIUS + 4)


def player_box(index: int) -> Box:
    """The row of the ``index``-th player listed (in seat order; in order of places at the end)."""
    top = PLAYERS_TOP + index * (PLAYER_H + PLAYER_GAP)
    return MARGIN, top, WIDTH - MARGIN, top + PLAYER_H


def name_right(box: Box, ranked: bool) -> int:
    """Where a player's name ends at the right: after the place, when the game is over."""
    return box[2] - PAD - (RANK_W if ranked else 0)


def points_centre(box: Box) -> int:
    return box[2] - PAD - RANK_W - NAME_W - SECTION_GAP - POINTS_W // 2


def cell_x(box: Box, colour: int) -> int:
    """Centre x of a colour's column in a player's row, white at the right."""
    right = points_centre(box) - POINTS_W // 2 - SECTION_GAP
    return right - CELL_W // 2 - colour * CELL_W


def nobles_right(box: Box) -> int:
    return cell_x(box, 5) - CELL_W // 2 - SECTION_GAP


def mini_box(box: Box, index: int) -> Box:
    """Reserved card ``index`` (0..2) in a player's row, the first at the right."""
    right = nobles_right(box) - NOBLES_W - SECTION_GAP - index * (MINI_W + MINI_GAP)
    top = (box[1] + box[3] - MINI_H) // 2
    return right - MINI_W, top, right, top + MINI_H


def private_card_box(index: int) -> Box:
    """Reserved card ``index`` (0..2) on the private picture, the first at the right."""
    width = 3 * PRIVATE_CARD_W + 2 * PRIVATE_CARD_GAP
    right = (PRIVATE_WIDTH + width) // 2 - index * (PRIVATE_CARD_W + PRIVATE_CARD_GAP)
    return right - PRIVATE_CARD_W, PRIVATE_CARDS_TOP, right, PRIVATE_CARDS_TOP + PRIVATE_CARD_H


def private_cell_x(colour: int) -> int:
    """Centre x of a colour's column in the private picture's grid, white at the right."""
    width = PRIVATE_GRID_LABEL_W + 6 * PRIVATE_CELL_W
    right = (PRIVATE_WIDTH + width) // 2 - PRIVATE_GRID_LABEL_W
    return right - PRIVATE_CELL_W // 2 - colour * PRIVATE_CELL_W


def private_rows_y() -> tuple[int, int]:
    """The private grid's two rows: bonuses, then tokens."""
    _left, top, _right, bottom = PRIVATE_GRID_BOX
    third = (bottom - top) / 3
    return round(top + third), round(top + 2.1 * third)
