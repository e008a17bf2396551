"""Coin Age in Persian: every event is worded, results name the winner, menus have labels."""

from __future__ import annotations

import random

from bot.games.coin_age import presenter
from rules import GAMES
from rules.coin_age import CoinAgeOptions
from rules.coin_age.model import Captured, GameEnded, Moved, Paid, Placed, Tossed, TurnEnded, coin
from rules.coin_age.scoring import Score
from rules.evolve import evolve

NAMES = ["علی", "Sara"]
GAME = GAMES["coin_age"]
VIEW = GAME.view(GAME.setup(2, 0), None)


def test_each_event_becomes_one_persian_line_with_the_player_and_persian_digits() -> None:
    events = [
        Tossed(seat=0, coins=((0, 0), (1, 1), (2, 0), (3, 1)), favourable=2),
        Placed(seat=0, size=2, space="B2"),
        Moved(seat=1, source="B2", target="B3", coins=2),
        Paid(seat=1, size=0),
        Captured(seat=1, size=3, side=0, space="A1"),
        GameEnded(reason="board_full"),
    ]
    lines = presenter.describe(events, NAMES, VIEW)
    assert len(lines) == len(events)
    assert "علی" in lines[0] and "۴ سکه" in lines[0] and "۲ سکهٔ موافق" in lines[0]
    assert "سکهٔ ۳" in lines[1] and "«درختستان»" in lines[1]
    assert "۲ سکهٔ" in lines[2] and "«سروآباد»" in lines[2] and "Sara" in lines[2]
    assert "پرداخت" in lines[3] and "سکهٔ ۴ ⁨علی⁩ را از «" in lines[4] and "گرفت" in lines[4]
    assert not any("شیر" in line or "خط" in line for line in lines)
    assert not any(ch.isascii() and ch.isdigit() for line in lines for ch in line)


def test_a_skipped_turn_is_told_but_a_normal_turn_end_is_not() -> None:
    skipped = presenter.describe(
        [Tossed(seat=1, coins=((0, 0),), favourable=0), TurnEnded(seat=1, returned=(0,), automatic=True)], NAMES, VIEW
    )
    assert len(skipped) == 2 and "نوبت گذشت" in skipped[1]
    normal = presenter.describe(
        [Placed(seat=0, size=0, space="A1"), TurnEnded(seat=0, returned=(), automatic=True)], NAMES, VIEW
    )
    assert len(normal) == 1


def _finished(seed: int) -> object:
    state = GAME.setup(2, seed)
    rng = random.Random(seed)
    while not state.finished:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    return state


def test_the_result_gives_both_scores_and_the_winner() -> None:
    view = GAME.view(_finished(3), None)
    lines = presenter.result(view, NAMES)
    assert sum("=" in line for line in lines) == 2
    assert any("برنده" in line for line in lines) or any("مساوی" in line for line in lines)


def test_a_draw_and_a_tie_break_are_explained() -> None:
    view = GAME.view(_finished(3), None)
    tied = view.model_copy(update={"scores": tuple(view.scores[0] for _ in range(2)), "winners": (0, 1)})
    assert any("مساوی" in line for line in presenter.result(tied, NAMES))
    a = view.scores[0].model_copy(update={"total": 10, "tiebreak": 7})
    b = view.scores[1].model_copy(update={"total": 10, "tiebreak": 3})
    broken = view.model_copy(update={"scores": (a, b), "winners": (0,)})
    text = "\n".join(presenter.result(broken, NAMES))
    assert "۷ در برابر ۳" in text and "علی" in text
    assert Score(board=1, unplaced=2, tiebreak=3).total == 3


def test_rules_text_follows_the_options() -> None:
    assert "• ۲ موافق: یک سکه" in presenter.rules_text(CoinAgeOptions())
    assert "• ۲ موافق: دو سکه" in presenter.rules_text(CoinAgeOptions(two_favourable_place_two=True))


def test_status_lists_what_is_left_this_turn() -> None:
    state = evolve(GAME.setup(2, 1), places_left=2, moves_left=0, captures_left=0, can_pay=True)
    lines = presenter.status(GAME.view(state, None), NAMES)
    assert "قرار دادن ۲" in lines[1] and "پرداخت ۱" in lines[1]


def test_no_favourable_coin_is_said_in_words() -> None:
    lines = presenter.describe([Tossed(seat=0, coins=((0, 1), (1, 1)), favourable=0)], NAMES, VIEW)
    assert lines == ["🎲 ⁨علی⁩ ۲ سکه انداخت: هیچ سکهٔ موافقی نیامد."]
    state = GAME.setup(2, 1)
    against = tuple(coin(size, 1 - state.turn) for size in range(2))
    status = presenter.status(GAME.view(evolve(state, toss=against, hand=against), None), NAMES)
    assert status[0] == "نوبت ۱: هیچ سکهٔ موافقی نیامد (از ۲ سکهٔ انداخته)"


def test_a_capture_button_says_whose_coin_it_takes() -> None:
    state = GAME.setup(2, 1)
    seat = state.turn
    stacks = tuple(((2 << 1) | (1 - seat),) if i == 0 else ((1 << 1) | seat,) if i == 1 else () for i in range(10))
    view = GAME.view(evolve(state, stacks=stacks), None)
    first, second = view.spaces[0], view.spaces[1]
    assert presenter.menu_label(["c", first.id], view) == f"{first.name} — سکهٔ ۳ حریف"
    assert presenter.menu_label(["c", second.id], view) == f"{second.name} — سکهٔ ۲ شما"


def test_the_result_names_players_without_sides() -> None:
    lines = presenter.result(GAME.view(_finished(3), None), NAMES)
    assert not any("شیر" in line or "خط" in line for line in lines)


def test_a_button_that_skips_levels_says_the_whole_move() -> None:
    a, b = VIEW.spaces[0], VIEW.spaces[1]
    size = presenter.menu_label(["p", "C"], VIEW)
    assert presenter.chain_label([["p", "C"], ["p", "C", a.id]], VIEW) == f"{size} در {a.name}"
    moved = presenter.chain_label([["m"], ["m", a.id], ["m", a.id, b.id]], VIEW)
    assert moved == f"↔️ جابجایی از {a.name} به {b.name}"
    assert presenter.chain_label([["m", a.id], ["m", a.id, b.id]], VIEW) == f"از {a.name} به {b.name}"
