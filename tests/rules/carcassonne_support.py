"""Helpers for the Carcassonne scenario tests: build a position from readable pieces and play text actions.

Notation: a laid tile is ("E", x, y, rotation) with x eastwards, y southwards and rotation in clockwise
quarter turns; a meeple is (seat, index of its tile in the laid order, spot) with the data's spot ids
("c0", "r0", "f1", "m"). Actions are the engine's text form ("t.0_-1.2.n", "t.1_0.3.c0").
"""

from __future__ import annotations

from collections.abc import Sequence

from play_support import legal_texts, play_texts

from rules import Event, Step
from rules.carcassonne import Carcassonne, CarcassonneOptions, CarcassonneState
from rules.carcassonne.data import BY_LETTER
from rules.carcassonne.model import FeatureScored

GAME = Carcassonne()
FARMERS = CarcassonneOptions(farmers=True)


def make_state(
    tiles: Sequence[tuple[str, int, int, int]],
    *,
    drawn: str,
    pile: str = "UUUU",
    meeples: Sequence[tuple[int, int, str]] = (),
    players: int = 2,
    turn: int = 0,
    options: CarcassonneOptions | None = None,
) -> CarcassonneState:
    """A position: ``tiles`` laid in order; ``drawn`` in the hand of ``turn``; ``pile`` the draw order as type
    letters."""
    placed = tuple((BY_LETTER[t].index, x, y, r) for t, x, y, r in tiles)
    on_board = tuple((seat, i, BY_LETTER[tiles[i][0]].spot_index[spot]) for seat, i, spot in meeples)
    return CarcassonneState(
        options=options or CarcassonneOptions(),
        players=players,
        rng=987654321987654321,
        pile=tuple(BY_LETTER[c].index for c in pile),
        drawn=BY_LETTER[drawn].index,
        placed=placed,
        meeples=on_board,
        points=tuple((0, 0, 0, 0) for _ in range(players)),
        turn=turn,
    )


def play(state: CarcassonneState, *texts: str) -> Step[CarcassonneState]:
    """Apply text actions in order, each for the seat in turn; the final state and all the events."""
    return play_texts(GAME, state, *texts)


def legal(state: CarcassonneState, seat: int | None = None) -> set[str]:
    """The legal actions in text form."""
    return legal_texts(GAME, state, seat)


def placements(state: CarcassonneState) -> set[str]:
    """The legal "t.<x>_<y>.<rot>" of the drawn tile, whatever the meeple."""
    return {code.rsplit(".", 1)[0] for code in legal(state)}


def spots_at(state: CarcassonneState, placement: str) -> set[str]:
    """The meeple choices ("n" for none) when the drawn tile is laid as ``placement``."""
    return {code.rsplit(".", 1)[1] for code in legal(state) if code.rsplit(".", 1)[0] == placement}


def scores(state: CarcassonneState) -> tuple[int, ...]:
    return tuple(sum(p) for p in state.points)


def scored(events: Sequence[Event]) -> list[FeatureScored]:
    return [e for e in events if isinstance(e, FeatureScored)]


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]
