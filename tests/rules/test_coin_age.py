"""Coin Age scenarios: set-up, the toss, the table of actions and the flow of turns.

Rulebook points are cited from seed 004 (``/work/shared/seeds/004_*.coin-age.fa.txt``) as "§ set-up",
"§ turn", "§ table", "§ place", "§ move", "§ pay", "§ capture", "§ end", "§ score", "§ Q&A"; the
project's own decisions are RULES.md's and the engine's interpretations (``rules/coin_age/README.md``).
"""

from __future__ import annotations

import random

import pytest
from coin_age_support import (
    EMPTY,
    FULL,
    GAME,
    TABLE,
    board_of,
    kinds,
    legal,
    make_state,
    play,
    toss_for,
)

from rules import GAMES, NotYourTurn
from rules.coin_age import CoinAge, CoinAgeOptions
from rules.coin_age.engine import allowance
from rules.coin_age.model import SIDES, SIZES, Tossed, TurnEnded, side_of, size_of

# -- Registration and set-up ------------------------------------------------------------------------


def test_registered_as_a_two_player_game() -> None:
    """Coin Age is registered as "coin_age", a game for exactly two players (§ intro: "دو نفره")."""
    game = GAMES["coin_age"]
    assert isinstance(game, CoinAge)
    assert (game.min_players, game.max_players) == (2, 2)
    assert game.title == "عصر سکه‌ها"
    with pytest.raises(ValueError):
        game.setup(3, seed=1)


def test_setup_gives_each_player_4_3_2_1_coins() -> None:
    """§ set-up: each player starts with four A, three B, two C and one D (20 coins in all)."""
    state = GAME.setup(2, seed=7)
    assert state.supply[1] == FULL
    in_hand = [0, 0, 0, 0]
    for c in state.hand:
        in_hand[size_of(c)] += 1
    assert tuple(s + h for s, h in zip(state.supply[0], in_hand, strict=True)) == FULL
    assert GAME.conserved(state) == {"A": 8, "B": 6, "C": 4, "D": 2}


def test_setup_board_is_ten_empty_spaces() -> None:
    """§ set-up: the map has ten spaces and the game starts with all of them empty."""
    state = GAME.setup(2, seed=7)
    assert len(state.stacks) == 10
    assert all(stack == () for stack in state.stacks)
    assert not state.finished and state.end_reason is None


def test_seat_0_plays_shir_and_starts_with_a_toss_of_one_coin_per_size() -> None:
    """§ set-up/§ turn: seat 0 (شیر) starts; its first toss is automatic, four coins, one of each size."""
    assert SIDES == ("شیر", "خط")
    for seed in range(20):
        state = GAME.setup(2, seed)
        assert GAME.to_act(state) == (0,)
        assert state.turn == 0 and state.turn_number == 1
        assert sorted(size_of(c) for c in state.toss) == [0, 1, 2, 3]
        assert state.hand == state.toss
        assert state.supply[0] == (3, 2, 1, 0)
        favourable = sum(1 for c in state.toss if side_of(c) == 0)
        places, moves, captures, can_pay = TABLE[favourable]
        assert (state.places_left, state.moves_left, state.captures_left, state.can_pay) == (
            places,
            moves,
            captures,
            can_pay,
        )


def test_setup_is_seeded() -> None:
    """The toss is random but seeded: the same seed gives the same opening, other seeds vary it."""
    assert GAME.setup(2, seed=3) == GAME.setup(2, seed=3)
    assert len({GAME.setup(2, seed).toss for seed in range(40)}) > 4


def test_opening_toss_without_any_action_leaves_only_ending_the_turn() -> None:
    """Engine choice: a 0-favourable opening toss (move 1 + capture 1 on an empty board) is not skipped by
    setup, which has no events to report it; seat 0 sees its toss and can only end the turn."""
    seed = next(s for s in range(500) if sum(side_of(c) == 0 for c in GAME.setup(2, s).toss) == 0)
    state = GAME.setup(2, seed)
    assert legal(state) == {"x"}
    step = play(state, "x")
    assert step.events[0] == TurnEnded(seat=0, returned=(0, 1, 2, 3), automatic=False)
    assert step.state.supply[0] == FULL


# -- The toss ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "supply",
    [(2, 0, 1, 0), (0, 0, 0, 1), (4, 3, 2, 1), (1, 1, 0, 0), (0, 3, 0, 0)],
    ids=lambda s: "".join(f"{n}{SIZES[i]}" for i, n in enumerate(s)),
)
def test_toss_takes_one_coin_of_each_size_still_in_supply(supply: tuple[int, ...]) -> None:
    """§ turn and § Q&A: a turn takes one coin of each size left in the supply; missing sizes are skipped."""
    board = {"B2": "D1"}  # something to move or capture, so no toss is ever skipped
    state = make_state(board=board, supply=(supply, FULL), turn=1, toss="A1")
    step = play(state, "x")
    tossed = step.events[1]
    assert isinstance(tossed, Tossed) and tossed.seat == 0
    present = [size for size in range(4) if supply[size] > 0]
    assert [size for size, _ in tossed.coins] == present
    assert step.state.turn == 0
    assert [size_of(c) for c in step.state.hand] == present
    assert step.state.supply[0] == tuple(n - 1 if n else 0 for n in supply)


def test_toss_counts_the_coins_showing_the_players_side() -> None:
    """§ turn: the favourable coins are those that fell showing the tossing player's own side."""
    for seat in (0, 1):
        step = toss_for(3, seat=seat, board={"B2": "D1"})
        tossed = step.events[1]
        assert isinstance(tossed, Tossed)
        assert sum(1 for _, side in tossed.coins if side == seat) == 3
        assert tossed.coins == tuple((size_of(c), side_of(c)) for c in step.state.toss)


def test_toss_is_fair() -> None:
    """§ turn: coins are shaken and tossed; each side comes up about half the time (seeded generator)."""
    sides = [side_of(c) for seed in range(1000) for c in GAME.setup(2, seed).toss]
    assert 0.46 < sum(sides) / len(sides) < 0.54


# -- The table of actions ---------------------------------------------------------------------------

BOARD_WITH_ROOM = {"B2": "C1"}  # a stack that can move and be captured, and plenty of empty spaces


@pytest.mark.parametrize("favourable", [4, 3, 2, 1, 0])
def test_real_toss_sets_the_allowances_of_the_table(favourable: int) -> None:
    """§ table: 4 fav: place 2 or pay 1 and place 3; 3: place 2; 2: place 1; 1: place 1 + move 1;
    0: move 1 + capture 1."""
    step = toss_for(favourable, board=BOARD_WITH_ROOM)
    state = step.state
    assert (state.places_left, state.moves_left, state.captures_left, state.can_pay) == TABLE[favourable]


@pytest.mark.parametrize(
    ("favourable", "expected"),
    [
        (4, {"place", "pay", "end"}),
        (3, {"place", "end"}),
        (2, {"place", "end"}),
        (1, {"place", "move", "end"}),
        (0, {"move", "capture", "end"}),
    ],
)
def test_table_decides_the_kinds_of_legal_actions(favourable: int, expected: set[str]) -> None:
    """§ table: only the actions the number of favourable coins allows are offered (and ending the turn)."""
    state = toss_for(favourable, board=BOARD_WITH_ROOM).state
    assert {a.kind for a in GAME.legal_actions(state, 0)} == expected


def test_allowance_function_matches_the_table() -> None:
    """§ table, as the engine's ``allowance`` gives it for the seed's rules."""
    for favourable, row in TABLE.items():
        assert allowance(favourable, CoinAgeOptions()) == row


def test_option_two_favourable_place_two() -> None:
    """RULES.md option (official English rule): with two favourable coins, place two; other rows unchanged."""
    option = CoinAgeOptions(two_favourable_place_two=True)
    assert CoinAgeOptions().two_favourable_place_two is False  # the seed's rule is the default
    assert allowance(2, option) == (2, 0, 0, False)
    for favourable in (4, 3, 1, 0):
        assert allowance(favourable, option) == TABLE[favourable]
    state = toss_for(2, board=BOARD_WITH_ROOM, options=option).state
    assert state.places_left == 2


def test_option_lets_a_second_coin_be_placed() -> None:
    """RULES.md option: with two favourable coins and the option, a second placement is legal."""
    state = make_state(toss="A0 B0 C1 D1", options=CoinAgeOptions(two_favourable_place_two=True))
    after_one = play(state, "p.A.A1").state
    assert after_one.turn == 0 and "p.B.A2" in legal(after_one)
    step = play(after_one, "p.B.A2")
    assert kinds(step.events)[:2] == ["placed", "turn_ended"]


def test_three_favourable_coins_cannot_pay() -> None:
    """§ table: paying comes only with four favourable coins."""
    state = make_state(toss="A0 B0 C0 D1")
    assert not any(a.startswith("y.") for a in legal(state))


# -- The flow of a turn -----------------------------------------------------------------------------


def test_actions_are_optional_and_x_ends_the_turn_at_once() -> None:
    """Engine interpretation: every action is optional; "x" ends the turn, returning all tossed coins."""
    state = make_state(board={"B2": "C1"}, toss="A0 B1 C0 D1", supply=((3, 2, 1, 0), (3, 2, 1, 0)))
    step = play(state, "x")  # the stack on B2 gives seat 1 something to do whatever it tosses
    assert step.events[0] == TurnEnded(seat=0, returned=(0, 1, 2, 3), automatic=False)
    assert step.state.supply[0] == FULL
    assert step.state.turn == 1 and step.state.turn_number == 2


def test_unused_coins_go_back_to_their_owners_supply() -> None:
    """§ turn / RULES.md "unused coins": tossed coins not placed or paid return to the player's supply."""
    state = make_state(board={"B2": "C1"}, toss="A0 B1 C1 D1", supply=((3, 2, 1, 0), (1, 1, 1, 1)))
    step = play(state, "p.A.A1", "x")  # 1 fav: the A is placed, the move is left unused
    ended = step.events[1]
    assert ended == TurnEnded(seat=0, returned=(1, 2, 3), automatic=False)
    assert step.state.supply[0] == (3, 3, 2, 1)
    assert board_of(step.state)["A1"] == "A0"


def test_turn_ends_by_itself_when_nothing_is_left() -> None:
    """Engine interpretation: once no action but ending is left the turn ends and the next toss follows."""
    state = make_state(toss="A0 B0 C1 D1", supply=((3, 2, 1, 0), FULL))  # 2 fav: one placement
    step = play(state, "p.A.A1")
    assert kinds(step.events)[:3] == ["placed", "turn_ended", "tossed"]
    assert step.events[1] == TurnEnded(seat=0, returned=(1, 2, 3), automatic=True)
    assert step.events[2].seat == 1  # type: ignore[attr-defined]
    assert step.state.supply[0] == (3, 3, 2, 1)
    assert GAME.to_act(step.state) == (step.state.turn,)


def test_the_two_actions_of_a_turn_in_either_order() -> None:
    """Engine interpretation: the actions of a turn may be taken in any order (1 fav: place and move)."""
    state = make_state(board={"A1": "C1"}, toss="B0 A1 C1 D1")
    place_first = play(state, "p.B.A1", "m.A1.A2")
    move_first = play(state, "m.A1.A2", "p.B.A2")
    assert board_of(place_first.state) == board_of(move_first.state) == {"A2": "C1 B0"}


def test_turns_with_nothing_to_do_are_skipped_and_reported() -> None:
    """Engine interpretation: a toss that allows nothing (0 fav on an empty board) ends that turn at once,
    reported with TurnEnded(automatic=True), and the other player tosses in the same step."""
    for seed in range(500):
        step = play(GAME.setup(2, seed), "x")
        if len(step.events) >= 4:
            break
    else:
        pytest.fail("no seed gives a skipped second turn")
    first_end, toss_1, skip, toss_0 = step.events[:4]
    assert first_end == TurnEnded(seat=0, returned=(0, 1, 2, 3), automatic=False)
    assert isinstance(toss_1, Tossed) and toss_1.seat == 1 and toss_1.favourable == 0
    assert skip == TurnEnded(seat=1, returned=(0, 1, 2, 3), automatic=True)
    assert isinstance(toss_0, Tossed) and toss_0.seat == 0
    assert step.state.supply[1] == FULL
    assert step.state.turn_number >= 3


def test_every_turn_handed_to_a_player_has_something_to_do() -> None:
    """Engine interpretation: after any action, the player to act has an action besides ending the turn."""
    for seed in range(60):
        rnd = random.Random(seed)
        state = GAME.setup(2, seed)
        while GAME.to_act(state):
            actions = GAME.legal_actions(state, state.turn)
            state = GAME.apply(state, state.turn, rnd.choice(actions)).state
            if GAME.to_act(state):
                assert legal(state) - {"x"}, seed


def test_only_the_player_in_turn_may_act() -> None:
    """§ turn: players take turns; the other seat has no actions and is refused."""
    state = make_state(toss="A0 B0 C0 D0")
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, GAME.decode("p.A.A1"))


def test_time_out_ends_the_turn() -> None:
    """Engine choice: the default (time-out) action is ending the turn."""
    state = make_state(toss="A0 B0 C0 D0")
    assert GAME.encode(GAME.default_action(state, 0)) == "x"


def test_a_players_supply_may_be_empty_of_some_sizes() -> None:
    """§ Q&A: late in the game a player tosses only what is left, e.g. two A and one C gives A and C."""
    state = make_state(board={"B2": "D1"}, supply=((2, 0, 1, 0), EMPTY), turn=1, toss="A1")
    step = play(state, "x")
    assert step.state.turn == 0
    assert sorted(SIZES[size_of(c)] for c in step.state.toss) == ["A", "C"]


def test_future_tosses_are_secret() -> None:
    """§ turn: tosses are random; the generator's state, which would predict them, is in no view."""
    state = GAME.setup(2, seed=11)
    for seat in (None, 0, 1):
        assert str(state.rng) in GAME.secrets(state, seat)
        dumped = GAME.view(state, seat).model_dump_json()
        assert str(state.rng) not in dumped and '"rng"' not in dumped
