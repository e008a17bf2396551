"""رکب's play-out policy: ahead in the battle it passes (or surrenders, which ends the battle won), behind it
plays the cheapest card that takes the lead (a mercenary, the Heroine, or a Bishop, Drummer or season that
turns the battle), and its own reckoning of the lines agrees with the engine's."""

from __future__ import annotations

import random

from ai.games.condottiere import _TAKERS, KNOWLEDGE, RANDOM, SURRENDER, WORTH, _Lines
from rules import GAMES
from rules.condottiere.data import BISHOP, KIND_OF
from rules.condottiere.model import CondottiereAction, CondottiereState
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


def _gap(state: CondottiereState, seat: int) -> int:
    power = strengths(state.lines, state.season)
    return max(p for s, p in enumerate(power) if s != seat) - power[seat]


def test_the_policy_holds_a_lead_and_takes_the_lead_with_the_cheapest_card_that_does() -> None:
    assert KNOWLEDGE.policy is not None
    ahead = behind = specials = 0
    for players, seed in ((2, 1), (4, 2), (3, 3), (2, 4), (2, 5)):
        for state, seat in battles(players, seed):
            legal = GAME.legal_actions(state, seat)
            chosen = legal[KNOWLEDGE.policy(state, seat, legal, RANDOM + 1)]
            gap = _gap(state, seat)
            playable = [a.arg for a in legal if a.kind == "play"]
            if gap < 0:
                ahead += 1
                assert chosen.kind == "pass" or chosen.arg == SURRENDER
                assert (chosen.arg == SURRENDER) == (SURRENDER in playable)
                continue
            # every card that would take the lead, as the engine plays it
            taking = [k for k in playable if k in _TAKERS and _gap(_played(state, seat, k), seat) < 0]
            if taking:
                behind += 1
                cheapest = min(taking, key=lambda k: (WORTH[k], k >= BISHOP))
                assert chosen == CondottiereAction("play", cheapest)
                specials += cheapest >= BISHOP
    assert ahead > 5 and behind > 5 and specials > 0  # the games had every kind of moment


def _played(state: CondottiereState, seat: int, kind: int) -> CondottiereState:
    """The state right after ``seat`` plays ``kind`` (a Bishop's peace step left as it is)."""
    return GAME.apply(state, seat, CondottiereAction("play", kind)).state


def test_the_policys_reckoning_of_the_lines_is_the_engines() -> None:
    checked = 0
    for players, seed in ((2, 6), (3, 7), (5, 8)):
        for state, seat in battles(players, seed):
            lines = _Lines(state)
            assert lines.power() == list(strengths(state.lines, state.season))
            for kind in {KIND_OF[c] for c in state.hands[seat]} & set(_TAKERS):
                after = _played(state, seat, kind)
                if after.battle == state.battle:  # not the last card of the last seat still fighting
                    assert lines.power(seat, kind) == list(strengths(after.lines, after.season))
                    checked += 1
    assert checked > 50
