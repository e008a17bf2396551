"""کشورگشا in Persian: events are worded, the status follows the turn, the result names the winner."""

from __future__ import annotations

import random

from bot.games.conqueror import marks, presenter
from rules import GAMES
from rules.conqueror import ConquerorOptions

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
    assert presenter.menu_label(["c", "B0"], view) == "🏰 ج۰"
    assert presenter.menu_label(["w", "D4"], view) == "🧱 س۴"
    assert presenter.menu_label(["w", "D4", "A6"], view) == "🧱 س۴ و ب۶"
    assert presenter.menu_label(["m", "D4"], view) == "از س۴"
    assert presenter.menu_label(["m", "D4", "A6"], view) == "به ب۶"


def test_the_picture_of_a_menu_marks_the_camps_it_offers() -> None:
    state, _ = _play(1, 60)  # round 2: pieces to move
    view = GAME.view(state, None)
    codes = [GAME.encode(a) for a in GAME.legal_actions(state, GAME.to_act(state)[0])]
    assert list(view.legal) == codes
    source = next(code.split(".")[1] for code in codes if code.startswith("m."))
    assert marks(view, "m") == ({c.split(".")[1] for c in codes if c.startswith("m.")}, None)
    assert marks(view, f"m.{source}") == ({c.split(".")[2] for c in codes if c.startswith(f"m.{source}.")}, source)
    assert marks(view, "") == (set(), None)
    assert presenter.previews
    plain = presenter.picture(view, NAMES)
    assert presenter.picture(view, NAMES, "m") != plain and presenter.picture(view, NAMES, "") == plain


def test_status_shows_the_score_once() -> None:
    state, _ = _play(3, 6)
    status = presenter.status(GAME.view(state, None), NAMES)
    assert sum("امتیاز" in line for line in status) == 1


def test_rules_text_has_no_jargon_and_keeps_castles_off_plains() -> None:
    text = presenter.rules_text(ConquerorOptions())
    assert "نوع ۱" not in text and "روش اول" not in text
    assert "روی دشت قلعه ساخته نمی‌شود" in text
