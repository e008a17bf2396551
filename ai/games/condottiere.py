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


# The kinds a seat behind may play to take the lead, the cheapest first (by worth; a mercenary before a special
# of the same worth); the Courtesan and the Scarecrow are not among them.
_TAKERS = sorted((*range(BISHOP), BISHOP, DRUMMER, HEROINE, WINTER, SPRING), key=lambda k: (WORTH[k], k >= BISHOP))
_FOUR = 3  # the kind of the Mercenary 4: a Scarecrow is played to save a mercenary at least this big


class _Lines:
    """The battle lines boiled down to what a line's strength needs, so that the play-out policy can try a
    card on them without the engine: each line's mercenary kinds, whether it has a Drummer, its Courtesans'
    and Heroines' points, and the season's kind."""

    __slots__ = ("drum", "extra", "mercenaries", "season")

    def __init__(self, state: CondottiereState) -> None:
        self.mercenaries: list[list[int]] = []
        self.drum: list[bool] = []
        self.extra: list[int] = []
        for line in state.lines:
            kinds = [KIND_OF[c] for c in line]
            self.mercenaries.append([k for k in kinds if k < BISHOP])
            self.drum.append(DRUMMER in kinds)
            self.extra.append(kinds.count(COURTESAN) * VALUE[COURTESAN] + kinds.count(HEROINE) * VALUE[HEROINE])
        self.season = KIND_OF[state.season] if state.season != NONE else NONE

    def power(self, seat: int = NONE, kind: int = NONE, without: int = NONE) -> list[int]:
        """Each line's strength (as ``scoring.strengths``) after ``seat`` plays a card of ``kind``, or takes a
        mercenary of kind ``without`` back to its hand."""
        mercenaries, drum, extra, season = self.mercenaries, self.drum, self.extra, self.season
        if kind in (WINTER, SPRING):
            season = kind
        elif kind == BISHOP:
            top = max((k for line in mercenaries for k in line), default=NONE)
            mercenaries = [[k for k in line if k != top] for line in mercenaries]
        elif kind == DRUMMER:
            drum = [d or s == seat for s, d in enumerate(drum)]
        elif kind == HEROINE:
            extra = [e + VALUE[HEROINE] if s == seat else e for s, e in enumerate(extra)]
        elif kind != NONE:
            mercenaries = [[*line, kind] if s == seat else line for s, line in enumerate(mercenaries)]
        if without != NONE:
            mine = list(mercenaries[seat])
            mine.remove(without)
            mercenaries = [mine if s == seat else line for s, line in enumerate(mercenaries)]
        winter = season == WINTER
        values = [
            [(1 if winter else VALUE[k]) * (2 if d else 1) for k in line]
            for line, d in zip(mercenaries, drum, strict=True)
        ]
        totals = [sum(line) + e for line, e in zip(values, extra, strict=True)]
        if season == SPRING:
            top = max((v for line in values for v in line), default=0)
            totals = [t + _SPRING_BONUS * line.count(top) for t, line in zip(totals, values, strict=True)]
        return totals


_SPRING_BONUS = 3  # what Spring adds to each mercenary of the highest value in play (rules/condottiere/scoring.py)


def _behind(power: Sequence[int], seat: int) -> int:
    """How far ``seat`` is behind the strongest other line (negative: it leads)."""
    return max(p for s, p in enumerate(power) if s != seat) - power[seat]


def _policy(state: CondottiereState, seat: int, legal: Sequence[CondottiereAction], draw: int) -> int:
    """A play-out move as a plain player makes it. In battle: ahead, pass (or surrender, which ends the battle
    now); behind, play the cheapest card that takes the lead, by the worth of the cards (a mercenary, the
    Heroine, or a Bishop, Drummer, Winter or Spring that turns the battle: without them a play-out never sees
    the opponent's Bishop burn one's 10s), else the largest mercenary if the hand's mercenaries can still
    catch up, else a Scarecrow to save a big mercenary, else pass and keep the cards. A Scarecrow takes back
    the largest mercenary the line can spare and still lead, or, behind anyway, the largest. A site next to
    the chooser's provinces. Other decisions, and one move in ``RANDOM``, at random."""
    pick = (draw >> 3) % len(legal)
    if draw % RANDOM == 0 or len(legal) == 1:
        return pick
    if state.phase == "site":
        return _site(state, seat, legal, draw >> 3)
    if state.phase == "scarecrow":
        return _take_back(state, seat, legal)
    if state.phase != "battle":
        return pick
    behind = _behind(strengths(state.lines, state.season), seat)
    last = len(legal) - 1  # the pass
    kinds = {action.arg: index for index, action in enumerate(legal) if action.kind == "play"}
    if behind < 0:
        return kinds.get(SURRENDER, last)
    season = KIND_OF[state.season] if state.season != NONE else NONE
    factor = 2 if any(KIND_OF[c] == DRUMMER for c in state.lines[seat]) else 1
    lines: _Lines | None = None
    for kind in _TAKERS:
        if kind not in kinds:
            continue
        if kind < BISHOP and season != SPRING:  # a mercenary's part is plain arithmetic
            if (1 if season == WINTER else VALUE[kind]) * factor > behind:
                return kinds[kind]
        elif kind == HEROINE:
            if VALUE[HEROINE] > behind:
                return kinds[kind]
        else:
            lines = lines or _Lines(state)
            if _behind(lines.power(seat, kind), seat) < 0:
                return kinds[kind]
    mercenaries = [(VALUE[kind], index) for kind, index in kinds.items() if kind < BISHOP]
    if mercenaries and sum(v for v, _ in mercenaries) > behind:
        return max(mercenaries)[1]
    if SCARECROW in kinds and any(KIND_OF[c] < BISHOP and KIND_OF[c] >= _FOUR for c in state.lines[seat]):
        return kinds[SCARECROW]
    return last if mercenaries or not kinds else pick


def _take_back(state: CondottiereState, seat: int, legal: Sequence[CondottiereAction]) -> int:
    """A Scarecrow's mercenary: the largest the line can give up and still lead; behind anyway, the largest
    (it fights again in a later battle); else none (the last action)."""
    lines = _Lines(state)
    behind = _behind(lines.power(), seat) >= 0
    options = sorted(((action.arg, index) for index, action in enumerate(legal) if action.arg != NONE), reverse=True)
    for kind, index in options:
        if _behind(lines.power(seat, without=kind), seat) < 0:
            return index
    return options[0][1] if behind and options else len(legal) - 1


KNOWLEDGE = Knowledge(standing=_standing, spread=1.5, playout_depth=30, budget=1.0, crowd=0.2, policy=_policy)
