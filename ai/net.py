"""A small network learned by self-play, as the guided search (``ai.puct``) asks for it: two hidden layers, a
policy over a game's outputs and a value. What is a game's own (its inputs, which output names which move) lives
in its module of ``ai/games/`` (``splendor_net``, ``coin_age_net``); the network, reading it from its file and
turning its outputs into priors are the same for every game, here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ai.knowledge import Guide

Vector = npt.NDArray[np.float32]
Index = int | tuple[int, ...]  # a move's output, or several whose logits add (a Splendor return, token by token)
TINY = 1e-30  # a smaller weight is taken as zero (``flushed``)


class Net:
    """Two hidden layers of ReLU units, a policy head (logits over a game's outputs) and a value head (tanh: the
    seat to act's expected result, from -1 a loss to 1 a win) that corrects the game's hand judgement: its logit,
    the last input, is added before the tanh, so a network that has learned nothing judges as that does."""

    def __init__(self, weights: dict[str, Vector]) -> None:
        self.w1, self.b1 = weights["w1"], weights["b1"]
        self.w2, self.b2 = weights["w2"], weights["b2"]
        self.wp, self.bp = weights["wp"], weights["bp"]
        self.wv, self.bv = weights["wv"], weights["bv"]

    def __call__(self, inputs: Vector) -> tuple[Vector, float]:
        h = np.maximum(inputs @ self.w1 + self.b1, 0)
        h = np.maximum(h @ self.w2 + self.b2, 0)
        logits: Vector = h @ self.wp + self.bp
        return logits, float(np.tanh(h @ self.wv + self.bv + inputs[-1])[0])


def flushed(weights: Vector) -> Vector:
    """``weights`` with every one smaller than ``TINY`` made zero. Training's weight decay shrinks the weights of
    inputs that are seldom set towards float32's subnormal range (اسپلندور's net6: 14,070 of 71,111 under 10⁻²⁰),
    and an x86 core takes a slow path for every subnormal operand or product: net6's forward pass took 118 µs,
    flushed 9 µs. Such a weight moves no prior and no value: its products vanish beside the sums they join (the
    shipped guide's priors and values on 1,387 positions of 20 games were the same to the bit)."""
    return np.where(np.abs(weights) < TINY, np.float32(0), weights).astype(np.float32)


def load(file: IO[bytes]) -> Net:
    """The network stored in ``file`` (``numpy.savez``: w1, b1, w2, b2, wp, bp, wv, bv), its tiny weights
    ``flushed``."""
    with np.load(file) as stored:
        return Net({name: flushed(stored[name].astype(np.float32)) for name in stored.files})


def sharers(indices: Sequence[Index]) -> list[int]:
    """Per move (by its output), how many of the moves name the same single output: a Splendor buy and its gold
    variants share one, whose weight the policy splits among them (a move of several outputs is its own)."""
    named = Counter(i for i in indices if isinstance(i, int))
    return [named[i] if isinstance(i, int) else 1 for i in indices]


def priors(logits: Vector, indices: Sequence[Index]) -> list[float]:
    """The policy's share of each move (by its outputs, summing to 1): a softmax over their logits, an output that
    several moves share split evenly among them."""
    values = logits.tolist()  # one conversion, not one numpy scalar a move
    raw = [float(logits[list(i)].sum()) if isinstance(i, tuple) else values[i] for i in indices]
    top = max(raw)
    spread = np.exp(np.array(raw) - top).tolist()
    weights = [e / n for e, n in zip(spread, sharers(indices), strict=True)]
    total = sum(weights)
    return [w / total for w in weights]


def guide(net: Net, encode: Callable[[Any], Vector], outputs: Callable[[Any, Sequence[Any]], list[Index]]) -> Guide:
    """The network as ``ai.puct`` asks for it, for a two-player game whose state names the seat to act ``turn``:
    the priors of the legal moves, and each seat's share of the win."""

    def judged(state: Any, legal: Sequence[Any]) -> tuple[list[float], tuple[float, float]]:
        logits, value = net(encode(state))
        share = (1.0 + value) / 2
        return priors(logits, outputs(state, legal)), (share, 1.0 - share) if state.turn == 0 else (1.0 - share, share)

    return judged
