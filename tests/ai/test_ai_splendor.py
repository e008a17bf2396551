"""اسپلندور's knowledge: the play-out policy buys when it can, and the judgement learned from self-play counts
points."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from ai.games.splendor import FEATURES, KNOWLEDGE, RANDOM
from ai.learned import stored_weights
from rules import GAMES
from rules.splendor.model import SplendorState

GAME = GAMES["splendor"]


def states(seed: int) -> list[SplendorState]:
    """The positions of one seeded random two-player game where a seat acts (not returning, not choosing)."""
    rnd, state, seen = random.Random(seed), GAME.setup(2, seed), []
    while seats := GAME.to_act(state):
        if state.phase == "act":
            seen.append(state)
        state = GAME.apply(state, seats[0], rnd.choice(list(GAME.legal_actions(state, seats[0])))).state
    return seen


def test_the_policy_buys_whenever_a_plain_buy_is_legal_and_its_draw_is_not_the_random_one() -> None:
    assert KNOWLEDGE.policy is not None
    buying = 0
    for state in states(1) + states(2):
        legal = GAME.legal_actions(state, state.turn)
        for draw in (1, 2, 3, RANDOM + 5):
            chosen = legal[KNOWLEDGE.policy(state, state.turn, legal, draw)]
            if any(a.kind == "b" for a in legal):
                buying += 1
                assert chosen.kind == "b"
    assert buying > 20  # the games had buys to test


def test_the_policy_draw_of_the_random_kind_may_pick_any_move() -> None:
    assert KNOWLEDGE.policy is not None
    state = states(3)[10]
    legal = GAME.legal_actions(state, state.turn)
    picks = {KNOWLEDGE.policy(state, state.turn, legal, RANDOM * k) for k in range(200)}
    assert len(picks) > len(legal) // 2


LEARNED = stored_weights(FEATURES)


def test_the_judgement_is_the_stage_s_weights_times_the_features() -> None:
    for state in states(5)[::5]:
        rows = FEATURES.of(state)
        assert len(rows) == 2 and all(len(row) == len(FEATURES.names) for row in rows)
        weights = LEARNED[FEATURES.stage(state)]
        assert KNOWLEDGE.standing(state) == tuple(sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows)


def test_the_learned_weights_match_the_features_and_more_points_are_a_better_finite_standing() -> None:
    assert len(LEARNED) == FEATURES.stages
    points = FEATURES.names.index("points")
    for weights in LEARNED:
        assert len(weights) == len(FEATURES.names) and all(math.isfinite(w) for w in weights)
        assert weights[points] > 0.1  # a point is worth more than nothing to a fit of who wins
    for state in states(6)[::9]:
        richer = state.model_copy(update={"points": (state.points[0] + 3, state.points[1])})
        before, after = KNOWLEDGE.standing(state), KNOWLEDGE.standing(richer)
        assert after[0] - after[1] > before[0] - before[1]
        assert all(abs(v) < 100 for v in before)


def test_stages_follow_the_leaders_points_and_only_real_choices_are_kept() -> None:
    state = states(7)[0]
    stages = [FEATURES.stage(state.model_copy(update={"points": (p, 0)})) for p in (0, 5, 6, 10, 11, 15)]
    assert stages == [0, 0, 1, 1, 2, 2]
    assert FEATURES.kept(state) and not FEATURES.kept(state.model_copy(update={"phase": "return"}))


def test_weights_fitted_on_other_features_are_refused() -> None:
    with pytest.raises(AssertionError, match="fit again"):
        stored_weights(dataclasses.replace(FEATURES, names=FEATURES.names[:-1]))
