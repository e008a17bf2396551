"""Where everything sits on the قلعه رودخان picture, and which part of the board it shows.

The picture is 1280 px wide, the board on the left and the panel (players, the drawn tile, the overview) on
the right; its height follows the board and the panel, from ``MIN_HEIGHT`` to ``MAX_HEIGHT``.

The whole board is shown when it fits at the stage's least tile size (``STAGES``): small while the player
picks a position (the candidates' numbers are what matters, and they keep a legible size on small tiles),
readable while a rotation is picked, large while a meeple spot is picked (the spots' labels sit on the tile),
anything for the final picture. Otherwise a closer view of the stage's tile size is shown around the action
(the chosen position, else the tile laid last), placed to hold as many candidates as it can, and the panel
adds the whole board small with a frame round the closer view; candidates outside it are numbered there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Box = tuple[int, int, int, int]  # left, top, right, bottom
Cell = tuple[int, int]  # board x, y

WIDTH = 1280
MAX_HEIGHT = 1024
MARGIN = 16
PANEL_W = 330
PANEL_LEFT = WIDTH - MARGIN - PANEL_W
BOARD_LEFT, BOARD_RIGHT = MARGIN, PANEL_LEFT - 14
BOARD_W = BOARD_RIGHT - BOARD_LEFT

TILE_SIZES = (16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 88, 96, 112, 128, 144)
# Per stage: the least tile size at which the whole board is shown, and the closer view's tile size.
STAGES = {
    "place": (32, 40),  # picking a position: numbered candidates, the numbers legible on small tiles too
    "rotation": (64, 80),
    "spot": (96, 112),  # picking a meeple spot, or confirming it: the labels on the tile
    "finished": (24, 64),
    "turn": (64, 80),  # anything else (no decision drawn)
}

# The panel, from its top down.
GAP = 10
HEADER_H = 112
PLAYER_ROW_H = 52
TURN_BOX_H = 340
OVERVIEW_H = 250
PANEL_PAD = 14  # inside a box
DRAWN_TILE = 176  # the drawn tile, large, in the turn box
CHOICE_TILE = 112  # each legal rotation of it, in a 2 × 2 grid
CHOICE_TILE_ROW = 136  # each of at most two legal rotations, side by side


@dataclass(frozen=True, slots=True)
class Frame:
    """A window of the board (``cols`` × ``rows`` positions from ``x0``, ``y0``) drawn with ``tile`` px tiles,
    its top left corner at ``left``, ``top`` on the picture."""

    x0: int
    y0: int
    cols: int
    rows: int
    tile: int
    left: int
    top: int

    def corner(self, x: int, y: int) -> tuple[int, int]:
        """Top left pixel of position (x, y)."""
        return self.left + (x - self.x0) * self.tile, self.top + (y - self.y0) * self.tile

    def centre(self, x: int, y: int) -> tuple[float, float]:
        left, top = self.corner(x, y)
        return left + self.tile / 2, top + self.tile / 2

    def contains(self, x: int, y: int) -> bool:
        return self.x0 <= x < self.x0 + self.cols and self.y0 <= y < self.y0 + self.rows

    @property
    def box(self) -> Box:
        return self.left, self.top, self.left + self.cols * self.tile, self.top + self.rows * self.tile


@dataclass(frozen=True, slots=True)
class Plan:
    """The picture's size, the board's main frame, the overview (a closer view only) and the panel's boxes."""

    width: int
    height: int
    board: Frame
    overview: Frame | None
    header: Box
    players: tuple[Box, ...]
    turn_box: Box
    overview_box: Box | None

    @property
    def closer(self) -> bool:
        return self.overview is not None


@dataclass(frozen=True, slots=True)
class Extent:
    x0: int
    y0: int
    cols: int
    rows: int


def extent(cells: Iterable[Cell]) -> Extent:
    cells = list(cells) or [(0, 0)]
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return Extent(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def quantised(size: float) -> int:
    """The largest of ``TILE_SIZES`` not above ``size`` (few sizes, so tile sprites are reused)."""
    return max((t for t in TILE_SIZES if t <= size), default=TILE_SIZES[0])


def panel_height(players: int, closer: bool) -> int:
    height = MARGIN + HEADER_H + GAP + players * PLAYER_ROW_H + GAP + TURN_BOX_H + MARGIN
    return height + (GAP + OVERVIEW_H if closer else 0)


def _panel(players: int, height: int, closer: bool) -> tuple[Box, tuple[Box, ...], Box, Box | None]:
    left, right = PANEL_LEFT, WIDTH - MARGIN
    header = (left, MARGIN, right, MARGIN + HEADER_H)
    top = header[3] + GAP
    rows = tuple((left, top + i * PLAYER_ROW_H, right, top + (i + 1) * PLAYER_ROW_H) for i in range(players))
    top = rows[-1][3] + GAP
    turn_box = (left, top, right, top + TURN_BOX_H)
    overview = (left, height - MARGIN - OVERVIEW_H, right, height - MARGIN) if closer else None
    return header, rows, turn_box, overview


def _fit(ext: Extent) -> int:
    """The tile size at which the whole extent fits the board's area of the tallest picture."""
    return quantised(min(BOARD_W / ext.cols, (MAX_HEIGHT - 2 * MARGIN) / ext.rows, TILE_SIZES[-1]))


def _window_start(low: int, span: int, size: int, focus: int) -> list[int]:
    """First positions a window of ``size`` may take along one axis of an extent (``low``, ``span``) while
    holding ``focus`` with a position to spare each side when it can; a narrower extent is centred."""
    if span <= size:
        return [low - (size - span) // 2]
    lowest, highest = low, low + span - size
    near = [s for s in range(lowest, highest + 1) if s + 1 <= focus <= s + size - 2]
    return near or [min(max(focus - size // 2, lowest), highest)]


def _closer_window(ext: Extent, cols: int, rows: int, focus: Cell, wanted: list[Cell]) -> tuple[int, int]:
    """The closer view's first position: holding the focus, then as many ``wanted`` cells (the candidates)
    as possible, then the focus nearest the middle."""
    fx, fy = focus

    def score(x0: int, y0: int) -> tuple[int, float]:
        held = sum(1 for x, y in wanted if x0 <= x < x0 + cols and y0 <= y < y0 + rows)
        off = abs(x0 + (cols - 1) / 2 - fx) + abs(y0 + (rows - 1) / 2 - fy)
        return held, -off

    starts = [
        (x0, y0) for x0 in _window_start(ext.x0, ext.cols, cols, fx) for y0 in _window_start(ext.y0, ext.rows, rows, fy)
    ]
    return max(starts, key=lambda start: score(*start))


def plan(cells: Iterable[Cell], *, players: int, focus: Cell, candidates: list[Cell], stage: str) -> Plan:
    """Lay the picture out for a board covering ``cells`` (tiles and candidate positions). ``stage`` is one of
    ``STAGES``; ``focus`` is where the action is; ``candidates`` the positions a closer view should try to
    hold."""
    ext = extent(cells)
    fit = _fit(ext)
    least, close = STAGES[stage]
    if fit >= least:
        board_h = ext.rows * fit + 2 * MARGIN
        height = max(panel_height(players, False), min(MAX_HEIGHT, board_h))
        header, rows, turn_box, _ = _panel(players, height, False)
        board = _centred(ext.x0, ext.y0, ext.cols, ext.rows, fit, height)
        return Plan(WIDTH, height, board, None, header, rows, turn_box, None)
    height = MAX_HEIGHT
    cols, rows_n = BOARD_W // close, (height - 2 * MARGIN) // close
    x0, y0 = _closer_window(ext, cols, rows_n, focus, candidates)
    board = _centred(x0, y0, cols, rows_n, close, height)
    header, rows, turn_box, overview_box = _panel(players, height, True)
    assert overview_box is not None
    return Plan(WIDTH, height, board, _overview(ext, overview_box), header, rows, turn_box, overview_box)


def _centred(x0: int, y0: int, cols: int, rows: int, tile: int, height: int) -> Frame:
    width_px, height_px = cols * tile, rows * tile
    left = BOARD_LEFT + (BOARD_W - width_px) // 2
    top = MARGIN + (height - 2 * MARGIN - height_px) // 2
    return Frame(x0, y0, cols, rows, tile, left, top)


OVERVIEW_CAPTION_H = 34


def _overview(ext: Extent, box: Box) -> Frame:
    """The whole board, small, in the overview box under its caption."""
    left, top, right, bottom = box
    inner_w = right - left - 2 * PANEL_PAD
    inner_h = bottom - top - OVERVIEW_CAPTION_H - PANEL_PAD
    tile = max(2, min(inner_w // ext.cols, inner_h // ext.rows))
    x = left + (right - left - ext.cols * tile) // 2
    y = top + OVERVIEW_CAPTION_H + (inner_h - ext.rows * tile) // 2
    return Frame(ext.x0, ext.y0, ext.cols, ext.rows, tile, x, y)
