"""اسپلندور's knowledge: the play-out policy buys when it can, and the judgement learned from self-play counts
points."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from ai.games import splendor_prior
from ai.games.splendor import FEATURES, KNOWLEDGE, RANDOM
from ai.learned import stored_weights
from rules import GAMES
from rules.splendor.data import COST, POINTS
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


def test_the_prior_gives_every_legal_move_a_chance_and_they_sum_to_one() -> None:
    for state in states(8)[::4]:
        legal = GAME.legal_actions(state, state.turn)
        chances = splendor_prior.prior(state, state.turn, legal)
        assert len(chances) == len(legal) and all(0 < p <= 1 for p in chances)
        assert math.isclose(sum(chances), 1.0)


def test_the_prior_reads_a_move_by_what_it_does() -> None:
    """A buy's points and the gems it pays, a take's gems, a blind reserve and the gold it brings."""
    name = {n: i for i, n in enumerate(splendor_prior.NAMES)}
    seen = set()
    for state in states(9):
        legal = GAME.legal_actions(state, state.turn)
        for action, row in zip(legal, splendor_prior.move_features(state, state.turn, legal), strict=True):
            seen.add(action.kind)
            if action.kind == "b" and action.level:
                card = state.rows[action.level - 1][action.slot]
                assert row[name["buy"]] == 1 and row[name["buy-points"]] == POINTS[card]
                paid = sum(max(0, COST[card][c] - state.bonuses[state.turn][c]) for c in range(5))
                assert row[name["buy-spent"]] + row[name["buy-gold"]] == paid
            elif action.kind == "t":
                assert row[name["take"]] == len(action.tokens) and row[name["buy"]] == 0
            elif action.kind == "r" and action.slot == -1:
                assert row[name["reserve-deck"]] == 1 and row[name["reserve-gold"]] == (state.bank[5] > 0)
            elif action.kind == "p":
                assert not any(row)
    assert {"b", "t", "r"} <= seen


def test_the_prior_weights_match_its_terms() -> None:
    assert len(splendor_prior.WEIGHTS) == 3
    assert all(len(w) == len(splendor_prior.NAMES) and all(map(math.isfinite, w)) for w in splendor_prior.WEIGHTS)
