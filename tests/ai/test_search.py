"""The computer players through the engine contract: a legal move in every kind of position of every game,
the same move for the same position, seed and level, and baselines that play legally too."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from ai import LEVELS, choose
from ai.baselines import greedy_move, random_move
from ai.games import KNOWLEDGE
from ai.search import _iterate, _Node, search
from rules import GAMES, rng

CASES = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, game in GAMES.items()
    for players in sorted({game.min_players, min(4, game.max_players)})
]
POSITIONS = 6  # spread over a seeded random game


def positions(game_id: str, players: int, seed: int) -> list[tuple[Any, int]]:
    """(state, seat to act) at evenly spread moments of one random game."""
    game = GAMES[game_id]
    rnd = random.Random(seed)
    state = game.setup(players, seed)
    seen: list[tuple[Any, int]] = []
    while seats := game.to_act(state):
        seat = rnd.choice(seats)
        seen.append((state, seat))
        state = game.apply(state, seat, rnd.choice(list(game.legal_actions(state, seat)))).state
    step = max(1, len(seen) // POSITIONS)
    return seen[::step][:POSITIONS]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_search_plays_a_legal_move_everywhere(game_id: str, players: int) -> None:
    game, knowledge = GAMES[game_id], KNOWLEDGE[game_id]
    for state, seat in positions(game_id, players, seed=3):
        action = search(game, state, seat, knowledge.iterations(60), seed=11, knowledge=knowledge)
        assert game.encode(action) in {game.encode(a) for a in game.legal_actions(state, seat)}
        game.apply(state, seat, action)  # and it applies


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_same_position_seed_and_level_give_the_same_move(game_id: str, players: int) -> None:
    for state, seat in positions(game_id, players, seed=4)[1:4]:
        first = choose(game_id, state, seat, "easy", seed=99)
        assert choose(game_id, state, seat, "easy", seed=99) == first


def test_a_temperature_draws_among_the_moves_weighed_and_repeats_for_a_seed() -> None:
    """A weaker level sometimes takes another move than the most visited, yet a seed still fixes the move."""
    game, knowledge = GAMES["splendor"], KNOWLEDGE["splendor"]
    state, seat = positions("splendor", 2, seed=6)[1]
    legal = {game.encode(a) for a in game.legal_actions(state, seat)}
    best = [game.encode(search(game, state, seat, 60, seed, knowledge)) for seed in range(12)]
    drawn = [game.encode(search(game, state, seat, 60, seed, knowledge, temperature=1.0)) for seed in range(12)]
    assert set(drawn) <= legal
    assert sum(b != d for b, d in zip(best, drawn, strict=True)) >= 3
    assert len(set(drawn)) > len(set(best))
    again = [game.encode(search(game, state, seat, 60, seed, knowledge, temperature=1.0)) for seed in range(12)]
    assert again == drawn


def _last_listed(state: Any, seat: int, legal: Sequence[Any], draw: int) -> int:
    return len(legal) - 1


def test_a_node_adds_the_move_the_game_picks_first_where_the_game_asks_for_it() -> None:
    """With ``expand`` a node's first move tried is the one it picks, not one drawn at random."""
    game = GAMES["conqueror"]
    state, seat = positions("conqueror", 2, seed=3)[2]
    legal = list(game.legal_actions(state, seat))
    assert len(legal) > 3
    ordered = replace(KNOWLEDGE["conqueror"], expand=_last_listed)
    at_random = replace(ordered, expand=None)
    assert {search(game, state, seat, 1, seed, ordered) for seed in range(8)} == {legal[-1]}
    assert len({search(game, state, seat, 1, seed, at_random) for seed in range(8)}) > 1


def _widest(game_id: str, widening: float | None) -> float:
    """The most moves any node below the root tried, over the root of its visits, after 300 iterations."""
    game = GAMES[game_id]
    state, seat = positions(game_id, 2, seed=3)[2]
    knowledge = replace(KNOWLEDGE[game_id], widening=widening)
    root, generator = _Node(actor=-1), rng.mix(5)
    for _ in range(300):
        generator, sample_seed = rng.next_state(generator)
        generator = _iterate(game, game.determinize(state, seat, sample_seed), seat, root, generator, knowledge, None)
    widest, nodes = 0.0, list(root.children.values())
    while nodes:
        node = nodes.pop()
        if node.children:
            widest = max(widest, len(node.children) / math.sqrt(node.visits))
        nodes.extend(node.children.values())
    return widest


def test_progressive_widening_keeps_a_node_to_a_few_moves_more_with_each_visit() -> None:
    """With ``widening`` w a node below the root has tried at most ceil(w * sqrt(visits)) moves (کشورگشا hides
    nothing, so every sample offers a node the same moves); without it, every move once before any twice."""
    # its k-th move came at some v visits with k <= ceil(sqrt(v)) < sqrt(v) + 1, and it has v + 1 or more now
    assert _widest("conqueror", 1.0) < math.sqrt(2)
    assert _widest("conqueror", None) > 2.0


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_baselines_play_legal_moves(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for state, seat in positions(game_id, players, seed=5):
        legal = {game.encode(a) for a in game.legal_actions(state, seat)}
        assert game.encode(random_move(game_id, state, seat, 1)) in legal
        assert game.encode(greedy_move(game_id, state, seat, 1)) in legal


def test_levels_grow_in_budget_and_in_how_surely_they_take_the_best_move() -> None:
    budgets = [LEVELS[level].iterations for level in ("easy", "medium", "hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    temperatures = [LEVELS[level].temperature for level in ("easy", "medium", "hard")]
    assert temperatures == sorted(temperatures, reverse=True) and len(set(temperatures)) == 3
    assert LEVELS["hard"].temperature == 0  # سخت always takes the move its search found best
    assert [level.title for level in LEVELS.values()] == ["آسان", "متوسط", "سخت"]


def test_a_crowded_table_gets_fewer_iterations_a_move() -> None:
    knowledge = KNOWLEDGE["condottiere"]
    assert knowledge.iterations(1200, 4) < knowledge.iterations(1200, 3) < knowledge.iterations(1200, 2)
    splendor = KNOWLEDGE["splendor"]
    assert splendor.iterations(1200, 4) == splendor.iterations(1200, 2)  # only where it was measured to be needed


def test_only_a_two_player_table_is_searched_with_widening() -> None:
    splendor = KNOWLEDGE["splendor"]
    assert splendor.widening is not None and splendor.at_table(2) is splendor
    assert splendor.at_table(3).widening is None and splendor.at_table(4).widening is None
    assert splendor.at_table(4).expand is None  # the order it adds moves in is widening's too
