"""Today's computer player kept as it was on 3 December 2026, so that the live one (``ai.choose``) can be
measured against it (issue 28: the new سخت must beat this سخت in ≥ 75% of two-player games).

A copy, not an import: the live search and knowledge change, this must not. ``tests/ai/test_frozen.py`` pins
its moves on seeded positions, so a change that moves it fails there.
"""

from __future__ import annotations

from typing import Any

from ai.frozen.games import KNOWLEDGE
from ai.frozen.search import search
from rules import GAMES

ITERATIONS = {"easy": 40, "medium": 300, "hard": 1200}  # the levels' budgets on that day


def choose(game_id: str, state: Any, seat: int, level: str, seed: int) -> Any:
    """The move the frozen player at ``level`` makes, as ``ai.choose`` made it on that day."""
    knowledge = KNOWLEDGE[game_id]
    players = len(knowledge.standing(state))
    return search(GAMES[game_id], state, seat, knowledge.iterations(ITERATIONS[level], players), seed, knowledge)


__all__ = ["ITERATIONS", "choose"]
