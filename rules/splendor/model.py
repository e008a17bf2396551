"""Splendor's data types: options, state, actions, events and the view the bot and renderer see."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from rules.contract import Event

# The seed's numbers.
GEMS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}  # gem tokens per colour: 7, less 3 for two players, less 2 for three
GOLD_TOKENS = 5
ROW_SIZE = 4  # face-up cards per level
TOKEN_LIMIT = 10  # tokens a player may hold at the end of a turn
RESERVE_LIMIT = 3
TAKE_TWO_MIN = 4  # the bank must hold this many of a colour before two are taken
WINNING_POINTS = 15
# Ours (the seed is silent): rounds in a row in which nobody buys or reserves a card end the game. In games that
# ended the longest such run was 3 rounds (130 of the AlphaZero agent's games against itself; 40 each of آسان
# against آسان, against random, random against random; 25 each of four players) and 7 (40 of آسان against greedy);
# two greedy players trading a gem for a gem stalled in 24 of 40 games.
STALL_ROUNDS = 10

LETTERS = "wbgrky"  # token letters in action texts: white blue green red black, then gold (y)
TOKEN_NAMES = ("white", "blue", "green", "red", "black", "gold")

Phase = Literal["act", "return", "noble"]
EndReason = Literal["points", "no_moves", "stalled"]  # WINNING_POINTS reached / all passed in a round / STALL_ROUNDS


class SplendorOptions(BaseModel):
    """Lobby options; the Persian rulebook has no variant RULES.md offers, so there are none yet."""

    model_config = ConfigDict(frozen=True)


class SplendorState(BaseModel):
    """The whole game. Counts of tokens are six-tuples (five gems, then gold); cards and nobles are ids."""

    model_config = ConfigDict(frozen=True)

    options: SplendorOptions = SplendorOptions()
    rng: int  # used for the set-up shuffles; kept so a state says everything about its game
    bank: tuple[int, ...]
    decks: tuple[tuple[int, ...], ...]  # per level (index 0 = level 1), card ids, the top card last
    rows: tuple[tuple[int, ...], ...]  # per level, four slots: a card id, or 0 for a slot left empty
    nobles: tuple[int, ...]  # noble ids still on the table
    tokens: tuple[tuple[int, ...], ...]  # per seat
    cards: tuple[tuple[int, ...], ...]  # per seat, bought card ids in the order bought
    bonuses: tuple[tuple[int, ...], ...]  # per seat, five counts: follows from ``cards``, kept for speed
    points: tuple[int, ...]  # per seat, cards and nobles: follows from ``cards`` and ``visitors``
    reserved: tuple[tuple[int, ...], ...]  # per seat, card ids in the order reserved
    blind: tuple[int, ...] = ()  # reserved card ids taken from a deck, seen by their owner alone (sorted)
    visitors: tuple[tuple[int, ...], ...]  # per seat, the nobles that visited
    turn: int = 0
    round: int = 1
    phase: Phase = "act"
    passed: int = 0  # bit per seat that passed in this round
    quiet_turns: int = 0  # turns in a row, the current one included, in which no card was bought or reserved
    final_round: bool = False  # someone has reached WINNING_POINTS: the round is played out
    finished: bool = False
    end_reason: EndReason | None = None


Kind = Literal["t", "t2", "r", "b", "bg", "g", "n", "p"]


class SplendorAction(NamedTuple):
    """One decision. ``kind``: t take different colours, t2 take two of one colour, r reserve, b buy (gold only
    for what gems cannot pay), bg buy spending gold also instead of the gems in ``tokens``, g return the
    ``tokens``, n receive noble ``noble``, p pass. ``level`` 1..3 is a table row (0 = the player's reserve for a
    buy); ``slot`` is the row's slot 0..3, -1 for the deck (reserve), or the index in the reserve (buy)."""

    kind: Kind
    level: int = 0
    slot: int = 0
    tokens: tuple[int, ...] = ()  # colour indices, ascending (5 = gold)
    noble: int = 0


# Events -------------------------------------------------------------------------------------------


class TokensTaken(Event):
    kind: Literal["took"] = "took"
    seat: int
    tokens: tuple[int, ...]  # six counts


class CardReserved(Event):
    """Reserving the top of a deck sends this with the card to its owner, and a twin with ``card=None``."""

    kind: Literal["reserved"] = "reserved"
    seat: int
    level: int
    slot: int | None  # None: the top of the deck
    card: str | None
    gold: bool  # a gold token came with it


class CardBought(Event):
    kind: Literal["bought"] = "bought"
    seat: int
    card: str
    level: int
    slot: int | None  # the table slot, None when bought from the reserve
    paid: tuple[int, ...]  # six counts, gold last


class CardDealt(Event):
    kind: Literal["dealt"] = "dealt"
    level: int
    slot: int
    card: str


class TokensReturned(Event):
    kind: Literal["returned"] = "returned"
    seat: int
    tokens: tuple[int, ...]  # six counts


class NobleVisited(Event):
    kind: Literal["noble"] = "noble"
    seat: int
    noble: str
    chosen: bool  # the player chose among several


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: int


class FinalRound(Event):
    kind: Literal["final_round"] = "final_round"
    seat: int  # the first player to reach WINNING_POINTS
    points: int


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"
    reason: EndReason


# The view ------------------------------------------------------------------------------------------


class CardView(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str  # "c01".."c90"
    level: int
    bonus: int  # index into colours
    points: int
    cost: tuple[int, ...]  # five gem counts


class NobleView(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str  # "n01".."n10"
    points: int
    requires: tuple[int, ...]  # five bonus counts


class ReservedView(BaseModel):
    model_config = ConfigDict(frozen=True)

    level: int
    from_deck: bool
    card: CardView | None  # None: reserved from a deck, hidden from this viewer


class PlayerView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    tokens: tuple[int, ...]  # six counts
    bonuses: tuple[int, ...]  # five counts
    points: int
    cards: tuple[str, ...]  # bought card ids, in the order bought
    nobles: tuple[NobleView, ...]
    reserved: tuple[ReservedView, ...]


class SplendorView(BaseModel):
    """What one seat (or, with ``seat=None``, anyone) may see: everything but deck order and the cards
    others reserved from a deck."""

    model_config = ConfigDict(frozen=True)

    game: Literal["splendor"] = "splendor"
    seat: int | None
    colours: tuple[str, ...] = TOKEN_NAMES
    bank: tuple[int, ...]
    rows: tuple[tuple[CardView | None, ...], ...]  # level 1 first; None for an empty slot
    decks: tuple[int, ...]  # cards left per level
    nobles: tuple[NobleView, ...]
    players: tuple[PlayerView, ...]
    turn: int
    round: int
    phase: Phase
    to_return: int  # tokens the player in turn must give back (phase "return")
    noble_choices: tuple[str, ...]  # nobles the player in turn chooses among (phase "noble")
    final_round: bool
    quiet_rounds: int = 0  # whole rounds' worth of turns without a card bought or reserved (STALL_ROUNDS ends it)
    finished: bool
    end_reason: str | None
    winners: tuple[int, ...]
