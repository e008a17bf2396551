"""اسپلندور: play-outs played as a plain player plays, and a position judged as its points plus what it is worth.

Random play-outs say little in Splendor: random moves reserve and hoard far more than they buy, so the
position 16 random plies on is mostly noise. Play-outs here follow a plain player's policy for 4 plies (buy
the best card that can be bought, else take the gems the nearest good card lacks), and the position is then
judged by what a player weighs: points; the engine (bonuses, worth more early and more in the colours the
table's cards ask for); how near the seat is to the cards it could buy next (the best two, discounted by the
turns of gem-taking still needed); how near to each noble; and the turn.

Measured (issue 28; ``bench/ai_strength.py --game splendor``, 40 two-player games, seats rotated, against
``frozen-*``, today's player at the same budget): this judgement with no play-out, متوسط 42.5%; the policy's
play-outs (8 plies) with the old judgement, 62.5%; both, 82.5% (16 plies: 82.5%, twice the time; 4 plies:
85.0%, the time of the old random play-outs); سخت with both at 4 plies vs frozen سخت 90.0% (95% CI 76.9–96.0),
p95 0.548 s a move. Twice the iterations (``budget=2.0``) spend the time that frees: four players, سخت vs three
frozen سخت, 60.0% of 20 games (CI 38.7–78.1; a quarter is an even share), p95 1.055 s, max 1.320 s.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.knowledge import Knowledge
from rules.splendor.data import BONUS, COST, NOBLE_POINTS, NOBLE_REQUIRES, POINTS
from rules.splendor.model import TOKEN_LIMIT, WINNING_POINTS, SplendorAction, SplendorState

ENGINE = 0.55  # a bonus early on, in points; it falls to a fifth of that as the leader nears the end
DEMAND = 0.25  # and more in a colour the table's cards ask for (per share of that colour in their cost)
REACH = 0.55  # a card's worth (its points and bonus) per turn nearer: worth times REACH ** turns away
SECOND = 0.4  # the second-best card within reach counts this much of its worth
NOBLE = 0.8  # a noble's points times NOBLE ** (bonuses still missing), summed over the nobles on the table
TOKEN = 0.08  # a gem held, beyond what it does for the reach of cards; gold twice that
TEMPO = 0.4  # the seat about to act is this much ahead: a turn is worth about one bought card's progress
GEMS = range(5)


def _standing(state: SplendorState) -> tuple[float, ...]:
    seats = range(len(state.points))
    table = [card for row in state.rows for card in row if card]
    demand = [0.0] * 5
    for card in table:
        for c in GEMS:
            demand[c] += COST[card][c]
    whole = sum(demand) or 1.0
    leader = max(state.points)
    phase = max(0.2, 1.0 - leader / WINNING_POINTS)
    bonus_worth = [phase * (ENGINE + DEMAND * 5 * demand[c] / whole) for c in GEMS]
    scores = []
    for seat in seats:
        bonus, tokens = state.bonuses[seat], state.tokens[seat]
        gold = tokens[5]
        score = float(state.points[seat]) + TOKEN * (sum(tokens) + gold)
        score += sum(bonus_worth[c] * bonus[c] for c in GEMS)
        for noble in state.nobles:
            missing = sum(max(0, need - have) for need, have in zip(NOBLE_REQUIRES[noble], bonus, strict=False))
            score += NOBLE_POINTS[noble] * NOBLE**missing
        best = second = 0.0
        for card in (*table, *state.reserved[seat]):
            cost = COST[card]
            short = 0
            for c in GEMS:
                lack = cost[c] - bonus[c] - tokens[c]
                if lack > 0:
                    short += lack
            short -= gold
            turns = 0 if short <= 0 else (short + 2) // 3
            worth = (POINTS[card] + bonus_worth[BONUS[card]]) * REACH**turns
            if worth > best:
                best, second = worth, best
            elif worth > second:
                second = worth
        score += best + SECOND * second
        scores.append(score)
    if not state.finished:
        scores[state.turn] += TEMPO
    return tuple(scores)


RANDOM = 8  # one play-out move in this many is any legal move, so play-outs do not all run alike


def _policy(state: SplendorState, seat: int, legal: Sequence[SplendorAction], draw: int) -> int:
    """A play-out move as a plain player makes it: buy the card worth most if any can be bought, else take
    the gems the nearest good card lacks, reserving only when nothing else helps; gold payments, returns
    and noble choices at random."""
    if draw % RANDOM == 0 or state.phase != "act" or len(legal) == 1:
        return (draw >> 3) % len(legal)
    bonus, tokens = state.bonuses[seat], state.tokens[seat]
    rows, reserved = state.rows, state.reserved[seat]
    lack: tuple[int, ...] = (0, 0, 0, 0, 0)
    nearest = 99.0
    for card in (*rows[0], *rows[1], *rows[2], *reserved):
        if not card:
            continue
        cost = COST[card]
        wanted = tuple(max(0, cost[c] - bonus[c] - tokens[c]) for c in GEMS)
        key = sum(wanted) - 0.8 * POINTS[card]
        if key < nearest:
            nearest, lack = key, wanted
    held = sum(tokens)
    best, chosen = -1.0, (draw >> 3) % len(legal)
    tie = draw >> 3
    for index, action in enumerate(legal):
        kind = action.kind
        if kind == "b":
            card = reserved[action.slot] if action.level == 0 else rows[action.level - 1][action.slot]
            value = 2.0 + POINTS[card]
        elif kind == "t":
            value = sum(0.3 for c in action.tokens if lack[c]) - (0.5 if held + len(action.tokens) > TOKEN_LIMIT else 0)
        elif kind == "t2":
            value = (0.55 if lack[action.tokens[0]] >= 2 else 0.1) - (0.5 if held + 2 > TOKEN_LIMIT else 0)
        else:  # reserves, gold payments
            value = 0.05
        value += (tie % 7) * 0.001  # a seeded pick among equals
        tie //= 7
        if value > best:
            best, chosen = value, index
    return chosen


KNOWLEDGE = Knowledge(standing=_standing, spread=3.0, playout_depth=4, budget=2.0, policy=_policy)
