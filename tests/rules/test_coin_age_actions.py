"""Coin Age scenarios: the four actions — place, move, pay, capture — and the events they produce.

Rulebook points are cited from seed 004 as in ``test_coin_age.py``.
"""

from __future__ import annotations

import pytest
from coin_age_support import FULL, GAME, board_of, kinds, legal, make_state, notation, play

from rules import IllegalAction, MalformedAction, RuleViolation
from rules.coin_age.model import Captured, CoinAction, Moved, Paid, Placed, TurnEnded

# -- Place ------------------------------------------------------------------------------------------


def test_place_a_favourable_coin_on_an_empty_space() -> None:
    """§ place: a favourable coin goes, its owner's side up, onto an empty space."""
    state = make_state(toss="A0 B0 C1 D1")  # 2 fav for شیر: one placement
    step = play(state, "p.B.C2")
    assert step.events[0] == Placed(seat=0, size=1, space="C2")
    assert board_of(step.state) == {"C2": "B0"}


def test_khat_places_coins_showing_khat() -> None:
    """§ place: the coin is placed showing the placing player's side (seat 1 plays خط)."""
    state = make_state(board={"A1": "C0"}, toss="A1 B1 C0", turn=1, supply=(FULL, (3, 2, 1, 1)))
    step = play(state, "p.A.A2")
    assert step.events[0] == Placed(seat=1, size=0, space="A2")
    assert board_of(step.state)["A2"] == "A1"


def test_place_on_a_larger_coin() -> None:
    """§ place: a coin may go onto a stack whose top coin is larger, whoever owns it."""
    state = make_state(board={"B3": "D1 C0"}, toss="A0 B0 C0 D1")  # 3 fav: two placements
    step = play(state, "p.B.B3", "p.A.B3")
    assert board_of(step.state) == {"B3": "D1 C0 B0 A0"}


@pytest.mark.parametrize("top", ["B1", "B0", "A1", "A0"])
def test_place_refused_on_an_equal_or_smaller_coin(top: str) -> None:
    """§ place: the coin underneath must be larger; an equal or smaller top coin refuses the placement."""
    state = make_state(board={"B3": f"D1 {top}"}, toss="A0 B0 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "p.B.B3")


def test_legal_placements_are_empty_spaces_and_larger_tops() -> None:
    """§ place: the offered placements of a B are the empty spaces and the stacks topped by C or D."""
    board = {"A1": "C1", "A2": "B1", "A3": "A0", "B1": "D0", "B2": "D1 B0"}
    state = make_state(board=board, toss="A1 B0 C1 D1")  # 1 fav (the B): place 1, move 1
    placements = {a for a in legal(state) if a.startswith("p.")}
    assert placements == {"p.B.A1", "p.B.B1", "p.B.B3", "p.B.B4", "p.B.C1", "p.B.C2", "p.B.C3"}


def test_place_refused_with_an_unfavourable_coin() -> None:
    """§ place: the coin must be one of the tossed coins showing the player's own side."""
    state = make_state(toss="A0 B1 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "p.B.A1")
    assert not any(a.startswith("p.B") for a in legal(state))


def test_place_refused_with_a_coin_not_tossed() -> None:
    """§ place: only coins of this turn's toss may be placed, not coins left in the supply."""
    state = make_state(toss="A0 B0", supply=((3, 2, 2, 1), FULL))
    with pytest.raises(RuleViolation):
        play(state, "p.C.A1")


def test_place_refused_with_no_placement_left() -> None:
    """§ table: placements are counted; with none left a favourable coin in hand cannot be placed."""
    state = make_state(toss="A0 B0 C0 D1", allowances=(0, 0, 0, False), hand="C0")
    with pytest.raises(RuleViolation):
        play(state, "p.C.A1")
    assert legal(state) == {"x"}


def test_placed_coin_leaves_the_hand_and_uses_a_placement() -> None:
    """§ table: with three favourable coins the player places two; each placement uses one."""
    state = make_state(toss="A0 B0 C0 D1")
    after = play(state, "p.C.A1").state
    assert after.places_left == 1
    assert notation(after.hand) == "A0 B0 D1"


# -- Move -------------------------------------------------------------------------------------------


def test_move_takes_the_whole_stack_in_order() -> None:
    """§ move: all the coins of a space move, in the same order, to an empty neighbouring space."""
    state = make_state(board={"A1": "D1 B0 A1"}, toss="A1 B1 C0 D1")  # 1 fav: place 1 + move 1
    step = play(state, "m.A1.A2")
    assert step.events[0] == Moved(seat=0, source="A1", target="A2", coins=3)
    assert board_of(step.state) == {"A2": "D1 B0 A1"}


def test_move_any_stack_including_the_opponents() -> None:
    """Engine interpretation: the rulebook says "the coins of a space", so any stack may be moved."""
    state = make_state(board={"C1": "B1"}, toss="A1 B1 C1 D1")  # 0 fav: move 1 + capture 1
    step = play(state, "m.C1.C2")
    assert board_of(step.state) == {"C2": "B1"}


def test_move_targets_are_the_empty_neighbours() -> None:
    """§ move: the offered moves of a stack are exactly its empty neighbouring spaces."""
    state = make_state(board={"B2": "C0", "A1": "A1"}, toss="A1 B1 C1 D1")
    moves = {a for a in legal(state) if a.startswith("m.B2")}
    assert moves == {"m.B2.A2", "m.B2.B1", "m.B2.B3", "m.B2.C1", "m.B2.C2"}  # A1 is occupied


@pytest.mark.parametrize("target", ["C3", "A3", "B4"])
def test_move_refused_to_a_space_not_bordering(target: str) -> None:
    """§ move: the target must share a border with the source (A1 borders only A2, B1 and B2)."""
    state = make_state(board={"A1": "C0"}, toss="A1 B1 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, f"m.A1.{target}")


def test_move_refused_to_an_occupied_neighbour() -> None:
    """§ move: the target must be empty; stacks are never merged by moving."""
    state = make_state(board={"A1": "C0", "A2": "D1"}, toss="A1 B1 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "m.A1.A2")


def test_move_refused_from_an_empty_space() -> None:
    """§ move: there must be coins to move on the source space."""
    state = make_state(board={"A1": "C0"}, toss="A1 B1 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "m.A2.A3")


def test_move_refused_without_a_move_in_the_table() -> None:
    """§ table: two or more favourable coins give no move."""
    state = make_state(board={"A1": "C0"}, toss="A0 B0 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "m.A1.A2")


def test_only_one_move_per_turn() -> None:
    """§ table: one favourable coin or none gives a single move."""
    state = make_state(board={"A1": "C0", "C3": "B1"}, toss="A1 B1 C1 D1")
    after = play(state, "m.A1.A2").state
    assert after.turn == 0 and after.moves_left == 0
    with pytest.raises(RuleViolation):
        play(after, "m.C3.C2")


# -- Pay --------------------------------------------------------------------------------------------


def test_pay_gives_a_favourable_coin_to_the_opponent() -> None:
    """§ pay: one favourable tossed coin goes to the opponent's supply."""
    state = make_state(toss="A0 B0 C0 D0", supply=((3, 2, 1, 0), (1, 1, 1, 1)))
    step = play(state, "y.B")
    assert step.events == (Paid(seat=0, size=1),)
    assert step.state.supply == ((3, 2, 1, 0), (1, 2, 1, 1))
    assert step.state.places_left == 3 and not step.state.can_pay


def test_pay_then_place_three() -> None:
    """§ table: four favourable coins: pay one coin and place three."""
    state = make_state(toss="A0 B0 C0 D0")
    step = play(state, "y.A", "p.D.A1", "p.C.A2", "p.B.A3")
    assert board_of(step.state) == {"A1": "D0", "A2": "C0", "A3": "B0"}
    assert step.events[:5] == (
        Paid(seat=0, size=0),
        Placed(seat=0, size=3, space="A1"),
        Placed(seat=0, size=2, space="A2"),
        Placed(seat=0, size=1, space="A3"),
        TurnEnded(seat=0, returned=(), automatic=True),
    )


def test_pay_at_any_point_of_the_turn() -> None:
    """Engine interpretation: the payment may come after the two placements and still unlocks a third."""
    state = make_state(toss="A0 B0 C0 D0")
    after_two = play(state, "p.D.A1", "p.C.A2").state
    assert after_two.turn == 0 and legal(after_two) == {"y.A", "y.B", "x"}
    after_pay = play(after_two, "y.B").state
    assert after_pay.places_left == 1
    assert "p.A.A3" in legal(after_pay)


def test_without_paying_four_favourable_coins_place_two() -> None:
    """§ table: four favourable coins place two unless one is paid."""
    state = make_state(toss="A0 B0 C0 D0")
    after_two = play(state, "p.D.A1", "p.C.A2").state
    with pytest.raises(RuleViolation):
        play(after_two, "p.B.A3")
    step = play(after_two, "x")
    assert step.events[0] == TurnEnded(seat=0, returned=(0, 1), automatic=False)


def test_pay_only_once() -> None:
    """§ table: one coin is paid, once per turn."""
    state = make_state(toss="A0 B0 C0 D0")
    after = play(state, "y.A").state
    assert not any(a.startswith("y.") for a in legal(after))
    with pytest.raises(RuleViolation):
        play(after, "y.B")


def test_pay_refused_with_fewer_than_four_favourable() -> None:
    """§ table: only four favourable coins allow paying."""
    with pytest.raises(RuleViolation):
        play(make_state(toss="A0 B0 C0 D1"), "y.A")


def test_pay_refused_with_a_coin_no_longer_in_hand() -> None:
    """§ pay: the coin paid is one of the tossed favourable coins still in hand."""
    state = make_state(toss="A0 B0 C0 D0")
    after = play(state, "p.D.A1").state
    with pytest.raises(RuleViolation):
        play(after, "y.D")


# -- Capture ----------------------------------------------------------------------------------------


def test_capture_a_lone_coin() -> None:
    """§ capture: a lone coin is taken from its space into the capturer's supply."""
    state = make_state(board={"B2": "C1"}, toss="A1 B1 C1 D1", supply=((3, 2, 1, 0), FULL))
    step = play(state, "c.B2")
    assert step.events[0] == Captured(seat=0, size=2, side=1, space="B2")
    assert board_of(step.state) == {}
    assert step.state.supply[0] == (3, 2, 2, 0)


def test_capture_the_top_coin_of_a_stack() -> None:
    """§ capture: from a stack only the top coin is taken; the rest stays in place."""
    state = make_state(board={"B2": "D0 C1 A1"}, toss="A1 B1 C1 D1", supply=((3, 2, 1, 0), FULL))
    step = play(state, "c.B2")
    assert step.events[0] == Captured(seat=0, size=0, side=1, space="B2")
    assert board_of(step.state) == {"B2": "D0 C1"}
    assert step.state.supply[0] == (4, 2, 1, 0)


def test_capture_ones_own_coin() -> None:
    """Engine interpretation: the rulebook does not restrict the side, so a player may take back its own."""
    state = make_state(board={"A3": "B0"}, toss="A1 B1 C1 D1", supply=((3, 2, 1, 0), FULL))
    step = play(state, "c.A3")
    assert step.events[0] == Captured(seat=0, size=1, side=0, space="A3")
    assert step.state.supply[0] == (3, 3, 1, 0)


def test_capture_refused_on_an_empty_space() -> None:
    """§ capture: there must be a coin to take."""
    state = make_state(board={"B2": "C1"}, toss="A1 B1 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "c.C3")
    assert {a for a in legal(state) if a.startswith("c.")} == {"c.B2"}


def test_capture_refused_without_a_capture_in_the_table() -> None:
    """§ table: a capture comes only with no favourable coin."""
    state = make_state(board={"B2": "C1"}, toss="A0 B1 C1 D1")
    with pytest.raises(RuleViolation):
        play(state, "c.B2")


def test_only_one_capture_per_turn() -> None:
    """§ table: no favourable coin gives a single capture (and a single move)."""
    state = make_state(board={"B2": "C1", "C3": "A0", "A1": "B1"}, toss="A1 B1 C1 D1")
    after = play(state, "c.B2").state
    assert after.turn == 0 and after.captures_left == 0
    with pytest.raises(RuleViolation):
        play(after, "c.C3")


def test_captured_coin_is_the_capturers_to_toss_next_turn() -> None:
    """§ Q&A: a captured coin joins the capturer's supply and is used from the next turn on."""
    # خط tossed its last coin, an A, unfavourably (0 fav): it captures its own D and ends the turn.
    state = make_state(board={"B2": "D1", "C3": "A0"}, toss="A0", supply=(FULL, (0, 0, 0, 0)), turn=1)
    step = play(state, "c.B2", "x")
    assert step.events[0] == Captured(seat=1, size=3, side=1, space="B2")
    assert step.events[1] == TurnEnded(seat=1, returned=(0,), automatic=False)
    assert step.state.turn == 0  # the A left on C3 always gives شیر something to do
    next_toss = play(step.state, "x").events[1]
    assert next_toss.seat == 1  # type: ignore[attr-defined]
    assert [size for size, _ in next_toss.coins] == [0, 3]  # type: ignore[attr-defined]


def test_capture_then_move() -> None:
    """§ table: with no favourable coin the player may both capture and move, here capturing first."""
    state = make_state(board={"B2": "C1 A0", "A1": "B1"}, toss="A1 B1 C1 D1")
    step = play(state, "c.B2", "m.B2.C2")
    assert board_of(step.state)["C2"] == "C1"
    assert kinds(step.events)[:3] == ["captured", "moved", "turn_ended"]


# -- Malformed actions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        CoinAction("place", size=0, space=10),
        CoinAction("place", size=4, space=0),
        CoinAction("place", size=-1, space=0),
        CoinAction("move", space=0, to=-1),
        CoinAction("move", space=99, to=0),
        CoinAction("capture", space=10),
        CoinAction("pay", size=7),
    ],
)
def test_actions_outside_the_game_are_malformed(action: CoinAction) -> None:
    """Actions naming no space or no coin size are MalformedAction, not a crash."""
    state = make_state(board={"B2": "C1"}, toss="A0 B0 C0 D0", allowances=(2, 1, 1, True))
    with pytest.raises(MalformedAction):
        GAME.apply(state, 0, action)


def test_refused_actions_leave_the_state_unchanged() -> None:
    """Contract: an IllegalAction leaves the state as it was (apply never mutates its input)."""
    state = make_state(board={"B2": "C1"}, toss="A0 B1 C1 D1")
    before = state.model_dump_json()
    for text in ("p.B.A1", "p.A.B2x", "c.B2", "m.B2.C3", "y.A"):
        with pytest.raises(IllegalAction):
            play(state, text)
    assert state.model_dump_json() == before
