"""رکب: battles won or provinces held, how near each seat is to a winning line of provinces, the battle in
progress, and the cards each seat still has to fight with."""

from __future__ import annotations

from collections.abc import Sequence

from ai.knowledge import Knowledge
from rules.condottiere.data import (
    BISHOP,
    COURTESAN,
    DRUMMER,
    HEROINE,
    ITALY,
    KIND_OF,
    REKAB,
    SCARECROW,
    SPRING,
    SURRENDER,
    VALUE,
    WINTER,
)
from rules.condottiere.model import NONE, CondottiereAction, CondottiereState
from rules.condottiere.scoring import strengths, victorious

RANDOM = 6  # one play-out move in this many is any legal move

# What a card in hand is worth to the battles still to come, in mercenary points: a mercenary its value, the
# Heroine its +10, and the specials what they usually swing a battle by.
_WORTH = {kind: float(VALUE[kind]) for kind in range(BISHOP)}
_WORTH.update(
    {BISHOP: 4.0, SCARECROW: 2.5, SURRENDER: 3.0, DRUMMER: 5.0, COURTESAN: 1.5, HEROINE: 10.0, WINTER: 2.0, SPRING: 2.0}
)
WORTH = tuple(_WORTH[kind] for kind in range(len(_WORTH)))
CARD_WORTH = tuple(WORTH[kind] for kind in KIND_OF)

WIN = 2.0  # a battle won (two players) or a province held
CARDS = 0.04  # per point of the worth of cards still to play
LEAD = 0.5  # leading the battle while others may still answer
HELD = 1.6  # leading it when everyone else has passed: the battle is as good as won
THREAT = 0.7  # per free province (at most two counted) that would complete a winning line


def _cards(cards: Sequence[int]) -> float:
    return sum(CARD_WORTH[c] for c in cards)


def _battle(state: CondottiereState) -> list[float]:
    """Each seat's part of the battle in progress: the leader's, more when nobody else can answer."""
    seats = range(state.players)
    bonus = [0.0 for _ in seats]
    if state.phase not in ("battle", "scarecrow", "peace"):
        return bonus
    power = strengths(state.lines, state.season)
    best = max(power)
    leaders = [s for s in seats if power[s] == best]
    if best == 0 or len(leaders) > 1:
        return bonus
    leader = leaders[0]
    settled = all(state.passed[s] or not state.hands[s] for s in seats if s != leader)
    bonus[leader] = HELD if settled else LEAD
    return bonus


def _threats(state: CondottiereState, seat: int, neighbours: Sequence[Sequence[int]]) -> int:
    """Free provinces that would complete ``seat``'s winning line (at most two are counted)."""
    owners = list(state.owners)
    found = 0
    for province, owner in enumerate(state.owners):
        if owner != NONE or province == state.peace:
            continue
        owners[province] = seat
        found += victorious(owners, seat, neighbours)
        owners[province] = NONE
        if found >= 2:
            break
    return found


def _standing(state: CondottiereState) -> tuple[float, ...]:
    seats = range(state.players)
    battle = _battle(state)
    if state.players == 2:
        return tuple(
            WIN * state.wins[s] + battle[s] + CARDS * (_cards(state.hands[s]) + _cards(state.decks[s])) for s in seats
        )
    neighbours = (ITALY if state.options.classic_map else REKAB).neighbours
    scores = []
    for s in seats:
        site = 1.0 + (THREAT if state.site != NONE and _wins_with(state, s, state.site, neighbours) else 0.0)
        scores.append(
            WIN * state.owners.count(s)
            + THREAT * _threats(state, s, neighbours)
            + battle[s] * site
            + CARDS * _cards(state.hands[s])
        )
    return tuple(scores)


def _wins_with(state: CondottiereState, seat: int, province: int, neighbours: Sequence[Sequence[int]]) -> bool:
    owners = list(state.owners)
    owners[province] = seat
    return victorious(owners, seat, neighbours)


def _site(state: CondottiereState, seat: int, legal: Sequence[CondottiereAction], pick: int) -> int:
    """A play-out's site: one that would complete the chooser's winning line, else one next to a province
    it holds, else any."""
    neighbours = (ITALY if state.options.classic_map else REKAB).neighbours
    near = []
    for index, action in enumerate(legal):
        if _wins_with(state, seat, action.arg, neighbours):
            return index
        if any(state.owners[j] == seat for j in neighbours[action.arg]):
            near.append(index)
    return near[pick % len(near)] if near else pick % len(legal)


def _policy(state: CondottiereState, seat: int, legal: Sequence[CondottiereAction], draw: int) -> int:
    """A play-out move in battle as a plain player makes it: ahead, pass (or surrender, which ends the battle
    now); behind, play the smallest mercenary that takes the lead, else the largest if the hand's
    mercenaries can still catch up, else pass and keep the cards. A site next to the chooser's provinces.
    Other decisions, and one move in ``RANDOM``, at random."""
    pick = (draw >> 3) % len(legal)
    if draw % RANDOM == 0 or len(legal) == 1:
        return pick
    if state.phase == "site":
        return _site(state, seat, legal, draw >> 3)
    if state.phase != "battle":
        return pick
    power = strengths(state.lines, state.season)
    behind = max(p for s, p in enumerate(power) if s != seat) - power[seat]
    last = len(legal) - 1  # the pass
    kinds = {action.arg: index for index, action in enumerate(legal) if action.kind == "play"}
    if behind < 0:
        return kinds.get(SURRENDER, last)
    mercenaries = sorted((VALUE[kind], index) for kind, index in kinds.items() if kind < BISHOP)
    for value, index in mercenaries:
        if value > behind:
            return index
    if HEROINE in kinds and behind < VALUE[HEROINE]:
        return kinds[HEROINE]
    if mercenaries and sum(v for v, _ in mercenaries) > behind:
        return mercenaries[-1][1]
    return last if mercenaries or not kinds else pick


KNOWLEDGE = Knowledge(standing=_standing, spread=1.5, playout_depth=30, budget=0.9, crowd=0.2, policy=_policy)
