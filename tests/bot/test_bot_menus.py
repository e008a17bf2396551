"""Menus built from action codes: levels, actions and the way back."""

from __future__ import annotations

import random
import re

import pytest
from pydantic import BaseModel

from bot.games import PRESENTERS
from bot.messages import keyboards
from bot.messages.keyboards import PATTERNS, game_menu, game_picker, lobby
from bot.messages.menus import Choice, Menu, MenuItem, menu_items, parent
from rules import GAMES
from rules.coin_age import CoinAgeOptions

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


def test_a_level_with_one_choice_is_skipped() -> None:
    """One piece to move: «جابه‌جایی» opens its targets at once; one place to capture: «تصرف» captures there."""
    menu = Menu(["m.A1.A2", "m.A1.B1", "c.A1", "x"], depth)
    assert menu.choices("") == [
        Choice((MenuItem("m", False), MenuItem("m.A1", False)), plays=False),
        Choice((MenuItem("c", False), MenuItem("c.A1", True)), plays=True),
        Choice((MenuItem("x", True),), plays=True),
    ]
    assert menu.back("m.A1") == ""  # back to the level the player saw, not to «m»
    assert menu.presses("m.A1.B1") == ["m.A1", "m.A1.B1"] and menu.presses("c.A1") == ["c.A1"]


def test_chains_collapse_all_the_way_and_the_menu_opens_below_a_single_choice() -> None:
    menu = Menu(["m.A1.A2", "m.A1.B1"], depth)
    assert menu.top() == "m.A1" and menu.back("m.A1") is None
    assert [c.key for c in menu.choices("m.A1")] == ["m.A1.A2", "m.A1.B1"]
    assert Menu(["m.A1.A2"], depth).top() == ""  # the one move is a button that plays it
    assert Menu(["m.A1.A2"], depth).choices("") == [
        Choice((MenuItem("m", False), MenuItem("m.A1", False), MenuItem("m.A1.A2", True)), plays=True)
    ]


def test_back_climbs_over_every_skipped_level() -> None:
    menu = Menu(["p.A.B2.x", "p.A.B2.y", "p.C.A1", "m"], depth)
    assert [c.key for c in menu.choices("")] == ["p.A.B2", "p.C.A1", "m"]
    assert menu.back("p.A.B2") == "" and menu.back("") is None


# Carcassonne-like: position (two segments at the first level), rotation, spot; moves are confirmed.
PLACES = ["t.1_0.0.a", "t.1_0.0.n", "t.1_0.1.n", "t.2_0.0.n", "t.3_0.0.a", "t.3_0.0.n", "t.3_0.2.n"]


def carc_depth(kind: str) -> int:
    return 2


def test_a_confirmed_game_plays_from_the_level_above_and_confirms_what_a_skip_reached() -> None:
    menu = Menu(PLACES, carc_depth, confirm=True)
    first = {c.key: c.plays for c in menu.choices("")}
    assert first == {"t.1_0": False, "t.2_0.0.n": False, "t.3_0": False}  # one rotation, no meeple: confirm
    assert {c.key: c.plays for c in menu.choices("t.1_0")} == {"t.1_0.0": False, "t.1_0.1.n": False}
    assert {c.key: c.plays for c in menu.choices("t.1_0.0")} == {"t.1_0.0.a": True, "t.1_0.0.n": True}
    assert menu.choices("t.2_0.0.n") == []  # the confirmation: its button is the move itself (keyboards)
    assert menu.back("t.2_0.0.n") == "" and menu.back("t.1_0.1.n") == "t.1_0" and menu.back("t.1_0.0") == "t.1_0"
    assert menu.presses("t.1_0.0.a") == ["t.1_0", "t.1_0.0", "t.1_0.0.a"]
    assert menu.presses("t.2_0.0.n") == ["t.2_0.0.n", "t.2_0.0.n"]
    assert menu.presses("t.1_0.1.n") == ["t.1_0", "t.1_0.1.n", "t.1_0.1.n"]
    assert Menu(["t.1_0.0.n"], carc_depth, confirm=True).top() == "t.1_0.0.n"  # the only move: confirm it
    first_level = Menu(["a.b", "c.d.e"], carc_depth, confirm=True)  # a move of the first level plays from it
    assert [c.plays for c in first_level.choices("")] == [True, False] and not first_level.shows("a.b")
    assert first_level.shows("c.d.e") and first_level.presses("c.d.e") == ["c.d.e", "c.d.e"]


def test_a_flat_level_of_a_confirmed_game_plays_its_moves_and_no_confirmation_is_left_behind_it() -> None:
    """Its picture previews every move it lists, so its buttons play them; the levels and confirmations
    it skips are never shown, while a level too big to list keeps the confirmed shape below it."""
    flat_positions = lambda prefix: 3 if prefix.count(".") == 1 else 0  # noqa: E731 - a layout in a line
    menu = Menu(PLACES, carc_depth, confirm=True, flat=flat_positions)
    assert [(c.key, c.plays) for c in menu.choices("t.1_0")] == [
        ("t.1_0.0.a", True),
        ("t.1_0.0.n", True),
        ("t.1_0.1.n", True),
    ]
    assert [(c.key, c.plays) for c in menu.choices("t.3_0")] == [
        ("t.3_0.0.a", True),
        ("t.3_0.0.n", True),
        ("t.3_0.2.n", True),
    ]
    assert menu.presses("t.1_0.0.a") == ["t.1_0", "t.1_0.0.a"] and menu.presses("t.1_0.1.n") == ["t.1_0", "t.1_0.1.n"]
    assert menu.presses("t.2_0.0.n") == ["t.2_0.0.n", "t.2_0.0.n"]  # one rotation, no meeple: still confirmed
    shown = {
        p for p in {"", "t.1_0", "t.1_0.0", "t.1_0.1.n", "t.2_0.0.n", "t.3_0", "t.3_0.0", "t.3_0.2.n"} if menu.shows(p)
    }
    assert shown == {"", "t.1_0", "t.2_0.0.n", "t.3_0"}
    assert menu.back("t.1_0") == ""
    too_many = Menu(PLACES, carc_depth, confirm=True, flat=lambda prefix: 2 if prefix.count(".") == 1 else 0)
    assert [c.key for c in too_many.choices("t.1_0")] == ["t.1_0.0", "t.1_0.1.n"] and too_many.shows("t.1_0.1.n")


def test_only_the_levels_shown_pass_as_menu_data() -> None:
    menu = Menu(PLACES, carc_depth, confirm=True)
    shown = {"", "t.1_0", "t.1_0.0", "t.3_0", "t.3_0.0", "t.2_0.0.n", "t.1_0.1.n", "t.3_0.2.n"}
    prefixes = {".".join(c.split(".")[:k]) for c in PLACES for k in range(1, 5)} | {"t.9_9", "x", "t.1_0.7"}
    assert {p for p in prefixes | {""} if menu.shows(p)} == shown
    plain = Menu(["m.A1.A2", "m.A1.B1", "c.A1", "c.B2", "x"], depth)
    assert [p for p in ("", "m", "m.A1", "c", "c.A1", "x", "m.A1.A2", "q") if plain.shows(p)] == ["", "m.A1", "c"]


def test_a_level_of_few_moves_lists_them_whole() -> None:
    codes = ["m.A1.A2", "m.A1.B1", "m.B2.B3", "w.A1.A2", "w.B2.B3", "w.B2.C1", "c.A1", "x"]
    menu = Menu(codes, depth, flat=lambda prefix: 3)
    assert [c.key for c in menu.choices("")] == ["m", "w", "c.A1", "x"]
    assert [(c.key, c.plays) for c in menu.choices("m")] == [("m.A1.A2", True), ("m.A1.B1", True), ("m.B2.B3", True)]
    assert [i.key for i in menu.choices("m")[2].chain] == ["m.B2", "m.B2.B3"]
    assert not menu.shows("m.A1") and not menu.shows("w.B2") and menu.shows("m")
    assert menu.presses("w.B2.C1") == ["w", "w.B2.C1"]
    assert [c.key for c in Menu(codes, depth, flat=lambda prefix: 8).choices("")] == codes  # everything in one level
    below = Menu(codes, depth, flat=lambda prefix: 3 if prefix else 0)  # the first level keeps its kinds
    assert [c.key for c in below.choices("")] == ["m", "w", "c.A1", "x"]
    assert [c.key for c in below.choices("w")] == ["w.A1.A2", "w.B2.B3", "w.B2.C1"]


def _walk(game_id: str, state: object) -> int:
    """Open every level of the menu of ``state`` as a player can; check Telegram's limits, that every level
    opened is one the menu shows and has more than one choice (or confirms a move), that «بازگشت» leads to
    the level the player came from, and that no other prefix passes as a level; return the actions reached."""
    game = GAMES[game_id]
    codes = [game.encode(a) for a in game.legal_actions(state, game.to_act(state)[0])]
    view = game.view(state, None)
    menu = keyboards.menu(game_id, codes)
    pending: list[tuple[str, str | None]] = [("", None)]
    reached, opened = 0, {""}
    while pending:
        prefix, came_from = pending.pop()
        markup = game_menu(game_id, 123456, codes, prefix, view)
        assert sum(len(row) for row in markup.inline_keyboard) <= 100
        backs = []
        choices = 0
        for row in markup.inline_keyboard:
            for button in row:
                data = button.callback_data
                assert isinstance(data, str) and len(data.encode()) <= 64 and button.text
                kind, _, _, key = data.split(":", 3)
                if "بازگشت" in button.text:
                    backs.append(key)
                    continue
                choices += 1
                if kind == "n":
                    assert menu.shows(key), key
                    opened.add(key)
                    pending.append((key, prefix or menu.top()))
                reached += kind == "g"
        shown = prefix or menu.top()
        assert choices > 1 or shown == "" or shown in codes, shown  # a level of one choice only confirms
        assert backs == ([] if came_from is None else [came_from]), (shown, backs, came_from)
    assert reached == len(codes)
    prefixes = {".".join(c.split(".")[:k]) for c in codes for k in range(1, c.count(".") + 2)}
    assert {p for p in prefixes if menu.shows(p)} <= opened | {menu.top()}
    return reached


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_every_menu_of_random_positions_fits_telegram(game_id: str) -> None:
    """Walk every level of the menus along seeded random games: labels exist, data ≤ 64 bytes, ≤ 100 buttons,
    every legal action reachable, no level of one choice, «بازگشت» to the level seen."""
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
    options: BaseModel = CoinAgeOptions()
    made = [b.callback_data for row in lobby(7, "coin_age", options, "https://t.me/x").inline_keyboard for b in row]
    made += [b.callback_data for row in game_picker().inline_keyboard for b in row]
    made += ["g:coin_age:12:p.C.B2", "n:coin_age:12:", "n:coin_age:12:m.B2"]
    for data in filter(None, made):
        assert sum(bool(re.match(p, str(data))) for p in PATTERNS.values()) == 1, data
    for forged in ["g:coin_age:12", "g:coin_age:x:p", "l:12:explode", "o:12:", "new:", "g::1:x", "g:coin_age:1:"]:
        assert not any(re.match(p, forged) for p in PATTERNS.values()), forged
