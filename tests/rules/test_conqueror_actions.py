"""کشورگشا scenarios: the actions — build a castle, build a wall, enter a piece, leave a castle, move — and
the capture of castles, one rule each.

Seed points (seed 002) are cited as "§ castle", "§ wall", "§ ownership", "§ enter", "§ move", "§ capacity",
"§ capture"; the engine's own choices as "(interp.)". Positions are on ``OPEN`` (the fixed board's shape, no
plains, capacity 2 everywhere) unless plains or other capacities are the point. Tile A is the middle one:
A0 at (0, 0), A1 east of it, then counter-clockwise A2 north-east ... A6 south-east.
"""

from __future__ import annotations

import pytest
from conqueror_support import OPEN, at, idx, legal, make_state, owners, play

from rules import RuleViolation
from rules.conqueror.board import DEFAULT, LABELS, hex_distance
from rules.conqueror.model import Captured, CastleBuilt, Entered, Left, Moved, WallBuilt

STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _neighbours(label: str) -> set[str]:
    q, r = OPEN.coords[idx(label)]
    return {LABELS[OPEN.coords.index((q + dq, r + dr))] for dq, dr in STEPS if (q + dq, r + dr) in OPEN.coords}


def _castles(state_text: set[str]) -> set[str]:
    return {t for t in state_text if t.startswith("c.")}


# -- Castles ----------------------------------------------------------------------------------------


def test_new_castles_stand_one_camp_away_from_an_opponent_castle() -> None:
    """§ castle: after the opening, a new castle stands at distance 2 from one of the opponent's castles (one
    camp between), never in a camp next to any castle."""
    state = make_state(board=OPEN, castles={"A0": 0, "F0": 1}, seat=1)
    two_away = {LABELS[c] for c, xy in enumerate(OPEN.coords) if hex_distance(xy, (0, 0)) == 2}
    next_to_f0 = _neighbours("F0")
    assert len(two_away) == 12 and len(two_away & next_to_f0) == 2
    assert _castles(legal(state)) == {f"c.{c}" for c in two_away - next_to_f0}
    step = play(state, "c.C5")
    assert step.events[0] == CastleBuilt(seat=1, camp="C5")
    assert step.state.castles[idx("C5")] == 1


@pytest.mark.parametrize(
    ("camp", "why"),
    [
        ("A0", "a camp holds one castle"),
        ("A1", "next to the opponent's castle"),
        ("F2", "next to one's own castle, although two from the opponent's"),
        ("D0", "three camps from the opponent's castle"),
        ("G0", "far from every castle"),
    ],
)
def test_castle_refused(camp: str, why: str) -> None:
    """§ castle: one castle per camp; castles never in neighbouring camps; one camp from an opponent's."""
    state = make_state(board=OPEN, castles={"A0": 0, "F0": 1}, seat=1)
    with pytest.raises(RuleViolation):
        play(state, f"c.{camp}")


def test_walls_do_not_change_where_castles_may_stand() -> None:
    """(interp.) Neighbouring and "one camp away" are about the board, not about walls."""
    walls = {("A0", "A1"): 0, ("A1", "C5"): 0, ("A2", "C5"): 0}
    state = make_state(board=OPEN, castles={"A0": 0, "F0": 1}, walls=walls, seat=1)
    assert "c.C5" in legal(state)
    with pytest.raises(RuleViolation):
        play(state, "c.A1")


def test_no_castle_on_a_plain() -> None:
    """(interp.) A plain (دشت) is open ground: it holds no castle."""
    state = make_state(board=DEFAULT, castles={"A0": 0, "E0": 1}, seat=1)
    assert DEFAULT.plain[idx("B5")] and hex_distance(DEFAULT.coords[idx("B5")], (0, 0)) == 2
    assert "c.B5" not in legal(state) and "c.B6" in legal(state)
    with pytest.raises(RuleViolation):
        play(state, "c.B5")


def test_no_castle_where_opponent_pieces_stand() -> None:
    """(interp.) A castle is built in a camp without opponent pieces (so no castle starts out captured); the
    builder's own pieces may stand there and stay in the camp."""
    state = make_state(board=OPEN, castles={"A0": 0, "F0": 1}, pieces={"C5": (1, 0), "C4": (0, 1)}, seat=1)
    assert "c.C5" not in legal(state)
    with pytest.raises(RuleViolation):
        play(state, "c.C5")
    step = play(state, "c.C4")
    assert step.state.castles[idx("C4")] == 1 and step.state.pieces[1][idx("C4")] == 1


# -- Walls ------------------------------------------------------------------------------------------


def test_walls_go_on_sides_of_castle_camps_and_owned_camps() -> None:
    """§ wall: on a side of a camp that holds one of your castles or that you own; every such side is
    offered, named from that camp."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1})
    mine = [f"A{k}" for k in range(7)]
    expected = {f"w.{a}.{b}" for a in mine for b in _neighbours(a)}
    assert {t for t in legal(state) if t.startswith("w.")} == expected
    assert len(expected) == 42


def test_wall_refused_on_other_camps() -> None:
    """§ wall: not on the opponent's camps nor on neutral ones."""
    state = make_state(board=OPEN, castles={"A0": 0, "C5": 1})
    assert owners(state).get("A1") is None  # touches a red and a yellow castle
    for text in ("w.C4.C0", "w.C5.C4", "w.A1.D3"):
        with pytest.raises(RuleViolation):
            play(state, text)


def test_a_side_takes_one_wall_named_from_either_camp() -> None:
    """A wall sits on a side shared by two camps; naming it from either camp is the same wall, and a side
    takes one wall."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1})
    one, other = play(state, "w.A0.A1").state, play(state, "w.A1.A0").state
    assert one.walls == other.walls
    assert "w.A1.A0" not in legal(one)
    with pytest.raises(RuleViolation):
        play(one, "w.A1.A0")


def test_board_edge_sides_take_no_wall() -> None:
    """A side at the board's edge has no camp across it: only shared sides can be named, and a wall needs
    two neighbouring camps."""
    state = make_state(board=OPEN, castles={"B0": 0, "E0": 1})
    rim = {t for t in legal(state) if t.startswith("w.B2.")}
    assert rim == {f"w.B2.{n}" for n in _neighbours("B2")} and len(rim) == 3
    with pytest.raises(RuleViolation):
        play(state, "w.B0.E0")


def test_twenty_walls_per_player() -> None:
    """RULES.md: 20 walls each; with none left, no wall."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, walls_left=(0, 20))
    assert not any(t.startswith("w.") for t in legal(state))
    with pytest.raises(RuleViolation):
        play(state, "w.A0.A1")
    step = play(make_state(board=OPEN, castles={"A0": 0, "D0": 1}), "w.A0.A1")
    assert step.state.walls_left == (19, 20)
    assert step.events[0] == WallBuilt(seat=0, camp="A0", across="A1")


def test_a_wall_cuts_ownership_and_movement() -> None:
    """RULES.md: a wall cuts that side for ownership and for movement."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, pieces={"A1": (1, 0)})
    step = play(state, "w.A1.A2", "w.A0.A6")
    assert "m.A1.A2" not in legal(step.state) and "m.A1.A0" in legal(step.state)
    assert "A6" not in owners(step.state)
    with pytest.raises(RuleViolation):
        play(step.state, "m.A1.A2")


# -- Entering and leaving castles -------------------------------------------------------------------


def test_enter_a_piece_into_an_own_empty_castle() -> None:
    """§ enter: a piece from the supply goes onto one of your castles that has no piece on it."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1})
    assert {t for t in legal(state) if t[0] in "el"} == {"e.A0"}
    step = play(state, "e.A0")
    assert step.events == (Entered(seat=0, camp="A0"),)
    assert step.state.manned[idx("A0")] == 1 and step.state.supply == (11, 12)


@pytest.mark.parametrize(
    ("castles", "manned", "pieces", "supply", "why"),
    [
        ({"A0": 1, "D0": 0}, (), {}, (12, 12), "the opponent's castle"),
        ({"A0": 0, "D0": 1}, ("A0",), {}, (11, 12), "a castle holds one piece"),
        ({"A0": 0, "D0": 1}, (), {"A0": (0, 1)}, (12, 11), "besieged: an opponent piece stands in its camp"),
        ({"A0": 0, "D0": 1}, (), {}, (0, 12), "no piece left in the supply"),
        ({"B0": 0, "D0": 1}, (), {}, (12, 12), "no castle in that camp"),
    ],
)
def test_enter_refused(
    castles: dict[str, int],
    manned: tuple[str, ...],
    pieces: dict[str, tuple[int, int]],
    supply: tuple[int, int],
    why: str,
) -> None:
    """§ enter: own castles only, one piece per castle, empty castles only, never a besieged castle."""
    state = make_state(board=OPEN, castles=castles, manned=manned, pieces=pieces, supply=supply)
    assert "e.A0" not in legal(state)
    with pytest.raises(RuleViolation):
        play(state, "e.A0")


def test_leave_a_castle_into_its_camp() -> None:
    """§ move: the piece on a castle steps into the castle's camp, freeing the castle for a new piece."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"A0"})
    step = play(state, "l.A0", "e.A0")
    assert step.events[0] == Left(seat=0, camp="A0")
    assert step.state.pieces[0][idx("A0")] == 1 and step.state.manned[idx("A0")] == 1
    assert step.state.supply == (10, 12)


def test_leaving_respects_capacity_except_at_war() -> None:
    """(interp.) Leaving a castle enters its camp, so the camp's capacity applies, unless opponent pieces
    stand there (§ capacity: no limit in a camp at war)."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"A0"}, pieces={"A0": (2, 0)})
    assert "l.A0" not in legal(state)
    with pytest.raises(RuleViolation):
        play(state, "l.A0")
    at_war = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"A0"}, pieces={"A0": (2, 1)})
    assert play(at_war, "l.A0").state.pieces[0][idx("A0")] == 3


# -- Moving -----------------------------------------------------------------------------------------


def test_move_to_a_neighbouring_camp() -> None:
    """§ move: one piece steps to a neighbouring camp not cut off by a wall."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, pieces={"A1": (1, 0)})
    moves = {t for t in legal(state) if t.startswith("m.")}
    assert moves == {f"m.A1.{n}" for n in _neighbours("A1")}
    step = play(state, "m.A1.A2")
    assert step.events == (Moved(seat=0, source="A1", target="A2"),)
    assert step.state.pieces[0][idx("A1")] == 0 and step.state.pieces[0][idx("A2")] == 1


@pytest.mark.parametrize("text", ["m.A1.A4", "m.A2.A3", "m.A0.A1", "m.A1.A1"])
def test_move_refused(text: str) -> None:
    """§ move: only a piece standing in a camp (not on a castle: it leaves first) moves, and only to a
    neighbouring camp."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"A0"}, pieces={"A1": (1, 0)})
    with pytest.raises(RuleViolation):
        play(state, text)


def test_capacity_limits_moves() -> None:
    """§ capacity: a camp holds as many pieces as its printed capacity; a full camp takes no more."""
    assert DEFAULT.capacity[idx("A1")] == 1 and DEFAULT.capacity[idx("A6")] == 2
    state = make_state(board=DEFAULT, castles={"A0": 0, "D0": 1}, pieces={"A1": (1, 0), "A6": (2, 0)})
    assert "m.A6.A1" not in legal(state) and "m.A1.A6" not in legal(state)
    for text in ("m.A6.A1", "m.A1.A6"):
        with pytest.raises(RuleViolation):
            play(state, text)


def test_no_limit_in_a_camp_at_war() -> None:
    """§ capacity, note: in a camp where both colours stand (a battle) there is no limit, for either side."""
    pieces = {"A2": (2, 1), "A1": (1, 0), "A3": (0, 1)}
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, pieces=pieces)
    step = play(state, "m.A1.A2", "x", "m.A3.A2")
    assert (step.state.pieces[0][idx("A2")], step.state.pieces[1][idx("A2")]) == (3, 2)


def test_moving_into_a_full_camp_with_an_opponent_castle_piece() -> None:
    """(interp.) The opponent's piece on a castle counts as standing in its camp, so moving there is war: no
    capacity limit."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"D0"}, pieces={"D0": (2, 0), "D3": (1, 0)})
    assert "m.D3.D0" in legal(state)


# -- Capturing castles ------------------------------------------------------------------------------


def test_an_undefended_castle_falls_to_one_piece() -> None:
    """§ capture: a castle whose owner has no piece in its camp is taken as soon as one piece enters; it
    flips to the new colour and ownership is counted again."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, pieces={"D3": (1, 0)})
    assert state.scores == (6, 6)
    step = play(state, "m.D3.D0")
    assert step.events[:2] == (Moved(seat=0, source="D3", target="D0"), Captured(seat=0, camp="D0", returned=0))
    assert step.state.castles[idx("D0")] == 0
    assert step.state.scores == (12, 0)


def test_the_piece_on_the_castle_counts() -> None:
    """§ capture: the piece on the castle counts with the camp's; equal numbers keep the castle with its
    owner; one more takes it, and the owner's pieces (castle and camp) go back to its supply."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"D0"}, pieces={"D3": (1, 0), "D4": (1, 0)})
    step = play(state, "m.D3.D0")
    assert step.state.castles[idx("D0")] == 1  # one against one
    step = play(step.state, "m.D4.D0")
    assert step.events[1] == Captured(seat=0, camp="D0", returned=1)
    after = step.state
    assert after.castles[idx("D0")] == 0 and after.manned[idx("D0")] == 0
    assert after.supply == (10, 12) and after.pieces[0][idx("D0")] == 2


def test_the_seeds_capture_example() -> None:
    """§ capture: with one yellow piece in the camp of a yellow castle, red needs 2 pieces there to take it;
    every yellow piece of that camp and castle returns to yellow's supply."""
    state = make_state(
        board=OPEN,
        castles={"A0": 0, "D0": 1},
        manned={"D0"},
        pieces={"D0": (2, 1), "D3": (1, 0)},
        supply=(9, 10),
    )
    assert state.castles[idx("D0")] == 1  # two red against yellow's camp piece and castle piece: equal
    step = play(state, "m.D3.D0")
    assert step.events[1] == Captured(seat=0, camp="D0", returned=2)
    assert step.state.supply == (9, 12)
    assert step.state.pieces[1][idx("D0")] == 0 and step.state.pieces[0][idx("D0")] == 3


def test_equal_numbers_hold_the_owners_pieces() -> None:
    """§ capture, note 2: with equal numbers in a castle's camp, the owner cannot move pieces out of it; the
    attacker can."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"D0"}, pieces={"D0": (2, 1)}, seat=1, turn=2)
    assert not any(t.startswith("m.D0.") for t in legal(state))
    with pytest.raises(RuleViolation):
        play(state, "m.D0.D1")
    attacker = state.model_copy(update={"turn": 1})
    assert "m.D0.D1" in legal(attacker)


def test_an_owner_with_more_pieces_may_move_out_down_to_equal() -> None:
    """§ capture, note 2: with more pieces than the attacker, the owner may move out until numbers are equal."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"D0"}, pieces={"D0": (2, 2)}, seat=1, turn=2)
    step = play(state, "m.D0.D1")
    assert not any(t.startswith("m.D0.") for t in legal(step.state))


def test_a_captured_castle_can_be_entered_by_its_new_owner() -> None:
    """§ capture, § enter: the captured castle is empty and, with no opponent piece in its camp, unbesieged."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, pieces={"D3": (1, 0)})
    step = play(state, "m.D3.D0", "e.D0")
    assert step.state.manned[idx("D0")] == 1


def test_a_besieged_castle_takes_no_new_piece_but_its_piece_may_leave() -> None:
    """§ enter: no new piece into a besieged castle; § move: the piece on it may step into the camp (the
    numbers stay the same)."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, manned={"A0"}, pieces={"A0": (0, 1)})
    assert "l.A0" in legal(state) and "e.A0" not in legal(state)
    step = play(state, "l.A0")
    assert "e.A0" not in legal(step.state)


def test_scores_follow_a_capture_on_the_coordinates_of_the_seed() -> None:
    """§ score: a capture is followed at once by counting ownership (the seed's capture example is in
    test_conqueror_examples.py); here the castle's ring changes hands."""
    state = make_state(board=OPEN, castles={"A0": 0, "D0": 1}, pieces={at(2, 0): (1, 0)})
    step = play(state, f"m.{at(2, 0)}.D0")
    assert all(owner == 0 for owner in owners(step.state).values())
    assert len(owners(step.state)) == 12
