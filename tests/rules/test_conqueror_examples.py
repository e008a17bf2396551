"""کشورگشا: the seed's worked examples, laid on a board built to match its pictures.

The seed (``/work/shared/seeds/002_*.conqueror-keshvargosha.fa.txt``) numbers the camps around a castle 1..6
in its pictures; here they get axial coordinates on ``OPEN`` (the fixed board's shape, no plains, capacity 2),
so each picture's geometry is written out: a castle's six camps are its neighbours, and "one camp away" is
distance 2. Citations: "§ example castle 8", "§ example castle 10", "§ example capture", "§ example walls".
"""

from __future__ import annotations

import pytest
from conqueror_support import GAME, OPEN, at, make_state, owners, play

from rules.conqueror import ConquerorState
from rules.conqueror.model import Scored

# § example castle 8: red's castle R, yellow builds castle 8 one camp away; camps 1, 2 lie between them.
R = at(0, 0)
EIGHT = at(2, -1)
SHARED_1, SHARED_2 = at(1, 0), at(1, -1)
ONLY_EIGHT = (at(3, -1), at(3, -2), at(2, -2), at(2, 0))  # camps 3..6 of the picture
YELLOW_FIRST = at(-3, 2)  # yellow's opening castle, far away (tile F's centre)


def _before_castle_8() -> ConquerorState:
    return make_state(board=OPEN, castles={R: 0, YELLOW_FIRST: 1}, seat=1)


def test_opening_castle_on_a_tile_centre_scores_six() -> None:
    """§ example (opening): a castle on a tile's centre is the only castle its six camps touch: +6."""
    state = GAME.setup(2, seed=5)
    step = play(state, "c.A0")
    assert step.state.scores == (6, 0)
    assert set(owners(step.state)) == {f"A{k}" for k in range(1, 7)}
    step = play(step.state, "c.D0")
    assert step.state.scores == (6, 6)


def test_example_castle_8() -> None:
    """§ example castle 8: camps 1 and 2 now touch a yellow and a red castle, so red loses them (-2); camps
    3, 4, 5 and 6 touch only the yellow castle (+4 for yellow)."""
    state = _before_castle_8()
    assert state.scores == (6, 6)
    assert owners(state)[SHARED_1] == owners(state)[SHARED_2] == 0
    step = play(state, f"c.{EIGHT}")
    after = owners(step.state)
    assert SHARED_1 not in after and SHARED_2 not in after
    assert all(after[camp] == 1 for camp in ONLY_EIGHT)
    assert step.state.scores == (6 - 2, 6 + 4)
    scored = next(e for e in step.events if isinstance(e, Scored))
    assert set(scored.changes) == {(SHARED_1, 0, None), (SHARED_2, 0, None)} | {(c, None, 1) for c in ONLY_EIGHT}
    assert scored.scores == (4, 10)


# § example castle 10: red builds castle 10 (here at the origin) next to its castle Ra and yellow's castle Y.
TEN = at(0, 0)
RA, Y = at(1, 1), at(2, -1)
C1, C2, C6 = at(1, 0), at(1, -1), at(0, 1)  # camp 1 touches Ra and Y; camp 2 touches Y; camp 6 touches Ra
C345 = (at(0, -1), at(-1, 0), at(-1, 1))


def _before_castle_10() -> ConquerorState:
    return make_state(board=OPEN, castles={RA: 0, Y: 1})


def test_example_castle_10() -> None:
    """§ example castle 10: camp 1 (neutral: one red, one yellow castle) now touches two red castles of three:
    +1 red; camp 2 (yellow) now touches a red and a yellow castle: -1 yellow, nothing for red; camps 3, 4, 5
    touch only castle 10: +3 red; camp 6 was red already (castle Ra): no change."""
    state = _before_castle_10()
    before = owners(state)
    assert C1 not in before and before[C2] == 1 and before[C6] == 0
    step = play(state, f"c.{TEN}")
    after = owners(step.state)
    assert after[C1] == 0 and C2 not in after and after[C6] == 0
    assert all(after[c] == 0 for c in C345)
    assert step.state.scores == (state.scores[0] + 4, state.scores[1] - 1)
    scored = next(e for e in step.events if isinstance(e, Scored))
    assert set(scored.changes) == {(C1, None, 0), (C2, 1, None)} | {(c, None, 0) for c in C345}


def test_example_capture_of_castle_10() -> None:
    """§ example capture: yellow takes castle 10. Camp 1 now touches two yellow castles: -1 red, +1 yellow;
    camp 2 (neutral) becomes yellow: +1; camps 3, 4, 5 change hands at once: -3 red, +3 yellow; camp 6 now
    touches a red and a yellow castle: -1 red only."""
    built = play(_before_castle_10(), f"c.{TEN}").state
    state = make_state(board=OPEN, castles={RA: 0, Y: 1, TEN: 0}, pieces={C2: (0, 1)}, seat=1)
    assert state.owners == built.owners and state.scores == built.scores
    step = play(state, f"m.{C2}.{TEN}")
    assert step.state.castles[OPEN.coords.index((0, 0))] == 1
    after = owners(step.state)
    assert after[C1] == 1 and after[C2] == 1 and C6 not in after
    assert all(after[c] == 1 for c in C345)
    assert step.state.scores == (state.scores[0] - 5, state.scores[1] + 5)
    scored = next(e for e in step.events if isinstance(e, Scored))
    assert set(scored.changes) == {(C1, 0, 1), (C2, None, 1), (C6, 0, None)} | {(c, 0, 1) for c in C345}


def _after_castle_8() -> ConquerorState:
    return make_state(board=OPEN, castles={R: 0, YELLOW_FIRST: 1, EIGHT: 1}, seat=1)


@pytest.mark.parametrize("camp", ONLY_EIGHT)
def test_example_wall_between_a_castle_and_its_own_camp(camp: str) -> None:
    """§ example walls, sides 1-4: a yellow wall between castle 8 and a camp only it owned cuts the link: the
    camp touches no castle any more, -1 for yellow."""
    state = _after_castle_8()
    assert state.scores == (4, 10)
    step = play(state, f"w.{EIGHT}.{camp}")
    assert camp not in owners(step.state)
    assert step.state.scores == (4, 9)


@pytest.mark.parametrize("camp", [SHARED_1, SHARED_2])
def test_example_wall_between_a_castle_and_a_shared_camp(camp: str) -> None:
    """§ example walls, sides 5-6: a yellow wall between castle 8 and a camp shared with a red castle leaves
    the camp touching only the red castle: +1 for red, nothing taken from yellow."""
    state = _after_castle_8()
    step = play(state, f"w.{EIGHT}.{camp}")
    assert owners(step.state)[camp] == 0
    assert step.state.scores == (5, 10)
