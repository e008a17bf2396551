"""Places at a game's end, as players at a table say them: the best first, equals sharing a place, and the
next place counting everyone ahead (1, 2, 2, 4). Every game's result message and finished picture use it, so
they cannot disagree."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


Key = TypeVar("Key", bound=_Ordered)


def places(keys: Sequence[Key]) -> tuple[int, ...]:
    """Each seat's place, 1 the best, by its key (the larger the better: a score, or a tuple such as
    (won, points, fewer cards)); seats with equal keys share a place."""
    return tuple(1 + sum(key < other for other in keys) for key in keys)


def by_place(keys: Sequence[Key]) -> tuple[tuple[int, int], ...]:
    """(place, seat) for every seat, the best first; seats that share a place keep their seat order."""
    return tuple(sorted((place, seat) for seat, place in enumerate(places(keys))))
