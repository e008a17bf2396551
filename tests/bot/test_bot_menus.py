"""Menus built from action codes: levels, actions and the way back."""

from __future__ import annotations

import random

import pytest

from bot.games import PRESENTERS
from bot.messages.keyboards import game_menu
from bot.messages.menus import MenuItem, menu_items, parent
from rules import GAMES

CODES = ["p.A.A1", "p.A.B2", "p.C.A1", "m.A1.A2", "m.A1.B1", "c.A1", "y.A", "x"]


def depth(kind: str) -> int:
    return 2 if kind in ("p", "y") else 1


def test_first_level_groups_by_root_depth_and_keeps_order() -> None:
    assert menu_items(CODES, "", depth) == [
        MenuItem("p.A", False),
        MenuItem("p.C", False),
        MenuItem("m", False),
        MenuItem("c", False),
        MenuItem("y.A", True),
        MenuItem("x", True),
    ]


def test_deeper_levels_add_one_segment() -> None:
    assert menu_items(CODES, "p.A", depth) == [MenuItem("p.A.A1", True), MenuItem("p.A.B2", True)]
    assert menu_items(CODES, "m", depth) == [MenuItem("m.A1", False)]
    assert menu_items(CODES, "m.A1", depth) == [MenuItem("m.A1.A2", True), MenuItem("m.A1.B1", True)]


def test_parent_climbs_to_the_first_level() -> None:
    assert parent("", depth) is None
    assert parent("p.A", depth) == ""
    assert parent("m.A1", depth) == "m"
    assert parent("m", depth) == ""


def _walk(game_id: str, state: object) -> int:
    """Open every level of the menu of ``state``; check Telegram's limits; return the actions reached."""
    game = GAMES[game_id]
    codes = [game.encode(a) for a in game.legal_actions(state, game.to_act(state)[0])]
    view = game.view(state, None)
    pending, reached = [""], 0
    while pending:
        prefix = pending.pop()
        markup = game_menu(game_id, 123456, codes, prefix, view)
        assert sum(len(row) for row in markup.inline_keyboard) <= 100
        for row in markup.inline_keyboard:
            for button in row:
                data = button.callback_data
                assert isinstance(data, str) and len(data.encode()) <= 64 and button.text
                kind, _, _, key = data.split(":", 3)
                if kind == "n" and "بازگشت" not in button.text:
                    pending.append(key)
                reached += kind == "g"
    assert reached == len(codes)
    return reached


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_every_menu_of_random_positions_fits_telegram(game_id: str) -> None:
    """Walk every level of the menus along seeded random games: labels exist, data ≤ 64 bytes, ≤ 100 buttons,
    every legal action reachable."""
    game = GAMES[game_id]
    for seed in range(3):
        state = game.setup(game.min_players, seed)
        rng = random.Random(seed)
        for step in range(400):
            seats = game.to_act(state)
            if not seats:
                break
            if step % 7 == 0:
                _walk(game_id, state)
            state = game.apply(state, seats[0], rng.choice(game.legal_actions(state, seats[0]))).state


def test_handlers_accept_the_bot_s_own_data_and_nothing_malformed() -> None:
    import re

    from pydantic import BaseModel

    from bot.messages.keyboards import PATTERNS, game_picker, lobby
    from rules.coin_age import CoinAgeOptions

    options: BaseModel = CoinAgeOptions()
    made = [b.callback_data for row in lobby(7, "coin_age", options, "https://t.me/x").inline_keyboard for b in row]
    made += [b.callback_data for row in game_picker().inline_keyboard for b in row]
    made += ["g:coin_age:12:p.C.B2", "n:coin_age:12:", "n:coin_age:12:m.B2"]
    for data in filter(None, made):
        assert sum(bool(re.match(p, str(data))) for p in PATTERNS.values()) == 1, data
    for forged in ["g:coin_age:12", "g:coin_age:x:p", "l:12:explode", "o:12:", "new:", "g::1:x", "g:coin_age:1:"]:
        assert not any(re.match(p, forged) for p in PATTERNS.values()), forged
