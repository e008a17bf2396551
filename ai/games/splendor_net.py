"""اسپلندور at two players as a network reads it: the position from the seat to act as numbers, each move as
an output of the policy, and a small network (two hidden layers) giving a prior over moves and a value.

The inputs (``INPUTS``) are the bank; each table slot's card (cost, colour, points) with what each seat still
lacks to buy it; the decks' sizes; each noble's missing bonuses for each seat; and per seat, the seat to act
first: tokens, bonuses, points, and the reserve (a card the reader cannot see is known by its level only);
then the terms of the shipped linear judgement (``ai.games.splendor``) per seat, and its logit, which the value
head starts from.

The outputs (``OUTPUTS``) name a move by its shape, not by the card: each set of different colours taken, each
pair, a reserve and a buy per place, a colour returned (a return's logit is the sum over the tokens it gives
back), a noble by its place on the table, and the pass. Gold variants of a buy share its output.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from itertools import combinations

import numpy as np

from ai.games.splendor import FEATURES, buying_power, shortfall
from ai.knowledge import Guide
from ai.learned import stored_weights
from ai.net import Index, Net, Vector, load
from ai.net import guide as net_guide
from rules.splendor.data import BONUS, COST, LEVEL, NOBLE_REQUIRES, POINTS
from rules.splendor.model import SplendorAction, SplendorState

_TAKE_SETS = [c for size in (1, 2, 3) for c in combinations(range(5), size)]
TAKE = {colours: i for i, colours in enumerate(_TAKE_SETS)}  # 25 sets of different colours
TAKE_TWO = len(_TAKE_SETS)  # + colour: 5
RESERVE = TAKE_TWO + 5  # + 4 * (level - 1) + slot: 12; the decks after them: 3
BUY = RESERVE + 15  # + 4 * (level - 1) + slot: 12; the reserve after them: 3
RETURN = BUY + 15  # + colour (gold 5): 6
NOBLE = RETURN + 6  # + place among the nobles on the table: 3
PASS = NOBLE + 3
OUTPUTS = PASS + 1

_CARD_ROWS = np.zeros((91, 12), dtype=np.float32)
for _card in range(1, 91):
    _CARD_ROWS[_card, 0] = LEVEL[_card] / 3
    _CARD_ROWS[_card, 1:6] = np.array(COST[_card], dtype=np.float32) / 7
    _CARD_ROWS[_card, 6 + BONUS[_card]] = 1.0
    _CARD_ROWS[_card, 11] = POINTS[_card] / 5

SLOT = 12 + 2  # a table slot: the card's row, then what each seat lacks to buy it
RESERVED = 1 + 12 + 1  # a reserved card: known, its row, what its owner lacks
SEAT = 6 + 5 + 1 + 3 * RESERVED
JUDGED = 6 + 12 * SLOT + 3 + 3 * 11 + 2 * SEAT + 5  # the linear judgement's terms, per seat, then its logit
INPUTS = JUDGED + 2 * len(FEATURES.names) + 1
_WEIGHTS = stored_weights(FEATURES)
_ROWS: tuple[tuple[float, ...], ...] = tuple(tuple(float(v) for v in row) for row in _CARD_ROWS)
_EMPTY_SLOT = (0.0,) * SLOT
_EMPTY_NOBLE = (0.0,) * 11
_EMPTY_RESERVED = (0.0,) * RESERVED
_PHASES = {"act": (1.0, 0.0, 0.0), "return": (0.0, 1.0, 0.0), "noble": (0.0, 0.0, 1.0)}


def action_index(action: SplendorAction, nobles: Sequence[int]) -> Index:
    """The policy output of ``action``; a return names one output per token given back."""
    kind = action.kind
    if kind == "t":
        return TAKE[action.tokens]
    if kind == "t2":
        return TAKE_TWO + action.tokens[0]
    if kind == "r":
        return RESERVE + (12 + action.level - 1 if action.slot < 0 else 4 * (action.level - 1) + action.slot)
    if kind in ("b", "bg"):
        return BUY + (12 + action.slot if action.level == 0 else 4 * (action.level - 1) + action.slot)
    if kind == "g":
        return tuple(RETURN + c for c in action.tokens)
    if kind == "n":
        return NOBLE + nobles.index(action.noble)
    return PASS


def _lacks(card: int, power: Sequence[int], gold: int) -> float:
    """The gems a seat still lacks to buy ``card`` beyond its gold, over 5."""
    short = shortfall(COST[card], power) - gold
    return short / 5 if short > 0 else 0.0


def encode(state: SplendorState) -> Vector:
    """The position as the seat to act sees it (two players), ``INPUTS`` numbers. Built as a list and made
    an array once: the search encodes every position it expands, and a numpy call per part costs more."""
    me = state.turn
    seats = (me, 1 - me)
    bank = state.bank
    out = [bank[0] / 4, bank[1] / 4, bank[2] / 4, bank[3] / 4, bank[4] / 4, bank[5] / 5]
    powers = []
    for seat in seats:
        tokens, bonus = state.tokens[seat], state.bonuses[seat]
        powers.append((buying_power(tokens, bonus), tokens[5]))
    (mine, my_gold), (theirs, their_gold) = powers
    for row in state.rows:
        for card in row:
            if card:
                out += _ROWS[card]
                out.append(_lacks(card, mine, my_gold))
                out.append(_lacks(card, theirs, their_gold))
            else:
                out += _EMPTY_SLOT
    decks = state.decks
    out += (len(decks[0]) / 40, len(decks[1]) / 30, len(decks[2]) / 20)
    for place in range(3):
        if place < len(state.nobles):
            requires = NOBLE_REQUIRES[state.nobles[place]]
            out.append(1.0)
            for seat in seats:
                bonus = state.bonuses[seat]
                out += [(r - b) / 4 if r > b else 0.0 for r, b in zip(requires, bonus, strict=True)]
        else:
            out += _EMPTY_NOBLE
    for seat, (power, gold) in zip(seats, powers, strict=True):
        tokens = state.tokens[seat]
        out += [t / 4 for t in tokens]
        out += [b / 7 for b in state.bonuses[seat]]
        out.append(state.points[seat] / 15)
        reserved = state.reserved[seat]
        for i in range(3):
            if i >= len(reserved):
                out += _EMPTY_RESERVED
                continue
            card = reserved[i]
            if seat == me or card not in state.blind:
                out.append(1.0)
                out += _ROWS[card]
                out.append(_lacks(card, power, gold))
            else:
                out += (0.0, LEVEL[card] / 3, *_EMPTY_RESERVED[2:])
    out += _PHASES[state.phase]
    out += (float(state.final_round), min(state.quiet_turns, 20) / 20)
    judged = FEATURES.of(state)
    weights = _WEIGHTS[FEATURES.stage(state)]
    standing = [sum(w * x for w, x in zip(weights, judged[seat], strict=True)) for seat in seats]
    for seat in seats:
        out += [x / 10 for x in judged[seat]]
    out.append((standing[0] - standing[1]) / 2)
    return np.array(out, dtype=np.float32)


def outputs(state: SplendorState, legal: Sequence[SplendorAction]) -> list[Index]:
    """The policy outputs of the legal moves (``action_index``)."""
    return [action_index(action, state.nobles) for action in legal]


def shipped() -> Net:
    """The network the package ships (``splendor_net.npz``, trained by ``bench/net_train.py``)."""
    with resources.files("ai.games").joinpath("splendor_net.npz").open("rb") as file:
        return load(file)


def guide(net: Net) -> Guide:
    """The network as ``ai.puct`` asks for it: the priors of the legal moves, and each seat's share of the win."""
    return net_guide(net, encode, outputs)


def _colour_offsets() -> list[int]:
    """Where in the inputs a run of five numbers, one per colour, starts."""
    starts = [0]
    for slot in range(12):
        starts += [6 + SLOT * slot + 1, 6 + SLOT * slot + 6]
    nobles = 6 + 12 * SLOT + 3
    for place in range(3):
        starts += [nobles + 11 * place + 1, nobles + 11 * place + 6]
    for seat in range(2):
        at = nobles + 33 + SEAT * seat
        starts += [at, at + 6]
        for i in range(3):
            starts += [at + 12 + RESERVED * i + 2, at + 12 + RESERVED * i + 7]
    return starts


def colour_swap(order: Sequence[int]) -> tuple[list[int], list[int]]:
    """The inputs and outputs of the same position with the gem colours renamed, colour c becoming
    ``order[c]``: ``inputs[i]`` is the index of the old input that lands at i, ``outputs[o]`` the new index of
    old output o (``OUTPUTS`` maps to itself, for padding). Splendor's rules treat the five colours alike, so
    a position and its renaming are worth the same: a training set grows 120-fold."""
    inputs = list(range(INPUTS))
    for start in _colour_offsets():
        for c in range(5):
            inputs[start + order[c]] = start + c
    outputs = list(range(OUTPUTS + 1))
    for colours, index in TAKE.items():
        outputs[index] = TAKE[tuple(sorted(order[c] for c in colours))]
    for c in range(5):
        outputs[TAKE_TWO + c] = TAKE_TWO + order[c]
        outputs[RETURN + c] = RETURN + order[c]
    return inputs, outputs
