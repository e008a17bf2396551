"""کشورگشا scenarios: registration, set-up, the opening, the flow of turns and rounds, the end, the view and
the text form of actions.

Seed points are cited from seed 002 (``/work/shared/seeds/002_*.conqueror-keshvargosha.fa.txt``) as
"§ set-up", "§ opening", "§ turns", "§ score", "§ end"; RULES.md's decisions as "RULES.md"; the engine's
own choices as "(interp.)" (``rules/conqueror/README.md``).
"""

from __future__ import annotations

import random

import pytest
from conqueror_support import GAME, OPEN, idx, kinds, legal, make_state, play

from rules import GAMES, GameOver, MalformedAction, NotYourTurn, RuleViolation
from rules.conqueror import Conqueror, ConquerorOptions, ConquerorState
from rules.conqueror.board import DEFAULT, LABELS
from rules.conqueror.engine import owner_of
from rules.conqueror.model import COLOURS, NOBODY, GameEnded, TurnEnded

# -- Registration and set-up ------------------------------------------------------------------------


def test_registered_as_a_two_player_game() -> None:
    """RULES.md: کشورگشا, game type 1, set-up method 1, for two players."""
    game = GAMES["conqueror"]
    assert isinstance(game, Conqueror)
    assert (game.min_players, game.max_players) == (2, 2)
    assert game.title == "کشورگشا"
    with pytest.raises(ValueError):
        game.setup(3, seed=1)


def test_setup_supplies_and_empty_board() -> None:
    """RULES.md: 12 pieces (13 minus the score marker) and 20 walls per player; castles come from the bank;
    § set-up: scores start at zero (the markers' first space), the turn track at 1."""
    state = GAME.setup(2, seed=4)
    assert state.supply == (12, 12) and state.walls_left == (20, 20)
    assert state.scores == (0, 0)
    assert set(state.castles) == {NOBODY} and not any(state.manned)
    assert not any(state.pieces[0]) and not any(state.pieces[1])
    assert set(state.walls) == {NOBODY} and len(state.walls) == len(DEFAULT.edges)
    assert GAME.conserved(state) == {"pieces_0": 12, "walls_0": 20, "pieces_1": 12, "walls_1": 20}
    assert (state.round, state.turn) == (0, 1)
    assert GAME.to_act(state) == (0,)


# -- The opening ------------------------------------------------------------------------------------


def test_opening_castles_go_on_tile_centres() -> None:
    """§ opening: each player puts a first castle on the central cell of a tile; nothing else is allowed."""
    state = GAME.setup(2, seed=4)
    assert legal(state) == {f"c.{t}0" for t in "ABCDEFG"}
    with pytest.raises(RuleViolation):
        play(state, "c.A1")
    with pytest.raises(RuleViolation):
        play(state, "x")
    with pytest.raises(RuleViolation):
        play(state, "w.A0.A1")


def test_opening_order_then_round_one() -> None:
    """§ opening then § turns: seat 0 places first, then seat 1 (another centre); then round 1, turn 1, seat 0
    with three actions."""
    state = play(GAME.setup(2, seed=4), "c.B0").state
    assert GAME.to_act(state) == (1,)
    assert "c.B0" not in legal(state) and len(legal(state)) == 6
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, GAME.decode("c.C0"))
    step = play(state, "c.E0")
    assert kinds(step.events) == ["castle_built", "scored"]
    state = step.state
    assert (state.round, state.turn, state.actions_left) == (1, 1, 3)
    assert GAME.to_act(state) == (0,)
    assert state.scores == (6, 6)


# -- Turns and rounds -------------------------------------------------------------------------------


def _opened(options: ConquerorOptions | None = None) -> ConquerorState:
    return play(GAME.setup(2, seed=4, options=options), "c.B0", "c.E0").state


def test_three_actions_then_the_turn_passes() -> None:
    """§ turns: a player takes 3 actions in a row; the turn then passes (automatically, interp.)."""
    state = _opened()
    step = play(state, "e.B0", "l.B0", "e.B0")
    assert kinds(step.events)[-1] == "turn_ended"
    assert step.events[-1] == TurnEnded(seat=0, round=1, turn=1, automatic=True)
    assert (step.state.turn, step.state.actions_left) == (2, 3)
    assert GAME.to_act(step.state) == (1,)


def test_ending_the_turn_early() -> None:
    """RULES.md: a player may end the turn early ("x"), with actions left."""
    state = _opened()
    step = play(state, "e.B0", "x")
    assert step.events[-1] == TurnEnded(seat=0, round=1, turn=1, automatic=False)
    assert GAME.to_act(step.state) == (1,) and step.state.actions_left == 3


def test_odd_turns_seat_0_even_turns_seat_1_and_rounds_of_12() -> None:
    """§ turns: odd turns are the first player's, even turns the second's; after turn 12 the track goes back
    to 1 and a new round starts."""
    state = _opened()
    for turn in range(1, 13):
        assert (state.round, state.turn) == (1, turn)
        assert GAME.to_act(state) == ((turn - 1) % 2,)
        state = play(state, "x").state
    assert (state.round, state.turn) == (2, 1) and GAME.to_act(state) == (0,)


def test_the_game_ends_after_round_3() -> None:
    """§ end: after the third round the higher score wins."""
    state = make_state(board=OPEN, castles={"A0": 0, "B0": 0, "E0": 1}, round=3, turn=12, seat=1)
    step = play(state, "x")
    assert step.state.finished and step.state.end_reason == "rounds"
    assert step.events[-1] == GameEnded(reason="rounds", scores=(12, 6), winners=(0,))
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (12, 6)
    assert GAME.to_act(step.state) == ()


def test_equal_scores_at_the_end_are_a_draw() -> None:
    """§ end (RULES.md): equal scores after the last round: a draw, both seats among the winners."""
    state = make_state(board=OPEN, castles={"A0": 0, "E0": 1}, round=3, turn=12, seat=1)
    outcome = GAME.outcome(play(state, "x").state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.scores == (6, 6)


def test_rounds_option() -> None:
    """§ end, note: players may agree on more or fewer rounds (option ``rounds``)."""
    state = make_state(board=OPEN, castles={"A0": 0, "E0": 1}, round=1, turn=12, seat=1)
    assert not play(state, "x").state.finished
    short = state.model_copy(update={"options": ConquerorOptions(rounds=1)})
    assert play(short, "x").state.finished


def test_reaching_27_ends_the_game_at_once() -> None:
    """§ end: as soon as a player reaches 27 the game ends and that player wins, mid-turn."""
    state = make_state(board=OPEN, castles={"A0": 0, "B0": 0, "C0": 0, "D0": 0, "E0": 1})
    assert state.scores == (24, 6)
    step = play(state, "c.F1")
    assert step.state.finished and step.state.end_reason == "target"
    assert step.state.scores == (27, 4)
    assert step.events[-1] == GameEnded(reason="target", scores=(27, 4), winners=(0,))
    assert GAME.to_act(step.state) == ()
    with pytest.raises(GameOver):
        play(step.state, "x")


def test_reaching_27_on_the_opponents_wall() -> None:
    """§ end: the player who reaches 27 wins, even when the opponent's wall gave the point (interp.)."""
    castles = {"A0": 0, "B0": 0, "C0": 0, "D4": 0, "F3": 0, "E0": 1}
    state = make_state(board=OPEN, castles=castles, seat=1)
    assert state.scores[0] == 26
    step = play(state, "w.E0.E2")
    assert step.state.finished and step.state.scores[0] == 27
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (0,)


# -- Invariants over random games --------------------------------------------------------------------


def _random_states(seed: int, options: ConquerorOptions | None = None) -> list[ConquerorState]:
    rnd = random.Random(seed)
    state = GAME.setup(2, seed, options)
    states = [state]
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rnd.choice(GAME.legal_actions(state, seat))).state
        states.append(state)
    return states


@pytest.mark.parametrize("options", [None, ConquerorOptions(random_board=True)])
def test_ownership_and_scores_are_always_the_seeds_count(options: ConquerorOptions | None) -> None:
    """§ score: after every action each camp's owner is the seed's rule applied afresh, castle camps never
    score, and each score is the number of camps owned (RULES.md)."""
    for seed in range(4):
        for state in _random_states(seed, options):
            board = GAME.board(state)
            fresh = tuple(owner_of(board, state.castles, state.walls, c) for c in range(board.size))
            assert state.owners == fresh
            assert state.scores == (fresh.count(0), fresh.count(1))
            assert all(state.owners[c] == NOBODY for c in range(board.size) if state.castles[c] != NOBODY)


def _every_action(state: ConquerorState) -> set[str]:
    board = GAME.board(state)
    labels = LABELS[: board.size]
    texts = {"x"} | {f"{k}.{a}" for k in "cel" for a in labels}
    texts |= {f"{k}.{a}.{b}" for k in "wm" for a in labels for b in labels}
    return texts


def test_legal_actions_are_exactly_the_actions_that_apply() -> None:
    """Every action text on the board applies without an error exactly when legal_actions offers it."""
    for seed in (1, 2):
        states = _random_states(seed)
        for state in states[:: max(1, len(states) // 12)][:-1]:
            offered = legal(state)
            seat = GAME.to_act(state)[0]
            for text in _every_action(state):
                try:
                    GAME.apply(state, seat, GAME.decode(text))
                except RuleViolation:
                    assert text not in offered, text
                else:
                    assert text in offered, text


# -- View, default action, text form ----------------------------------------------------------------


def test_the_public_view_is_complete() -> None:
    """Everything is public: cells with coordinates, labels, capacities and kinds, castles, pieces, walls,
    ownership, scores, round/turn/actions left and supplies; every seat sees the same."""
    state = make_state(
        castles={"A0": 0, "C0": 1},
        manned={"A0"},
        pieces={"A1": (1, 0), "C4": (0, 2)},
        walls={("A0", "A3"): 0},
        seat=1,
        turn=4,
        actions_left=2,
    )
    view = GAME.view(state, None)
    assert view.game == "conqueror" and view.colours == COLOURS
    cells = {c.label: c for c in view.cells}
    assert len(cells) == 49 == len(view.castles) == len(view.manned) == len(view.owners) == len(view.pieces[1])
    a0, a2 = cells["A0"], cells["A2"]
    assert (a0.q, a0.r, a0.capacity, a0.kind, a0.centre, a0.tile) == (0, 0, 3, "camp", True, "A")
    assert a2.kind == "plain"
    at = {label: i for i, label in enumerate(cells)}
    assert (view.castles[at["A0"]], view.manned[at["A0"]], view.owners[at["A0"]]) == (0, True, None)
    assert (view.castles[at["A2"]], view.owners[at["A2"]]) == (None, 0)
    assert view.pieces[0][at["A1"]] == 1 and view.pieces[1][at["C4"]] == 2
    assert view.owners[at["A3"]] is None  # walled off from A0
    assert [(w.camp, w.across, w.side, w.seat) for w in view.walls] == [("A0", "A3", 2, 0)]
    assert view.scores == state.scores and view.supply == (10, 10) and view.walls_left == (19, 20)
    assert view.castle_counts == (1, 1)
    assert (view.round, view.turn, view.to_act, view.actions_left, view.opening) == (1, 4, 1, 2, False)
    assert (view.rounds, view.turns_per_round, view.target) == (3, 12, 27)
    assert GAME.view(state, 0).model_copy(update={"seat": None}) == view
    assert str(state.rng) not in view.model_dump_json()


def test_default_action() -> None:
    """On a time-out: the opening places on the first free tile centre (interp.); later the turn ends."""
    state = GAME.setup(2, seed=1)
    assert GAME.encode(GAME.default_action(state, 0)) == "c.A0"
    state = play(state, "c.A0").state
    assert GAME.encode(GAME.default_action(state, 1)) == "c.B0"
    state = play(state, "c.B0").state
    assert GAME.encode(GAME.default_action(state, 0)) == "x"


@pytest.mark.parametrize("text", ["c.B4", "w.B4.B0", "e.A0", "l.A0", "m.B4.C1", "x", "c.M6"])
def test_text_form_round_trips(text: str) -> None:
    """Actions are dot-separated, coarse to fine: kind, camp, then the other camp."""
    assert GAME.encode(GAME.decode(text)) == text


@pytest.mark.parametrize("text", ["c", "c.B7", "c.I1", "w.B4", "m.B4", "m.B4.C1.D2", "q.A0", "x.A0", "e.a0", ""])
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedAction):
        GAME.decode(text)


def test_camps_beyond_the_board_are_malformed() -> None:
    """A label of a tile the board does not have (H.. on seven tiles) names no camp."""
    state = make_state(castles={"A0": 0, "C0": 1}, manned={"A0"})
    for text in ("c.H0", "m.A0.H1", "w.A0.M6"):
        with pytest.raises(MalformedAction):
            play(state, text)
    assert idx("H0") == 49
