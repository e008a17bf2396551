"""The 72 base tiles (``tiles.json``) and their geometry in all four rotations, computed once.

Directions are numbered N=0, E=1, S=2, W=3; a rotation ``r`` turns a tile ``r`` quarter turns clockwise, so its
reference edge ``e`` faces ``(e + r) % 4``. Half-edges (for fields) are numbered clockwise N_W=0, N_E=1, E_N=2,
E_S=3, S_E=4, S_W=5, W_S=6, W_N=7; a rotation turns half-edge ``h`` into ``(h + 2r) % 8``. The board's ``x``
grows eastwards and ``y`` southwards: the northern neighbour of ``(x, y)`` is ``(x, y - 1)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Literal

Kind = Literal["city", "road", "field", "monastery"]

DIRS = "NESW"
HALVES = ("N_W", "N_E", "E_N", "E_S", "S_E", "S_W", "W_S", "W_N")
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) towards N, E, S, W
MATE = (5, 4, 7, 6, 1, 0, 3, 2)  # the half-edge of the neighbour that a half-edge touches
EDGE_CODE = {"city": "c", "road": "r", "field": "f"}
STRIDE = 8  # segment nodes per tile in the board's union-find: node = tile index * STRIDE + segment index
MEEPLES = 7
START = "D"


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature part of a tile: ``spot`` is its id in the data ("c0", "r1", "f2", "m" for the monastery)."""

    spot: str
    kind: Kind
    edges: tuple[int, ...]  # city/road: directions in the reference orientation
    halves: tuple[int, ...]  # field: half-edges in the reference orientation
    cities: tuple[int, ...]  # field: indices (in ``TileType.segments``) of the city segments it touches


@dataclass(frozen=True, slots=True)
class TileType:
    index: int
    letter: str
    count: int
    shield: bool
    monastery: bool
    description: str
    segments: tuple[Segment, ...]  # cities, then roads, then fields, then the monastery
    spot_index: dict[str, int]


@dataclass(frozen=True, slots=True)
class Oriented:
    """A tile type in one rotation: its edge codes and which segment owns each edge and half-edge."""

    edges: str  # four letters c/r/f for N, E, S, W
    edge_segment: tuple[int, ...]  # per direction: the city/road segment there, or -1 for a field edge
    half_segment: tuple[int, ...]  # per half-edge: the field segment there, or -1 (city edge / road middle)


def _load() -> tuple[str, tuple[TileType, ...]]:
    raw = json.loads(resources.files(__package__).joinpath("tiles.json").read_text(encoding="utf-8"))
    types = []
    for index, t in enumerate(raw["tiles"]):
        segments: list[Segment] = []
        city_index: dict[str, int] = {}
        for c in t["cities"]:
            city_index[c["id"]] = len(segments)
            segments.append(Segment(c["id"], "city", tuple(DIRS.index(e) for e in c["edges"]), (), ()))
        for r in t["roads"]:
            segments.append(Segment(r["id"], "road", tuple(DIRS.index(e) for e in r["edges"]), (), ()))
        for f in t["fields"]:
            halves = tuple(sorted(HALVES.index(h) for h in f["half_edges"]))
            cities = tuple(city_index[c] for c in f["adjacent_cities"])
            segments.append(Segment(f["id"], "field", (), halves, cities))
        if t["monastery"]:
            segments.append(Segment("m", "monastery", (), (), ()))
        assert len(segments) <= STRIDE
        types.append(
            TileType(
                index=index,
                letter=t["id"],
                count=t["count"],
                shield=t["shield"],
                monastery=t["monastery"],
                description=t["description"],
                segments=tuple(segments),
                spot_index={s.spot: i for i, s in enumerate(segments)},
            )
        )
    return raw["_source"], tuple(types)


def _orient(tile: TileType, rot: int, edge_kinds: dict[int, str]) -> Oriented:
    edges = ["f"] * 4
    edge_segment = [-1] * 4
    half_segment = [-1] * 8
    for i, seg in enumerate(tile.segments):
        for e in seg.edges:
            d = (e + rot) % 4
            edges[d] = "c" if seg.kind == "city" else "r"
            edge_segment[d] = i
        for h in seg.halves:
            half_segment[(h + 2 * rot) % 8] = i
    for e, code in edge_kinds.items():  # the data's own edge list must agree with the segments
        assert edges[(e + rot) % 4] == code, (tile.letter, rot)
    return Oriented("".join(edges), tuple(edge_segment), tuple(half_segment))


SOURCE, TILES = _load()
LETTERS = "".join(t.letter for t in TILES)
BY_LETTER = {t.letter: t for t in TILES}
START_TYPE = BY_LETTER[START].index


def _raw_edges() -> dict[str, dict[int, str]]:
    raw = json.loads(resources.files(__package__).joinpath("tiles.json").read_text(encoding="utf-8"))
    return {t["id"]: {DIRS.index(d): EDGE_CODE[k] for d, k in t["edges"].items()} for t in raw["tiles"]}


_EDGES = _raw_edges()
ORIENTED: tuple[tuple[Oriented, ...], ...] = tuple(
    tuple(_orient(t, rot, _EDGES[t.letter]) for rot in range(4)) for t in TILES
)


def _contacts(oriented: Oriented) -> tuple[tuple[int, tuple[tuple[int, bool, int], ...]], ...]:
    """Per direction with a segment: (direction, ((segment, is an edge, the neighbour's edge or half-edge
    index it meets), ...)), for finding the features a tile would join without laying it."""
    out = []
    for d in range(4):
        touching: list[tuple[int, bool, int]] = []
        if oriented.edge_segment[d] >= 0:
            touching.append((oriented.edge_segment[d], True, (d + 2) % 4))
        for h in (2 * d, 2 * d + 1):
            if oriented.half_segment[h] >= 0:
                touching.append((oriented.half_segment[h], False, MATE[h]))
        if touching:
            out.append((d, tuple(touching)))
    return tuple(out)


CONTACTS = tuple(tuple(_contacts(o) for o in rotations) for rotations in ORIENTED)


def full_set() -> list[int]:
    """Every tile of the box as a type index, the starting tile included (72)."""
    return [t.index for t in TILES for _ in range(t.count)]


def _shape(tile: TileType, rot: int) -> frozenset[tuple[str, frozenset[int], frozenset[int]]]:
    """The tile laid with rotation ``rot`` as what the board sees: each segment's kind and the edges and
    half-edges it covers, whatever its id."""
    return frozenset(
        (seg.kind, frozenset((e + rot) % 4 for e in seg.edges), frozenset((h + 2 * rot) % 8 for h in seg.halves))
        for seg in tile.segments
    )


def _fits() -> tuple[dict[str, tuple[int, ...]], ...]:
    """Per tile type: for every requirement of an open position (N, E, S, W each c/r/f or "." when free),
    the rotations whose edges match it. A rotation that lays the very same tile as a smaller one (a
    symmetric tile: B, C, U, X, ...) is left out, so a player never chooses between identical layings."""
    needs = [a + b + c + d for a in ".crf" for b in ".crf" for c in ".crf" for d in ".crf"]
    return tuple(
        {
            need: tuple(
                rot
                for rot in range(4)
                if _shape(t, rot) not in [_shape(t, r) for r in range(rot)]
                and all(n in (".", e) for n, e in zip(need, ORIENTED[t.index][rot].edges, strict=True))
            )
            for need in needs
        }
        for t in TILES
    )


FITS = _fits()
