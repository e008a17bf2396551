"""اسپلندور's buttons: a card's, deck's or reserved card's button names the label the picture puts on it with
the card's colour and points, a noble's the bonuses it asks for; any set of tokens is one press. (That every
button is Persian is checked for all games in test_bot_persian_scan.py.)"""

from __future__ import annotations

import random
import re

from bot.games.splendor import presenter
from bot.messages import keyboards
from bot.messages.fa import num
from bot.messages.menus import menu_items
from rendering.splendor.labels import COLOUR_NAMES, card_label, deck_label, noble_button, reserved_label
from rules import GAMES
from rules.splendor.model import CardBought, SplendorView

GAME = GAMES["splendor"]
LATIN = re.compile(r"[A-Za-z0-9]")


def test_the_buttons_repeat_the_picture_s_labels() -> None:
    view: SplendorView = GAME.view(GAME.setup(3, 4), 0)
    label = lambda *path: presenter.menu_label(path, view)  # noqa: E731
    card = view.rows[1][1]
    assert card is not None
    colour = COLOUR_NAMES[card.bonus]
    points = f" · {num(card.points)} امتیاز" if card.points else ""
    assert label("b", "2", "1") == f"کارت {card_label(2, 1)} · {colour}{points}"
    assert label("b", "2", "1").startswith("کارت ۶ · ")
    assert label("r", "3", "d") == "🂠 " + deck_label(3) + "، پنهان" == "🂠 دستهٔ ۳، پنهان"
    assert label("b", "h", "0") == "رزروشدهٔ " + reserved_label(0) == "رزروشدهٔ ۱"  # no card reserved yet
    assert label("n", "3") == "👑 " + noble_button(3)


def test_a_card_button_says_colour_and_points() -> None:
    view: SplendorView = GAME.view(GAME.setup(2, 1), None)
    worth = next((lv, s, c) for lv, row in enumerate(view.rows, 1) for s, c in enumerate(row) if c and c.points)
    level, slot, c = worth
    assert presenter.menu_label(["r", str(level), str(slot)], view) == (
        f"کارت {card_label(level, slot)} · {COLOUR_NAMES[c.bonus]} · {num(c.points)} امتیاز"
    )
    plain = next((lv, s, c) for lv, row in enumerate(view.rows, 1) for s, c in enumerate(row) if c and not c.points)
    level, slot, c = plain
    assert presenter.menu_label(["r", str(level), str(slot)], view) == (
        f"کارت {card_label(level, slot)} · {COLOUR_NAMES[c.bonus]}"
    )


def _presses(codes: list[str], code: str) -> int:
    """Presses from the level the menu opens on to the action ``code``, as the bot's menu lays it out."""
    return len(keyboards.menu("splendor", codes).presses(code))


def test_any_three_gems_any_return_and_any_card_take_few_presses() -> None:
    """Every set of tokens is one button of the first level, so the order of choosing does not matter; a card
    takes two presses (level, card), a payment with gold three."""
    worst: dict[str, int] = {}
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.setup(2 + seed % 3, seed)
        while GAME.to_act(state):
            codes = [GAME.encode(a) for a in GAME.legal_actions(state, state.turn)]
            first = {item.key for item in menu_items(codes, "", presenter.root_depth)}
            for code in codes:
                kind = code.split(".")[0]
                worst[kind] = max(worst.get(kind, 0), _presses(codes, code))
                if kind in ("t", "g"):
                    assert code in first  # the whole set, one press
            state = GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn))).state
    limits = {"t": 1, "g": 1, "t2": 2, "r": 2, "b": 2, "bg": 3, "n": 1, "p": 1}
    assert {"t", "g", "r", "b", "bg"} <= worst.keys() and all(worst[k] <= limits[k] for k in worst), worst


def test_a_level_with_one_card_is_skipped_and_its_button_says_what_it_does() -> None:
    view: SplendorView = GAME.view(GAME.setup(2, 1), 0)
    card = card_label(1, 2)
    markup = keyboards.game_menu("splendor", 5, ["t.w.b.r", "b.1.2", "bg.2.0.k", "p"], "", view)
    labels = {b.callback_data: b.text for row in markup.inline_keyboard for b in row}
    assert labels["g:splendor:5:b.1.2"].startswith(f"🛒 خرید کارت {card} · ")  # one press: bought
    assert labels["g:splendor:5:bg.2.0.k"].startswith(f"🟡 خرید با طلا: کارت {card_label(2, 0)} · ")
    assert labels["g:splendor:5:bg.2.0.k"].endswith(" — 🟡 به جای سیاه")


def test_a_level_of_cards_lists_them_top_down_in_the_picture_s_order() -> None:
    state = GAME.setup(2, 3)
    codes = [GAME.encode(a) for a in GAME.legal_actions(state, 0)]
    view = GAME.view(state, 0)
    level = [presenter.menu_label(i.key.split("."), view) for i in menu_items(codes, "r.2", presenter.root_depth)]
    assert [text.split(" · ")[0] for text in level] == ["کارت ۵", "کارت ۶", "کارت ۷", "کارت ۸", "🂠 دستهٔ ۲، پنهان"]
    assert presenter.menu_columns("r.2") == 1


def test_a_card_bought_with_bonuses_alone_is_free() -> None:
    bought = CardBought(seat=0, card="c01", level=1, slot=0, paid=(0,) * 6)
    line = presenter.describe([bought], ["علی", "مریم"], GAME.view(GAME.setup(2, 0), None))
    assert "رایگان" in line[0] and "هیچ" not in line[0]
