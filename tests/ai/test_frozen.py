"""The frozen player (``ai.frozen``, issue 28's yardstick) still plays the moves today's player played: four
seeded positions of a random game per line, the move at 300 iterations (متوسط's budget, the same search and
knowledge as سخت's, in a fifth of the time). The moves below were ``ai.choose``'s on 3 December 2026, when
``ai.frozen`` was copied from it; a change that moves the frozen player fails here."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ai.frozen
from rules import GAMES

PINNED = {
    ("coin_age", 2): ["m.B2.B3", "p.C.C2", "p.C.C3", "p.B.C3"],
    ("conqueror", 2): ["c.C6", "c.A6", "w.C2.C0", "e.A3"],
    ("condottiere", 2): ["p.bi", "d.y", "p.6", "p.3"],
    ("condottiere", 4): ["p.wi", "p.10", "s.8", "p.10"],
    ("splendor", 2): ["bg.1-0.k", "t.w.g.r", "b.1.2", "r.1.1"],
    ("splendor", 4): ["r.3.2", "g.w.b.g", "g.g.k.k", "g.g"],
    ("carcassonne", 2): ["t.0_-1.2.c0", "t.-2_4.3.r0", "t.-2_-2.1.c0", "t.5_-2.2.n"],
}


def positions(game_id: str, players: int, seed: int) -> list[tuple[Any, int]]:
    """(state, seat to act) at the 2nd to 5th of six evenly spread moments of one seeded random game."""
    game = GAMES[game_id]
    rnd = random.Random(seed)
    state = game.setup(players, seed)
    seen: list[tuple[Any, int]] = []
    while seats := game.to_act(state):
        seat = rnd.choice(seats)
        seen.append((state, seat))
        state = game.apply(state, seat, rnd.choice(list(game.legal_actions(state, seat)))).state
    return seen[:: max(1, len(seen) // 6)][1:5]


@pytest.mark.parametrize(("game_id", "players"), list(PINNED), ids=[f"{g}-{p}p" for g, p in PINNED])
def test_the_frozen_player_plays_the_moves_of_3_december(game_id: str, players: int) -> None:
    played = [
        GAMES[game_id].encode(ai.frozen.choose(game_id, state, seat, "medium", seed=21))
        for state, seat in positions(game_id, players, seed=7)
    ]
    assert played == PINNED[(game_id, players)]
