"""رکب's play-out policy: ahead in the battle it passes (or surrenders, which ends the battle won), behind it
plays the smallest mercenary that takes the lead."""

from __future__ import annotations

import random

from ai.games.condottiere import KNOWLEDGE, RANDOM, SURRENDER
from rules import GAMES
from rules.condottiere.data import BISHOP, VALUE
from rules.condottiere.model import CondottiereState
from rules.condottiere.scoring import strengths

GAME = GAMES["condottiere"]


def battles(players: int, seed: int) -> list[tuple[CondottiereState, int]]:
    """(state, seat) wherever a seat plays or passes in a battle of one seeded random game."""
    rnd, state, seen = random.Random(seed), GAME.setup(players, seed), []
    while seats := GAME.to_act(state):
        seat = rnd.choice(seats)
        if state.phase == "battle":
            seen.append((state, seat))
        state = GAME.apply(state, seat, rnd.choice(list(GAME.legal_actions(state, seat)))).state
    return seen


def test_the_policy_holds_a_lead_and_takes_the_lead_with_the_smallest_mercenary_that_does() -> None:
    assert KNOWLEDGE.policy is not None
    ahead = behind = 0
    for players, seed in ((2, 1), (4, 2), (3, 3)):
        for state, seat in battles(players, seed):
            legal = GAME.legal_actions(state, seat)
            chosen = legal[KNOWLEDGE.policy(state, seat, legal, RANDOM + 1)]
            power = strengths(state.lines, state.season)
            gap = max(p for s, p in enumerate(power) if s != seat) - power[seat]
            playable = [a.arg for a in legal if a.kind == "play"]
            if gap < 0:
                ahead += 1
                assert chosen.kind == "pass" or chosen.arg == SURRENDER
                assert (chosen.arg == SURRENDER) == (SURRENDER in playable)
            leading = [k for k in playable if k < BISHOP and VALUE[k] > gap]
            if gap >= 0 and leading:
                behind += 1
                assert chosen.kind == "play" and chosen.arg == min(leading, key=VALUE.__getitem__)
    assert ahead > 5 and behind > 5  # the games had both kinds of moment
