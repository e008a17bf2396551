"""عصر سکه‌ها as the network reads it: every action its own output, the position from the seat to act's side and
nothing of the tosses to come, and a network that has learned nothing judging as the hand judgement does."""

from __future__ import annotations

import numpy as np
import pytest
from random_play_support import positions as random_positions

from ai.games.coin_age import KNOWLEDGE
from ai.games.coin_age_net import (
    END,
    INPUTS,
    MOVE,
    OUTPUTS,
    SPACES,
    action_index,
    encode,
    guide,
    outputs,
)
from ai.net import Net
from rules import GAMES
from rules.coin_age.model import CoinAction, CoinAgeState, coin

GAME = GAMES["coin_age"]


def positions(seed: int) -> list[CoinAgeState]:
    return random_positions("coin_age", seed)


def zero_net(hidden: int = 8) -> Net:
    shapes = {"w1": (INPUTS, hidden), "b1": (hidden,), "w2": (hidden, hidden), "b2": (hidden,)}
    shapes |= {"wp": (hidden, OUTPUTS), "bp": (OUTPUTS,), "wv": (hidden, 1), "bv": (1,)}
    return Net({name: np.zeros(shape, np.float32) for name, shape in shapes.items()})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_legal_action_has_its_own_output(seed: int) -> None:
    for state in positions(seed):
        named = outputs(state, GAME.legal_actions(state, state.turn))
        assert all(isinstance(o, int) and 0 <= o < OUTPUTS for o in named)
        assert len(named) == len(set(named))


def test_outputs_name_an_action_by_its_kind_and_place() -> None:
    assert action_index(CoinAction("move", space=3, to=7)) == MOVE + 3 * SPACES + 7
    assert action_index(CoinAction("end")) == END == OUTPUTS - 1


@pytest.mark.parametrize("seed", [4, 5])
def test_every_position_reads_as_inputs_of_one_size_and_scale(seed: int) -> None:
    for state in positions(seed):
        x = encode(state)
        assert x.shape == (INPUTS,) and np.isfinite(x).all()
        assert x[:-3].min() >= 0 and x[:-3].max() <= 3


def test_the_inputs_are_the_seat_to_acts_side_and_not_the_tosses_to_come() -> None:
    """The same board read by either seat puts the reader's coins first; the seeded generator that decides the
    next tosses is not among the inputs."""
    base = GAME.setup(2, 9)
    stacks = ((coin(3, 0), coin(1, 1)),) + ((),) * (SPACES - 1)  # seat 0's D under seat 1's B
    for turn in (0, 1):
        x = encode(base.model_copy(update={"stacks": stacks, "turn": turn}))
        seat0, seat1 = (0, 1) if turn == 0 else (1, 0)  # where each seat's coins read: the reader's first
        assert x[2 * 3 + seat0] == 1.0 and x[2 * 1 + seat1] == 1.0  # the D, the B
        assert x[8 + 2 * 1 + seat1] == 1.0 and x[8 + 2 * 1 + seat0] == 0.0  # the B on top, as seat 1's
    assert (encode(base) == encode(base.model_copy(update={"rng": base.rng + 1}))).all()


def test_a_network_that_has_learned_nothing_judges_as_the_hand_judgement() -> None:
    """The value head adds its correction to the hand judgement's logit: with a zero head, the same shares, and
    priors even over the legal actions."""
    judged = guide(zero_net())
    for state in positions(6)[::5]:
        legal = GAME.legal_actions(state, state.turn)
        priors, values = judged(state, legal)
        assert values == pytest.approx(KNOWLEDGE.values(state), abs=1e-5)
        assert priors == pytest.approx([1 / len(legal)] * len(legal))
