"""What both of اسپلندور's readings of a position take from it: the stage of the game, what a bonus of each colour
is worth, and how many gems a card still lacks.

The judgement of a position (``ai.games.splendor``) and the move prior (``ai.games.splendor_prior``) weigh the
same things, so they read them alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.splendor.data import COST
from rules.splendor.model import WINNING_POINTS, SplendorState

ENGINE = 0.55  # a bonus early on, in points; it falls to a fifth of that as the leader nears the end
DEMAND = 0.25  # and more in a colour the table's cards ask for (per share of that colour in their cost)
REACH = 0.55  # a card's worth (its points and bonus) per turn nearer: worth times REACH ** turns away
NOBLE = 0.8  # a noble's points times NOBLE ** (bonuses still missing), summed over the nobles on the table
GEMS = range(5)


def stage(state: SplendorState) -> int:
    """The opening, the middle from 6 points, the end from 11: by the leader's points."""
    leader = max(state.points)
    return (leader >= 6) + (leader >= 11)


def colour_worth(state: SplendorState, table: Sequence[int]) -> list[float]:
    """A bonus of each colour, in points: more early on, and in the colours the face-up ``table`` cards ask for."""
    demand = [0.0] * 5
    for card in table:
        for c in GEMS:
            demand[c] += COST[card][c]
    whole = sum(demand) or 1.0
    phase = max(0.2, 1.0 - max(state.points) / WINNING_POINTS)
    return [phase * (ENGINE + DEMAND * 5 * demand[c] / whole) for c in GEMS]


def lacking(card: int, have: Sequence[int], gold: int) -> int:
    """The gems ``card`` costs beyond what a seat ``have`` (bonuses and gems, by colour), less its ``gold``: 0 or
    less means it can buy the card now."""
    cost = COST[card]
    short = 0
    for c in GEMS:
        lack = cost[c] - have[c]
        if lack > 0:
            short += lack
    return short - gold


def turns_away(short: int) -> int:
    """The turns of taking three gems that ``short`` lacking gems still take."""
    return 0 if short <= 0 else (short + 2) // 3
