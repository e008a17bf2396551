"""اسپلندور's move prior: how likely a strong player is to make each move of a turn, so that the search's root
spends its iterations on the few moves worth reading (PUCT, ``ai.search``), as an AlphaZero player's network
names them for its search.

A move is read by the terms of ``NAMES``: what a buy brings and pays (its points and level, how much nearer it
brings the nobles, the gems and gold it spends, what its colour is worth, whether it comes from the reserve);
what a take brings towards the two cards within reach that are worth most, whether it goes over ten gems and
whether it makes a card affordable; a reserve's points, gold and how near its card is; and whether the opponent
could buy that card now. A conditional logit per stage of the game (``ai.games.splendor_terms.stage``) turns
them into chances; ``bench/prior_fit.py`` fitted its weights to the moves of the AlphaZero agent of
``bench/vs_alphazero.py`` playing itself, into ``splendor_prior.json``, read once at import.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from ai.games.splendor_terms import GEMS, NOBLE, REACH, colour_worth, lacking, stage, turns_away
from rules.splendor.data import BONUS, COST, LEVEL, NOBLE_POINTS, NOBLE_REQUIRES, POINTS
from rules.splendor.model import TOKEN_LIMIT, SplendorAction, SplendorState

NAMES = (
    "buy",
    "buy-points",
    "buy-l2",  # a card of level 2
    "buy-l3",
    "buy-noble",  # each noble's points times what the card's colour takes off NOBLE ** (bonuses missing)
    "buy-spent",  # gems paid
    "buy-gold",  # gold paid
    "buy-engine",  # what a bonus of the card's colour is worth (``colour_worth``)
    "buy-reserved",  # a card from the player's reserve
    "take",  # gems taken, in a take of different colours
    "take-best",  # of them, the gems the best card within reach lacks
    "take-second",  # and the second
    "take2",  # two of one colour
    "over",  # gems held beyond ten after the move, to give back
    "take-enables",  # 1 + the points of the best card the take makes affordable
    "reserve",
    "reserve-points",
    "reserve-deck",  # blind, from a deck
    "reserve-gold",  # the bank has gold to give
    "reserve-near",  # the card's 1 + points times REACH ** turns away (with the gold it brings)
    "deny",  # 1 + the points of a face-up card taken that the opponent could buy now
)
FILE = "splendor_prior.json"


@dataclass(frozen=True, slots=True)
class _Reading:
    """What the moves of ``seat`` are read against: its bonuses and gems, the next seat's, the colours' worth,
    and the two cards within reach worth most (the gems each lacks)."""

    state: SplendorState
    seat: int
    have: list[int]  # bonuses and gems, by colour
    gold: int
    other_have: list[int]
    other_gold: int
    worth: list[float]
    within_reach: list[int]  # cards not affordable now, the worth most first
    lacks: list[list[int]]  # the gems each of the best two lacks, by colour (zeros if fewer than two)

    @classmethod
    def of(cls, state: SplendorState, seat: int) -> _Reading:
        bonus, tokens = state.bonuses[seat], state.tokens[seat]
        have = [bonus[c] + tokens[c] for c in GEMS]
        other = (seat + 1) % len(state.points)
        other_have = [state.bonuses[other][c] + state.tokens[other][c] for c in GEMS]
        table = [card for row in state.rows for card in row if card]
        worth = colour_worth(state, table)
        ranked = []
        for card in (*table, *state.reserved[seat]):
            turns = turns_away(lacking(card, have, tokens[5]))
            if turns:
                ranked.append(((POINTS[card] + worth[BONUS[card]]) * REACH**turns, card))
        ranked.sort(reverse=True)
        lacks = [[max(0, COST[card][c] - have[c]) for c in GEMS] for _, card in ranked[:2]]
        lacks += [[0] * 5] * (2 - len(lacks))
        reach = [card for _, card in ranked]
        return cls(state, seat, have, tokens[5], other_have, state.tokens[other][5], worth, reach, lacks)

    def denied(self, card: int) -> float:
        """1 + the card's points if the next seat could buy it now (taking it from the table keeps it from them)."""
        return 1.0 + POINTS[card] if lacking(card, self.other_have, self.other_gold) <= 0 else 0.0

    def buy(self, action: SplendorAction) -> dict[str, float]:
        state, seat = self.state, self.seat
        bonus, tokens = state.bonuses[seat], state.tokens[seat]
        card = state.reserved[seat][action.slot] if action.level == 0 else state.rows[action.level - 1][action.slot]
        colour = BONUS[card]
        nobles = 0.0
        for noble in state.nobles:
            needs = NOBLE_REQUIRES[noble]
            if needs[colour] > bonus[colour]:
                missing = sum(max(0, needs[c] - bonus[c]) for c in GEMS)
                nobles += NOBLE_POINTS[noble] * (NOBLE ** (missing - 1) - NOBLE**missing)
        pay = [max(0, COST[card][c] - bonus[c]) for c in GEMS]
        spent = sum(min(pay[c], tokens[c]) for c in GEMS)
        gold = sum(pay) - spent
        if action.kind == "bg":  # gold also instead of the gems named
            gold += len(action.tokens)
            spent -= len(action.tokens)
        return {
            "buy": 1.0,
            "buy-points": POINTS[card],
            "buy-l2": LEVEL[card] == 2,
            "buy-l3": LEVEL[card] == 3,
            "buy-noble": nobles,
            "buy-spent": spent,
            "buy-gold": gold,
            "buy-engine": self.worth[colour],
            "buy-reserved": action.level == 0,
            "deny": self.denied(card) if action.level else 0.0,
        }

    def take(self, action: SplendorAction) -> dict[str, float]:
        two = action.kind == "t2"
        count = 2 if two else len(action.tokens)
        taken = [0] * 5
        for c in action.tokens:
            taken[c] += 2 if two else 1
        after = [self.have[c] + taken[c] for c in GEMS]
        enables = 0.0
        for card in self.within_reach[:6]:
            if lacking(card, after, self.gold) <= 0:
                enables = max(enables, 1.0 + POINTS[card])
        return {
            "take": 0 if two else count,
            "take-best": sum(min(taken[c], self.lacks[0][c]) for c in GEMS),
            "take-second": sum(min(taken[c], self.lacks[1][c]) for c in GEMS),
            "take2": two,
            "over": max(0, sum(self.state.tokens[self.seat]) + count - TOKEN_LIMIT),
            "take-enables": enables,
        }

    def reserve(self, action: SplendorAction) -> dict[str, float]:
        gold = self.state.bank[5] > 0
        held = sum(self.state.tokens[self.seat])
        terms = {"reserve": 1.0, "reserve-gold": gold, "over": gold and held + 1 > TOKEN_LIMIT}
        if action.slot == -1:
            terms["reserve-deck"] = 1.0
            return terms
        card = self.state.rows[action.level - 1][action.slot]
        turns = turns_away(lacking(card, self.have, self.gold + gold))
        near = REACH**turns * (1 + POINTS[card])
        return terms | {"reserve-points": POINTS[card], "reserve-near": near, "deny": self.denied(card)}


def move_features(state: SplendorState, seat: int, legal: Sequence[SplendorAction]) -> list[list[float]]:
    """Each of ``legal``'s terms, in ``NAMES``' order (all 0 outside a turn's main choice, and for a pass)."""
    if state.phase != "act":
        return [[0.0] * len(NAMES) for _ in legal]
    reading = _Reading.of(state, seat)
    rows = []
    for action in legal:
        kind = action.kind
        if kind in ("b", "bg"):
            terms = reading.buy(action)
        elif kind in ("t", "t2"):
            terms = reading.take(action)
        elif kind == "r":
            terms = reading.reserve(action)
        else:
            terms = {}
        rows.append([float(terms.get(name, 0.0)) for name in NAMES])
    return rows


def _stored() -> tuple[tuple[float, ...], ...]:
    """The fitted weights the package ships, per stage, checked against the terms they were fitted on."""
    stored = json.loads(resources.files("ai.games").joinpath(FILE).read_text(encoding="utf-8"))
    assert tuple(stored["features"]) == NAMES and len(stored["weights"]) == 3, f"{FILE}: fit again (bench/prior_fit.py)"
    return tuple(tuple(float(w) for w in weights) for weights in stored["weights"])


WEIGHTS = _stored()


def prior(state: SplendorState, seat: int, legal: Sequence[SplendorAction]) -> list[float]:
    """The chance of each of ``legal``, summing to 1: the softmax of the stage's weights · its terms."""
    weights = WEIGHTS[stage(state)]
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in move_features(state, seat, legal)]
    top = max(scores)
    chances = [math.exp(score - top) for score in scores]
    total = sum(chances)
    return [chance / total for chance in chances]
