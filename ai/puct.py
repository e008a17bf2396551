"""Tree search guided by a policy and a value (PUCT, as AlphaZero: Silver et al. 2017), over hidden information by
determinization as ``ai.search`` does.

Each simulation takes one of ``SAMPLES`` states the searching seat cannot tell from the real one, in turn, walks
down one tree shared by all samples (nodes keyed by actions), at each node taking the legal move with the best
Q + c · prior · √(visits) / (1 + its visits), and at the first node not yet expanded asks the ``Guide`` for the
priors of its moves and the value of its position; with ``mixed_with`` (a game's ``Knowledge``) that value is
mixed with a short play-out's, as ``ai.search`` plays one (AlphaGo's leaf evaluation: Silver et al. 2016). The
value is backed up to every node on the path, each for the seat that chose the move into it. A move never visited
counts its parent's mean as its Q (first-play urgency at the parent's value), so a strong prior is tried before a
weak one; that mean is turned for the other seat, so the search is for two seats. Seeded like ``ai.search``: a
position, a seed and a number of simulations always give the same move.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.knowledge import Guide, Knowledge, result_values
from ai.search import play_out  # one play-out for both searches
from rules import Game, rng

AnyGame = Game[Any, Any, Any]
C_PUCT = 1.5
SAMPLES = 64  # states dealt for the hidden cards, used in turn: dealing one cost about a fifth of a simulation
MIX = 0.5  # a play-out's share of a leaf's value, the guide's the rest (AlphaGo's lambda)


@dataclass(slots=True, eq=False)
class _Node:
    """The move into this node was chosen by ``actor``; ``total`` sums that seat's values through it."""

    actor: int
    prior: float
    visits: int = 0
    total: float = 0.0
    children: dict[Hashable, _Node] | None = None


@dataclass(slots=True)
class Searched:
    """The move chosen and the visits of each root move (what self-play learns the policy from)."""

    action: Any
    visits: dict[Any, int] = field(default_factory=dict)
    value: float = 0.5  # the root's mean value for the searching seat


def search(
    game: AnyGame,
    state: Any,
    seat: int,
    simulations: int,
    seed: int,
    guide: Guide,
    temperature: float = 0.0,
    noise: float = 0.0,
    exploration: float = C_PUCT,
    mixed_with: Knowledge | None = None,
) -> Searched:
    """Search from ``state`` for ``seat`` (a seat to act). The move is the most visited, or with a
    ``temperature`` one drawn with odds visits ** (1 / temperature); ``noise`` mixes that share of a random
    spread (exponential draws, normalised) into the root's priors, for self-play to try moves its policy
    would not; ``exploration`` is PUCT's c; with ``mixed_with``, a leaf's value is ``MIX`` of a play-out's."""
    actions = list(game.legal_actions(state, seat))
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do")
    if len(actions) == 1:
        return Searched(actions[0], {actions[0]: 0})
    generator = rng.mix(seed)
    root = _Node(actor=seat, prior=1.0)
    samples = []
    for _ in range(min(simulations, SAMPLES)):
        generator, sample_seed = rng.next_state(generator)
        samples.append(game.determinize(state, seat, sample_seed))
    for index in range(simulations):
        generator = _simulate(game, samples[index % len(samples)], root, guide, exploration, mixed_with, generator)
        if index == 0 and noise > 0 and root.children:
            generator = _add_noise(root, noise, generator)
    assert root.children is not None
    legal = set(actions)
    tried = [(n.visits, -i, a) for i, (a, n) in enumerate(root.children.items()) if a in legal]
    visits = {a: v for v, _, a in tried}
    value = root.total / root.visits if root.visits else 0.5
    if temperature <= 0:
        return Searched(max(tried)[2], visits, value)
    most = max(v for v, _, _ in tried) or 1
    odds = [(v / most) ** (1 / temperature) for v, _, _ in tried]
    generator, draw = rng.randbelow(generator, 1 << 30)
    left = draw / (1 << 30) * sum(odds)
    for weight, (_, _, action) in zip(odds, tried, strict=True):
        left -= weight
        if left < 0:
            return Searched(action, visits, value)
    return Searched(tried[-1][2], visits, value)


def _add_noise(root: _Node, share: float, generator: int) -> int:
    assert root.children is not None
    draws: list[float] = []
    for _ in root.children:
        generator, draw = rng.randbelow(generator, 1 << 30)
        draws.append(-math.log((draw + 1) / ((1 << 30) + 1)))
    whole = sum(draws)
    for child, weight in zip(root.children.values(), draws, strict=True):
        child.prior = (1 - share) * child.prior + share * weight / whole
    return generator


def _simulate(
    game: AnyGame,
    state: Any,
    root: _Node,
    guide: Guide,
    exploration: float,
    mixed_with: Knowledge | None,
    generator: int,
) -> int:
    """One walk down the tree and the value backed up; the generator's new state (for the play-out)."""
    node, path = root, [root]
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            values: Sequence[float] = result_values(outcome, len(outcome.scores))
            break
        actor = game.to_act(state)[0]
        legal = game.legal_actions(state, actor)
        if node.children is None:
            priors, values = guide(state, legal)
            node.children = {a: _Node(actor, p) for a, p in zip(legal, priors, strict=True)}
            if mixed_with is not None:
                generator, played = play_out(game, state, generator, mixed_with)
                values = [(1 - MIX) * v + MIX * p for v, p in zip(values, played, strict=True)]
            break
        parent_q = node.total / node.visits if node.visits else 0.5
        if node.actor != actor:
            parent_q = 1.0 - parent_q  # two seats: the other's mean is this one's loss
        lift = exploration * math.sqrt(node.visits)
        children = node.children
        best, chosen, chosen_node = -1.0, None, None
        for action in legal:
            child = children.get(action)
            if child is None:  # a move this sample allows that the node's first did not
                child = children[action] = _Node(actor, 1.0 / len(legal))
            q = child.total / child.visits if child.visits else parent_q
            score = q + lift * child.prior / (1 + child.visits)
            if score > best:
                best, chosen, chosen_node = score, action, child
        assert chosen_node is not None
        state = game.apply(state, actor, chosen).state
        node = chosen_node
        path.append(node)
    for visited in path:
        visited.visits += 1
        visited.total += values[visited.actor]
    return generator
