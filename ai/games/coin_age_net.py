"""عصر سکه‌ها as a network reads it: the position from the seat to act as numbers, and each action as an output
of the policy (``ai.net``'s network gives a prior over actions and a value).

The inputs (``INPUTS``) are, per space, which coin sizes lie in its stack and whose they are (a stack holds a size
at most once: a coin goes only on a larger one, a stack moves only to an empty space) and its top coin; per
region, the spaces each seat holds and whose points are doubled there; each seat's supply; the coins in the
hand, favourable or not; what the turn still allows; then the hand standing (``ai.games.coin_age``) for each seat
and its logit, which the value head starts from. "Mine" is the seat to act's side.

The outputs (``OUTPUTS``) name an action by its kind and place: a placement by size and space, a move by its two
spaces, a capture by its space, a payment by size, and the end of the turn.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ai.games.coin_age import KNOWLEDGE, REGION
from ai.knowledge import Guide
from ai.net import Index, Net, Vector
from ai.net import guide as net_guide
from rules.coin_age.board import BOARD
from rules.coin_age.model import CoinAction, CoinAgeState

SPACES = BOARD.size
REGIONS = tuple(region.id for region in BOARD.regions)
PLACE = 0  # + size * SPACES + space
MOVE = PLACE + 4 * SPACES  # + from * SPACES + to
CAPTURE = MOVE + SPACES * SPACES  # + space
PAY = CAPTURE + SPACES  # + size
END = PAY + 4
OUTPUTS = END + 1
SPACE = 16  # per size whether my coin or theirs is in the stack, then the top coin's size, mine or theirs
INPUTS = SPACES * SPACE + 4 * len(REGIONS) + 8 + 8 + 4 + 2 + 2 + 1
_SCALE = 20.0  # points: the standing's terms are read over this


def action_index(action: CoinAction) -> int:
    """The policy output of ``action``."""
    kind = action.kind
    if kind == "place":
        return PLACE + action.size * SPACES + action.space
    if kind == "move":
        return MOVE + action.space * SPACES + action.to
    if kind == "capture":
        return CAPTURE + action.space
    if kind == "pay":
        return PAY + action.size
    return END


def outputs(state: CoinAgeState, legal: Sequence[CoinAction]) -> list[Index]:
    """The policy outputs of the legal moves."""
    return [action_index(action) for action in legal]


def encode(state: CoinAgeState) -> Vector:
    """The position as the seat to act sees it, ``INPUTS`` numbers (nothing in it is hidden from that seat)."""
    me = state.turn
    out = [0.0] * INPUTS
    held = {region: [0, 0] for region in REGIONS}
    for space, stack in enumerate(state.stacks):
        at = space * SPACE
        for coin in stack:
            out[at + 2 * (coin >> 1) + (0 if coin & 1 == me else 1)] = 1.0
        if stack:
            top = stack[-1]
            mine = top & 1 == me
            out[at + 8 + 2 * (top >> 1) + (0 if mine else 1)] = 1.0
            held[REGION[space]][0 if mine else 1] += 1
    at = SPACES * SPACE
    for region in REGIONS:
        ours, theirs = held[region]
        out[at : at + 4] = [ours / 4, theirs / 4, float(ours > theirs), float(theirs > ours)]
        at += 4
    for seat in (me, 1 - me):
        out[at : at + 4] = [count / 4 for count in state.supply[seat]]
        at += 4
    for coin in state.hand:
        out[at + (coin >> 1) + (0 if coin & 1 == me else 4)] += 1.0
    at += 8
    out[at : at + 4] = [state.places_left / 3, state.moves_left, state.captures_left, float(state.can_pay)]
    at += 4
    out[at : at + 2] = [sum(1 for stack in state.stacks if not stack) / SPACES, float(me == 0)]
    at += 2
    standing = KNOWLEDGE.standing(state)
    mine_now, theirs_now = standing[me], standing[1 - me]
    out[at : at + 3] = [mine_now / _SCALE, theirs_now / _SCALE, (mine_now - theirs_now) / (2 * KNOWLEDGE.spread)]
    return np.array(out, dtype=np.float32)


def guide(net: Net) -> Guide:
    """The network as ``ai.puct`` asks for it: the priors of the legal moves, and each seat's share of the win."""
    return net_guide(net, encode, outputs)
