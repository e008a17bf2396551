"""عصر سکه‌ها: the score as it would be counted now (top coins, doubled regions, coins kept)."""

from __future__ import annotations

from ai.knowledge import Knowledge
from rules.coin_age.model import CoinAgeState
from rules.coin_age.scoring import score


def _standing(state: CoinAgeState) -> tuple[float, float]:
    a, b = score(state.stacks, state.supply)
    return float(a.total), float(b.total)


KNOWLEDGE = Knowledge(standing=_standing, spread=4.0, playout_depth=40)
