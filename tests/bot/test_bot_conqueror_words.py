"""کشورگشا in Persian: events are worded, the status follows the turn, the result names the winner."""

from __future__ import annotations

import random
import re

from bot.games.conqueror import marks, presenter
from bot.messages import keyboards
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


def test_a_button_that_skips_levels_says_the_whole_action() -> None:
    view = GAME.view(GAME.setup(2, 3), None)
    label = presenter.chain_label
    assert label([["m"], ["m", "D4"]], view) == "➡️ حرکت از س۴"  # one piece to move: its targets come next
    assert label([["m"], ["m", "D4"], ["m", "D4", "A6"]], view) == "➡️ از س۴ به ب۶"
    assert label([["m", "D4"], ["m", "D4", "A6"]], view) == "از س۴ به ب۶"
    assert label([["c"], ["c", "B0"]], view) == "🏰 قلعه در ج۰"
    assert label([["w"], ["w", "D4"], ["w", "D4", "A6"]], view) == "🧱 دیوار س۴ و ب۶"
    assert label([["w", "D4"], ["w", "D4", "A6"]], view) == "🧱 س۴ و ب۶"
    assert label([["e"], ["e", "D4"]], view) == "⬆️ ورود به قلعهٔ س۴"
    assert label([["l"], ["l", "D4"]], view) == "⬇️ خروج از قلعهٔ س۴"


def test_the_picture_of_a_menu_marks_the_camps_it_offers() -> None:
    state, _ = _play(3, 80)  # round 2: pieces to move, castles to build
    view = GAME.view(state, None)
    codes = [GAME.encode(a) for a in GAME.legal_actions(state, GAME.to_act(state)[0])]
    assert list(view.legal) == codes
    assert marks(view, "") == (set(), None)  # the kinds of action: no place yet
    assert marks(view, "c") == ({c.split(".")[1] for c in codes if c.startswith("c.")}, None)
    moves = [c for c in codes if c.startswith("m.")]
    assert len(moves) <= presenter.menu_flat  # listed whole: both camps of every move are ringed
    assert marks(view, "m") == ({camp for c in moves for camp in c.split(".")[1:]}, None)
    assert presenter.previews
    plain = presenter.picture(view, NAMES)
    assert presenter.picture(view, NAMES, "m") != plain and presenter.picture(view, NAMES, "") == plain


def test_a_source_s_level_rings_its_targets_and_the_source() -> None:
    state, _ = _play(1, 40)
    view = GAME.view(state, None)
    codes = list(view.legal)
    walls = [c for c in codes if c.startswith("w.")]
    assert len(walls) > presenter.menu_flat  # too many to list whole: a camp first, then its neighbour
    camp = walls[0].split(".")[1]
    assert marks(view, f"w.{camp}") == ({c.split(".")[2] for c in walls if c.startswith(f"w.{camp}.")}, camp)


def test_few_moves_are_listed_whole_at_once() -> None:
    state, _ = _play(1, 60)
    view = GAME.view(state, None)
    menu = keyboards.menu("conqueror", list(view.legal))
    assert len(view.legal) <= presenter.menu_flat
    labels = [keyboards.game_menu("conqueror", 1, list(view.legal), "", view).inline_keyboard]
    texts = [b.text for rows in labels for row in rows for b in row]
    assert all(c.plays for c in menu.choices("")) and len(texts) == len(view.legal)
    assert "⏭ پایان نوبت" in texts and any(re.fullmatch(r"➡️ از \S+ به \S+", t) for t in texts), texts
    assert any(re.fullmatch(r"⬆️ ورود به قلعهٔ \S+", t) for t in texts), texts
    assert marks(view, "")[0] == {camp for c in view.legal for camp in c.split(".")[1:]}


def test_status_shows_the_score_once() -> None:
    state, _ = _play(3, 6)
    status = presenter.status(GAME.view(state, None), NAMES)
    assert sum("امتیاز" in line for line in status) == 1


def test_rules_text_has_no_jargon_and_keeps_castles_off_plains() -> None:
    text = presenter.rules_text(ConquerorOptions())
    assert "نوع ۱" not in text and "روش اول" not in text
    assert "روی دشت قلعه ساخته نمی‌شود" in text
