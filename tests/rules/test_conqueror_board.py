"""کشورگشا's board: the fixed board (``rules/conqueror/board.json``) and seeded random boards obey the seed's
placement rules as the project reads them (README.md, "The board"), checked from the cells' coordinates alone.

Seed, set-up method 1: "place the tiles so that each cell of each tile touches at least 2 cells of its
neighbouring tile" and "between two plains there is at least one cell"; RULES.md: hexagonal camps in tiles of
seven (a centre and its ring), a fixed board of at least 7 tiles and a random one built by the same rules.
"""

from __future__ import annotations

import itertools
import json
from importlib import resources
from typing import Any

import pytest
from conqueror_support import GAME

from rules import rng
from rules.conqueror import ConquerorOptions
from rules.conqueror.board import (
    DEFAULT,
    LABELS,
    Board,
    TileSpec,
    board_from_code,
    build,
    random_board,
)

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _neighbours(cell: tuple[int, int]) -> set[tuple[int, int]]:
    return {(cell[0] + dq, cell[1] + dr) for dq, dr in STEPS}


def _tiles(board: Board) -> list[list[tuple[int, int]]]:
    return [list(board.coords[i : i + 7]) for i in range(0, board.size, 7)]


def _touching(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> int:
    """How many cells of tile a touch a cell of tile b."""
    other = set(b)
    return sum(1 for cell in a if _neighbours(cell) & other)


def check_board(board: Board) -> None:
    """Every rule a board must keep, from coordinates, capacities and kinds only."""
    tiles = _tiles(board)
    cells = set(board.coords)
    assert len(cells) == board.size == 7 * len(tiles), "tiles overlap"
    for tile in tiles:
        centre = tile[0]
        assert tile[1:] == [(centre[0] + dq, centre[1] + dr) for dq, dr in STEPS], "a tile is a centre and its ring"
    assert all(1 <= c <= 3 for c in board.capacity)
    plains = {cell for cell, plain in zip(board.coords, board.plain, strict=True) if plain}
    assert not any(_neighbours(p) & plains for p in plains), "two plains touch"
    assert not any(board.plain[c] for c in board.centres), "a tile centre is never a plain"
    assert all(any(board.plain[i : i + 7]) for i in range(0, board.size, 7)), "each tile has a plain"
    # The seed's contact rule: tiles that touch do so along at least 2 cells of each.
    graph: dict[int, set[int]] = {t: set() for t in range(len(tiles))}
    for t, u in itertools.combinations(range(len(tiles)), 2):
        if _touching(tiles[t], tiles[u]):
            assert _touching(tiles[t], tiles[u]) >= 2 and _touching(tiles[u], tiles[t]) >= 2, (t, u)
            graph[t].add(u)
            graph[u].add(t)
    seen, todo = {0}, [0]
    while todo:
        for u in graph[todo.pop()] - seen:
            seen.add(u)
            todo.append(u)
    assert seen == set(graph), "the board is one piece"
    # Tables: a side shared by two camps is an edge (and may take a wall); a side at the board's edge is not.
    pairs = {frozenset((a, b)) for a in cells for b in _neighbours(a) & cells}
    assert {frozenset((board.coords[a], board.coords[b])) for a, b in board.edges} == pairs
    assert len(board.edges) == len(pairs)
    for c, cell in enumerate(board.coords):
        assert {board.coords[n] for n in board.adjacent[c]} == _neighbours(cell) & cells
        two = {board.coords[x] for n in board.adjacent[c] for x in board.adjacent[n]} - {cell} - _neighbours(cell)
        assert {board.coords[x] for x in board.one_apart[c]} == two
    assert board_from_code(board.code).coords == board.coords


def test_default_board_keeps_every_rule() -> None:
    """RULES.md: a fixed board of at least 7 tiles; seed: contact and plain rules."""
    check_board(DEFAULT)
    assert DEFAULT.size == 49 and len(DEFAULT.centres) == 7


def test_default_board_is_the_data_file() -> None:
    """The board is data: board.json lists every cell with its label, coordinates, capacity and kind."""
    raw: dict[str, Any] = json.loads(resources.files("rules.conqueror").joinpath("board.json").read_text("utf-8"))
    assert raw["_source"]
    cells = [cell for tile in raw["tiles"] for cell in tile["cells"]]
    assert [c["label"] for c in cells] == list(LABELS[:49])
    assert [(c["q"], c["r"]) for c in cells] == list(DEFAULT.coords)
    assert [c["capacity"] for c in cells] == list(DEFAULT.capacity)
    assert [c["kind"] == "plain" for c in cells] == list(DEFAULT.plain)
    assert {c["kind"] for c in cells} == {"camp", "plain"}


def test_default_board_is_fair_under_a_half_turn() -> None:
    """Design: tile A in the middle, six tiles around; a half turn maps the board onto itself, capacities and
    plains included, so neither colour gets a better side. Every capacity 1..3 occurs."""
    by_cell = {
        cell: (cap, plain) for cell, cap, plain in zip(DEFAULT.coords, DEFAULT.capacity, DEFAULT.plain, strict=True)
    }
    assert all(by_cell[(-q, -r)] == value for (q, r), value in by_cell.items())
    assert DEFAULT.coords[0] == (0, 0)
    assert set(DEFAULT.capacity) == {1, 2, 3}
    assert sum(DEFAULT.plain) == 8  # two on the middle tile, one on each other


def test_literal_reading_of_the_contact_rule_is_impossible() -> None:
    """Why the contact rule is read per tile: wherever two tiles of seven touch, one touching cell of each
    touches only one cell of the other, so "every cell touches 2 cells of the neighbouring tile" can never
    hold; what always can is a seam of two cells on each side (three shared sides), not a single side."""
    tiles = _tiles(DEFAULT)
    for a, b in itertools.permutations(tiles, 2):
        counts = [len(_neighbours(cell) & set(b)) for cell in a if _neighbours(cell) & set(b)]
        if counts:
            assert sorted(counts) == [1, 2]


def test_single_side_contact_is_refused_by_the_generator_rule() -> None:
    """A board whose tiles touch at one side only breaks the seed's rule (the check catches it)."""
    bad = build([TileSpec((0, 0), (2,) * 7, (1,)), TileSpec((3, 0), (2,) * 7, (1,))])
    with pytest.raises(AssertionError):
        check_board(bad)


def test_overlapping_tiles_are_refused() -> None:
    with pytest.raises(ValueError):
        build([TileSpec((0, 0), (2,) * 7, ()), TileSpec((2, 0), (2,) * 7, ())])


@pytest.mark.parametrize("tiles", range(2, 13))
def test_random_boards_keep_every_rule(tiles: int) -> None:
    """Option random_board: boards drawn from many seeds, 2 to 12 tiles, keep every rule."""
    for seed in range(25):
        _, board = random_board(rng.mix(seed * 100 + tiles), tiles)
        assert len(board.centres) == tiles
        check_board(board)
        assert sum(board.plain) == tiles  # one plain per tile


def test_random_boards_are_seeded() -> None:
    """The same game seed gives the same board; different seeds give different boards."""
    options = ConquerorOptions(random_board=True)
    first = GAME.setup(2, 11, options)
    assert GAME.setup(2, 11, options) == first
    boards = {GAME.setup(2, seed, options).board for seed in range(20)}
    assert len(boards) == 20
    assert GAME.setup(2, 11).board == DEFAULT.code


def test_random_board_size_option() -> None:
    options = ConquerorOptions(random_board=True, random_board_tiles=10)
    state = GAME.setup(2, 3, options)
    assert len(state.castles) == 70
    assert len(GAME.board(state).centres) == 10
