"""What the search knows of a game beyond its rules: how far to play a sample out and who is ahead then.

Random play-outs to the very end are long and noisy in most of our games (a قلعه رودخان game is 72 turns), so
a play-out stops after ``playout_depth`` plies and the position is judged by ``standing``: a rough score per
seat (points, camps, provinces, …) that ``values`` turns into a share of the win. One small module per game
in ``ai/games/`` says it; nothing else in ``ai/`` knows any game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules import Outcome

Policy = Callable[[Any, int, Sequence[Any], int], int]  # (state, seat, legal, draw in [0, 2**30)) -> index
# (state, legal) -> the priors of the legal moves and each seat's share of the win: a learned policy and value
Guide = Callable[[Any, Sequence[Any]], tuple[Sequence[float], Sequence[float]]]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """``standing(state)``: a score per seat, higher is better; ``spread``: how many score points make one
    seat clearly ahead of another (a softmax temperature); ``playout_depth``: plies before judging;
    ``budget``: the share of a level's iterations this game gets, for games whose moves cost more to list
    and apply (a level's moves then take about the same time in every game); ``candidates``: for games
    with very many moves a turn, how many of them, the best by the standing right after each, the search
    weighs at all (None: every move); ``crowd``: how much dearer an iteration is for each seat beyond two
    (more hidden hands to deal, more plies in a play-out's round), taken off the budget so that a move takes
    about as long at a full table as at two; ``policy``: how a play-out picks a move, ``policy(state, seat,
    legal, draw)`` the index of one of ``legal`` given a random ``draw`` in [0, 2**30) (None: uniformly at
    random), for games whose random moves are too unlike play for the position they reach to say much;
    ``expand``: how a node picks the next of its untried moves, called as the policy is (None: at random), for
    games with dozens of moves a ply, where a node below the root is visited a few times and so tries only a
    few of them: the best first; ``widening``: with it, a node below the root tries a new move only while it
    has fewer than ``widening`` times the square root of its visits (progressive widening; None: every move
    once before any twice), so that the few visits of a reply deep in the tree go to the replies ``expand``
    puts first, not one each to every move; at two players only (``at_table``); ``guide``: a policy and value
    learned by self-play, with which a guided level searches by PUCT (``ai.puct``) instead, at two players only."""

    standing: Callable[[Any], Sequence[float]]
    spread: float
    playout_depth: int
    budget: float = 1.0
    candidates: int | None = None
    crowd: float = 0.0
    policy: Policy | None = None
    expand: Policy | None = None
    widening: float | None = None
    guide: Guide | None = None

    def at_table(self, players: int) -> Knowledge:
        """The knowledge a table of ``players`` is searched with: beyond two players, where three replies come
        between a seat's moves, no widening and no ``expand`` order for it (issue 28: اسپلندور widened at four
        won 58.3% of 48 deals against frozen سخت, where it did not won 68.8%), and no guide, learned at two."""
        if players == 2 or (self.widening is None and self.guide is None):
            return self
        return replace(self, widening=None, expand=None, guide=None)

    def iterations(self, level_iterations: int, players: int = 2) -> int:
        share = self.budget / (1.0 + self.crowd * max(0, players - 2))
        return max(1, round(level_iterations * share))

    def values(self, state: Any) -> tuple[float, ...]:
        """Each seat's share of the win as the position stands, summing to 1."""
        return win_shares(self.standing(state), self.spread)


def win_shares(scores: Sequence[float], spread: float) -> tuple[float, ...]:
    """Scores made shares of the win summing to 1 (a softmax): ``spread`` points ahead is e times the share."""
    top = max(scores)
    weights = [math.exp((s - top) / spread) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def result_values(outcome: Outcome, players: int) -> tuple[float, ...]:
    """A finished game: the win shared among the winners (a draw gives everyone an equal part)."""
    share = 1.0 / len(outcome.winners)
    return tuple(share if seat in outcome.winners else 0.0 for seat in range(players))
