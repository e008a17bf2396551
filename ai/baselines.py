"""The players the computer players are measured against (``bench/ai_strength.py``): uniform random, and a
greedy player that looks one move ahead.

The greedy player judges each of its legal actions by the position right after it, on a sample of what it
cannot see (``determinize``), with the same rough score the search uses (``ai.knowledge``): it plays the move
that looks best now and never thinks about the reply.
"""

from __future__ import annotations

from typing import Any

from ai.games import KNOWLEDGE
from ai.knowledge import result_values
from rules import GAMES, rng


def random_move(game_id: str, state: Any, seat: int, seed: int) -> Any:
    actions = list(GAMES[game_id].legal_actions(state, seat))
    return actions[rng.randbelow(rng.mix(seed), len(actions))[1]]


def greedy_move(game_id: str, state: Any, seat: int, seed: int) -> Any:
    game, knowledge = GAMES[game_id], KNOWLEDGE[game_id]
    sample = game.determinize(state, seat, rng.mix(seed))
    best: tuple[float, int] | None = None
    chosen = 0
    actions = list(game.legal_actions(state, seat))
    generator = rng.mix(seed + 1)
    for index, action in enumerate(actions):
        after = game.apply(sample, seat, action).state
        outcome = game.outcome(after)
        values = result_values(outcome, len(outcome.scores)) if outcome else knowledge.values(after)
        generator, tie = rng.randbelow(generator, 1 << 30)  # equal moves: a seeded pick, not the first listed
        key = (values[seat], tie)
        if best is None or key > best:
            best, chosen = key, index
    return actions[chosen]
