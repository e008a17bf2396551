"""Condottiere's component data (``rules/condottiere/*.json``): the 110 cards, the two-player decks, both maps.

Seed 000 ("§ components", "§ two players"); RULES.md, رکب: "Cards: 110, as in data/condottiere_cards.csv";
"map: default the 14-province map ... corner-only contacts are not borders (edges_strict_shared_border).
Option: the 17-region classic map."
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from rules.condottiere.data import (
    BISHOP,
    CODE,
    COURTESAN,
    DECK,
    DRUMMER,
    HEROINE,
    ITALY,
    KIND_OF,
    KINDS,
    M1,
    M10,
    REKAB,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
    Board,
    duel_decks,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _raw(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("rules.condottiere").joinpath(name).read_text(encoding="utf-8"))
    return data


def _edges(pairs: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(pair) for pair in pairs}


# -- Cards ------------------------------------------------------------------------------------------


def test_110_cards_by_kind() -> None:
    """§ components: 110 cards. § mercenaries: ten 1s and eight each of 2, 3, 4, 5, 6, 10; § specials:
    6 Bishops, 16 Scarecrows, 3 Surrenders, 6 Drummers, 12 Courtesans, 3 Heroines, 3 Winters, 3 Springs."""
    assert len(DECK) == 110
    counts = {k.code: k.count for k in KINDS}
    assert counts == {
        "1": 10, "2": 8, "3": 8, "4": 8, "5": 8, "6": 8, "10": 8,
        "bi": 6, "sc": 16, "su": 3, "dr": 6, "co": 12, "he": 3, "wi": 3, "sp": 3,
    }  # fmt: skip
    assert Counter(KINDS[k].code for k in KIND_OF) == counts
    assert sum(k.count for k in KINDS if k.type == "mercenary") == 58


def test_kind_indices_match_the_file() -> None:
    """The engine's kind constants name the rows of cards.json; mercenaries come first, by rising value."""
    assert [KINDS[k].english for k in (M1, M10, BISHOP, SCARECROW, SURRENDER, DRUMMER, COURTESAN, HEROINE)] == [
        "Mercenary 1", "Mercenary 10", "Bishop", "Scarecrow", "Surrender", "Drummer", "Courtesan", "Heroine",
    ]  # fmt: skip
    assert (KINDS[WINTER].code, KINDS[SPRING].code) == ("wi", "sp")
    values = [k.strength for k in KINDS if k.type == "mercenary"]
    assert values == [1, 2, 3, 4, 5, 6, 10] == sorted(values)
    assert (KINDS[COURTESAN].strength, KINDS[HEROINE].strength) == (1, 10)


def test_persian_names_of_the_seed() -> None:
    """RULES.md: ریش سفید Bishop, مترسک Scarecrow, پرچمدار Surrender, طبل زن Drummer, شیرزن Courtesan,
    شیردخت Heroine, زمستان Winter, بهار Spring."""
    names = {k.english: k.name for k in KINDS}
    assert names["Bishop"] == "ریش سفید"
    assert names["Scarecrow"] == "مترسک"
    assert names["Surrender"] == "پرچمدار"
    assert names["Drummer"] == "طبل زن"
    assert names["Courtesan"] == "شیرزن"
    assert names["Heroine"] == "شیردخت"
    assert names["Winter"] == "زمستان"
    assert names["Spring"] == "بهار"


def test_card_codes_are_unique_and_stable() -> None:
    """Each physical card has its own code, kind code + copy number, so views and secrets can name it."""
    assert len(set(CODE)) == 110
    assert CODE[0] == "1#01" and CODE[9] == "1#10" and CODE[10] == "2#01"
    assert all(CODE[c].split("#")[0] == KINDS[KIND_OF[c]].code for c in DECK)
    assert all(c.isascii() for c in CODE)
    # no code is part of another, so a leak of one is never mistaken for another
    assert not any(a != b and f'"{a}"' in f'"{b}"' for a in CODE for b in CODE)


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data beside the checkout is not available")
def test_cards_match_the_reference_csv() -> None:
    """RULES.md: the deck is data/condottiere_cards.csv (counts and strengths)."""
    with (SHARED / "condottiere_cards.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["english_name_FFG"], int(r["count"])) for r in rows] == [(k.english, k.count) for k in KINDS]
    assert sum(int(r["count"]) for r in rows) == 110
    assert "_source" in _raw("cards.json")


def test_two_player_decks_are_identical_23_card_decks() -> None:
    """§ two players: each player has 23 identical cards: two of each mercenary (14), 3 Scarecrows and one
    each of Bishop, Drummer, Heroine, Surrender, Winter, Spring; no Courtesan."""
    decks = duel_decks()
    assert [len(d) for d in decks] == [23, 23]
    assert not set(decks[0]) & set(decks[1])
    kinds = [Counter(KINDS[KIND_OF[c]].code for c in deck) for deck in decks]
    assert kinds[0] == kinds[1]
    assert kinds[0] == {
        "1": 2, "2": 2, "3": 2, "4": 2, "5": 2, "6": 2, "10": 2,
        "sc": 3, "bi": 1, "dr": 1, "he": 1, "su": 1, "wi": 1, "sp": 1,
    }  # fmt: skip


# -- Maps -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("board", "size", "borders"), [(REKAB, 14, 26), (ITALY, 17, 34)], ids=["rekab", "italy"])
def test_map_sizes_and_borders(board: Board, size: int, borders: int) -> None:
    """RULES.md: the 14-province map (26 strict borders) by default, the 17-region map (34) as an option."""
    assert board.size == size
    assert sum(len(n) for n in board.neighbours) == 2 * borders
    assert [p.index for p in board.provinces] == list(range(size))


@pytest.mark.parametrize("board", [REKAB, ITALY], ids=["rekab", "italy"])
def test_adjacency_is_symmetric_and_connected(board: Board) -> None:
    """A border is shared: if A borders B, B borders A; every province can be reached from every other."""
    for i, neighbours in enumerate(board.neighbours):
        assert i not in neighbours
        assert all(i in board.neighbours[j] for j in neighbours)
    seen, todo = {0}, [0]
    while todo:
        for j in board.neighbours[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    assert seen == set(range(board.size))


@pytest.mark.parametrize("board", [REKAB, ITALY], ids=["rekab", "italy"])
def test_provinces_have_persian_names(board: Board) -> None:
    """RULES.md: provinces are named in Persian script; ids are short ASCII."""
    assert len({p.name for p in board.provinces}) == board.size
    assert all(p.name and not p.name.isascii() for p in board.provinces)
    assert len({p.id for p in board.provinces}) == board.size
    assert all(p.id.isascii() and p.id.isalpha() for p in board.provinces)


def test_corner_contacts_are_not_borders() -> None:
    """RULES.md: on the default map the three corner-only contacts (bella–borge, caline–pladaci,
    armento–talmone) are not borders."""
    pairs = {frozenset((REKAB.provinces[a].id, REKAB.provinces[b].id)) for a, b in REKAB.corner_contacts}
    assert pairs == {frozenset(("bella", "borge")), frozenset(("caline", "pladaci")), frozenset(("armento", "talmone"))}
    for a, b in REKAB.corner_contacts:
        assert b not in REKAB.neighbours[a] and a not in REKAB.neighbours[b]


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data beside the checkout is not available")
def test_maps_match_the_reference_data() -> None:
    """RULES.md: the maps are data/condottiere_map_rekab_14.json (its strict shared-border edges) and
    data/condottiere_map_ffg_italy_17.json."""
    rekab = json.loads((SHARED / "condottiere_map_rekab_14.json").read_text(encoding="utf-8"))
    ours = _raw("map_rekab_14.json")
    assert [p["english"] for p in ours["provinces"]] == rekab["provinces"]
    lower = [[a.lower(), b.lower()] for a, b in rekab["edges_strict_shared_border"]]
    assert _edges(ours["edges"]) == _edges(lower)
    loose = [[a.lower(), b.lower()] for a, b in rekab["edges_including_point_contacts"]]
    assert _edges(loose) - _edges(ours["edges"]) == _edges(ours["corner_contacts"])
    italy = json.loads((SHARED / "condottiere_map_ffg_italy_17.json").read_text(encoding="utf-8"))
    ours = _raw("map_italy_17.json")
    assert [p["english"] for p in ours["provinces"]] == italy["regions"]
    assert _edges(ours["edges"]) == _edges([[a.lower(), b.lower()] for a, b in italy["edges"]])
    assert "_source" in ours and "_source" in _raw("map_rekab_14.json")
