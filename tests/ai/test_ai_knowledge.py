"""The hand-written knowledge of قلعه رودخان, کشورگشا and عصر سکه‌ها (issue 28): play-out policies that play
as a plain player would, and judgements that stay finite and follow the score."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from ai.games import KNOWLEDGE
from ai.games import coin_age as coin_age_knowledge
from ai.games import conqueror as conqueror_knowledge
from rules import GAMES


def positions(game_id: str, players: int, seed: int, every: int = 1) -> list[tuple[Any, int]]:
    """(state, seat to act) along one seeded random game."""
    game, rnd = GAMES[game_id], random.Random(seed)
    state, seen, ply = game.setup(players, seed), [], 0
    while seats := game.to_act(state):
        seat = seats[0]
        if ply % every == 0:
            seen.append((state, seat))
        state = game.apply(state, seat, rnd.choice(list(game.legal_actions(state, seat)))).state
        ply += 1
    return seen


JUDGED = [("carcassonne", 2), ("carcassonne", 4), ("coin_age", 2), ("conqueror", 2)]


@pytest.mark.parametrize(("game_id", "players"), JUDGED)
def test_the_judgement_is_finite_and_one_value_per_seat(game_id: str, players: int) -> None:
    knowledge = KNOWLEDGE[game_id]
    for state, _ in positions(game_id, players, 7, every=3):
        standing = knowledge.standing(state)
        assert len(standing) == players and all(math.isfinite(v) for v in standing)
        assert math.isclose(sum(knowledge.values(state)), 1.0)


def test_coin_age_play_outs_cover_the_opponent_rather_than_end_the_turn() -> None:
    policy, plain = coin_age_knowledge._policy, coin_age_knowledge.RANDOM + 1
    covered = 0
    for seed in (1, 2, 3):
        for state, seat in positions("coin_age", 2, seed):
            legal = GAMES["coin_age"].legal_actions(state, seat)
            chosen = legal[policy(state, seat, legal, plain)]
            stacks = state.stacks
            covers = [a for a in legal if a.kind == "place" and stacks[a.space] and stacks[a.space][-1] & 1 != seat]
            if covers:
                covered += 1
                assert chosen.kind in ("place", "capture")
            if chosen.kind == "place" and state.stacks[chosen.space]:
                assert state.stacks[chosen.space][-1] & 1 != seat  # never covers its own coin
    assert covered > 3


def test_conqueror_play_outs_build_a_castle_whenever_one_may_be_built() -> None:
    policy, plain = conqueror_knowledge._policy, conqueror_knowledge.RANDOM + 1
    built = 0
    for state, seat in positions("conqueror", 2, 4):
        legal = GAMES["conqueror"].legal_actions(state, seat)
        chosen = legal[policy(state, seat, legal, plain)]
        if state.round > 0 and any(a.kind == "castle" for a in legal):
            built += 1
            assert chosen.kind in ("castle", "move")  # a move only when it takes a castle
    assert built > 0
