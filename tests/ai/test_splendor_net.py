"""اسپلندور as the network reads it: inputs that say what the seat to act sees and nothing it does not, an
output for every move, and colour renamings that move every colour's number together."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from random_play_support import positions as random_positions

from ai import LEVELS, choose, puct
from ai.games import KNOWLEDGE as KNOWLEDGE_BY_GAME
from ai.games.splendor import KNOWLEDGE
from ai.games.splendor_net import (
    BUY,
    INPUTS,
    JUDGED,
    OUTPUTS,
    RESERVE,
    SEAT,
    SLOT,
    TAKE,
    action_index,
    colour_swap,
    encode,
    outputs,
    shipped,
)
from ai.net import TINY, Net, load, priors
from ai.search import search
from rules import GAMES
from rules.splendor.data import COST, LEVEL
from rules.splendor.model import SplendorState

GAME = GAMES["splendor"]
SEATS_AT = 6 + 12 * SLOT + 3 + 33  # where the seat to act's numbers start


def positions(seed: int) -> list[SplendorState]:
    return random_positions("splendor", seed)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_position_of_a_game_reads_as_inputs_of_one_size_and_scale(seed: int) -> None:
    for state in positions(seed):
        x = encode(state)
        assert x.shape == (INPUTS,)
        assert np.isfinite(x).all() and x[:JUDGED].min() >= 0 and x[:JUDGED].max() <= 3
        assert abs(x[JUDGED:]).max() <= 10  # the linear judgement's terms and logit


def test_the_inputs_put_the_seat_to_act_first_and_a_table_card_by_its_cost() -> None:
    state = GAME.setup(2, 5).model_copy(update={"turn": 1, "points": (3, 7), "tokens": ((2, 0, 0, 0, 0, 0), (0,) * 6)})
    x = encode(state)
    assert x[SEATS_AT + 11] == pytest.approx(7 / 15)  # seat 1's points first
    assert x[SEATS_AT + SEAT + 11] == pytest.approx(3 / 15)
    assert x[SEATS_AT + SEAT] == pytest.approx(2 / 4)  # then seat 0's white gems
    first = state.rows[0][0]
    assert list(x[6 + 1 : 6 + 6]) == pytest.approx([c / 7 for c in COST[first]])
    assert x[6 + 12] == pytest.approx(max(0, sum(COST[first])) / 5)  # seat 1 has nothing: it lacks it all


def test_a_card_the_opponent_reserved_from_a_deck_is_read_by_its_level_alone() -> None:
    """Two positions that differ only in which card of a level the opponent took blind read the same."""
    base = GAME.setup(2, 6)
    hidden = [c for c in base.decks[1]][:2]
    assert LEVEL[hidden[0]] == LEVEL[hidden[1]]
    seen = []
    for card in hidden:
        deck = tuple(c for c in base.decks[1] if c != card)
        state = base.model_copy(
            update={"reserved": ((), (card,)), "blind": (card,), "decks": (base.decks[0], deck, base.decks[2])}
        )
        seen.append(encode(state))
    assert (seen[0] == seen[1]).all()
    mine = base.model_copy(update={"reserved": ((hidden[0],), ()), "blind": (hidden[0],)})
    assert encode(mine)[SEATS_AT + 12] == 1.0  # its owner sees it


def test_every_legal_move_has_an_output_and_distinct_moves_distinct_ones() -> None:
    for state in positions(3)[::3]:
        legal = GAME.legal_actions(state, state.turn)
        named = outputs(state, legal)
        assert named == [action_index(a, state.nobles) for a in legal]
        for index in named:
            for o in index if isinstance(index, tuple) else (index,):
                assert 0 <= o < OUTPUTS
        plain = [o for a, o in zip(legal, named, strict=True) if a.kind not in ("bg", "g")]
        assert len(plain) == len(set(plain))
        shares = priors(np.zeros(OUTPUTS, np.float32), named)
        assert sum(shares) == pytest.approx(1.0) and min(shares) > 0


def test_outputs_name_a_move_by_its_shape() -> None:
    assert action_index(GAME.decode("t.w.g.r"), ()) == TAKE[(0, 2, 3)]
    assert action_index(GAME.decode("r.2.d"), ()) == RESERVE + 13
    assert action_index(GAME.decode("b.h.1"), ()) == BUY + 13
    assert action_index(GAME.decode("b.3.2"), ()) == BUY + 10


@pytest.mark.parametrize("order", [(1, 2, 3, 4, 0), (4, 3, 2, 1, 0), (0, 1, 2, 4, 3)])
def test_renaming_the_colours_moves_every_colour_s_numbers_together(order: tuple[int, ...]) -> None:
    inputs, outputs = colour_swap(order)
    assert sorted(inputs) == list(range(INPUTS)) and sorted(outputs) == list(range(OUTPUTS + 1))
    state = positions(4)[30]
    x = encode(state)
    renamed = x[inputs]
    for c in range(5):
        assert renamed[order[c]] == x[c]  # the bank
        assert renamed[6 + 1 + order[c]] == x[6 + 1 + c]  # the first table card's cost
        assert renamed[SEATS_AT + 6 + order[c]] == x[SEATS_AT + 6 + c]  # the bonuses of the seat to act
    assert renamed[6 + 12] == x[6 + 12]  # what a seat lacks is no colour's
    assert outputs[TAKE[(0, 1)]] == TAKE[tuple(sorted((order[0], order[1])))]


def test_all_renamings_are_distinct() -> None:
    assert len({tuple(colour_swap(order)[0]) for order in permutations(range(5))}) == 120


def test_a_network_that_has_learned_nothing_judges_as_the_linear_judgement() -> None:
    """The value head adds its correction to the linear judgement's logit: with a zero head, the same shares."""
    zero = {"w1": (INPUTS, 8), "b1": (8,), "w2": (8, 8), "b2": (8,), "wp": (8, OUTPUTS), "bp": (OUTPUTS,)}
    zero |= {"wv": (8, 1), "bv": (1,)}
    net = Net({name: np.zeros(shape, np.float32) for name, shape in zero.items()})
    for state in positions(6)[::10]:
        _, value = net(encode(state))
        assert (1 + value) / 2 == pytest.approx(KNOWLEDGE.values(state)[state.turn], abs=1e-5)


def test_the_shipped_network_reads_every_position_and_prefers_a_legal_move() -> None:
    net = shipped()
    for state in positions(5)[::7]:
        logits, value = net(encode(state))
        legal = GAME.legal_actions(state, state.turn)
        shares = priors(logits, outputs(state, legal))
        assert logits.shape == (OUTPUTS,) and -1.0 < value < 1.0
        assert len(shares) == len(legal) and abs(sum(shares) - 1.0) < 1e-6


def test_a_stored_network_loads_without_tiny_weights_and_judges_as_it_would_with_them(tmp_path: Path) -> None:
    """Weights under ``TINY`` (which an x86 core multiplies slowly when subnormal) are zero once loaded, and
    taking them out moves neither a prior nor a value."""
    generator = np.random.default_rng(0)
    shapes = {"w1": (INPUTS, 16), "b1": (16,), "w2": (16, 16), "b2": (16,), "wp": (16, OUTPUTS), "bp": (OUTPUTS,)}
    shapes |= {"wv": (16, 1), "bv": (1,)}
    stored = {name: generator.normal(0, 0.3, shape).astype(np.float32) for name, shape in shapes.items()}
    stored["w1"][::3] *= np.float32(1e-39)  # subnormal, as weight decay leaves the rows of inputs seldom set
    stored["w2"][::5] *= np.float32(1e-33)
    np.savez(tmp_path / "net.npz", **stored)
    with (tmp_path / "net.npz").open("rb") as file:
        net = load(file)
    kept = Net(stored)
    for weights in (net.w1, net.b1, net.w2, net.b2, net.wp, net.bp, net.wv, net.bv):
        assert weights.dtype == np.float32 and not ((weights != 0) & (abs(weights) < TINY)).any()
    assert (net.w1[::3] == 0).all() and (net.w2[::5] == 0).all()
    for state in positions(9)[::9]:
        (logits, value), (kept_logits, kept_value) = net(encode(state)), kept(encode(state))
        legal = GAME.legal_actions(state, state.turn)
        named = outputs(state, legal)
        assert priors(logits, named) == pytest.approx(priors(kept_logits, named), abs=1e-7)
        assert value == pytest.approx(kept_value, abs=1e-7)


def test_hard_at_two_players_searches_by_the_shipped_guide_and_the_other_levels_and_tables_do_not() -> None:
    knowledge = KNOWLEDGE_BY_GAME["splendor"]
    assert knowledge.guide is not None
    state = positions(8)[6]
    hard = knowledge.iterations(LEVELS["hard"].iterations)
    guided = puct.search(GAME, state, state.turn, hard, 4, knowledge.guide, mixed_with=knowledge)
    assert choose("splendor", state, state.turn, "hard", 4) == guided.action
    assert knowledge.at_table(4).guide is None and knowledge.at_table(2).guide is knowledge.guide
    medium = knowledge.iterations(LEVELS["medium"].iterations)
    plain = search(GAME, state, state.turn, medium, 4, knowledge, LEVELS["medium"].temperature)
    assert choose("splendor", state, state.turn, "medium", 4) == plain
