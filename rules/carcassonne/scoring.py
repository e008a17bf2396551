"""Scoring: completed features during play, and everything left on the board at the end."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rules.carcassonne.board import Board
from rules.carcassonne.data import STRIDE, TILES, Kind
from rules.carcassonne.model import CATEGORIES, FeatureScored

Meeple = tuple[int, int, int]  # (seat, tile index, segment index)


@dataclass(frozen=True, slots=True)
class Score:
    """One scored feature: the majority holders each get ``points`` in ``category``."""

    category: str
    points: int
    seats: tuple[int, ...]
    meeples: tuple[Meeple, ...]  # those standing on the feature
    event: FeatureScored


def majority(meeples: tuple[Meeple, ...] | list[Meeple]) -> tuple[int, ...]:
    """The seats with the most meeples (all of them on a tie)."""
    counts = Counter(m[0] for m in meeples)
    if not counts:
        return ()
    best = max(counts.values())
    return tuple(sorted(seat for seat, n in counts.items() if n == best))


def kind_of(board: Board, meeple: Meeple) -> Kind:
    ttype = board.placed[meeple[1]][0]
    return TILES[ttype].segments[meeple[2]].kind


def _positions(board: Board, tiles: frozenset[int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((board.placed[i][1], board.placed[i][2]) for i in tiles))


def _returned(meeples: tuple[Meeple, ...] | list[Meeple], players: int) -> tuple[int, ...]:
    out = [0] * players
    for m in meeples:
        out[m[0]] += 1
    return tuple(out)


def group(board: Board, meeples: tuple[Meeple, ...]) -> dict[int, list[Meeple]]:
    """Meeples on the board by the root of their feature (monasteries: their own node)."""
    out: dict[int, list[Meeple]] = {}
    for m in meeples:
        node = m[1] * STRIDE + m[2]
        root = node if kind_of(board, m) == "monastery" else board.find(node)
        out.setdefault(root, []).append(m)
    return out


def completed(board: Board, tile_index: int, meeples: tuple[Meeple, ...], players: int) -> list[Score]:
    """Features closed by laying ``tile_index`` that hold meeples: its cities and roads that are now complete,
    and the monasteries in its 3x3 neighbourhood that are now surrounded."""
    out: list[Score] = []
    by_root = group(board, meeples)
    ttype, x, y, _ = board.placed[tile_index]
    seen: set[int] = set()
    for i, seg in enumerate(TILES[ttype].segments):
        if seg.kind not in ("city", "road"):
            continue
        root = board.find(tile_index * STRIDE + i)
        if root in seen or not board.complete(root) or root not in by_root:
            continue
        seen.add(root)
        on = by_root[root]
        tiles = board.tiles[root]
        points = len(tiles) if seg.kind == "road" else 2 * len(tiles) + 2 * board.shields.get(root, 0)
        out.append(_score(board, seg.kind, False, True, tiles, points, on, players))
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            other = board.grid.get((x + dx, y + dy))
            if other is None:
                continue
            otype = board.placed[other][0]
            if not TILES[otype].monastery:
                continue
            node = other * STRIDE + TILES[otype].spot_index["m"]
            if node not in by_root or board.neighbours8(x + dx, y + dy) < 8:
                continue
            out.append(_score(board, "monastery", False, True, frozenset((other,)), 9, by_root[node], players))
    return out


def _score(
    board: Board,
    kind: Kind,
    final: bool,
    complete: bool,
    tiles: frozenset[int],
    points: int,
    on: list[Meeple],
    players: int,
) -> Score:
    seats = majority(on)
    event = FeatureScored(
        feature=kind,
        final=final,
        complete=complete,
        tiles=_positions(board, tiles),
        points=points,
        seats=seats,
        returned=_returned(on, players),
    )
    return Score(kind, points, seats, tuple(on), event)


def final(board: Board, meeples: tuple[Meeple, ...], players: int, farmers: bool) -> list[Score]:
    """End of game: every feature still holding meeples scores (incomplete roads 1/tile, cities 1/tile +
    1/shield, monasteries 1 + 1 per neighbour); fields with farmers score 3 per completed city they touch.
    Features are taken in the order of their first meeple, so the events are deterministic."""
    out: list[Score] = []
    for root, on in group(board, meeples).items():
        kind = kind_of(board, on[0])
        if kind == "road":
            tiles = board.tiles[root]
            out.append(_score(board, kind, True, board.complete(root), tiles, len(tiles), on, players))
        elif kind == "city":
            tiles = board.tiles[root]
            points = len(tiles) + board.shields.get(root, 0)
            out.append(_score(board, kind, True, board.complete(root), tiles, points, on, players))
        elif kind == "monastery":
            _, x, y, _ = board.placed[on[0][1]]
            n = board.neighbours8(x, y)
            tiles = frozenset((on[0][1],))
            out.append(_score(board, kind, True, n == 8, tiles, 1 + n, on, players))
        elif farmers:
            cities = field_cities(board, root)
            points = 3 * sum(1 for c in cities if board.complete(c))
            out.append(_score(board, kind, True, False, board.tiles[root], points, on, players))
    return out


def field_cities(board: Board, field_root: int) -> set[int]:
    """The roots of the cities a field touches, anywhere along it."""
    out: set[int] = set()
    for t in board.tiles[field_root]:
        ttype = board.placed[t][0]
        for i, seg in enumerate(TILES[ttype].segments):
            if seg.kind == "field" and seg.cities and board.find(t * STRIDE + i) == field_root:
                out.update(board.find(t * STRIDE + c) for c in seg.cities)
    return out


def apply_scores(
    points: tuple[tuple[int, int, int, int], ...], scores: list[Score]
) -> tuple[tuple[int, int, int, int], ...]:
    out = [list(p) for p in points]
    for s in scores:
        for seat in s.seats:
            out[seat][CATEGORIES.index(s.category)] += s.points
    return tuple((p[0], p[1], p[2], p[3]) for p in out)
