"""The final ranking: every seat by score, best first, equal scores sharing a place («۱، ۲، ۲، ۴»).

The picture's result table and the bot's result lines both list it, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence


def ranking(scores: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """(place, seat) for every seat, best score first, from place 1; seats with equal scores share a place
    and keep their seat order, and the next place skips as many as shared it."""
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    places: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        tied = index and scores[order[index - 1]] == scores[seat]
        places.append((places[-1][0] if tied else index + 1, seat))
    return tuple(places)
