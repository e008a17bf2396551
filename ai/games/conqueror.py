"""کشورگشا: camps owned decide the game; castles and pieces on the board are the means to hold them."""

from __future__ import annotations

from ai.knowledge import Knowledge
from rules.conqueror.model import ConquerorState


def _standing(state: ConquerorState) -> tuple[float, ...]:
    castles = [state.castles.count(seat) for seat in (0, 1)]
    on_board = [sum(state.pieces[seat]) for seat in (0, 1)]
    return tuple(state.scores[s] + 0.5 * castles[s] + 0.1 * on_board[s] for s in (0, 1))


# 0.42 of a level's iterations: at 0.5, سخت's moves in the first third of a game took 1.466 s p95 over 49 games
# against the greedy player, too near issue 15's 1.5 s (its moves are many and its play-outs long)
KNOWLEDGE = Knowledge(standing=_standing, spread=2.0, playout_depth=30, budget=0.42)
