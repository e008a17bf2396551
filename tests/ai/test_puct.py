"""The guided search: a legal move from every kind of position, the same move for the same seed, a prior that
steers it and a value that overrules a prior."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from random_play_support import positions as random_positions

from ai.games.splendor_net import INPUTS, OUTPUTS, guide
from ai.knowledge import Knowledge
from ai.net import Net
from ai.puct import MIX, search
from rules import GAMES

GAME = GAMES["splendor"]


def flat(state: Any, legal: Sequence[Any]) -> tuple[list[float], tuple[float, float]]:
    return [1.0 / len(legal)] * len(legal), (0.5, 0.5)


def leaning(moves: Sequence[Any], wanted: Any, odds: float = 9.0) -> list[float]:
    """Priors that put ``odds`` to one on ``wanted`` (where it is legal) against the other moves together."""
    weights = [odds * (len(moves) - 1) if m == wanted else 1.0 for m in moves]
    return [w / sum(weights) for w in weights]


def positions(seed: int) -> list[Any]:
    seen = random_positions("splendor", seed)
    return seen[:: max(1, len(seen) // 8)]


def random_net(seed: int) -> Net:
    generator = np.random.default_rng(seed)
    shapes = {"w1": (INPUTS, 32), "b1": (32,), "w2": (32, 32), "b2": (32,), "wp": (32, OUTPUTS)}
    shapes |= {"bp": (OUTPUTS,), "wv": (32, 1), "bv": (1,)}
    return Net({name: (generator.standard_normal(shape) * 0.3).astype(np.float32) for name, shape in shapes.items()})


def test_a_legal_move_from_every_kind_of_position_and_the_same_for_the_same_seed() -> None:
    judged = guide(random_net(1))
    for state in positions(2):
        legal = GAME.legal_actions(state, state.turn)
        found = search(GAME, state, state.turn, 60, seed=5, guide=judged)
        assert found.action in legal
        assert sum(found.visits.values()) <= 60 and set(found.visits) <= set(legal)
        assert search(GAME, state, state.turn, 60, seed=5, guide=judged).action == found.action


def test_with_nothing_to_tell_moves_apart_the_prior_decides() -> None:
    state = positions(3)[2]
    legal = GAME.legal_actions(state, state.turn)
    wanted = legal[len(legal) // 2]

    def steered(state: Any, moves: Sequence[Any]) -> tuple[list[float], tuple[float, float]]:
        return leaning(moves, wanted), (0.5, 0.5)

    assert search(GAME, state, state.turn, 200, seed=1, guide=steered).action == wanted
    assert search(GAME, state, state.turn, 200, seed=1, guide=flat).action != wanted or len(legal) == 1


def test_a_value_overrules_the_prior() -> None:
    """The prior puts half its weight on taking certain gems; every position where the seat holds a certain
    table card in reserve is judged won for it: the search reserves that card."""
    state = GAME.setup(2, 4)
    seat = state.turn
    legal = GAME.legal_actions(state, seat)
    favoured = next(a for a in legal if a.kind == "t")
    better = next(a for a in legal if a.kind == "r" and a.slot >= 0)
    card = state.rows[better.level - 1][better.slot]

    def misled(position: Any, moves: Sequence[Any]) -> tuple[list[float], tuple[float, float]]:
        share = 1.0 if card in position.reserved[seat] else 0.2
        return leaning(moves, favoured, odds=1.0), (share, 1 - share) if seat == 0 else (1 - share, share)

    assert search(GAME, state, seat, 300, seed=2, guide=misled).action == better


def test_noise_and_a_temperature_still_give_a_legal_move_fixed_by_the_seed() -> None:
    state = positions(5)[1]
    legal = GAME.legal_actions(state, state.turn)
    moves = {
        search(GAME, state, state.turn, 80, seed=s, guide=flat, temperature=1.0, noise=0.25).action for s in range(6)
    }
    assert moves <= set(legal) and len(moves) > 1
    again = search(GAME, state, state.turn, 80, seed=3, guide=flat, temperature=1.0, noise=0.25).action
    assert again == search(GAME, state, state.turn, 80, seed=3, guide=flat, temperature=1.0, noise=0.25).action


def test_with_a_play_out_a_leaf_is_judged_half_by_it_and_half_by_the_guide() -> None:
    def sure(state: Any, legal: Sequence[Any]) -> tuple[list[float], tuple[float, float]]:
        return [1.0 / len(legal)] * len(legal), (1.0, 0.0)  # the first seat wins, says the guide

    doubting = Knowledge(standing=lambda state: (0.0, 100.0), spread=1.0, playout_depth=2)  # the second
    state = next(s for s in positions(4) if s.turn == 0 and s.phase == "act")
    alone = search(GAME, state, 0, 80, seed=3, guide=sure)
    mixed = search(GAME, state, 0, 80, seed=3, guide=sure, mixed_with=doubting)
    assert alone.value == pytest.approx(1.0)
    assert mixed.value == pytest.approx(1 - MIX)
    assert search(GAME, state, 0, 80, seed=3, guide=sure, mixed_with=doubting).visits == mixed.visits
