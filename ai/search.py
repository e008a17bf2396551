"""Information-set Monte Carlo tree search with determinization (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), over the engine contract only.

Each iteration samples a full state the searching seat cannot tell from the real one
(``Game.determinize``), walks down one shared tree with it, choosing by UCB among the actions legal in that
sample (each child counts how often it was available, so an action that exists in few samples is not
favoured for its few lucky visits), adds one node (an untried action at random, or the one the game picks
first), plays the sample out for a few plies, and judges the position (``ai.knowledge``). Statistics are
shared across samples because nodes are keyed by actions, not states. Budgets are iterations, not seconds,
and every choice comes from a seeded ``rules.rng`` generator: a position, a seed and a budget always give the
same move.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.knowledge import Knowledge, Policy, result_values
from rules import Game, rng

EXPLORATION = 0.7  # UCB's constant for rewards in [0, 1]
AnyGame = Game[Any, Any, Any]


@dataclass(slots=True, eq=False)
class _Node:
    """The move into this node was chosen by ``actor``; ``total`` sums that seat's rewards through it."""

    actor: int
    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[Hashable, _Node] = field(default_factory=dict)

    def score(self) -> float:
        return self.total / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def search(
    game: AnyGame, state: Any, seat: int, iterations: int, seed: int, knowledge: Knowledge, temperature: float = 0.0
) -> Any:
    """The action ``seat`` should take in ``state`` (it must be among the seats to act): the root's most visited
    move, or with a ``temperature`` one drawn with odds visits ** (1 / temperature), so that a weaker level
    sometimes takes a move it judged nearly as good, and now and then a worse one."""
    actions = list(game.legal_actions(state, seat))
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do")
    if len(actions) == 1:
        return actions[0]
    root = _Node(actor=-1)
    generator = rng.mix(seed)
    pruned: set[Any] | None = None
    if knowledge.candidates is not None and len(actions) > knowledge.candidates:
        generator, sample_seed = rng.next_state(generator)
        actions = _promising(game, game.determinize(state, seat, sample_seed), seat, actions, knowledge)
        pruned = set(actions)
    for _ in range(iterations):
        generator, sample_seed = rng.next_state(generator)
        sample = game.determinize(state, seat, sample_seed)
        generator = _iterate(game, sample, seat, root, generator, knowledge, pruned)
    legal = set(actions)
    tried = [(n.visits, -i, a) for i, (a, n) in enumerate(root.children.items()) if a in legal]
    if temperature <= 0:
        return max(tried)[2]
    most = max(visits for visits, _, _ in tried)
    odds = [(visits / most) ** (1 / temperature) for visits, _, _ in tried]  # at most 1: no overflow
    _, draw = rng.randbelow(generator, 1 << 30)
    left = draw / (1 << 30) * sum(odds)
    for weight, (_, _, action) in zip(odds, tried, strict=True):
        left -= weight
        if left < 0:
            return action
    return tried[-1][2]


def _promising(game: AnyGame, sample: Any, seat: int, actions: list[Any], knowledge: Knowledge) -> list[Any]:
    """The ``knowledge.candidates`` moves that look best right after they are made (in ``sample``), in the
    order listed: with hundreds of moves a turn (a tile's every place, turn and meeple), an iteration budget
    spread over all of them tries each once or twice at random and plays worse than this one look."""
    judged = []
    for index, action in enumerate(actions):
        after = game.apply(sample, seat, action).state
        outcome = game.outcome(after)
        values = result_values(outcome, len(outcome.scores)) if outcome else knowledge.values(after)
        judged.append((values[seat], -index))
    assert knowledge.candidates is not None
    kept = sorted(-i for _, i in sorted(judged, reverse=True)[: knowledge.candidates])
    return [actions[i] for i in kept]


def _iterate(
    game: AnyGame,
    state: Any,
    seat: int,
    root: _Node,
    generator: int,
    knowledge: Knowledge,
    at_root: set[Any] | None,
) -> int:
    """One iteration on one sample, choosing at the root only among ``at_root`` (None: any move); returns
    the generator's new state."""
    node, path, actor = root, [], seat
    while True:
        legal = game.legal_actions(state, actor)
        if node is root and at_root is not None:
            legal = [a for a in legal if a in at_root]
        untried: list[Any] = []
        chosen: Any = None
        chosen_node: _Node | None = None
        best = -1.0
        for action in legal:
            child = node.children.get(action)
            if child is None:
                untried.append(action)
                continue
            child.available += 1
            value = child.score()
            if value > best:
                best, chosen, chosen_node = value, action, child
        if (
            untried
            and chosen_node is not None
            and node is not root
            and not _widens(node, len(legal) - len(untried), knowledge)
        ):
            untried = []  # this node has tried as many moves as its visits allow: the best of them, by UCB
        if untried:
            generator, index = _pick(knowledge.expand, state, actor, untried, generator)
            chosen = untried[index]
            chosen_node = node.children[chosen] = _Node(actor=actor, available=1)
        assert chosen_node is not None
        state = game.apply(state, actor, chosen).state
        path.append(chosen_node)
        node = chosen_node
        seats = game.to_act(state)
        if untried or not seats:
            break
        actor = seats[0]
    generator, values = play_out(game, state, generator, knowledge)
    for visited in path:
        visited.visits += 1
        visited.total += values[visited.actor]
    return generator


def _widens(node: _Node, tried: int, knowledge: Knowledge) -> bool:
    """Whether ``node``, with ``tried`` of the moves legal here already tried, may try one more: always, or
    with the game's ``widening`` while fewer than that times the square root of its visits."""
    return knowledge.widening is None or tried < math.ceil(knowledge.widening * math.sqrt(node.visits))


def play_out(game: AnyGame, state: Any, generator: int, knowledge: Knowledge) -> tuple[int, Sequence[float]]:
    """Plies up to the knowledge's depth, at random or by the game's policy, then the result, or the position
    judged."""
    for _ in range(knowledge.playout_depth):
        seats = game.to_act(state)
        if not seats:
            break
        legal = game.legal_actions(state, seats[0])
        generator, index = _pick(knowledge.policy, state, seats[0], legal, generator)
        state = game.apply(state, seats[0], legal[index]).state
    outcome = game.outcome(state)
    if outcome is not None:
        return generator, result_values(outcome, len(outcome.scores))
    return generator, knowledge.values(state)


def _pick(policy: Policy | None, state: Any, seat: int, legal: Sequence[Any], generator: int) -> tuple[int, int]:
    """The generator's new state and the index of the move ``policy`` picks among ``legal`` (None: at random)."""
    if policy is None:
        return rng.randbelow(generator, len(legal))
    generator, draw = rng.randbelow(generator, 1 << 30)
    return generator, policy(state, seat, legal, draw)
