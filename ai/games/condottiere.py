"""رکب: provinces held (battles won in the two-player variant), and the battle in progress."""

from __future__ import annotations

from ai.knowledge import Knowledge
from rules.condottiere.model import CondottiereState
from rules.condottiere.scoring import strengths


def _standing(state: CondottiereState) -> tuple[float, ...]:
    seats = range(state.players)
    power = strengths(state.lines, state.season)
    best = max(power) if power else 0
    leading = [0.5 if best and power[s] == best else 0.0 for s in seats]
    if state.players == 2:
        return tuple(2.0 * state.wins[s] + leading[s] + 0.05 * len(state.hands[s]) for s in seats)
    return tuple(2.0 * state.owners.count(s) + leading[s] + 0.05 * len(state.hands[s]) for s in seats)


# nine tenths: with full hands early on, hard took 1.54 s p95 a move at two with all 1200 iterations; and an
# iteration at four costs about 1.3 times one at two (hard p95 1.67 s at four before crowd)
KNOWLEDGE = Knowledge(standing=_standing, spread=1.5, playout_depth=30, budget=0.9, crowd=0.2)
