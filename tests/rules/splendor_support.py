"""Helpers for the Splendor scenario tests: build a position in a readable notation and play text actions.

Notation: tokens are written as letter and count, "w2 b1 y1" = two white, one blue, one gold (letters w b g r k y
for white blue green red black gold). Cards are named by the reference list's ids ("BLU17", "W1"), nobles by
their ids 1..10. Actions are the engine's text form ("t.w.b.r", "b.1.0", "g.w.w", "n.3", ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from play_support import legal_texts, play_texts

from rules import Event, Step
from rules.splendor import Splendor, SplendorState
from rules.splendor.data import BONUS, BY_LEVEL, CARDS, NOBLE_POINTS, POINTS
from rules.splendor.model import GEMS_BY_PLAYERS, GOLD_TOKENS, LETTERS, ROW_SIZE

GAME = Splendor()
_BY_SOURCE = {c.source_id: c.id for c in CARDS}


def card(source_id: str) -> int:
    """A card's id from its name in the reference list."""
    return _BY_SOURCE[source_id]


def tokens(text: str = "") -> tuple[int, ...]:
    """ "w2 b1 y1" -> the six counts."""
    out = [0] * len(LETTERS)
    for part in text.split():
        out[LETTERS.index(part[0])] += int(part[1:] or 1)
    return tuple(out)


def make_state(
    *,
    players: int = 2,
    held: Sequence[str] | None = None,
    bank: str | None = None,
    bought: Sequence[Sequence[int]] | None = None,
    reserved: Sequence[Sequence[int]] | None = None,
    blind: Sequence[int] = (),
    rows: Sequence[Sequence[int]] | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    nobles: Sequence[int] = (),
    visitors: Sequence[Sequence[int]] | None = None,
    turn: int = 0,
    phase: str = "act",
    passed: int = 0,
    final_round: bool = False,
    points: Sequence[int] | None = None,
) -> SplendorState:
    """A position at the start of ``turn``'s action. Each seat holds ``held[seat]`` tokens; the bank has
    what the players do not (or ``bank``). Cards not named in ``bought``/``reserved``/``rows`` fill the rows
    (four per level, in id order) and then the decks (top = last), unless ``rows``/``decks`` are given; a
    ``0`` in a row is an empty slot, ``()`` an empty row. Bonuses and points follow from the cards and the
    visiting nobles, unless ``points`` are given."""
    held_tokens = [tokens(h) for h in (held or [""] * players)]
    bought = [tuple(b) for b in (bought or [()] * players)]
    reserved = [tuple(r) for r in (reserved or [()] * players)]
    visitors = [tuple(v) for v in (visitors or [()] * players)]
    if bank is None:
        full = (GEMS_BY_PLAYERS[players],) * 5 + (GOLD_TOKENS,)
        bank_tokens = tuple(full[i] - sum(h[i] for h in held_tokens) for i in range(len(full)))
    else:
        bank_tokens = tokens(bank)
    used = {c for group in (*bought, *reserved) for c in group}
    if rows is not None:
        used |= {c for row in rows for c in row}
    free = [[c for c in ids if c not in used] for ids in BY_LEVEL]
    if rows is None:
        rows = [level[:ROW_SIZE] for level in free]
        free = [level[ROW_SIZE:] for level in free]
    if decks is None:
        decks = free
    rows = [tuple(row) or (0,) * ROW_SIZE for row in rows]
    bonuses = []
    for cards in bought:
        bonus = [0] * 5
        for c in cards:
            bonus[BONUS[c]] += 1
        bonuses.append(tuple(bonus))
    return SplendorState(
        rng=12345,
        bank=bank_tokens,
        decks=tuple(tuple(d) for d in decks),
        rows=tuple(tuple(r) for r in rows),
        nobles=tuple(nobles),
        tokens=tuple(held_tokens),
        cards=tuple(bought),
        bonuses=tuple(bonuses),
        points=tuple(points)
        if points is not None
        else tuple(
            sum(POINTS[c] for c in cs) + sum(NOBLE_POINTS[n] for n in vs)
            for cs, vs in zip(bought, visitors, strict=True)
        ),
        reserved=tuple(reserved),
        blind=tuple(sorted(blind)),
        visitors=tuple(visitors),
        turn=turn,
        phase=phase,
        passed=passed,
        final_round=final_round,
    )


def cards_with_bonus(colour: str, count: int, level: int = 1) -> tuple[int, ...]:
    """``count`` zero-point cards of a bonus colour ("w", "b", ...), for building bonuses."""
    wanted = LETTERS.index(colour)
    found = tuple(c.id for c in CARDS if c.level == level and c.bonus == wanted and c.points == 0)[:count]
    assert len(found) == count
    return found


def play(state: SplendorState, *texts: str) -> Step[SplendorState]:
    """Apply text actions in order, each for the seat in turn; the final state and all the events."""
    return play_texts(GAME, state, *texts)


def legal(state: SplendorState, seat: int | None = None) -> set[str]:
    """The legal actions in text form."""
    return legal_texts(GAME, state, seat)


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]
