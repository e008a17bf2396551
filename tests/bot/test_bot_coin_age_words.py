"""Coin Age in Persian: every event is worded, results name the winner, menus have labels."""

from __future__ import annotations

import random

from bot.games.coin_age import presenter
from bot.messages import keyboards
from rules import GAMES
from rules.coin_age import CoinAgeOptions
from rules.coin_age.model import Captured, CoinAgeView, GameEnded, Moved, Paid, Placed, Tossed, TurnEnded, coin
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
    assert "ستون ۲ سکه‌ای را از «درختستان» به «سروآباد» برد" in lines[2] and "Sara" in lines[2]
    assert "پرداخت" in lines[3]
    assert lines[4] == "⚔️ ⁨Sara⁩ سکهٔ ۴ حریف را از «هلاگ‌دم» گرفت."  # the coin's owner by role: no «۴ ⁨علی⁩»
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


def test_rules_text_follows_the_options_and_says_where_each_rule_comes_from() -> None:
    seed, official = (
        presenter.rules_text(CoinAgeOptions()),
        presenter.rules_text(CoinAgeOptions(two_favourable_place_two=True)),
    )
    assert "• ۲ موافق: ۱ سکه بگذارید" in seed and "• ۲ موافق: ۲ سکه بگذارید" in official
    for text in (seed, official):
        assert "راهنمای فارسی" in text and "راهنمای رسمی انگلیسی" in text
        assert f"«{presenter.toggles[0].label}»" in text
    assert "۲ سکه بگذارید؛ یا ۱ سکه به حریف بپردازید و ۳ سکه بگذارید" in seed  # either/or, as it is


def test_the_option_is_named_by_what_it_does() -> None:
    (toggle,) = presenter.toggles
    assert toggle.label == "با ۲ سکهٔ موافق، ۲ سکه بگذارید (نه ۱)"
    assert "رسمی" not in toggle.label and "رسمی" not in toggle.short


def test_one_word_for_one_thing() -> None:
    """«جابه‌جایی» spelt so; a space is a «منطقه» and a group of a colour a «رنگ», never «سرزمین»."""
    state = GAME.setup(2, 3)
    seen = [presenter.rules_text(CoinAgeOptions()), presenter.summary, *presenter.status(VIEW, NAMES)]
    while not state.finished:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, None)
        codes = _codes(state)
        menu = keyboards.menu("coin_age", codes)
        seen += [keyboards.button_label("coin_age", c, view) for c in menu.choices("")]
        step = GAME.apply(state, seat, random.Random(len(seen)).choice(GAME.legal_actions(state, seat)))
        state = step.state
        seen += presenter.describe(step.events, NAMES, GAME.view(state, None))
        seen += presenter.status(GAME.view(state, None), NAMES)
    seen += presenter.result(GAME.view(state, None), NAMES)
    text = "\n".join(seen)
    assert "جابه‌جایی" in text and "جابجایی" not in text and "سرزمین" not in text and "قرار دادن" not in text


def _turn(hand: tuple[int, ...], stacks: dict[int, tuple[int, ...]] | None = None, **allowances: object) -> CoinAgeView:
    """The public view of a turn with this hand (tossed as it is), board and allowances."""
    state = GAME.setup(2, 1)
    board = tuple((stacks or {}).get(i, ()) for i in range(10))
    return GAME.view(evolve(state, toss=hand, hand=hand, stacks=board, **allowances), None)


def test_status_says_placing_or_paying_as_either_or() -> None:
    seat = GAME.setup(2, 1).turn
    four = tuple(coin(size, seat) for size in range(4))
    view = _turn(four, places_left=2, moves_left=0, captures_left=0, can_pay=True)
    line = presenter.status(view, NAMES)[1]
    assert line == "کارهای ممکن: گذاشتن ۲ سکه، یا پرداخت ۱ سکه به حریف و گذاشتن ۳ سکه"
    placed_two = _turn(four[:2], {0: (four[3],), 1: (four[2],)}, places_left=0, moves_left=0, can_pay=True)
    assert presenter.status(placed_two, NAMES)[1] == "کارهای ممکن: پرداخت ۱ سکه به حریف و گذاشتن ۱ سکه"


def test_status_lists_only_what_can_really_be_done() -> None:
    """No favourable coin on an empty board: the toss allows a move and a capture, but nothing is there to move
    or capture."""
    seat = GAME.setup(2, 1).turn
    against = tuple(coin(size, 1 - seat) for size in range(4))
    empty = _turn(against, places_left=0, moves_left=1, captures_left=1, can_pay=False)
    assert presenter.status(empty, NAMES)[1] == "کارهای ممکن: فقط پایان نوبت"
    lone = _turn(against, {0: (coin(1, seat),)}, places_left=0, moves_left=1, captures_left=1)
    assert presenter.status(lone, NAMES)[1] == "کارهای ممکن: یک جابه‌جایی و یک تصرف"
    one = (coin(3, seat),)  # one favourable coin: a placement and a move
    view = _turn(one, {0: (coin(1, seat),)}, places_left=1, moves_left=1, captures_left=0)
    assert presenter.status(view, NAMES)[1] == "کارهای ممکن: گذاشتن ۱ سکه و یک جابه‌جایی"


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


def test_the_result_ranks_players_best_first_and_ties_share_a_place() -> None:
    view = GAME.view(_finished(3), None)
    a = view.scores[0].model_copy(update={"total": 12, "tiebreak": 2})
    b = view.scores[1].model_copy(update={"total": 19, "tiebreak": 5})
    lines = presenter.result(view.model_copy(update={"scores": (a, b), "winners": (1,)}), NAMES)
    assert lines[0].startswith("۱. ⁨Sara⁩: <b>۱۹</b>") and lines[1].startswith("۲. ⁨علی⁩: <b>۱۲</b>")
    drawn = view.model_copy(update={"scores": (a, a), "winners": (0, 1)})
    lines = presenter.result(drawn, NAMES)
    assert lines[0].startswith("۱. ⁨علی⁩") and lines[1].startswith("۱. ⁨Sara⁩") and "مساوی" in lines[2]


def test_a_moved_coin_or_stack_is_said_as_what_it_is() -> None:
    seat = GAME.setup(2, 1).turn
    after = _turn((), {1: (coin(2, seat),)})
    line = presenter.describe([Moved(seat=seat, source="A1", target="A2", coins=1)], NAMES, after)[0]
    assert "سکهٔ ۳ را از «هلاگ‌دم» به «صخره‌سنگ» برد" in line
    stack = _turn((), {1: (coin(3, seat), coin(0, 1 - seat))})
    line = presenter.describe([Moved(seat=seat, source="A1", target="A2", coins=2)], NAMES, stack)[0]
    assert "ستون ۲ سکه‌ای را از «هلاگ‌دم» به «صخره‌سنگ» برد" in line


def test_the_result_names_players_without_sides() -> None:
    lines = presenter.result(GAME.view(_finished(3), None), NAMES)
    assert not any("شیر" in line or "خط" in line for line in lines)


def test_a_button_that_skips_levels_says_the_whole_move() -> None:
    a, b = VIEW.spaces[0], VIEW.spaces[1]
    size = presenter.menu_label(["p", "C"], VIEW)
    assert presenter.chain_label([["p", "C"], ["p", "C", a.id]], VIEW) == f"{size} در {a.name}"
    moved = presenter.chain_label([["m"], ["m", a.id], ["m", a.id, b.id]], VIEW)
    assert moved == f"↔️ جابه‌جایی از {a.name} به {b.name}"
    assert presenter.chain_label([["m", a.id], ["m", a.id, b.id]], VIEW) == f"از {a.name} به {b.name}"


def test_a_move_is_one_press_after_its_kind() -> None:
    """«جابه‌جایی» lists every move whole, «از … به …»: no level of sources in between."""
    state, rng = GAME.setup(2, 5), random.Random(5)
    codes = _codes(state)
    while len({c.split(".")[1] for c in codes if c.startswith("m.")}) < 2:  # pieces on two spaces to move
        state = GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn))).state
        codes = _codes(state)
    view = GAME.view(state, None)
    menu = keyboards.menu("coin_age", codes)
    assert "m" in [c.key for c in menu.choices("")]  # the first level keeps the kinds and the coins
    moves = menu.choices("m")
    assert [c.key for c in moves] == [c for c in codes if c.startswith("m.")] and all(c.plays for c in moves)
    labels = [keyboards.button_label("coin_age", c, view) for c in moves]
    assert all(label.startswith("از ") and " به " in label for label in labels), labels


def _codes(state: object) -> list[str]:
    return [GAME.encode(a) for a in GAME.legal_actions(state, GAME.to_act(state)[0])]
