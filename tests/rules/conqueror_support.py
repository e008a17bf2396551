"""Helpers for the کشورگشا scenario tests: build a position in a readable notation and play text actions.

Notation: camps are labels ("A0" is tile A's centre, "A1".."A6" its ring by direction); seat 0 is red, seat 1
yellow. A position is given as castles {"A0": 0}, pieces standing on castles (``manned``, a set of camps),
pieces in camps {"A1": (red, yellow)} and walls {("A0", "A1"): builder}; supplies default to what is left of
12 pieces and 20 walls, and ownership and scores are computed by the seed's rule. Actions are the engine's
text form ("c.B4", "w.B4.C1", "e.B4", "l.B4", "m.B4.C1", "x").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from play_support import legal_texts, play_texts

from rules import Event, Step
from rules.conqueror import Conqueror, ConquerorOptions, ConquerorState
from rules.conqueror.board import DEFAULT, INDEX_OF, LABELS, Board, TileSpec, board_from_code, build
from rules.conqueror.engine import owner_of
from rules.conqueror.model import ACTIONS_PER_TURN, NOBODY, PIECES, WALLS

GAME = Conqueror()

# A 7-tile board like the default one (tile A in the middle, B..G around it) but without plains and with
# capacity 2 everywhere, so that the seed's pictures can be laid on it anywhere.
PLAIN_CENTRES = ((0, 0), (1, -3), (3, -2), (2, 1), (-1, 3), (-3, 2), (-2, -1))
OPEN = build([TileSpec(centre, (2,) * 7, ()) for centre in PLAIN_CENTRES])


def at(q: int, r: int, board: Board = OPEN) -> str:
    """The label of the camp at axial (q, r)."""
    return LABELS[board.coords.index((q, r))]


def idx(label: str) -> int:
    return INDEX_OF[label]


def make_state(
    *,
    board: Board = DEFAULT,
    castles: Mapping[str, int] | None = None,
    manned: Iterable[str] = (),
    pieces: Mapping[str, tuple[int, int]] | None = None,
    walls: Mapping[tuple[str, str], int] | None = None,
    seat: int = 0,
    round: int = 1,
    turn: int | None = None,
    actions_left: int = ACTIONS_PER_TURN,
    supply: tuple[int, int] | None = None,
    walls_left: tuple[int, int] | None = None,
    options: ConquerorOptions | None = None,
) -> ConquerorState:
    """A position in the middle of ``seat``'s turn (turn 1 or 2 of the round unless ``turn`` is given)."""
    n = board.size
    castle_list = [NOBODY] * n
    for label, owner in (castles or {}).items():
        castle_list[idx(label)] = owner
    manned_list = [0] * n
    for label in manned:
        manned_list[idx(label)] = 1
    piece_lists = [[0] * n, [0] * n]
    for label, (red, yellow) in (pieces or {}).items():
        piece_lists[0][idx(label)] = red
        piece_lists[1][idx(label)] = yellow
    wall_list = [NOBODY] * len(board.edges)
    for (a, b), builder in (walls or {}).items():
        wall_list[board.edges.index((min(idx(a), idx(b)), max(idx(a), idx(b))))] = builder
    castle_t, wall_t = tuple(castle_list), tuple(wall_list)
    owners = tuple(owner_of(board, castle_t, wall_t, c) for c in range(n))
    if supply is None:
        supply = (
            PIECES - sum(piece_lists[0]) - sum(m for m, o in zip(manned_list, castle_list, strict=True) if o == 0),
            PIECES - sum(piece_lists[1]) - sum(m for m, o in zip(manned_list, castle_list, strict=True) if o == 1),
        )
    if walls_left is None:
        walls_left = (WALLS - wall_list.count(0), WALLS - wall_list.count(1))
    return ConquerorState(
        options=options or ConquerorOptions(),
        rng=12345,
        board=board.code,
        round=round,
        turn=turn if turn is not None else seat + 1,
        actions_left=actions_left,
        castles=castle_t,
        manned=tuple(manned_list),
        pieces=(tuple(piece_lists[0]), tuple(piece_lists[1])),
        walls=wall_t,
        owners=owners,
        scores=(owners.count(0), owners.count(1)),
        supply=supply,
        walls_left=walls_left,
    )


def play(state: ConquerorState, *texts: str) -> Step[ConquerorState]:
    """Apply text actions in order, each for the seat to act; return the last state and all the events."""
    return play_texts(GAME, state, *texts)


def legal(state: ConquerorState, seat: int | None = None) -> set[str]:
    """The legal actions in text form."""
    return legal_texts(GAME, state, seat)


def owners(state: ConquerorState) -> dict[str, int]:
    """The owned camps and their owners."""
    return {LABELS[c]: o for c, o in enumerate(state.owners) if o != NOBODY}


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]


def board_of(state: ConquerorState) -> Board:
    return board_from_code(state.board)
