"""کشورگشا in Persian: events are worded, the status follows the turn, the result names the winner."""

from __future__ import annotations

import random

from bot.games.conqueror import presenter
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
    assert any("📊 امتیازها" in line for line in lines)
    scores = [line for line in lines if line.startswith("📊")]
    assert not any(ch in "0123456789" for line in scores for ch in line)  # camp labels (B4) alone stay Latin
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
