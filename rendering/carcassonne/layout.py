"""Where everything sits on the قلعه رودخان picture, and which part of the board it shows.

The picture is made for a phone, which shows it about 480 px wide: ``WIDTH`` px wide, from about as high as
wide to a little higher, with three parts from the top down. The bar says whose turn it is and what to press
(or, at the end, who won); the board takes the whole width; the band under it holds what the turn needs: the
drawn tile and the players, the drawn tile in each rotation that fits the chosen position, the tile as it will
lie with its meeple spots, or the final ranking. Until the end the band's height depends on nothing, so the
picture keeps its height while a player goes through the menu.

Every text is at least ``MIN_FONT`` px: its cap height is 10 px once the picture is shown 480 px wide.

The whole board is shown when it fits at the stage's least tile size (``STAGES``): small while the player picks
a position (the candidates' numbers are what matters, and they keep their size on small tiles), readable while
a rotation or a meeple is picked, anything for the final picture. Otherwise a closer view of the stage's tile
size is shown around the action (the chosen position, else the tile laid last), placed to hold as many
candidates as it can, with the whole board small in a column at its left and a frame round the closer view.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Box = tuple[int, int, int, int]  # left, top, right, bottom
Cell = tuple[int, int]  # board x, y

WIDTH = 960
MIN_FONT = 27  # Vazirmatn's cap height at 27 px is 20 px: 10 px at a phone's 480
MARGIN = 16
GAP = 12
PAD = 14  # inside a box
BOX_RADIUS = 14

BAR_H = 76  # whose turn and what to press
RESULT_BAR_H = 116  # the result banner: «پایان بازی», then the winners
BAND_H = 300  # what the turn needs, under the board
BOARD_W = WIDTH - 2 * MARGIN
BOARD_MIN_H = 320
BOARD_MAX_H = 780  # the picture is at most 1220 px high (1.27 times its width)

TILE_SIZES = (8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 88, 96, 112, 128, 144, 160, 176)
# Per stage: the least tile size at which the whole board is shown, and the closer view's tile size.
STAGES = {
    "place": (40, 48),  # picking a position: numbered candidates, the numbers legible on small tiles too
    "rotation": (48, 72),  # the band draws each rotation; the board shows where it goes
    "spot": (48, 72),  # picking a meeple spot, or confirming it: the band draws the tile large
    "finished": (16, 48),
    "turn": (48, 72),  # anything else (no decision drawn)
}
OVERVIEW_W = 200  # the whole board small, at the closer view's left

# The band while a position is picked: the drawn tile at the left, the players at the right.
DRAWN_W = 262
DRAWN_TILE = 164
PLAYER_ROW_MAX = 84
SUPPLY_MEEPLE, SUPPLY_STEP = 28, 24  # a player's seven meeples in their row: each one's height, the step between
# While a rotation is picked: each rotation that fits, side by side, its degrees under it.
ROTATION_TILE = 204
ROTATION_LABEL_H = 44
SPREAD_GAP = 2  # px kept between two spots' labels on a tile
SPREAD_PASSES = 12  # rounds of pushing overlapping labels apart
# While a meeple spot is picked or confirmed: the tile large, at the right; its spots' legend at the left.
SPOT_TILE = 260
LEGEND_ROW_H = 58
# The ranking at the end, in a band of its own height: a row of column titles, then a row per player.
TABLE_HEAD_H = 44
TABLE_ROW_H = 52
TABLE_CELL_W = 94  # a points column


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
    """The picture's size, its bar, the board's region and main frame, the overview (a closer view only) and
    the band."""

    width: int
    height: int
    bar: Box
    board_box: Box
    board: Frame
    overview: Frame | None
    overview_box: Box | None
    band: Box

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
    bar_h = RESULT_BAR_H if stage == "finished" else BAR_H
    bar = (MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + bar_h)
    board_top = bar[3] + GAP
    least, close = STAGES[stage]
    fit = quantised(min(BOARD_W / ext.cols, BOARD_MAX_H / ext.rows, TILE_SIZES[-1]))
    overview: Frame | None = None
    overview_box: Box | None = None
    if fit >= least:
        board_h = max(BOARD_MIN_H, ext.rows * fit)
        region = (MARGIN, board_top, WIDTH - MARGIN, board_top + board_h)
        board = _centred(region, ext.x0, ext.y0, ext.cols, ext.rows, fit)
    else:
        cols = (BOARD_W - OVERVIEW_W - GAP) // close
        rows = min(BOARD_MAX_H // close, ext.rows)
        board_h = max(BOARD_MIN_H, rows * close)
        overview_box = (MARGIN, board_top, MARGIN + OVERVIEW_W, board_top + board_h)
        region = (overview_box[2] + GAP, board_top, WIDTH - MARGIN, board_top + board_h)
        x0, y0 = _closer_window(ext, cols, rows, focus, candidates)
        board = _centred(region, x0, y0, cols, rows, close)
        overview = _overview(ext, overview_box)
    band_top = board_top + board_h + GAP
    band_h = 2 * PAD + TABLE_HEAD_H + players * TABLE_ROW_H if stage == "finished" else BAND_H
    band = (MARGIN, band_top, WIDTH - MARGIN, band_top + band_h)
    height = band[3] + MARGIN
    board_box = (MARGIN, board_top, WIDTH - MARGIN, board_top + board_h)
    return Plan(WIDTH, height, bar, board_box, board, overview, overview_box, band)


def _centred(region: Box, x0: int, y0: int, cols: int, rows: int, tile: int) -> Frame:
    left, top, right, bottom = region
    return Frame(
        x0, y0, cols, rows, tile, left + (right - left - cols * tile) // 2, top + (bottom - top - rows * tile) // 2
    )


def _overview(ext: Extent, box: Box) -> Frame:
    """The whole board, small, in the overview's column."""
    left, top, right, bottom = box
    inner_w, inner_h = right - left - 2 * PAD, bottom - top - 2 * PAD
    tile = max(2, min(inner_w // ext.cols, inner_h // ext.rows))
    x = left + (right - left - ext.cols * tile) // 2
    y = top + (bottom - top - ext.rows * tile) // 2
    return Frame(ext.x0, ext.y0, ext.cols, ext.rows, tile, x, y)


# The band's parts -----------------------------------------------------------------------------------------


def drawn_box(band: Box) -> Box:
    """The drawn tile's part of the band, at its left."""
    left, top, _right, bottom = band
    return left, top, left + DRAWN_W, bottom


def player_rows(band: Box, players: int) -> tuple[Box, ...]:
    """One row per player in the band's part right of the drawn tile, as high as the band allows (up to
    ``PLAYER_ROW_MAX``), centred."""
    left, top, right, bottom = band
    left += DRAWN_W + GAP
    row = min(PLAYER_ROW_MAX, (bottom - top - 2 * PAD) // players)
    first = top + (bottom - top - players * row) // 2
    return tuple((left + PAD, first + i * row, right - PAD, first + (i + 1) * row) for i in range(players))


def rotation_cells(band: Box, count: int) -> tuple[tuple[int, int], ...]:
    """Where each of ``count`` rotations' tile lies (its top left corner), side by side from the right."""
    left, top, right, bottom = band
    step = min(ROTATION_TILE + 2 * GAP, (right - left) // max(1, count))
    y = top + (bottom - top - ROTATION_TILE - ROTATION_LABEL_H) // 2
    first = (left + right) // 2 + count * step // 2 - step // 2  # the first cell's centre
    return tuple((first - k * step - ROTATION_TILE // 2, y) for k in range(count))


def spot_tile_corner(band: Box) -> tuple[int, int]:
    """The large tile's top left corner, at the band's right (its legend, or the meeple's place, at its
    left)."""
    _left, top, right, bottom = band
    return right - PAD - 24 - SPOT_TILE, top + (bottom - top - SPOT_TILE) // 2


def spot_tile(band: Box) -> Frame:
    """The large tile as a frame of one position, (0, 0), at ``spot_tile_corner``."""
    return Frame(0, 0, 1, 1, SPOT_TILE, *spot_tile_corner(band))


def table_columns(band: Box, count: int) -> tuple[int, ...]:
    """The centres of the ranking's ``count`` points columns, from the right (the total the leftmost)."""
    left = band[0] + PAD + TABLE_CELL_W // 2
    return tuple(left + (count - 1 - k) * TABLE_CELL_W for k in range(count))


def table_rows(band: Box, players: int) -> tuple[int, tuple[int, ...]]:
    """The ranking's title row's middle and each player's row's middle."""
    top = band[1] + PAD
    rows = tuple(top + TABLE_HEAD_H + TABLE_ROW_H * i + TABLE_ROW_H // 2 for i in range(players))
    return top + TABLE_HEAD_H // 2, rows
