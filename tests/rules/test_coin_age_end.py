"""Coin Age scenarios: the two ends of the game, scoring, the tie-break and the shared win.

Rulebook points are cited from seed 004 as in ``test_coin_age.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from coin_age_support import EMPTY, FULL, GAME, board_of, kinds, legal, make_state, play

from rules import GameOver
from rules.coin_age import CoinAgeState
from rules.coin_age.model import GameEnded, Placed
from rules.evolve import evolve

# Nine spaces taken, C2 (the Silver City) empty.
NINE = {
    "A1": "D1",
    "A2": "B0",
    "A3": "A1",
    "B1": "C1",
    "B2": "B1",
    "B3": "A0",
    "B4": "C0",
    "C1": "A1",
    "C3": "B1",
}


def finished(
    board: Mapping[str, str], supply: tuple[tuple[int, ...], tuple[int, ...]] = (EMPTY, EMPTY)
) -> CoinAgeState:
    """A game over with this board and these coins left off it."""
    state = make_state(board=board, supply=supply)
    return evolve(state, hand=(), toss=(), moves_left=0, captures_left=0, finished=True, end_reason="board_full")


# -- The end ----------------------------------------------------------------------------------------


def test_game_ends_when_a_player_places_its_last_coin() -> None:
    """§ end: the game ends as soon as a player puts its last coin on the board."""
    state = make_state(board={"B2": "C1"}, toss="A0", supply=(EMPTY, FULL))  # 1 fav: place 1 + move 1
    step = play(state, "p.A.A1")
    assert step.events == (Placed(seat=0, size=0, space="A1"), GameEnded(reason="last_coin"))
    assert step.state.finished and step.state.end_reason == "last_coin"
    assert GAME.to_act(step.state) == ()
    assert GAME.outcome(step.state) is not None


def test_the_rest_of_the_turn_is_lost_at_the_end() -> None:
    """§ end: the game stops at once; the unused move of that turn is not played."""
    state = make_state(board={"B2": "C1"}, toss="A0", supply=(EMPTY, FULL))
    final = play(state, "p.A.A1").state
    assert GAME.legal_actions(final, 0) == []
    with pytest.raises(GameOver):
        play(final, "m.B2.C2")


def test_not_the_last_coin_while_an_unfavourable_coin_is_in_hand() -> None:
    """§ end: a coin tossed unfavourably is still the player's (it goes back to the supply), so placing the
    other one is not placing the last coin."""
    state = make_state(board={"B2": "C1"}, toss="A0 B1", supply=(EMPTY, FULL))
    step = play(state, "p.A.A1")
    assert not step.state.finished
    step = play(step.state, "x")
    assert step.events[0].returned == (1,)  # type: ignore[attr-defined]
    assert step.state.supply[0] == (0, 1, 0, 0)


def test_not_the_last_coin_while_the_supply_has_coins() -> None:
    """§ end: coins left in the supply (not tossed: a second coin of a size) keep the game going."""
    state = make_state(board={"B2": "C1"}, toss="A0", supply=((1, 0, 0, 0), FULL))
    assert not play(state, "p.A.A1").state.finished


def test_game_ends_when_the_last_empty_space_is_filled() -> None:
    """§ end: the game ends as soon as a coin is placed on the last empty space, even mid-turn."""
    state = make_state(board=NINE, toss="A0 B0 C0", supply=((3, 2, 1, 0), FULL))  # 3 fav: place 2
    step = play(state, "p.C.C2")
    assert step.events == (Placed(seat=0, size=2, space="C2"), GameEnded(reason="board_full"))
    assert step.state.finished and step.state.end_reason == "board_full"
    assert all(step.state.stacks)


def test_coins_in_hand_at_the_end_count_as_unplaced() -> None:
    """§ score 3 and engine interpretation: coins still in hand when the game ends are unplaced coins."""
    state = make_state(board=NINE, toss="A0 B0 C0", supply=((3, 2, 1, 0), (1, 0, 0, 0)))
    final = play(state, "p.C.C2").state
    assert final.hand == ()
    assert final.supply[0] == (4, 3, 1, 0)  # the A and B in hand joined the supply
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.detail["unplaced"] == [8, 1]
    assert outcome.detail["tiebreak"] == [4 * 1 + 3 * 2 + 1 * 3, 1]


def test_placing_on_a_stack_does_not_fill_the_board() -> None:
    """§ end: only a coin on the last *empty* space ends the game; stacking leaves it empty."""
    state = make_state(board=NINE, toss="A0 B0 C0", supply=((3, 2, 1, 0), FULL))
    step = play(state, "p.A.B4")  # onto the C on B4
    assert not step.state.finished
    assert board_of(step.state)["B4"] == "C0 A0"
    assert "p.B.C2" in legal(step.state)


def test_moving_never_ends_the_game() -> None:
    """§ end: a move leaves as many spaces empty as before, so it cannot fill the board."""
    board = {k: v for k, v in NINE.items() if k != "B3"}  # B3 and C2 empty
    state = make_state(board=board, toss="A1 B1 C1 D1")  # 0 fav: move + capture
    step = play(state, "m.B4.B3")
    assert not step.state.finished
    assert kinds(step.events) == ["moved"]


def test_last_coin_on_the_last_space_reports_the_last_coin() -> None:
    """§ end: both ends at once (last coin on the last empty space) end the game once, as "last_coin"."""
    state = make_state(board=NINE, toss="A0", supply=(EMPTY, FULL))
    step = play(state, "p.A.C2")
    assert step.events[-1] == GameEnded(reason="last_coin")
    assert kinds(step.events).count("game_ended") == 1


# -- Scoring ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("letter", "value"), [("A", 1), ("B", 2), ("C", 3), ("D", 4)])
def test_coin_values(letter: str, value: int) -> None:
    """§ score 1: a controlling A scores 1, B 2, C 3, D 4 (one space each side in the region: no doubling)."""
    outcome = GAME.outcome(finished({"A1": f"{letter}0", "A2": "A1"}))
    assert outcome is not None
    assert outcome.detail["board"] == [value, 1]


def test_top_coins_score_for_the_side_they_show() -> None:
    """§ score 1: the lone or top coin of a space controls it and scores its value to the side it shows;
    coins underneath score nothing."""
    board = {"A1": "D1 B0", "A2": "C1", "B2": "A0", "B3": "A1"}  # M 1:1, F 1:1: no doubling
    outcome = GAME.outcome(finished(board))
    assert outcome is not None
    assert outcome.detail["board"] == [2 + 1, 3 + 1]
    assert outcome.scores == (3, 4) and outcome.winners == (1,)


def test_colour_doubling() -> None:
    """§ score 2: controlling more spaces of a colour than the opponent doubles your points in that colour;
    an equal count doubles nobody."""
    board = {
        "A1": "D0", "A2": "A0", "A3": "C1",  # M (mountains): شیر 2 to 1 -> شیر's 4+1 doubled
        "C2": "B1",  # T (the city, one space): خط 1 to 0 -> خط's 2 doubled
        "B4": "A0", "C3": "A1",  # P (plains): 1 to 1 -> no doubling
    }  # fmt: skip
    final = finished(board)
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.detail["board"] == [(4 + 1) * 2 + 1, 3 + 2 * 2 + 1]
    doubled = {r.id: r.doubled for r in GAME.view(final, None).regions}
    assert doubled == {"M": 0, "F": None, "P": None, "T": 1}


def test_doubling_needs_only_more_than_the_opponent() -> None:
    """§ score 2 as RULES.md reads it: one controlled space of four, against none, doubles that colour."""
    outcome = GAME.outcome(finished({"B1": "C1"}))
    assert outcome is not None
    assert outcome.detail["board"] == [0, 6]


def test_equal_control_doubles_nobody() -> None:
    """§ score 2: with the same number of spaces of a colour, neither player's points there are doubled."""
    board = {"A1": "D0", "A2": "A0", "A3": "C1", "B1": "B1"}  # M 2:2
    outcome = GAME.outcome(finished(board))
    assert outcome is not None
    assert outcome.detail["board"] == [5, 5]
    assert outcome.winners == (0, 1)


def test_buried_coins_control_nothing() -> None:
    """§ score 1: a space is controlled by its top coin only, even when a larger coin lies underneath."""
    outcome = GAME.outcome(finished({"A1": "D0 A1"}))
    assert outcome is not None
    assert outcome.detail["board"] == [0, 2]  # خط's A, doubled (M 0:1)


def test_a_full_board_scored() -> None:
    """§ score 1–2 on a whole board: every region, stacks and doubling together."""
    board = {**NINE, "C2": "C0", "B2": "D0 B1"}
    # M: خط 3 to 1 -> (4+1+3)*2 = 16 for خط, 2 for شیر; F: خط 2 to 1 -> (1+2)*2 = 6 for خط, 1 for شیر;
    # P: 1 to 1 -> 3 for شیر, 2 for خط; T: شیر 1 to 0 -> 3*2 = 6 for شیر.
    outcome = GAME.outcome(finished(board))
    assert outcome is not None
    assert outcome.detail["board"] == [2 + 1 + 3 + 6, 16 + 6 + 2]


def test_each_unplaced_coin_scores_one_whatever_its_size() -> None:
    """§ score 3: every coin left off the board adds one point, regardless of its size."""
    outcome = GAME.outcome(finished({}, supply=((4, 0, 0, 0), (0, 0, 0, 1))))
    assert outcome is not None
    assert outcome.detail["unplaced"] == [4, 1]
    assert outcome.scores == (4, 1)


def test_total_is_board_plus_unplaced() -> None:
    """§ score: the final score is the board points plus the unplaced coins."""
    outcome = GAME.outcome(finished({"A1": "B0", "A2": "A1"}, supply=((1, 1, 0, 0), (0, 0, 0, 1))))
    assert outcome is not None
    assert outcome.scores == (2 + 2, 1 + 1)
    assert outcome.winners == (0,)


# -- Winner, tie-break, shared win ------------------------------------------------------------------


def test_higher_score_wins_whatever_the_tiebreak() -> None:
    """§ score: the player with more points wins; the tie-break is only for equal scores."""
    outcome = GAME.outcome(finished({}, supply=((2, 0, 0, 0), (0, 0, 0, 1))))
    assert outcome is not None
    assert outcome.scores == (2, 1) and outcome.winners == (0,)


@pytest.mark.parametrize(
    ("supply", "winners"),
    [
        (((0, 0, 0, 1), (1, 0, 0, 0)), (0,)),
        (((1, 0, 0, 0), (0, 0, 1, 0)), (1,)),
        (((1, 1, 0, 0), (0, 0, 1, 1)), (1,)),
    ],
)
def test_tie_broken_by_the_value_of_unplaced_coins(
    supply: tuple[tuple[int, ...], tuple[int, ...]], winners: tuple[int, ...]
) -> None:
    """§ score, tie: with equal scores the higher total value (A1 B2 C3 D4) of unplaced coins wins."""
    outcome = GAME.outcome(finished({"A1": "B0", "A2": "B1"}, supply=supply))
    assert outcome is not None
    assert outcome.scores[0] == outcome.scores[1]
    assert outcome.winners == winners


def test_shared_win_when_the_tiebreak_ties_too() -> None:
    """RULES.md (the seed is silent): equal scores and equal unplaced values share the win."""
    outcome = GAME.outcome(finished({"A1": "B0", "A2": "B1"}, supply=((0, 2, 0, 0), (1, 0, 1, 0))))
    assert outcome is not None
    assert outcome.scores == (4, 4)
    assert outcome.detail["tiebreak"] == [4, 4]
    assert outcome.winners == (0, 1)


def test_view_shows_the_running_score_and_the_winners() -> None:
    """The view's scores are the outcome's (board, unplaced, tie-break) and name the winners at the end."""
    final = finished({"A1": "D0", "A2": "A0", "C2": "B1"}, supply=((1, 0, 0, 0), (0, 0, 0, 1)))
    outcome = GAME.outcome(final)
    view = GAME.view(final, None)
    assert outcome is not None
    assert tuple(s.total for s in view.scores) == outcome.scores
    assert [s.board for s in view.scores] == outcome.detail["board"]
    assert [s.tiebreak for s in view.scores] == outcome.detail["tiebreak"]
    assert view.winners == outcome.winners and view.finished and view.turn is None


def test_running_score_counts_the_hand_as_unplaced() -> None:
    """During a turn the view counts the tossed coins in hand as the player's unplaced coins."""
    state = make_state(toss="A0 B0 C0 D0", supply=((3, 2, 1, 0), FULL))
    view = GAME.view(state, None)
    assert [s.unplaced for s in view.scores] == [10, 10]
    assert view.winners == () and not view.finished
