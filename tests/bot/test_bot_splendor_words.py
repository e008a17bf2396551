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
from rules.splendor import SplendorOptions
from rules.splendor.model import STALL_ROUNDS, CardBought, GameEnded, SplendorState, SplendorView

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
    limits = {"t": 1, "g": 1, "t2": 2, "r": 2, "b": 2, "bg": 3, "n": 1, "p": 1}  # a buy with gold: 2, as any buy
    assert {"t", "g", "r", "b", "bg"} <= worst.keys() and all(worst[k] <= limits[k] for k in worst), worst


def test_a_level_with_one_card_is_skipped_and_its_button_says_what_it_does() -> None:
    view: SplendorView = GAME.view(GAME.setup(2, 1), 0)
    card = card_label(1, 2)
    markup = keyboards.game_menu("splendor", 5, ["t.w.b.r", "b.1.2", "bg.2-0.k", "p"], "", view)
    labels = {b.callback_data: b.text for row in markup.inline_keyboard for b in row}
    assert labels["g:splendor:5:b.1.2"].startswith(f"🛒 خرید کارت {card} · ")  # one press: bought
    assert labels["g:splendor:5:bg.2-0.k"].startswith(f"🟡 خرید کارت {card_label(2, 0)} · ")
    assert labels["g:splendor:5:bg.2-0.k"].endswith(" — طلا به جای ۱ سیاه")


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


def _buying_with_gold() -> tuple[SplendorState, list[str]]:
    """Seat 0 in turn with two gold and a few gems of each colour: cards within reach, some only with gold,
    and gold could stand in for gems held on several."""
    state = GAME.setup(2, 7).model_copy(update={"tokens": ((2, 2, 1, 2, 1, 2), (0,) * 6), "bank": (2, 2, 3, 2, 3, 3)})
    return state, [GAME.encode(a) for a in GAME.legal_actions(state, 0)]


def test_a_buy_spends_gold_by_itself_and_its_button_says_how_much() -> None:
    """Players pressed «با طلا» to pay with gold and were asked which colour it replaced (three presses, and
    more gold than needed): a plain buy pays what the gems lack with gold, in two presses, and says so."""
    state, codes = _buying_with_gold()
    view = GAME.view(state, None)
    me = view.players[0]
    menu = keyboards.menu("splendor", codes)
    needing = [c for c in codes if c.startswith("b.") and c.split(".")[1] != "h"]
    assert needing
    for code in needing:
        _kind, level, slot = code.split(".")
        card = view.rows[int(level) - 1][int(slot)]
        assert card is not None
        lacking = sum(max(0, need - me.bonuses[c] - me.tokens[c]) for c, need in enumerate(card.cost))
        label = presenter.menu_label(code.split("."), view)
        assert label.endswith(f" · با {num(lacking)} طلا") == bool(lacking), label
        assert len(menu.presses(code)) <= 2
        paid = GAME.apply(state, 0, GAME.decode(code)).events
        bought = next(e for e in paid if isinstance(e, CardBought))
        assert bought.paid[5] == lacking  # gold covers exactly what the gems lack
    assert any(" · با " in presenter.menu_label(c.split("."), view) for c in needing)


def test_gold_instead_of_gems_held_is_one_first_level_button() -> None:
    """Paying with gold in place of gems one holds is a choice for few: one button for every card, its level
    the payments whole when few, else the cards of every level, each opening its payments."""
    state, codes = _buying_with_gold()
    view = GAME.view(state, None)
    markup = keyboards.game_menu("splendor", 5, codes, "", view)
    gold = [b for row in markup.inline_keyboard for b in row if "🟡" in b.text]
    assert len(gold) == 1 and gold[0].text == "🟡 خرید با طلا به جای ژتون‌هایتان"
    assert all(len(row) == 1 for row in markup.inline_keyboard if any(b in gold for b in row))
    menu = keyboards.menu("splendor", codes)
    payments = [c for c in codes if c.startswith("bg.")]
    assert len(payments) > 8 and max(len(menu.presses(c)) for c in payments) == 3
    cards = keyboards.game_menu("splendor", 5, codes, "bg", view)
    texts = [b.text for row in cards.inline_keyboard for b in row if "بازگشت" not in b.text]
    assert len(texts) > 1 and all(t.startswith("کارت ") for t in texts)  # the cards, of any level
    few = [c for c in codes if not c.startswith("bg.")] + payments[:3]
    assert max(len(keyboards.menu("splendor", few).presses(c)) for c in payments[:3]) <= 2
    listed = keyboards.game_menu("splendor", 5, few, "bg", view)
    texts = [b.text for row in listed.inline_keyboard for b in row if "بازگشت" not in b.text]
    assert len(texts) == 3 and all(" — طلا به جای " in t for t in texts), texts


def test_the_result_lists_players_by_place_and_equal_players_share_one() -> None:
    view = GAME.view(GAME.setup(4, 3), None)
    points = (9, 15, 9, 4)
    players = tuple(p.model_copy(update={"points": points[p.seat], "cards": ("c01",) * 5}) for p in view.players)
    over = view.model_copy(update={"players": players, "finished": True, "winners": (1,), "end_reason": "points"})
    lines = presenter.result(over, ["علی", "سارا", "مریم", "رضا"])
    assert [line.split(":")[0].split(" ", 1)[0] for line in lines[:4]] == ["🥇", "🥈", "🥈", "۴."]
    assert ["سارا" in lines[0], "علی" in lines[1], "مریم" in lines[2], "رضا" in lines[3]] == [True] * 4
    assert lines[-1].startswith("🏆 برنده: ") and "سارا" in lines[-1]


def test_a_stalled_game_is_foretold_in_the_status_and_its_end_explained() -> None:
    """Ours (rules/splendor/README.md, the end): ten rounds with no card bought or reserved end the game; the
    status warns from the seventh, and the end says why, in Persian digits."""
    view = GAME.view(GAME.setup(2, 3), None)
    names = ["علی", "سارا"]
    assert not any("⚠️" in line for line in presenter.status(view, names))
    quiet = view.model_copy(update={"quiet_rounds": STALL_ROUNDS - 3})
    warning = [line for line in presenter.status(quiet, names) if line.startswith("⚠️")]
    assert warning == ["⚠️ ۷ دور است هیچ‌کس کارتی نخریده یا رزرو نکرده؛ اگر به ۱۰ دور برسد، بازی شمرده می‌شود."]
    ended = presenter.describe([GameEnded(reason="stalled")], names, view)
    assert ended == ["🏁 ۱۰ دور پیاپی هیچ‌کس کارتی نخرید یا رزرو نکرد؛ بازی شمرده شد."]
    assert not LATIN.search(" ".join(warning + ended))
    assert "۱۰ دور پیاپی" in presenter.rules_text(SplendorOptions())  # the rules say it too
