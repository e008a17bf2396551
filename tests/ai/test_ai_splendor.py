"""اسپلندور's knowledge: the play-out policy buys when it can, and the judgement counts points."""

from __future__ import annotations

import random

from ai.games.splendor import KNOWLEDGE, RANDOM
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


def test_points_more_are_a_better_standing_and_the_judgement_is_finite() -> None:
    for state in states(4)[::7]:
        before = KNOWLEDGE.standing(state)
        richer = state.model_copy(update={"points": (state.points[0] + 3, state.points[1])})
        after = KNOWLEDGE.standing(richer)
        assert after[0] - after[1] > before[0] - before[1] + 2  # (the engine's worth falls as the end nears)
        assert all(abs(v) < 100 for v in before)
