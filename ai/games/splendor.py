"""اسپلندور: play-outs played as a plain player plays, and a position judged by weights learned from self-play.

Random play-outs say little in Splendor: random moves reserve and hoard far more than they buy, so the
position 16 random plies on is mostly noise. Play-outs here follow a plain player's policy for 4 plies (buy
the best card that can be bought, else take the gems the nearest good card lacks), and the position is then
judged by what a player weighs (``NAMES``): points; the bonuses, largest colour first, and the engine they
make (worth more early and in the colours the table's cards ask for); gems and gold; how near to each noble;
how near the best two cards within reach (their worth discounted by the turns of gem-taking still needed);
the cards that can be bought now; cards held in reserve; and the turn. Each seat's standing is weights ·
features, and its share of the win their softmax (spread 1): a conditional logit (``ai.learned``) whose
weights, one set per stage of the game (by the leader's points), were fitted to who won 300 seeded games of
متوسط against متوسط (``bench/value_fit.py``; 17,348 positions, every fifth game held out). On the held-out
positions the weights written by hand before (issue 28) had a log-loss of 0.629 and their favourite won 60.6%;
the fitted ones 0.566 and 66.6%, better at every stage. They learned, among others, that a card held in
reserve costs (−0.06 early, −0.95 near the end), a thing the hand weights ignored and the AlphaZero agent
exploits (``ai/README.md``).

Measured (issue 28; seats rotated, the same search with each judgement): متوسط with the fitted weights against
متوسط with the hand weights 71.7% of 60 games (95% CI 59.2–81.5), سخت against سخت 84.1% of 22 (64.0–94.0).
Before them, the hand weights against ``frozen-*`` (3 December): no play-out, متوسط 42.5% of 40; the policy's
play-outs (8 plies), 62.5%; both, 82.5% (4 plies: 85.0%, the time of the old random play-outs); سخت 90.0%.
Twice the iterations (``budget=2.0``) spend the time the short play-outs free. Below the root a node tries its
moves in the policy's order, and only as many as the square root of its visits (``widening`` 1.0, ``ai.search``),
so the search reads the likely replies deeper instead of every reply once: against the AlphaZero agent of
``bench/vs_alphazero.py`` it won more of the same deals (ai/README.md has the lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ai.knowledge import Knowledge
from ai.learned import Features, linear, stored_weights
from rules.splendor.data import BONUS, COST, NOBLE_POINTS, NOBLE_REQUIRES, POINTS
from rules.splendor.model import TOKEN_LIMIT, WINNING_POINTS, SplendorAction, SplendorState

ENGINE = 0.55  # a bonus early on, in points; it falls to a fifth of that as the leader nears the end
DEMAND = 0.25  # and more in a colour the table's cards ask for (per share of that colour in their cost)
REACH = 0.55  # a card's worth (its points and bonus) per turn nearer: worth times REACH ** turns away
NOBLE = 0.8  # a noble's points times NOBLE ** (bonuses still missing), summed over the nobles on the table
GEMS = range(5)


NAMES = (
    "points",
    "bonus-1st",  # the seat's bonuses, largest colour first: how concentrated its engine is
    "bonus-2nd",
    "bonus-3rd",
    "bonus-4th",
    "bonus-5th",
    "engine",  # bonuses at the hand judgement's worth (early, and in the colours the table asks for)
    "gems",
    "gold",
    "nobles",  # each noble's points times NOBLE ** (bonuses still missing)
    "reach-best",  # the best card within reach: worth times REACH ** turns of gem-taking still needed
    "reach-second",
    "buyable",  # cards on the table or in reserve the seat can buy now
    "reserved",
    "to-act",
)


_REACH_POWERS = tuple(REACH**turns for turns in range(40))  # REACH ** turns, looked up: the hottest loop
_NOBLE_POWERS = tuple(NOBLE**missing for missing in range(20))


def shortfall(need: Sequence[int], have: Sequence[int]) -> int:
    """How many of the five colours' ``need`` ``have`` falls short of, summed (a card's cost against a seat's gems
    and bonuses, a noble's bonuses against a seat's). Written out: it runs for every card of every judged position."""
    n0, n1, n2, n3, n4 = need
    h0, h1, h2, h3, h4 = have
    return (
        (n0 - h0 if n0 > h0 else 0)
        + (n1 - h1 if n1 > h1 else 0)
        + (n2 - h2 if n2 > h2 else 0)
        + (n3 - h3 if n3 > h3 else 0)
        + (n4 - h4 if n4 > h4 else 0)
    )


def buying_power(tokens: Sequence[int], bonus: Sequence[int]) -> tuple[int, int, int, int, int]:
    """What a seat pays with in each of the five colours: its gems and its bonuses (``tokens`` six, gold last and
    left out: it stands in for any colour)."""
    t0, t1, t2, t3, t4, _ = tokens
    b0, b1, b2, b3, b4 = bonus
    return t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4


def _features(state: SplendorState) -> list[list[float]]:
    """Per seat, the terms the judgement weighs (``NAMES``, in that order). Unrolled over the colours: the guided
    search judges two positions a simulation by these."""
    table = [card for row in state.rows for card in row if card]
    d0 = d1 = d2 = d3 = d4 = 0
    for card in table:
        c0, c1, c2, c3, c4 = COST[card]
        d0, d1, d2, d3, d4 = d0 + c0, d1 + c1, d2 + c2, d3 + c3, d4 + c4
    whole = float(d0 + d1 + d2 + d3 + d4) or 1.0
    phase = max(0.2, 1.0 - max(state.points) / WINNING_POINTS)
    bonus_worth = [phase * (ENGINE + DEMAND * 5 * float(d) / whole) for d in (d0, d1, d2, d3, d4)]
    w0, w1, w2, w3, w4 = bonus_worth
    acting = -1 if state.finished else state.turn
    rows = []
    for seat in range(len(state.points)):
        bonus, tokens = state.bonuses[seat], state.tokens[seat]
        gold = tokens[5]
        b0, b1, b2, b3, b4 = bonus
        nobles = 0.0
        for noble in state.nobles:
            nobles += NOBLE_POINTS[noble] * _NOBLE_POWERS[shortfall(NOBLE_REQUIRES[noble], bonus)]
        have = buying_power(tokens, bonus)
        best = second = 0.0
        buyable = 0
        for card in (*table, *state.reserved[seat]):
            short = shortfall(COST[card], have) - gold
            turns = 0 if short <= 0 else (short + 2) // 3
            buyable += turns == 0
            worth = (POINTS[card] + bonus_worth[BONUS[card]]) * _REACH_POWERS[turns]
            if worth > best:
                best, second = worth, best
            elif worth > second:
                second = worth
        ranked = sorted(bonus, reverse=True)
        rows.append(
            [
                float(state.points[seat]),
                *map(float, ranked),
                w0 * b0 + w1 * b1 + w2 * b2 + w3 * b3 + w4 * b4,
                float(sum(tokens) - gold),
                float(gold),
                nobles,
                best,
                second,
                float(buyable),
                float(len(state.reserved[seat])),
                1.0 if seat == acting else 0.0,
            ]
        )
    return rows


def _stage(state: SplendorState) -> int:
    """The opening, the middle from 6 points, the end from 11: by the leader's points."""
    leader = max(state.points)
    return (leader >= 6) + (leader >= 11)


def _kept(state: SplendorState) -> bool:
    return state.phase == "act"  # not a return of gems or a noble's choice


FEATURES = Features("splendor", NAMES, _features, 3, _stage, _kept)


RANDOM = 8  # one play-out move in this many is any legal move, so play-outs do not all run alike
# A take's worth to a play-out, by which colours the nearest card lacks (a bit each) and the colours taken:
# 0.3 for each colour it lacks, looked up, since a play-out weighs every take of every ply.
_TAKE_WORTH = tuple(
    {colours: sum(0.3 for c in colours if mask >> c & 1) for size in (1, 2, 3) for colours in combinations(GEMS, size)}
    for mask in range(32)
)


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
    h0, h1, h2, h3, h4 = buying_power(tokens, bonus)  # unrolled below: the hottest loop of a play-out
    for card in (*rows[0], *rows[1], *rows[2], *reserved):
        if not card:
            continue
        c0, c1, c2, c3, c4 = COST[card]
        wanted = (
            c0 - h0 if c0 > h0 else 0,
            c1 - h1 if c1 > h1 else 0,
            c2 - h2 if c2 > h2 else 0,
            c3 - h3 if c3 > h3 else 0,
            c4 - h4 if c4 > h4 else 0,
        )
        key = wanted[0] + wanted[1] + wanted[2] + wanted[3] + wanted[4] - 0.8 * POINTS[card]
        if key < nearest:
            nearest, lack = key, wanted
    held = sum(tokens)
    lacking = (lack[0] > 0) + 2 * (lack[1] > 0) + 4 * (lack[2] > 0) + 8 * (lack[3] > 0) + 16 * (lack[4] > 0)
    best, chosen = -1.0, (draw >> 3) % len(legal)
    tie = draw >> 3
    for index, action in enumerate(legal):
        kind = action.kind
        if kind == "b":
            card = reserved[action.slot] if action.level == 0 else rows[action.level - 1][action.slot]
            value = 2.0 + POINTS[card]
        elif kind == "t":
            value = _TAKE_WORTH[lacking][action.tokens] - (0.5 if held + len(action.tokens) > TOKEN_LIMIT else 0)
        elif kind == "t2":
            value = (0.55 if lack[action.tokens[0]] >= 2 else 0.1) - (0.5 if held + 2 > TOKEN_LIMIT else 0)
        else:  # reserves, gold payments
            value = 0.05
        value += (tie % 7) * 0.001  # a seeded pick among equals
        tie //= 7
        if value > best:
            best, chosen = value, index
    return chosen


KNOWLEDGE = Knowledge(
    standing=linear(FEATURES, stored_weights(FEATURES)),
    spread=1.0,
    playout_depth=4,
    budget=2.0,
    policy=_policy,
    expand=_policy,
    widening=1.0,
)
