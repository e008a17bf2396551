"""The board of کشورگشا: hexagonal camps in tiles of seven, the fixed board from board.json, and a seeded
generator of random boards built by the same rules (see README.md, "The board").

A board travels inside the game state as its *code*, one ``q,r,capacities,plains`` group per tile joined by
``;`` (e.g. ``0,0,3122122,25``): the tile's centre, the capacities of its cells 0..6 and the numbers of its
plain cells. ``board_from_code`` turns a code into a ``Board`` with every table the engine needs, cached.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules import rng

# Axial directions of a pointy-top hexagon, counter-clockwise on screen from east (y grows downwards).
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TILE_LETTERS = "ABCDEFGHJKLM"  # no I, which reads like 1
CELLS_PER_TILE = 7  # cell 0 is the centre, cell k (1..6) lies in direction k - 1 from it
LABELS = tuple(f"{letter}{k}" for letter in TILE_LETTERS for k in range(CELLS_PER_TILE))
INDEX_OF = {label: i for i, label in enumerate(LABELS)}

Hex = tuple[int, int]


def tile_cells(centre: Hex) -> tuple[Hex, ...]:
    """A tile's seven cells in label order: the centre, then its ring by direction."""
    q, r = centre
    return ((q, r), *((q + dq, r + dr) for dq, dr in DIRECTIONS))


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _contact(offset: Hex) -> int:
    """How many cells of a tile at the origin touch a tile centred at ``offset`` (0 if apart or overlapping)."""
    home, other = set(tile_cells((0, 0))), set(tile_cells(offset))
    if home & other:
        return 0
    return sum(1 for q, r in home if any((q + dq, r + dr) in other for dq, dr in DIRECTIONS))


_NEAR = [(q, r) for q in range(-4, 5) for r in range(-4, 5)]
# Two tiles of seven touch either along a seam of three sides (two cells of each touching the other) or at a
# single side; the seed's rule allows only the seam.
SEAM_OFFSETS = tuple(o for o in _NEAR if _contact(o) >= 2)
SIDE_OFFSETS = tuple(o for o in _NEAR if _contact(o) == 1)


@dataclass(frozen=True, slots=True)
class TileSpec:
    centre: Hex
    capacities: tuple[int, ...]  # cells 0..6
    plains: tuple[int, ...]  # cell numbers (1..6) that are plains


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """Camps are numbered tile by tile, seven per tile, so a camp's label follows from its index alone."""

    code: str
    coords: tuple[Hex, ...]
    capacity: tuple[int, ...]
    plain: tuple[bool, ...]
    centres: tuple[int, ...]  # camp index of each tile's centre
    sides: tuple[tuple[int, ...], ...]  # per camp, by direction: the camp across that side, or -1 (board edge)
    edges: tuple[tuple[int, int], ...]  # the sides shared by two camps (a < b): the order of the state's walls
    links: tuple[tuple[tuple[int, int], ...], ...]  # per camp: (neighbour, shared side's edge index)
    adjacent: tuple[tuple[int, ...], ...]  # per camp: its neighbours
    one_apart: tuple[tuple[int, ...], ...]  # per camp: camps with exactly one camp between (distance 2)

    @property
    def size(self) -> int:
        return len(self.coords)


def encode_tiles(tiles: Sequence[TileSpec]) -> str:
    return ";".join(
        f"{t.centre[0]},{t.centre[1]},{''.join(map(str, t.capacities))},{''.join(map(str, t.plains))}" for t in tiles
    )


def build(tiles: Sequence[TileSpec]) -> Board:
    """Lay out the tiles and precompute the neighbour tables; overlapping tiles are refused."""
    if not 1 <= len(tiles) <= len(TILE_LETTERS):
        raise ValueError("a board has 1 to 12 tiles")
    coords: list[Hex] = []
    capacity: list[int] = []
    plain: list[bool] = []
    for tile in tiles:
        if len(tile.capacities) != CELLS_PER_TILE or not all(1 <= c <= 3 for c in tile.capacities):
            raise ValueError("a tile prints a capacity of 1 to 3 on each of its seven cells")
        if not all(1 <= k < CELLS_PER_TILE for k in tile.plains):
            raise ValueError("only ring cells can be plains")
        coords.extend(tile_cells(tile.centre))
        capacity.extend(tile.capacities)
        plain.extend(k in tile.plains for k in range(CELLS_PER_TILE))
    index = {c: i for i, c in enumerate(coords)}
    if len(index) != len(coords):
        raise ValueError("tiles overlap")
    sides = tuple(tuple(index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in coords)
    edges = tuple((a, b) for a, row in enumerate(sides) for b in row if b > a)
    edge_of = {pair: e for e, pair in enumerate(edges)}
    links = tuple(tuple((b, edge_of[min(a, b), max(a, b)]) for b in row if b >= 0) for a, row in enumerate(sides))
    adjacent = tuple(tuple(b for b, _ in row) for row in links)
    one_apart = tuple(
        tuple(sorted({c for b in adjacent[a] for c in adjacent[b]} - {a, *adjacent[a]})) for a in range(len(coords))
    )
    return Board(
        code=encode_tiles(tiles),
        coords=tuple(coords),
        capacity=tuple(capacity),
        plain=tuple(plain),
        centres=tuple(range(0, len(coords), CELLS_PER_TILE)),
        sides=sides,
        edges=edges,
        links=links,
        adjacent=adjacent,
        one_apart=one_apart,
    )


@functools.lru_cache(maxsize=64)
def board_from_code(code: str) -> Board:
    """The board a state carries (cached: every state of a game shares one code string)."""
    tiles = []
    for group in code.split(";"):
        q, r, capacities, plains = group.split(",")
        tiles.append(TileSpec((int(q), int(r)), tuple(map(int, capacities)), tuple(map(int, plains))))
    return build(tiles)


def load_default() -> Board:
    """Read board.json, whose cells are written out in full (label, coordinates, capacity, kind) for readers
    and renderers; check that they form tiles of seven in label order."""
    raw: dict[str, Any] = json.loads(resources.files(__package__).joinpath("board.json").read_text("utf-8"))
    tiles = []
    for t, tile in enumerate(raw["tiles"]):
        cells = tile["cells"]
        centre = (cells[0]["q"], cells[0]["r"])
        expected = tile_cells(centre)
        for k, cell in enumerate(cells):
            if (cell["q"], cell["r"]) != expected[k] or cell["label"] != f"{TILE_LETTERS[t]}{k}":
                raise ValueError(f"board.json: cell {cell['label']} is out of place")
        tiles.append(
            TileSpec(
                centre,
                tuple(cell["capacity"] for cell in cells),
                tuple(k for k, cell in enumerate(cells) if cell["kind"] == "plain"),
            )
        )
    return board_from_code(encode_tiles(tiles))


def random_board(state: int, tiles: int) -> tuple[int, Board]:
    """A board of ``tiles`` tiles drawn with the generator ``state``; returns (new state, board).

    Tiles are added one at a time, each along a seam of an earlier tile, never touching any tile at a single
    side; capacities are uniform in 1..3; each tile gets one plain on its ring, not next to another plain
    (if some tile has no room left, the capacities and plains are drawn again).
    """
    centres: list[Hex] = [(0, 0)]
    while len(centres) < tiles:
        spots = sorted({(q + dq, r + dr) for q, r in centres for dq, dr in SEAM_OFFSETS} - set(centres))
        weighted = [
            spot
            for spot in spots
            if all(_may_touch(spot, c) for c in centres)
            for _ in range(sum(1 for c in centres if hex_distance(spot, c) == 3) ** 2)
        ]
        state, k = rng.randbelow(state, len(weighted))
        centres.append(weighted[k])
    while True:
        specs: list[TileSpec] = []
        taken: set[Hex] = set()  # plains and their neighbours
        for centre in centres:
            capacities = []
            for _ in range(CELLS_PER_TILE):
                state, c = rng.randbelow(state, 3)
                capacities.append(c + 1)
            ring = tile_cells(centre)
            free = [k for k in range(1, CELLS_PER_TILE) if ring[k] not in taken]
            if not free:
                break
            state, j = rng.randbelow(state, len(free))
            q, r = ring[free[j]]
            taken.update({(q, r), *((q + dq, r + dr) for dq, dr in DIRECTIONS)})
            specs.append(TileSpec(centre, tuple(capacities), (free[j],)))
        if len(specs) == tiles:
            return state, board_from_code(encode_tiles(specs))


def _may_touch(a: Hex, b: Hex) -> bool:
    """Tiles centred at a and b neither overlap nor touch at a single side."""
    offset = (a[0] - b[0], a[1] - b[1])
    return hex_distance(a, b) >= 3 and offset not in SIDE_OFFSETS


DEFAULT = load_default()
