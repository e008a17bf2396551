"""Carcassonne's data types: options, state, actions, events and the view the bot and renderer see."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from rules.contract import Event

Phase = Literal["tile", "over"]
CATEGORIES = ("road", "city", "monastery", "field")  # the order of a seat's points in ``state.points``


class CarcassonneOptions(BaseModel):
    """Lobby options; the defaults are the Persian rulebook's rules with RULES.md's decisions."""

    model_config = ConfigDict(frozen=True)

    farmers: bool = Field(
        default=False,
        description="Farmers: meeples may stand on fields, which score 3 per completed city at the end.",
    )


class CarcassonneState(BaseModel):
    """The whole game. ``placed`` holds the tiles in the order they were laid, the starting tile first; a
    meeple is (seat, index in ``placed``, segment index in its tile type). ``pile`` is the hidden draw order."""

    model_config = ConfigDict(frozen=True)

    options: CarcassonneOptions = CarcassonneOptions()
    players: int
    rng: int
    pile: tuple[int, ...]  # tile type indices, the next draw first
    drawn: int = -1  # the tile type in the hand of the seat in turn, -1 when none
    placed: tuple[tuple[int, int, int, int], ...]  # (type, x, y, rotation)
    discarded: tuple[int, ...] = ()  # tile types nobody could place
    meeples: tuple[tuple[int, int, int], ...] = ()
    points: tuple[tuple[int, int, int, int], ...]  # per seat: road, city, monastery, field
    turn: int = 0
    phase: Phase = "tile"


class CarcAction(NamedTuple):
    """A whole turn: lay the drawn tile at (x, y) turned ``rot`` quarter turns clockwise and put a meeple on
    ``spot`` of that tile ("c0", "r1", "f0", "m"), or none with ``spot`` "n". One action, so that a player
    can change their mind about the tile until the meeple is chosen (the bot confirms the whole turn)."""

    x: int
    y: int
    rot: int
    spot: str = "n"


# Events -------------------------------------------------------------------------------------------


class TileDrawn(Event):
    kind: Literal["tile_drawn"] = "tile_drawn"
    seat: int
    tile: str


class TileDiscarded(Event):
    kind: Literal["tile_discarded"] = "tile_discarded"
    seat: int
    tile: str


class TilePlaced(Event):
    kind: Literal["tile_placed"] = "tile_placed"
    seat: int
    tile: str
    x: int
    y: int
    rotation: int


class MeeplePlaced(Event):
    kind: Literal["meeple_placed"] = "meeple_placed"
    seat: int
    x: int
    y: int
    spot: str
    feature: Literal["city", "road", "field", "monastery"]


class FeatureScored(Event):
    """A feature scored: during play when completed (``final`` False), or at the end of the game."""

    kind: Literal["feature_scored"] = "feature_scored"
    feature: Literal["city", "road", "field", "monastery"]
    final: bool
    complete: bool
    tiles: tuple[tuple[int, int], ...]  # (x, y) of the feature's tiles (the monastery's own tile)
    points: int  # to each scoring seat
    seats: tuple[int, ...]  # the majority holders, who all score ``points``
    returned: tuple[int, ...]  # meeples back to each seat's supply, by seat


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"
    scores: tuple[int, ...]
    winners: tuple[int, ...]


# The view ------------------------------------------------------------------------------------------


class PlacedTileView(BaseModel):
    model_config = ConfigDict(frozen=True)

    index: int  # order of placement; the starting tile is 0
    tile: str  # type letter A..X
    x: int
    y: int
    rotation: int  # quarter turns clockwise
    edges: str  # c/r/f for N, E, S, W after rotation


class MeepleView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    tile_index: int
    x: int
    y: int
    spot: str  # segment id of the tile type, in its reference orientation
    feature: Literal["city", "road", "field", "monastery"]


class MeepleSpot(BaseModel):
    model_config = ConfigDict(frozen=True)

    spot: str  # segment id of the tile type, in its reference orientation
    feature: Literal["city", "road", "field", "monastery"]


class PlacementChoice(BaseModel):
    """One legal rotation at a candidate position and the spots a meeple may take on the tile laid so."""

    model_config = ConfigDict(frozen=True)

    rotation: int
    spots: tuple[MeepleSpot, ...]  # empty when the seat has no meeple left or every feature is taken


class CandidateSpot(BaseModel):
    """A legal position for the drawn tile: ``number`` counts from 1 in (y, x) order."""

    model_config = ConfigDict(frozen=True)

    number: int
    x: int
    y: int
    rotations: tuple[PlacementChoice, ...]


class CarcassonneView(BaseModel):
    """Everything public: the whole board, the drawn tile and the choices of the seat in turn (the draw
    order is the only secret)."""

    game: Literal["carcassonne"] = "carcassonne"
    seat: int | None
    players: int
    farmers: bool
    tiles: tuple[PlacedTileView, ...]
    meeples: tuple[MeepleView, ...]
    meeples_left: tuple[int, ...]
    scores: tuple[int, ...]
    points: tuple[tuple[int, int, int, int], ...]  # per seat: road, city, monastery, field
    tiles_left: int  # in the draw pile
    discarded: tuple[str, ...]
    turn: int | None
    phase: Phase
    drawn: str | None
    drawn_edges: str | None  # c/r/f for N, E, S, W in the reference orientation
    candidates: tuple[CandidateSpot, ...]  # phase "tile": every legal placement with its meeple spots
    last_tile: PlacedTileView | None  # the tile laid most recently (None while only the starting tile lies)
    finished: bool
    winners: tuple[int, ...]
