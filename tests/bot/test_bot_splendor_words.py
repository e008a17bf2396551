"""اسپلندور's buttons in Persian: every menu level of random games is worded without Latin letters or digits,
and a card's, deck's, reserved card's or noble's button names the label the picture puts on it."""

from __future__ import annotations

import random
import re

from bot.games.splendor import presenter
from bot.messages.menus import menu_items
from rendering.splendor.picture import card_label, deck_label, noble_label, reserved_label
from rules import GAMES
from rules.splendor import SplendorState
from rules.splendor.model import SplendorView

GAME = GAMES["splendor"]
LATIN = re.compile(r"[A-Za-z0-9]")


def _every_label(state: SplendorState) -> dict[str, str]:
    """Each menu key reachable from the seat's legal actions, with its button label."""
    seat = state.turn
    view: SplendorView = GAME.view(state, seat)
    codes = [GAME.encode(a) for a in GAME.legal_actions(state, seat)]
    labels: dict[str, str] = {}
    prefixes = [""]
    while prefixes:
        prefix = prefixes.pop()
        for item in menu_items(codes, prefix, presenter.root_depth):
            labels[item.key] = presenter.menu_label(item.key.split("."), view)
            if not item.is_action or any(c.startswith(item.key + ".") for c in codes):
                prefixes.append(item.key)
    return labels


def test_every_button_of_random_games_is_persian() -> None:
    seen: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.setup(2 + seed % 3, seed)
        while GAME.to_act(state):
            for key, label in _every_label(state).items():
                assert label and not LATIN.search(label), (key, label)
                seen.add(key.split(".")[0])
            state = GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn))).state
    assert {"t", "t2", "r", "b", "bg", "g"} <= seen


def test_the_buttons_repeat_the_picture_s_labels() -> None:
    view: SplendorView = GAME.view(GAME.setup(3, 4), 0)
    label = lambda *path: presenter.menu_label(path, view)  # noqa: E731
    assert label("b", "2", "1") == "کارت " + card_label(2, 1) == "کارت ۶"
    assert label("r", "3", "d") == "🂠 " + deck_label(3) == "🂠 دستهٔ ۳"
    assert label("b", "h", "0") == "رزروشدهٔ " + reserved_label(0) == "رزروشدهٔ ۱"
    assert label("n", "3") == "👑 " + noble_label(3) == "👑 ۳"
