"""اسپلندور: points, and what buys the next points (card bonuses most, tokens a little)."""

from __future__ import annotations

from ai.knowledge import Knowledge
from rules.splendor.model import SplendorState


def _standing(state: SplendorState) -> tuple[float, ...]:
    return tuple(
        state.points[s] + 0.6 * sum(state.bonuses[s]) + 0.15 * sum(state.tokens[s]) + 0.2 * len(state.reserved[s])
        for s in range(len(state.points))
    )


KNOWLEDGE = Knowledge(standing=_standing, spread=3.0, playout_depth=16)
