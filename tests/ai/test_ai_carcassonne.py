"""قلعه رودخان's judgement (issue 28): a feature's chance to be completed counts the tiles left that fit its
holes, so a feature no tile left can close is worth its end score only."""

from __future__ import annotations

import random
from collections import Counter

from ai.games import carcassonne as knowledge
from rules import GAMES
from rules.carcassonne.board import board_of
from rules.carcassonne.model import CarcassonneState


def states(players: int, seed: int) -> list[CarcassonneState]:
    """Every state along one seeded random game."""
    game, rnd = GAMES["carcassonne"], random.Random(seed)
    state, seen = game.setup(players, seed), []
    while seats := game.to_act(state):
        seen.append(state)
        state = game.apply(state, seats[0], rnd.choice(list(game.legal_actions(state, seats[0])))).state
    return seen


def test_the_chance_is_none_for_a_hole_no_tile_left_fits_and_certain_for_a_closed_feature() -> None:
    dead = closed = 0
    for state in states(2, 3)[::4]:
        board, pile, left = board_of(state.placed), Counter(state.pile), len(state.pile)
        for root in {board.find(node) for node in range(len(board.parent))}:
            if root not in board.open:
                continue
            chance = knowledge._chance(board, root, pile, left, left / 2)
            assert 0.0 <= chance <= 1.0
            holes = knowledge._holes(board, root)
            if board.open[root] == 0:
                closed += 1
                assert chance == 1.0 and not holes
            elif any(not any(pile[t] for t in knowledge.FITTING[board.frontier[h]]) for h in holes):
                dead += 1
                assert chance == 0.0
            else:
                assert holes and (chance > 0.0 or left == 0)
    assert dead and closed
