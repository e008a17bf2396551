"""Splendor's components, read once from the package's CSV files into flat tables indexed by id.

The engine's hot path reads these tuples (``COST[card]``, ``NEED[card]`` ...) instead of objects, so a state
only ever holds small integers.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources

COLOURS = ("white", "blue", "green", "red", "black")  # the five gems, in the order of every count tuple
GOLD = 5  # index of gold in a six-count token tuple (gems first)


@dataclass(frozen=True, slots=True)
class Card:
    id: int  # 1..90, the row id of cards.csv
    level: int  # 1..3
    bonus: int  # index into COLOURS
    points: int
    cost: tuple[int, int, int, int, int]  # per gem colour
    source_id: str  # the reference list's name for the card

    @property
    def key(self) -> str:
        """The card's name in views and events: fixed width, so no key is part of another."""
        return card_key(self.id)


@dataclass(frozen=True, slots=True)
class Noble:
    id: int  # 1..10
    points: int
    requires: tuple[int, int, int, int, int]  # bonuses needed per gem colour

    @property
    def key(self) -> str:
        return noble_key(self.id)


def card_key(card: int) -> str:
    return f"c{card:02d}"


def noble_key(noble: int) -> str:
    return f"n{noble:02d}"


def _rows(name: str) -> list[dict[str, str]]:
    """The data rows of a CSV file of this package, skipping the leading ``#`` source note."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


def _five(row: dict[str, str], prefix: str) -> tuple[int, int, int, int, int]:
    white, blue, green, red, black = (int(row[f"{prefix}_{colour}"]) for colour in COLOURS)
    return white, blue, green, red, black


def load_cards() -> tuple[Card, ...]:
    return tuple(
        Card(
            id=int(row["id"]),
            level=int(row["level"]),
            bonus=COLOURS.index(row["bonus"]),
            points=int(row["points"]),
            cost=_five(row, "cost"),
            source_id=row["source_id"],
        )
        for row in _rows("cards.csv")
    )


def load_nobles() -> tuple[Noble, ...]:
    return tuple(
        Noble(id=int(row["id"]), points=int(row["points"]), requires=_five(row, "req")) for row in _rows("nobles.csv")
    )


CARDS = load_cards()
NOBLES = load_nobles()
if [c.id for c in CARDS] != list(range(1, len(CARDS) + 1)) or [n.id for n in NOBLES] != list(range(1, len(NOBLES) + 1)):
    raise ValueError("card and noble ids must be 1..N in file order: the tables below are indexed by id")

# Flat tables by id (index 0 unused), for the engine's hot path.
LEVEL: tuple[int, ...] = (0, *(c.level for c in CARDS))
BONUS: tuple[int, ...] = (0, *(c.bonus for c in CARDS))
POINTS: tuple[int, ...] = (0, *(c.points for c in CARDS))
COST: tuple[tuple[int, ...], ...] = ((0,) * 5, *(c.cost for c in CARDS))
# Only the colours a card actually costs, as (colour, amount): most cards cost two to four colours.
NEED: tuple[tuple[tuple[int, int], ...], ...] = (
    (),
    *(tuple((colour, n) for colour, n in enumerate(c.cost) if n) for c in CARDS),
)
TOTAL: tuple[int, ...] = (0, *(sum(c.cost) for c in CARDS))
CARD_KEY: tuple[str, ...] = ("", *(c.key for c in CARDS))
BY_LEVEL: tuple[tuple[int, ...], ...] = tuple(tuple(c.id for c in CARDS if c.level == lv) for lv in (1, 2, 3))
NOBLE_POINTS: tuple[int, ...] = (0, *(n.points for n in NOBLES))
NOBLE_REQUIRES: tuple[tuple[int, ...], ...] = ((0,) * 5, *(n.requires for n in NOBLES))
NOBLE_KEY: tuple[str, ...] = ("", *(n.key for n in NOBLES))
