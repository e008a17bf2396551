"""Positions of seeded two-player games played by uniformly random legal moves: the ground the networks' tests
read, every position in which a seat acts."""

from __future__ import annotations

import random
from typing import Any

from rules import GAMES


def positions(game_id: str, seed: int) -> list[Any]:
    """Every position of one random two-player game (set up and played from ``seed``) with a seat to act."""
    game = GAMES[game_id]
    rnd, state, seen = random.Random(seed), game.setup(2, seed), []
    while seats := game.to_act(state):
        seen.append(state)
        state = game.apply(state, seats[0], rnd.choice(list(game.legal_actions(state, seats[0])))).state
    return seen
