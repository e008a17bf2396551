"""قلعه رودخان in Persian: events are worded, buttons say what the picture labels, the menu's prefix becomes
the picture's pending choice, the result lists every category."""

from __future__ import annotations

import itertools
import random

from bot.games import PRESENTERS
from bot.games.carcassonne import FLAT_PLACEMENTS, pending, presenter, tile_words
from bot.messages import keyboards
from bot.messages.menus import menu_items
from rendering.carcassonne.labels import candidate_label, rotation_label, spot_label
from rendering.carcassonne.picture import Pending
from rules import GAMES
from rules.carcassonne import CarcassonneOptions, CarcassonneState
from rules.carcassonne.data import BY_LETTER
from rules.carcassonne.model import CarcassonneView

NAMES = ["علی", "Sara", "مینا"]
GAME = GAMES["carcassonne"]
LATIN_DIGITS = set("0123456789")


def _play(seed: int, steps: int, farmers: bool = True) -> tuple[CarcassonneState, list[str]]:
    state = GAME.setup(3, seed, CarcassonneOptions(farmers=farmers))
    rng = random.Random(seed)
    lines: list[str] = []
    for _ in range(steps):
        if not GAME.to_act(state):
            break
        step = GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn)))
        lines += presenter.describe(step.events, NAMES, GAME.view(step.state, None))
        state = step.state
    return state, lines


def test_a_game_reads_in_persian_with_persian_digits() -> None:
    state, lines = _play(1, 10_000)
    laid = [line for line in lines if line.startswith("🧩")]
    assert laid and all(" کاشی " in line and line.endswith(".") for line in laid)
    assert any(" وصل کرد" in line for line in laid) and any("، با آدمکی روی" in line for line in laid)
    assert not any(line.count("گذاشت") > 1 for line in lines)  # the tile and its meeple: one verb
    completed = [line for line in lines if "کامل شد" in line]
    assert completed and all("امتیاز گرفت" in line for line in completed)
    assert any("کاشی‌ای کامل شد" in line for line in completed)  # a city's or road's size
    assert not any(LATIN_DIGITS & set(line) for line in lines)
    result = presenter.result(GAME.view(state, None), NAMES)
    assert "برنده" in result[0] or "برد مشترک" in result[0]
    assert all("مزرعه" in line for line in result[1:4])
    assert not any(LATIN_DIGITS & set(line) for line in result)


def _state(tiles: list[tuple[str, int, int, int]], drawn: str, meeples: list[tuple[int, int, str]]) -> CarcassonneState:
    """A position of two players, علی (seat 0, in turn) and Sara: ``tiles`` (letter, x, y, rotation) laid in
    order, the first being the starting tile at (0, 0); ``drawn`` in علی's hand; ``meeples`` (seat, tile
    index, spot) on the board."""
    return CarcassonneState(
        players=2,
        rng=987654321,
        pile=(BY_LETTER["U"].index,) * 4,
        drawn=BY_LETTER[drawn].index,
        placed=tuple((BY_LETTER[t].index, x, y, r) for t, x, y, r in tiles),
        meeples=tuple((seat, i, BY_LETTER[tiles[i][0]].spot_index[spot]) for seat, i, spot in meeples),
        points=((0, 0, 0, 0), (0, 0, 0, 0)),
    )


def _said(state: CarcassonneState, action: str) -> list[str]:
    """What the group reads after علی plays ``action`` («t.x_y.rotation.spot»)."""
    step = GAME.apply(state, 0, GAME.decode(action))
    return presenter.describe(step.events, NAMES, GAME.view(step.state, None))


ALI, SARA = "🔴 \u2068علی\u2069", "🔵 \u2068Sara\u2069"
START = [("D", 0, 0, 0)]  # a city to the north, a road from west to east, a field to the south
CAPPED = [*START, ("E", 0, -1, 2)]  # the start's city closed by a cap facing south
ROADS = [*CAPPED, ("U", 1, -1, 0)]  # and a road from north to south at (1, -1), ending above (1, 0)


def test_the_first_tile_beside_fields_only_is_just_laid() -> None:
    """Nothing joined: the tile and its meeple, no «کنار مزرعه» that would say nothing."""
    assert _said(_state(START, "B", []), "t.0_1.0.m") == [f"🧩 {ALI} کاشی صومعه را گذاشت، با آدمکی روی صومعه."]
    assert _said(_state(START, "E", []), "t.0_1.2.n") == [f"🧩 {ALI} کاشی شهر را گذاشت."]  # its city faces away
    state = _state(START, "U", [(1, 0, "r0")])
    step = GAME.apply(state, 0, GAME.decode("t.1_0.1.n"))  # the road extended, but told with the view before it:
    assert presenter.describe(step.events, NAMES, GAME.view(state, None)) == [f"🧩 {ALI} کاشی جاده را گذاشت."]


def test_a_tile_says_whose_feature_it_extends() -> None:
    assert _said(_state(START, "U", []), "t.1_0.1.r0") == [
        f"🧩 {ALI} کاشی جاده را به یک جاده وصل کرد، با آدمکی روی جاده."
    ]
    assert _said(_state(START, "U", [(0, 0, "r0")]), "t.-1_0.1.n") == [f"🧩 {ALI} کاشی جاده را به جادهٔ خودش وصل کرد."]
    assert _said(_state(START, "U", [(1, 0, "r0")]), "t.-1_0.1.n") == [f"🧩 {ALI} کاشی جاده را به جادهٔ {SARA} وصل کرد."]


def test_several_features_are_each_named_and_the_free_ones_counted() -> None:
    """A crossroads at (1, 0) meets the start's road and the road coming down from (1, -1): two features."""
    assert _said(_state(ROADS, "X", []), "t.1_0.0.n") == [f"🧩 {ALI} کاشی چهارراه را به دو جاده وصل کرد."]
    assert _said(_state(ROADS, "X", [(1, 2, "r0")]), "t.1_0.0.r1") == [
        f"🧩 {ALI} کاشی چهارراه را به جادهٔ {SARA} و یک جاده وصل کرد، با آدمکی روی جاده."
    ]


def test_a_tile_closing_a_city_names_the_holders_its_scoring_sent_home() -> None:
    """The city is empty in the view after the move; whose it was comes from the meeples its scoring returned."""
    assert _said(_state(START, "E", [(1, 0, "c0")]), "t.0_-1.2.n") == [
        f"🧩 {ALI} کاشی شهر را به شهر {SARA} وصل کرد.",
        f"🏘 شهر ۲ کاشی‌ای کامل شد: {SARA} ۴ امتیاز گرفت.",
    ]
    # علی's cap at (1, -1) and Sara's road: his tile at (1, 0) closes his city and extends her road at once.
    capped = [*CAPPED, ("E", 1, -1, 2)]
    assert _said(_state(capped, "K", [(1, 0, "r0"), (0, 2, "c0")]), "t.1_0.0.n") == [
        f"🧩 {ALI} کاشی شهر و جاده را به شهر خودش و جادهٔ {SARA} وصل کرد.",
        f"🏘 شهر ۲ کاشی‌ای کامل شد: {ALI} ۴ امتیاز گرفت.",
    ]


def test_a_meeple_that_completes_its_feature_at_once_is_not_an_earlier_holder() -> None:
    assert _said(_state(START, "E", []), "t.0_-1.2.c0") == [
        f"🧩 {ALI} کاشی شهر را به یک شهر وصل کرد، با آدمکی روی شهر.",
        f"🏘 شهر ۲ کاشی‌ای کامل شد: {ALI} ۴ امتیاز گرفت.",
    ]


def test_the_minority_s_meeples_go_home_without_points_and_the_line_says_so() -> None:
    """Sara's two caps and علی's one, joined by his three-sided city at (0, -1): a city of four, closed."""
    tiles = [*START, ("U", 1, 0, 1), ("E", 1, -1, 3), ("B", 1, -2, 0), ("E", 0, -2, 2)]
    assert _said(_state(tiles, "R", [(1, 0, "c0"), (0, 2, "c0"), (1, 4, "c0")]), "t.0_-1.1.n") == [
        f"🧩 {ALI} کاشی شهر را به شهر خودش و {SARA} وصل کرد.",
        f"🏘 شهر ۴ کاشی‌ای کامل شد: {SARA} ۸ امتیاز گرفت؛ آدمک {ALI} بی‌امتیاز برگشت.",
    ]


def test_a_tile_beside_a_monk_names_the_monastery_even_when_it_completes_it() -> None:
    ring = [("B", x, y, 0) for x, y in ((0, 0), (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1))]
    assert _said(_state(ring[:-1], "B", [(1, 0, "m")]), "t.1_1.0.n") == [
        f"🧩 {ALI} کاشی صومعه را کنار صومعهٔ {SARA} گذاشت."
    ]
    assert _said(_state(ring, "B", [(1, 0, "m")]), "t.1_1.0.m") == [
        f"🧩 {ALI} کاشی صومعه را کنار صومعهٔ {SARA} گذاشت، با آدمکی روی صومعه.",
        f"⛪️ صومعه کامل شد: {SARA} ۹ امتیاز گرفت.",
    ]


def test_a_tile_is_named_by_what_it_shows() -> None:
    words = {letter: tile_words(letter) for letter in "ABCDHLUWX"}
    assert words == {
        "A": "کاشی صومعه و جاده",
        "B": "کاشی صومعه",
        "C": "کاشی شهر سپردار",
        "D": "کاشی شهر و جاده",
        "H": "کاشی دو شهر",
        "L": "کاشی شهر و سه‌راهی",
        "U": "کاشی جاده",
        "W": "کاشی سه‌راهی",
        "X": "کاشی چهارراه",
    }


def test_the_result_ranks_the_players_by_score_and_equal_scores_share_a_place() -> None:
    """«۱. … ۲۳ … ۲. … ۱۰ … ۲. … ۱۰»: best first, as the finished picture lists them, the winners named first."""
    state, _ = _play(5, 10_000)
    view = GAME.view(state, None).model_copy(update={"scores": (10, 23, 10), "winners": (1,)})
    result = presenter.result(view, NAMES)
    assert result[0] == "🏆 برنده: <b>\u2068Sara\u2069</b>"
    assert [line.split(" ")[0] for line in result[1:4]] == ["۱.", "۲.", "۲."]
    assert "Sara" in result[1] and "<b>۲۳</b>" in result[1]
    assert "علی" in result[2] and "مینا" in result[3]  # a tie keeps the seats' order
    shared = presenter.result(view.model_copy(update={"scores": (23, 23, 10), "winners": (0, 1)}), NAMES)
    assert shared[0].startswith("🤝 برد مشترک: ") and [line.split(" ")[0] for line in shared[1:4]] == ["۱.", "۱.", "۳."]


def test_without_farmers_the_result_has_no_fields() -> None:
    state, _ = _play(2, 10_000, farmers=False)
    assert not any("مزرعه" in line for line in presenter.result(GAME.view(state, None), NAMES))


def test_buttons_say_what_the_picture_labels() -> None:
    state, _ = _play(3, 20)
    view: CarcassonneView = GAME.view(state, None)
    codes = [GAME.encode(a) for a in GAME.legal_actions(state, state.turn)]
    positions = menu_items(codes, "", presenter.root_depth)
    assert [presenter.menu_label(item.key.split("."), view) for item in positions] == [
        candidate_label(c.number) for c in view.candidates
    ]
    candidate = view.candidates[0]
    choice = candidate.rotations[0]
    prefix = f"t.{candidate.x}_{candidate.y}.{choice.rotation}"
    labels = [presenter.menu_label(i.key.split("."), view) for i in menu_items(codes, prefix, presenter.root_depth)]
    assert [label.split(":")[0] for label in labels[:-1]] == [spot_label(i) for i in range(len(choice.spots))]
    assert labels[-1] == "🚫 بدون آدمک"


def test_menu_prefix_is_the_pictures_pending_choice() -> None:
    state, _ = _play(4, 12)
    view = GAME.view(state, None)
    c = view.candidates[-1]
    rot = c.rotations[-1].rotation
    assert pending(view, "") is None and pending(view, "t") is None
    assert pending(view, f"t.{c.x}_{c.y}") == Pending(c.x, c.y)
    assert pending(view, f"t.{c.x}_{c.y}.{rot}") == Pending(c.x, c.y, rot)
    assert pending(view, f"t.{c.x}_{c.y}.{rot}.n") == Pending(c.x, c.y, rot, "n")
    for nowhere in ("t.99_99", f"t.{c.x}_{c.y}.9", f"t.{c.x}_{c.y}.{rot}.c7", "x.1_1"):
        assert pending(view, nowhere) is None  # anything not offered draws the plain board


def test_the_game_s_emoji_is_its_own() -> None:
    emojis = [p.emoji for p in PRESENTERS.values()]
    assert len(set(emojis)) == len(emojis) and presenter.emoji not in ("🏰", "🗺")
    text = presenter.rules_text(CarcassonneOptions())
    assert text.startswith(presenter.emoji) and "🏰" not in text


def test_a_tile_is_placed_in_two_presses_from_a_level_whose_picture_shows_it() -> None:
    """The position, then the placement: on the meeple's level or a confirmation (one rotation: the tile
    drawn as it will lie), or on the position's level listing every placement (several rotations: each
    drawn with its spots). Only a position with more placements than a phone's keyboard holds takes three."""
    confirmed = whole = 0
    for seed in range(3):
        state = GAME.setup(2, seed, CarcassonneOptions(farmers=seed == 2))
        rng = random.Random(seed)
        while GAME.to_act(state):
            codes = [GAME.encode(a) for a in GAME.legal_actions(state, state.turn)]
            view = GAME.view(state, None)
            menu = keyboards.menu("carcassonne", codes)
            for code in rng.sample(codes, min(len(codes), 12)):
                pressed = menu.presses(code)
                _, position, rotation, spot = code.split(".")
                x, y = (int(n) for n in position.split("_"))
                placements = sum(c.startswith(f"t.{position}.") for c in codes)
                assert len(pressed) <= (2 if placements <= FLAT_PLACEMENTS else 3), (code, pressed)
                last = ([menu.top(), *pressed])[-2]  # the level the last press is made on
                assert last in (f"t.{position}", f"t.{position}.{rotation}", code), (code, last)
                if last == f"t.{position}":
                    assert (
                        pending(view, last) == Pending(x, y)
                        and len({c.split(".")[2] for c in codes if c.startswith(last + ".")}) > 1
                    )
                else:
                    assert pending(view, last) == Pending(x, y, int(rotation), None if last != code else spot)
                confirmed += last == code
                whole += last == f"t.{position}"
            state = GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn))).state
    assert confirmed and whole  # no meeple to place: confirmed on its own picture; several rotations: listed whole


def test_a_position_s_level_names_each_placement_as_its_picture_draws_it() -> None:
    """«۹۰° · الف: 🏘 شهر»: the rotation as captioned under its tile, the spot's letter on it, or the rotation
    alone where no meeple can stand."""
    for steps in range(20, 40):  # the first position of a seeded game listing several rotations whole
        state, _ = _play(3, steps)
        view: CarcassonneView = GAME.view(state, None)
        codes = [GAME.encode(a) for a in GAME.legal_actions(state, state.turn)]
        several = [c for c in view.candidates if len(c.rotations) > 1 and any(not r.spots for r in c.rotations)]
        if several:
            break
    candidate = several[0]
    prefix = f"t.{candidate.x}_{candidate.y}"
    assert sum(code.startswith(prefix + ".") for code in codes) <= FLAT_PLACEMENTS
    menu = keyboards.menu("carcassonne", codes)
    labels = [keyboards.button_label("carcassonne", choice, view) for choice in menu.choices(prefix)]
    expected = []
    for choice in candidate.rotations:
        turned = rotation_label(choice.rotation)
        if not choice.spots:
            expected.append(f"↻ {turned}")
            continue
        expected += [f"{turned} · {spot_label(i)}: " for i in range(len(choice.spots))] + [f"{turned} · 🚫 بدون آدمک"]
    assert len(labels) == len(expected) and all(label.startswith(e) for label, e in zip(labels, expected, strict=True))
    rows = keyboards.game_menu("carcassonne", 7, codes, prefix, view).inline_keyboard[:-1]  # «بازگشت» last
    turns = [{b.text.split(" · ")[0] for b in row} for row in rows]
    assert all(len(turn) == 1 for turn in turns)  # a row holds one rotation's placements
    assert sum(1 for a, b in itertools.pairwise(turns) if a != b) == len(candidate.rotations) - 1
