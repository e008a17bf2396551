"""/games says each game's player count once; /rules alone offers a button per game; /settings' buttons fit a
phone and each says its state and what a press does."""

from __future__ import annotations

import re

from bot.games import PLAYABLE, PRESENTERS
from bot.handlers.admin import settings_keyboard
from bot.handlers.info import games_text, rules_picker
from bot.plumbing.group_settings import GroupSettings

PHONE = 35  # characters a phone shows across one button before it cuts the text


def width(text: str) -> int:
    """Characters as a phone shows them: an emoji's variation selector and a zero-width joiner take no room."""
    return len(text.replace("\ufe0f", "").replace("\u200c", ""))


SETTINGS = (
    GroupSettings(),
    GroupSettings(turn_seconds=0, reminder=False, lobby_idle_seconds=0, disabled_games=["coin_age"]),
)


def test_games_says_how_many_play_once() -> None:
    text = games_text()
    assert "(۲ نفر)" not in text and "نفره؛ دو نفره" not in text
    for game in PLAYABLE.values():
        line = next(line for line in text.splitlines() if game.title in line and "<b>" in line)
        assert len(re.findall("نفر", line)) == 1, line
    assert not any(PRESENTERS[g].summary.startswith(("۲", "دو نفره")) for g in PLAYABLE)


def test_rules_alone_offers_a_button_per_game() -> None:
    data = [b.callback_data for row in rules_picker().inline_keyboard for b in row]
    assert data == [f"r:{g}" for g in PLAYABLE]


def test_every_settings_button_fits_a_phone_and_a_switch_says_its_state_and_action() -> None:
    for settings in SETTINGS:
        rows = settings_keyboard(settings, (30, 60, 120, 300, 3600)).inline_keyboard
        for row in rows:
            for button in row:
                assert width(button.text) <= PHONE // len(row) + 2, button.text  # its share of the row
                data = str(button.callback_data)
                if data.startswith(("s:r:", "s:g:", "s:o:")):  # yes or no: ticked or not, then the action
                    state, _, action = button.text.partition(" · ")
                    assert state[0] in "✅⬜" and action in ("خاموش کردن", "روشن کردن", "بستن", "باز کردن"), button.text
                    assert (state[0] == "✅") == (action in ("خاموش کردن", "بستن")), button.text
    closed = [b.text for row in settings_keyboard(SETTINGS[1], (30,)).inline_keyboard for b in row]
    assert "⬜️ 🪙 عصر سکه‌ها · باز کردن" in closed and "⬜️ 🔔 یادآوری · روشن کردن" in closed
