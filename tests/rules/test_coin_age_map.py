"""Coin Age's map data (``rules/coin_age/map.json``): counts, borders and agreement with the reference file.

RULES.md, Coin Age: "Map: data/coinage_map_original.json (10 spaces in 4 coloured regions of 4/3/2/1,
19 borders)"; § set-up: "the map has ten spaces in four colours".
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from rules.coin_age.board import BOARD

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "coinage_map_original.json"


def _raw() -> dict[str, Any]:
    text = resources.files("rules.coin_age").joinpath("map.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _edges(pairs: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(pair) for pair in pairs}


def test_ten_spaces_with_unique_ids_and_names() -> None:
    """§ set-up: ten spaces, each with its own id and Persian name."""
    assert BOARD.size == 10
    assert len({s.id for s in BOARD.spaces}) == 10
    assert len({s.name for s in BOARD.spaces}) == 10
    assert all(s.name and not s.name.isascii() for s in BOARD.spaces)
    assert [s.index for s in BOARD.spaces] == list(range(10))
    assert all(BOARD.index_of[s.id] == s.index for s in BOARD.spaces)


def test_four_regions_of_four_three_two_and_one_spaces() -> None:
    """§ set-up: four colours; RULES.md: regions of 4, 3, 2 and 1 spaces."""
    assert len(BOARD.regions) == 4
    sizes = Counter(s.region for s in BOARD.spaces)
    assert set(sizes) == {r.id for r in BOARD.regions}
    assert sorted(sizes.values()) == [1, 2, 3, 4]


def test_nineteen_borders_without_loops_or_duplicates() -> None:
    """RULES.md: 19 borders between distinct spaces, each listed once."""
    pairs = _raw()["edges"]
    assert len(pairs) == 19
    assert len(_edges(pairs)) == 19
    assert all(a != b and a in BOARD.index_of and b in BOARD.index_of for a, b in pairs)
    assert sum(len(n) for n in BOARD.neighbours) == 2 * 19


def test_adjacency_is_symmetric() -> None:
    """§ move: "a common border" is mutual — if A borders B, B borders A."""
    for i, neighbours in enumerate(BOARD.neighbours):
        assert i not in neighbours
        for j in neighbours:
            assert i in BOARD.neighbours[j]


def test_the_map_is_connected() -> None:
    """§ move: every space can be reached from every other by moving across borders."""
    seen, todo = {0}, [0]
    while todo:
        for j in BOARD.neighbours[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    assert seen == set(range(BOARD.size))


@pytest.mark.skipif(not REFERENCE.exists(), reason="../shared/data beside the checkout is not available")
def test_map_matches_the_reference_data() -> None:
    """RULES.md: the map is data/coinage_map_original.json — same spaces, regions and borders."""
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert {s.id for s in BOARD.spaces} == set(reference["spaces"])
    ours = {r.id: {s.id for s in BOARD.spaces if s.region == r.id} for r in BOARD.regions}
    assert ours == {rid: set(r["spaces"]) for rid, r in reference["regions"].items()}
    assert _edges(_raw()["edges"]) == _edges(reference["edges"])
    for space_id, neighbours in reference["adjacency"].items():
        index = BOARD.index_of[space_id]
        assert {BOARD.spaces[j].id for j in BOARD.neighbours[index]} == set(neighbours)
    english = {s["id"]: s["english"] for s in _raw()["spaces"]}
    assert english == reference["spaces"]
