"""The Coin Age map, loaded once from the package's data file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class Region:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Space:
    index: int
    id: str
    name: str
    region: str


@dataclass(frozen=True, slots=True)
class Board:
    regions: tuple[Region, ...]
    spaces: tuple[Space, ...]
    neighbours: tuple[tuple[int, ...], ...]  # by space index, sorted
    index_of: dict[str, int]

    @property
    def size(self) -> int:
        return len(self.spaces)


def load_board() -> Board:
    """Read map.json; the order of its spaces is the order of the state's stacks."""
    raw = json.loads(resources.files(__package__).joinpath("map.json").read_text(encoding="utf-8"))
    regions = tuple(Region(r["id"], r["name"]) for r in raw["regions"])
    spaces = tuple(Space(i, s["id"], s["name"], s["region"]) for i, s in enumerate(raw["spaces"]))
    index_of = {s.id: s.index for s in spaces}
    adjacent: list[set[int]] = [set() for _ in spaces]
    for a, b in raw["edges"]:
        adjacent[index_of[a]].add(index_of[b])
        adjacent[index_of[b]].add(index_of[a])
    return Board(regions, spaces, tuple(tuple(sorted(n)) for n in adjacent), index_of)


BOARD = load_board()
