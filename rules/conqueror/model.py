"""کشورگشا's data types: options, state, actions, events and the view the bot and renderer see."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from rules.contract import Event

# The seed's numbers (game type 1, set-up method 1), in one place.
PIECES = 12  # per player: 13 of a colour in the box, one of them marks the score
WALLS = 20  # per player (RULES.md)
TURNS_PER_ROUND = 12  # the turn track; odd turns are seat 0's, even turns seat 1's
ACTIONS_PER_TURN = 3
TARGET = 27  # reaching this score ends the game at once
COLOURS = ("قرمز", "زرد")  # seat 0 red, seat 1 yellow, as in the seed's examples

NOBODY = -1  # no castle / no owner / no wall, in the state's per-camp and per-side tuples


class ConquerorOptions(BaseModel):
    """Lobby options; the defaults are the seed's game (type 1, set-up 1) on the project's fixed board."""

    model_config = ConfigDict(frozen=True)

    random_board: bool = Field(
        default=False,
        description="Build a random board from the game's seed, by the seed's tile rules, instead of the fixed one.",
    )
    random_board_tiles: int = Field(default=7, ge=2, le=12, description="Tiles of a random board.")
    rounds: int = Field(default=3, ge=1, le=9, description="Rounds of 12 turns; the seed lets players agree on more.")


class ConquerorState(BaseModel):
    """The whole game. Per-camp tuples follow the board's camp order, ``walls`` its order of shared sides.

    ``round`` 0 is the opening (turn 1: seat 0 places its first castle, turn 2: seat 1); rounds 1.. are play.
    """

    model_config = ConfigDict(frozen=True)

    options: ConquerorOptions = ConquerorOptions()
    rng: int
    board: str  # the board's code (``rules.conqueror.board``), so a state carries its own board
    round: int = 0
    turn: int = 1
    actions_left: int = 1
    castles: tuple[int, ...]  # per camp: the castle's owner, or NOBODY
    manned: tuple[int, ...]  # per camp: 1 when a piece stands on the castle (always its owner's)
    pieces: tuple[tuple[int, ...], ...]  # per seat, per camp: pieces standing in the camp (not on a castle)
    walls: tuple[int, ...]  # per shared side: the seat that built a wall there, or NOBODY
    owners: tuple[int, ...]  # per camp: the owning seat, or NOBODY (kept up to date)
    scores: tuple[int, ...]  # per seat: camps owned
    supply: tuple[int, ...]  # per seat: pieces off the board
    walls_left: tuple[int, ...]  # per seat
    finished: bool = False
    end_reason: Literal["target", "rounds"] | None = None


Kind = Literal["castle", "wall", "enter", "leave", "move", "end"]


class ConquerorAction(NamedTuple):
    """One action: ``cell`` the camp acted on (the source of a move); ``to`` the target of a move or the
    camp across the side a wall goes on. Camps are indexes in the board's order (7 per tile)."""

    kind: Kind
    cell: int = -1
    to: int = -1


# Events -------------------------------------------------------------------------------------------


class CastleBuilt(Event):
    kind: Literal["castle_built"] = "castle_built"
    seat: int
    camp: str


class WallBuilt(Event):
    kind: Literal["wall_built"] = "wall_built"
    seat: int
    camp: str
    across: str  # the camp on the other side of the wall


class Entered(Event):
    kind: Literal["entered"] = "entered"
    seat: int
    camp: str


class Left(Event):
    kind: Literal["left"] = "left"
    seat: int
    camp: str


class Moved(Event):
    kind: Literal["moved"] = "moved"
    seat: int
    source: str
    target: str


class Captured(Event):
    kind: Literal["captured"] = "captured"
    seat: int  # the new owner
    camp: str
    returned: int  # the previous owner's pieces sent back to its supply (the camp's and the castle's)


class Scored(Event):
    """Ownership changed: ``changes`` lists (camp, old owner, new owner), None for nobody."""

    kind: Literal["scored"] = "scored"
    changes: tuple[tuple[str, int | None, int | None], ...]
    scores: tuple[int, ...]


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"
    seat: int
    round: int
    turn: int
    automatic: bool  # the turn's last action was used (not ended with "x")


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"
    reason: Literal["target", "rounds"]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


# The view ------------------------------------------------------------------------------------------


class CellView(BaseModel):
    """One camp as printed on the board. Axial coordinates of a pointy-top hexagon: centre x = √3·(q + r/2),
    y = 1.5·r (y down). Shared by every view of a board, hence frozen."""

    model_config = ConfigDict(frozen=True)

    label: str
    tile: str
    q: int
    r: int
    capacity: int
    kind: Literal["camp", "plain"]
    centre: bool  # a tile's centre (where first castles go)


class WallView(BaseModel):
    """A wall on the side between two camps; ``side`` is that side's direction from ``camp`` (0 = east, then
    counter-clockwise on screen: 1 north-east, 2 north-west, 3 west, 4 south-west, 5 south-east)."""

    model_config = ConfigDict(frozen=True)

    camp: str
    across: str
    side: int
    seat: int


class ConquerorView(BaseModel):
    """Everything about a game: کشورگشا hides nothing (the generator only builds a random board).

    The board's camps are ``cells``; what stands on them is in per-camp tuples in the same order (plain
    tuples rather than a model per camp keep a view cheap to build and to keep).
    """

    game: Literal["conqueror"] = "conqueror"
    seat: int | None
    colours: tuple[str, str] = COLOURS
    cells: tuple[CellView, ...]
    castles: tuple[int | None, ...]  # per camp: the castle's owner
    manned: tuple[bool, ...]  # per camp: a piece (the castle owner's) stands on the castle
    pieces: tuple[tuple[int, ...], ...]  # per seat, per camp: pieces standing in the camp
    owners: tuple[int | None, ...]  # per camp: the owning seat
    walls: tuple[WallView, ...]
    scores: tuple[int, ...]
    supply: tuple[int, ...]
    walls_left: tuple[int, ...]
    castle_counts: tuple[int, ...]  # castles on the board per seat
    opening: bool
    round: int
    rounds: int
    turn: int
    turns_per_round: int = TURNS_PER_ROUND
    to_act: int | None
    actions_left: int
    target: int = TARGET
    finished: bool
    end_reason: str | None
    winners: tuple[int, ...]
    # The action codes of the seat to act, in legal_actions' order (nothing is secret): a menu's picture marks
    # the camps they name.
    legal: tuple[str, ...] = ()
