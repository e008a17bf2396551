"""کشورگشا in Persian: events are worded, the status follows the turn, the result names the winner."""

from __future__ import annotations

import random
import re

from bot.games.conqueror import Marks, marks, presenter
from bot.messages import keyboards
from rules import GAMES
from rules.conqueror import ConquerorOptions
from rules.conqueror.model import ConquerorView

NAMES = ["علی", "Sara"]
GAME = GAMES["conqueror"]


def _play(seed: int, steps: int) -> tuple[object, list[str]]:
    state = GAME.setup(2, seed)
    rng = random.Random(seed)
    lines: list[str] = []
    for _ in range(steps):
        seats = GAME.to_act(state)
        if not seats:
            break
        step = GAME.apply(state, seats[0], rng.choice(GAME.legal_actions(state, seats[0])))
        lines += presenter.describe(step.events, NAMES, GAME.view(step.state, None))
        state = step.state
    return state, lines


def test_a_game_reads_in_persian_with_persian_digits() -> None:
    state, lines = _play(1, 10_000)
    assert any("قلعه ساخت" in line for line in lines)
    latin = [line for line in lines if any(ch.isascii() and ch.isalnum() for ch in line.replace("Sara", ""))]
    assert not latin  # camps read «ج۴»
    assert not any("امتیاز" in line for line in lines if not line.startswith("🏁"))  # the status shows scores
    view = GAME.view(state, None)
    result = presenter.result(view, NAMES)
    assert any("برنده" in line or "مساوی" in line for line in result)


def test_status_shows_the_opening_then_rounds_and_actions_left() -> None:
    opening = presenter.status(GAME.view(GAME.setup(2, 3), None), NAMES)
    assert "آغاز بازی" in opening[0]
    state, _ = _play(3, 6)
    status = presenter.status(GAME.view(state, None), NAMES)
    assert "دور ۱ از ۳" in status[0] and "کارهای مانده" in status[0]


def test_rules_text_follows_the_board_option() -> None:
    assert "ثابت" in presenter.rules_text(ConquerorOptions())
    assert "تصادفی" in presenter.rules_text(ConquerorOptions(random_board=True))


def test_buttons_name_camps_in_persian() -> None:
    view = GAME.view(GAME.setup(2, 3), None)
    assert presenter.menu_label(["c"], view) == "🏰 ساخت قلعه"
    assert presenter.menu_label(["c", "B0"], view) == "🏰 قلعه در ج۰"
    assert presenter.menu_label(["w", "D4"], view) == "🧱 س۴"
    assert presenter.menu_label(["w", "D4", "A6"], view) == "🧱 س۴ و ب۶"
    assert presenter.menu_label(["m", "D4"], view) == "➡️ از س۴"
    assert presenter.menu_label(["m", "D4", "A6"], view) == "به ب۶"
    assert presenter.menu_label(["e", "D4"], view) == "⬆️ ورود به قلعهٔ س۴"
    assert presenter.menu_label(["x"], view) == "⏭ پایان نوبت"


def test_a_button_that_skips_levels_says_the_whole_action() -> None:
    view = GAME.view(GAME.setup(2, 3), None)
    label = presenter.chain_label
    assert label([["m", "D4"], ["m", "D4", "A6"]], view) == "➡️ از س۴ به ب۶"  # a piece with one way to go
    assert label([["w", "D4"], ["w", "D4", "A6"]], view) == "🧱 س۴ و ب۶"
    assert label([["c"], ["c", "B0"]], view) == "🏰 قلعه در ج۰"
    assert label([["e"], ["e", "D4"]], view) == "⬆️ ورود به قلعهٔ س۴"
    assert label([["l"], ["l", "D4"]], view) == "⬇️ خروج از قلعهٔ س۴"


def _positions(seeds: range, steps: int = 200) -> list[ConquerorView]:
    """Positions of seeded random games, walls built less often than they are offered (so some are left)."""
    views = []
    for seed in seeds:
        state, rng = GAME.setup(2, seed), random.Random(seed)
        for _ in range(steps):
            if not GAME.to_act(state):
                break
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
            others = [a for a in actions if a.kind not in ("wall", "end")]
            action = rng.choice(others) if others and rng.random() < 0.8 else rng.choice(actions)
            state = GAME.apply(state, seat, action).state
            views.append(GAME.view(state, None))
    return views


def test_every_action_takes_one_or_two_presses() -> None:
    """A move is its piece, then its target; a wall its camp, then its neighbour; a castle, an enter or a
    leave its kind, then its camp (one press when there is one); ending the turn one press. Every press is an
    edit of the group's board."""
    most = {"m": 2, "w": 2, "c": 2, "e": 2, "l": 2, "x": 1}
    seen = set()
    for view in _positions(range(4))[::3]:
        menu = keyboards.menu("conqueror", list(view.legal))
        for code in view.legal:
            presses = menu.presses(code)
            assert len(presses) <= most[code[0]], (code, presses)
            seen.add((code[0], len(presses)))
    assert {("m", 2), ("w", 2), ("c", 2), ("e", 1), ("x", 1)} <= seen


def test_the_first_level_keeps_each_kind_on_rows_of_its_own() -> None:
    view = next(v for v in _positions(range(1, 4)) if {c[0] for c in v.legal} >= {"m", "w", "e"})
    rows = keyboards.game_menu("conqueror", 1, list(view.legal), "", view).inline_keyboard
    kinds = [{b.callback_data.split(":")[3][0] for b in row} for row in rows]
    assert all(len(k) == 1 for k in kinds), kinds
    order = [next(iter(k)) for k in kinds]
    assert order == sorted(order, key="celmwx".index)  # castles, enters, leaves, pieces, walls, the end
    assert rows[-1][0].text == "⏭ پایان نوبت"
    pieces = [b.text for row in rows for b in row if b.callback_data.split(":")[3].startswith("m.")]
    assert pieces and all(re.fullmatch(r"➡️ از \S+( به \S+)?", t) for t in pieces), pieces


def test_the_picture_of_a_menu_marks_what_it_offers() -> None:
    view = next(v for v in _positions(range(1, 4)) if {c[0] for c in v.legal} >= {"c", "m", "w"})
    codes = list(view.legal)
    assert marks(view, "") == Marks()  # the first level: the board as it is
    assert marks(view, "c") == Marks(frozenset(c.split(".")[1] for c in codes if c.startswith("c.")))
    source = next(c for c in codes if c.startswith("m.")).split(".")[1]
    targets = {c.split(".")[2] for c in codes if c.startswith(f"m.{source}.")}
    assert marks(view, f"m.{source}") == Marks(frozenset(targets), source)
    camp = next(c for c in codes if c.startswith("w.")).split(".")[1]
    sides = tuple((camp, c.split(".")[2]) for c in codes if c.startswith(f"w.{camp}."))
    assert marks(view, f"w.{camp}") == Marks(sides=sides)
    assert presenter.previews
    plain = presenter.picture(view, NAMES)
    assert presenter.picture(view, NAMES, f"m.{source}") != plain and presenter.picture(view, NAMES, "") == plain
    assert presenter.picture(view, NAMES, f"w.{camp}") != plain


def test_the_opening_rings_the_tile_centres_and_names_them_whole() -> None:
    view = GAME.view(GAME.setup(2, 3), None)
    menu = keyboards.menu("conqueror", list(view.legal))
    assert menu.top() == "c"
    assert marks(view, "") == Marks(frozenset(c.split(".")[1] for c in view.legal))
    rows = keyboards.game_menu("conqueror", 1, list(view.legal), "", view).inline_keyboard
    texts = [b.text for row in rows for b in row]
    assert len(texts) == 7 and all(re.fullmatch(r"🏰 قلعه در [بجدسصطع]۰", t) for t in texts), texts


def test_the_result_ranks_the_players_by_score() -> None:
    view = GAME.view(GAME.setup(2, 3), None)
    ahead = view.model_copy(update={"scores": (9, 15), "castle_counts": (3, 4), "winners": (1,), "finished": True})
    lines = presenter.result(ahead, NAMES)
    assert lines[0].startswith("🥇") and "Sara" in lines[0] and "۱۵" in lines[0]
    assert lines[1].startswith("🥈") and "علی" in lines[1] and "۹" in lines[1]
    assert "برنده" in lines[2] and "Sara" in lines[2]
    tied = ahead.model_copy(update={"scores": (12, 12), "winners": (0, 1)})
    lines = presenter.result(tied, NAMES)
    assert lines[0].startswith("🥇") and lines[1].startswith("🥇") and "علی" in lines[0]  # a tie keeps seat order
    assert "مساوی" in lines[2]


def test_rules_text_says_how_camps_are_named_and_how_to_press() -> None:
    text = presenter.rules_text(ConquerorOptions())
    assert "«ج۴» منطقهٔ ۴ از کاشی «ج» است" in text and "۰ مرکز کاشی است" in text
    assert "نقطه" in text and "حلقهٔ آبی" in text and "➡️ از ص۶" in text


def test_status_shows_the_score_once() -> None:
    state, _ = _play(3, 6)
    status = presenter.status(GAME.view(state, None), NAMES)
    assert sum("امتیاز" in line for line in status) == 1


def test_rules_text_has_no_jargon_and_keeps_castles_off_plains() -> None:
    text = presenter.rules_text(ConquerorOptions())
    assert "نوع ۱" not in text and "روش اول" not in text
    assert "روی دشت قلعه ساخته نمی‌شود" in text
