"""Coin Age's data types: options, state, actions, events and the view the bot and renderer see."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from rules.contract import Event

SIZES = "ABCD"  # smallest to largest; a coin's value is its index + 1
START_SUPPLY = (4, 3, 2, 1)  # per player, by size
SIDES = ("شیر", "خط")  # seat 0 plays شیر, seat 1 plays خط

Coin = int  # size * 2 + side: compact, and ordered by size first


def coin(size: int, side: int) -> Coin:
    return size * 2 + side


def size_of(c: Coin) -> int:
    return c >> 1


def side_of(c: Coin) -> int:
    return c & 1


class CoinAgeOptions(BaseModel):
    """Lobby options; the defaults are the Persian rulebook's rules."""

    model_config = ConfigDict(frozen=True)

    two_favourable_place_two: bool = Field(
        default=False,
        description="Official English rule: with two favourable coins, place two instead of one.",
    )


class CoinAgeState(BaseModel):
    """The whole game; ``rng`` is the seeded generator's state, so the next toss is part of the state."""

    model_config = ConfigDict(frozen=True)

    options: CoinAgeOptions = CoinAgeOptions()
    rng: int
    supply: tuple[tuple[int, ...], ...]  # per seat, count per size
    stacks: tuple[tuple[Coin, ...], ...]  # per space, bottom to top
    turn: int  # seat whose turn it is
    turn_number: int = 1
    toss: tuple[Coin, ...] = ()  # this turn's tossed coins, as they fell
    hand: tuple[Coin, ...] = ()  # tossed coins not yet placed or paid
    places_left: int = 0
    moves_left: int = 0
    captures_left: int = 0
    can_pay: bool = False
    finished: bool = False
    end_reason: Literal["last_coin", "board_full"] | None = None
    # The spaces this turn's actions changed so far, and those of the last turn that changed any: the board
    # picture marks the last move.
    touched: tuple[int, ...] = ()
    last_touched: tuple[int, ...] = ()


Kind = Literal["place", "move", "pay", "capture", "end"]


class CoinAction(NamedTuple):
    """One action of a turn. ``size`` for place/pay; ``space`` the target (or the source of a move)."""

    kind: Kind
    size: int = -1
    space: int = -1
    to: int = -1


# Events -------------------------------------------------------------------------------------------


class Tossed(Event):
    kind: Literal["tossed"] = "tossed"
    seat: int
    coins: tuple[tuple[int, int], ...]  # (size, side) per coin
    favourable: int


class Placed(Event):
    kind: Literal["placed"] = "placed"
    seat: int
    size: int
    space: str


class Moved(Event):
    kind: Literal["moved"] = "moved"
    seat: int
    source: str
    target: str
    coins: int


class Paid(Event):
    kind: Literal["paid"] = "paid"
    seat: int
    size: int


class Captured(Event):
    kind: Literal["captured"] = "captured"
    seat: int
    size: int
    side: int
    space: str


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"
    seat: int
    returned: tuple[int, ...]  # sizes put back into the supply
    automatic: bool  # nothing was left to do


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"
    reason: Literal["last_coin", "board_full"]


# The view ------------------------------------------------------------------------------------------


class CoinView(BaseModel):
    size: int  # 0..3 for A..D
    value: int
    side: int  # 0 شیر, 1 خط


class SpaceView(BaseModel):
    id: str
    name: str
    region: str
    neighbours: tuple[str, ...]
    stack: tuple[CoinView, ...]  # bottom to top


class RegionView(BaseModel):
    id: str
    name: str
    spaces: tuple[str, ...]
    controlled: tuple[int, int]  # spaces whose top coin shows each side
    doubled: int | None  # the seat whose points here are doubled, if any


class ScoreView(BaseModel):
    board: int  # points of top coins, doubling applied
    unplaced: int  # +1 per coin not on the board
    total: int
    tiebreak: int  # total value of unplaced coins


class TurnView(BaseModel):
    seat: int
    number: int
    toss: tuple[CoinView, ...]
    favourable: int
    hand: tuple[CoinView, ...]
    places_left: int
    moves_left: int
    captures_left: int
    can_pay: bool


class CoinAgeView(BaseModel):
    """Everything public about a game (Coin Age has no hidden information besides future tosses)."""

    game: Literal["coin_age"] = "coin_age"
    seat: int | None
    sides: tuple[str, str] = SIDES
    spaces: tuple[SpaceView, ...]
    regions: tuple[RegionView, ...]
    supply: tuple[tuple[int, ...], ...]
    turn: TurnView | None
    scores: tuple[ScoreView, ...]
    finished: bool
    end_reason: str | None
    winners: tuple[int, ...]
    last_move: tuple[str, ...] = ()  # spaces the last move changed (this turn's so far, else the last turn's)
