"""Condottiere's components, loaded once from the package's data files into flat, index-based tables.

A card is an int id, 0..109, numbered kind by kind in the order of ``cards.json``; its kind, its printed value
and its stable text code ("5#03": the third Mercenary 5) are looked up in tuples, so the hot path never parses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

# Kind indices, in the order of cards.json (the tests check the file against them); kinds below BISHOP are
# the mercenaries, by rising value.
M1, M2, M3, M4, M5, M6, M10 = range(7)
BISHOP, SCARECROW, SURRENDER, DRUMMER, COURTESAN, HEROINE, WINTER, SPRING = range(7, 15)


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Kind:
    index: int
    code: str  # ASCII, used in actions ("p.5", "p.bi") and in card codes
    name: str  # Persian
    english: str
    type: str  # mercenary | special | season
    count: int  # copies in the 110-card deck
    strength: int  # printed value (mercenaries), +1 Courtesan, +10 Heroine, else 0
    duel_count: int  # copies in each player's 23-card deck of the two-player variant


KINDS: tuple[Kind, ...] = tuple(Kind(index=i, **k) for i, k in enumerate(_read("cards.json")["kinds"]))
KIND_OF_CODE: dict[str, int] = {k.code: k.index for k in KINDS}
VALUE: tuple[int, ...] = tuple(k.strength for k in KINDS)

# Card id -> kind, copy number (1-based) and code.
KIND_OF: tuple[int, ...] = tuple(k.index for k in KINDS for _ in range(k.count))
_FIRST: tuple[int, ...] = tuple(KIND_OF.index(k.index) for k in KINDS)  # id of each kind's first copy
CODE: tuple[str, ...] = tuple(f"{KINDS[kind].code}#{card - _FIRST[kind] + 1:02d}" for card, kind in enumerate(KIND_OF))
DECK: tuple[int, ...] = tuple(range(len(KIND_OF)))


def copies(kind: int) -> range:
    """The ids of every copy of a kind."""
    return range(_FIRST[kind], _FIRST[kind] + KINDS[kind].count)


def duel_decks() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two identical 23-card decks of the two-player variant: seat 0 takes the first copies of each kind,
    seat 1 the next ones, so every card keeps its code."""
    decks: tuple[list[int], list[int]] = ([], [])
    for k in KINDS:
        ids = copies(k.index)
        decks[0].extend(ids[: k.duel_count])
        decks[1].extend(ids[k.duel_count : 2 * k.duel_count])
    return tuple(decks[0]), tuple(decks[1])


@dataclass(frozen=True, slots=True)
class Province:
    index: int
    id: str  # ASCII
    name: str  # Persian
    english: str


@dataclass(frozen=True, slots=True)
class Board:
    key: str
    provinces: tuple[Province, ...]
    neighbours: tuple[tuple[int, ...], ...]  # by province index, sorted
    corner_contacts: tuple[tuple[int, int], ...]  # touching at a point only: not borders

    @property
    def size(self) -> int:
        return len(self.provinces)


def load_board(key: str, name: str) -> Board:
    """Read a map file; the order of its provinces is the order of the state's ``owners``."""
    raw = _read(name)
    provinces = tuple(Province(i, p["id"], p["name"], p["english"]) for i, p in enumerate(raw["provinces"]))
    index_of = {p.id: p.index for p in provinces}
    adjacent: list[set[int]] = [set() for _ in provinces]
    for a, b in raw["edges"]:
        adjacent[index_of[a]].add(index_of[b])
        adjacent[index_of[b]].add(index_of[a])
    corners = tuple((index_of[a], index_of[b]) for a, b in raw.get("corner_contacts", ()))
    return Board(key, provinces, tuple(tuple(sorted(n)) for n in adjacent), corners)


REKAB = load_board("rekab_14", "map_rekab_14.json")
ITALY = load_board("italy_17", "map_italy_17.json")
BOARDS = {board.key: board for board in (REKAB, ITALY)}  # by the key a view names
MAX_PROVINCES = max(REKAB.size, ITALY.size)
