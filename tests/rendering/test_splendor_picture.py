"""The اسپلندور pictures: the table (cards where the labels say, changes where the game changed, hidden
reserved cards face down and independent of the hidden card), the private picture of a seat's reserve, and
golden images.

Golden images are drawn from views crafted here from the card and noble tables, so they do not depend on the
engine's shuffles; they live in ``tests/rendering/golden/`` at half size. After an intended change of the
picture, regenerate them with ``UPDATE_GOLDEN=1 pytest tests/rendering/test_splendor_picture.py`` and look at
the new files.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from picture_support import assert_golden, assert_sent_as_faithful_jpeg
from PIL import Image, ImageChops

from rendering.splendor import labels
from rendering.splendor import layout as lay
from rendering.splendor.picture import (
    card_label,
    deck_label,
    gold_needed,
    noble_number,
    render,
    render_reserved,
    reserved_label,
    seat_names,
    shortfall,
    standings,
)
from rendering.splendor.sprites import MINI_CARD, PRIVATE_CARD, TABLE_CARD
from rendering.splendor.static import static_layer
from rendering.splendor.theme import DEFAULT_THEME, SplendorTheme
from rendering.text import font, persian_digits
from rendering.theme import RGB
from rules.splendor.data import CARDS, NOBLES, card_key, noble_key
from rules.splendor.engine import Splendor
from rules.splendor.model import (
    CardView,
    NobleView,
    PlayerView,
    ReservedView,
    SplendorAction,
    SplendorState,
    SplendorView,
)

GAME = Splendor()
PACKAGE = Path(__file__).resolve().parents[2] / "rendering"
THEME = DEFAULT_THEME
Box = tuple[int, int, int, int]


# Crafted views ------------------------------------------------------------------------------------------


def card(card_id: int) -> CardView:
    c = CARDS[card_id - 1]
    return CardView(id=card_key(c.id), level=c.level, bonus=c.bonus, points=c.points, cost=c.cost)


def noble(noble_id: int) -> NobleView:
    n = NOBLES[noble_id - 1]
    return NobleView(id=noble_key(n.id), points=n.points, requires=n.requires)


def by_level(level: int) -> list[int]:
    return [c.id for c in CARDS if c.level == level]


def player(
    seat: int,
    tokens: tuple[int, ...] = (0,) * 6,
    bought: tuple[int, ...] = (),
    nobles: tuple[int, ...] = (),
    reserved: tuple[ReservedView, ...] = (),
) -> PlayerView:
    bonuses = [0] * 5
    for c in bought:
        bonuses[CARDS[c - 1].bonus] += 1
    points = sum(CARDS[c - 1].points for c in bought) + 3 * len(nobles)
    return PlayerView(
        seat=seat,
        tokens=tokens,
        bonuses=tuple(bonuses),
        points=points,
        cards=tuple(card_key(c) for c in bought),
        nobles=tuple(noble(n) for n in nobles),
        reserved=reserved,
    )


def _spread(ids: list[int], offset: int) -> list[int]:
    """Four cards of a level, one from each fifth of the file (which is sorted by colour): mixed colours."""
    step = len(ids) // 5
    return [ids[(k + 1) * step + offset] for k in range(4)][::-1]


def crafted(players: tuple[PlayerView, ...], **update: object) -> SplendorView:
    """A table with fixed rows and nobles; the bank holds what the players do not."""
    rows = tuple(tuple(card(c) for c in _spread(by_level(level), level)) for level in (1, 2, 3))
    gems = {2: 4, 3: 5, 4: 7}[len(players)]
    held = [sum(p.tokens[i] for p in players) for i in range(6)]
    fields: dict[str, object] = {
        "seat": None,
        "bank": tuple((gems if i < 5 else 5) - held[i] for i in range(6)),
        "rows": rows,
        "decks": (30, 22, 12),
        "nobles": tuple(noble(n) for n in (1, 4, 6, 9, 10)[: len(players) + 1]),
        "players": players,
        "turn": 0,
        "round": 1,
        "phase": "act",
        "to_return": 0,
        "noble_choices": (),
        "final_round": False,
        "finished": False,
        "end_reason": None,
        "winners": (),
    }
    fields.update(update)
    return SplendorView.model_validate(fields)


def new_view() -> SplendorView:
    return crafted(tuple(player(seat) for seat in range(4)))


def mid_view() -> SplendorView:
    """Three players in round 9: bought cards, a noble, reserved cards (one from a deck, hidden), the final
    round announced and the player in turn returning tokens."""
    l1, l2, l3 = by_level(1), by_level(2), by_level(3)
    players = (
        player(
            0,
            tokens=(1, 0, 2, 1, 0, 1),
            bought=(l1[10], l1[20], l2[12], l2[22], l3[3]),
            nobles=(3,),
            reserved=(
                ReservedView(level=2, from_deck=False, card=card(l2[2])),
                ReservedView(level=3, from_deck=True, card=None),
            ),
        ),
        player(
            1,
            tokens=(2, 2, 1, 2, 3, 1),
            bought=(l1[0], l1[9], l1[30]),
            reserved=(ReservedView(level=1, from_deck=False, card=card(l1[16])),),
        ),
        player(2, tokens=(0, 1, 0, 0, 1, 0), bought=(l1[5], l2[7], l3[15], l3[9], l2[27], l1[25])),
    )
    rows = list(crafted(players).rows)
    rows[0] = (rows[0][0], None, rows[0][2], rows[0][3])
    return crafted(
        players, rows=tuple(rows), round=9, turn=1, phase="return", to_return=1, final_round=True, decks=(0, 9, 3)
    )


def finished_view() -> SplendorView:
    l1, l2, l3 = by_level(1), by_level(2), by_level(3)
    players = (
        player(0, tokens=(1, 1, 0, 2, 0, 0), bought=(l3[0], l3[5], l3[8], l2[1], l2[11], l1[3]), nobles=(2,)),
        player(1, tokens=(0, 2, 2, 0, 1, 1), bought=(l3[10], l2[20], l1[33])),
    )
    return crafted(players, round=14, turn=0, finished=True, end_reason="points", winners=(0,))


# Helpers ----------------------------------------------------------------------------------------------------


def _close(a: tuple[int, ...], b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b, strict=True))


def _pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, ...]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value


def _band(box: Box, band: int) -> tuple[float, float]:
    """A point in the middle of a card's coloured band, clear of the points and the gem."""
    left, top, right, _bottom = box
    return (left + right) / 2, top + band / 2 - 2


def _mini_face(box: Box) -> tuple[float, float]:
    """A point on a small reserved card's face, clear of its points."""
    return box[0] + 7, box[1] + 9


def _changed(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def _mostly(image: Image.Image, box: Box, colour: RGB, share: float = 0.5, tolerance: int = 30) -> bool:
    """Whether at least ``share`` of the pixels in ``box`` are near ``colour``."""
    data = image.crop(box).convert("RGB").tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    near = sum(1 for p in pixels if all(abs(x - y) <= tolerance for x, y in zip(p, colour, strict=True)))
    return near >= share * len(pixels)


def _state_with(players: int, seed: int, **update: object) -> SplendorState:
    return GAME.setup(players, seed).model_copy(update=update)


def _act(state: SplendorState, code: str) -> SplendorState:
    seat = GAME.to_act(state)[0]
    action: SplendorAction = GAME.decode(code)
    return GAME.apply(state, seat, action).state


# Sizes and layout -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_render_and_fit(players: int) -> None:
    image = render(GAME.view(GAME.setup(players, 11), None))
    assert image.size == (lay.WIDTH, lay.height(players))
    assert image.mode == "RGB"
    assert image.width <= 1.4 * image.height and image.height <= 1.25 * image.width  # about square, for a phone
    rows = [lay.player_box(i) for i in range(players)]
    for box in [*rows, lay.HEADER_BOX, lay.BANK_BOX, lay.RESULT_BOX]:
        left, top, right, bottom = box
        assert 0 <= left < right <= lay.WIDTH and 0 <= top < bottom <= lay.height(players), box
    for upper, lower in itertools.pairwise(rows):
        assert upper[3] < lower[1]
    assert rows[0][1] > lay.ROWS_BOTTOM > lay.BANK_BOX[1] > lay.NOBLES_TOP + lay.NOBLE_H > lay.HEADER_BOX[3]
    for row in rows:
        # From the left: reserved cards, nobles, the colours' columns, the points, the name; none overlaps.
        minis = [lay.mini_box(row, index) for index in range(3)]
        assert row[0] < minis[2][0] and minis[0][2] < lay.nobles_right(row) - lay.NOBLES_W
        assert row[1] < minis[0][1] and minis[0][3] < row[3]
        assert lay.nobles_right(row) < lay.cell_x(row, 5) - lay.CELL_W // 2
        assert lay.cell_x(row, 0) + lay.CELL_W // 2 < lay.points_centre(row) - lay.POINTS_W // 2
        assert lay.points_centre(row) + lay.POINTS_W // 2 < lay.name_right(row, True) - lay.NAME_W
    # The table's cards, their labels' strips and the nobles stay right of the bank and do not overlap.
    cards = [lay.slot_box(level, slot) for level in (1, 2, 3) for slot in range(4)] + [
        lay.deck_box(lv) for lv in (1, 2, 3)
    ]
    strips = [(a[0], a[1] - lay.LABEL_H, a[2], a[1]) for a in cards]
    nobles = [lay.noble_box(i, players + 1) for i in range(players + 1)]
    for i, a in enumerate(cards + strips + nobles):
        assert a[0] >= lay.MARGIN and a[2] <= lay.TABLE_RIGHT and a[3] <= lay.ROWS_BOTTOM
        for b in (cards + strips + nobles)[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    for a in cards:
        assert a[0] > lay.BANK_BOX[2] and a[1] - lay.LABEL_H >= lay.ROWS_TOP


def test_text_is_large_enough_for_a_phone() -> None:
    """At 480 px wide, a phone's chat, the smallest text of either picture has a cap height of 10 px or more
    (tests/bot/test_phone_pictures.py measures every text drawn; this keeps the sizes' names honest)."""

    def cap_at_phone(size: int, width: int) -> float:
        box = font(size).getbbox("H")
        return (box[3] - box[1]) * 480 / width

    assert cap_at_phone(lay.TEXT_SMALL, lay.WIDTH) >= 10
    assert cap_at_phone(lay.PRIVATE_TEXT_SMALL, lay.PRIVATE_WIDTH) >= 10
    for size in (TABLE_CARD.digit_size, TABLE_CARD.points_size, MINI_CARD.digit_size, lay.TEXT, lay.BANK_DIGIT):
        assert size >= lay.TEXT_SMALL
    for size in (PRIVATE_CARD.digit_size, PRIVATE_CARD.points_size, lay.PRIVATE_TEXT, lay.PRIVATE_DIGIT):
        assert size >= lay.PRIVATE_TEXT_SMALL
    assert (TABLE_CARD.width, TABLE_CARD.height) == (lay.CARD_W, lay.CARD_H)
    assert (MINI_CARD.width, MINI_CARD.height) == (lay.MINI_W, lay.MINI_H)


def test_labels_are_short_persian_and_tell_every_place_apart() -> None:
    cards = [card_label(level, slot) for level in (1, 2, 3) for slot in range(4)]
    decks = [deck_label(level) for level in (1, 2, 3)]
    reserve = [reserved_label(i) for i in range(3)]
    assert cards[:2] == ["۱", "۲"] and cards[6] == "۷" and cards[-1] == "۱۲"
    assert decks == ["دستهٔ ۱", "دستهٔ ۲", "دستهٔ ۳"] and reserve == ["۱", "۲", "۳"]
    assert len(set(cards + decks)) == 15
    assert noble_number(noble(3)) == 3
    assert labels.noble_button(3) == "، ".join(
        f"{persian_digits(n)} {labels.COLOUR_NAMES[c]}" for c, n in enumerate(NOBLES[2].requires) if n
    )
    for label in (*cards, *decks, *reserve):
        assert not any("a" <= ch.lower() <= "z" or "0" <= ch <= "9" for ch in label), label


def test_a_card_s_label_stands_over_it_not_among_its_costs() -> None:
    """Players read the white circled label in a card's corner as a white cost: the label is on the cloth
    over the card, and a card's face holds no white circle but a white cost."""
    view = GAME.view(GAME.setup(4, 5), None)
    image = render(view)
    for level in (1, 2, 3):
        for slot, c in enumerate(view.rows[level - 1]):
            assert c is not None
            left, top, right, _bottom = lay.slot_box(level, slot)
            strip = (left, top - lay.LABEL_H, right, top)
            assert _mostly(image, strip, THEME.label, 0.01, 40)  # the label's ink is in the strip
            if not c.cost[0]:  # no white cost: nothing white on the face
                face = (left + 4, top + TABLE_CARD.band + 4, right - 4, lay.slot_box(level, slot)[3] - 4)
                assert not _mostly(image, face, THEME.gem(0), 0.01, 6), (level, slot)


# The table ----------------------------------------------------------------------------------------------------


def test_each_card_shows_its_bonus_colour_at_its_slot() -> None:
    view = GAME.view(GAME.setup(4, 5), None)
    image = render(view)
    for level in (1, 2, 3):
        for slot, c in enumerate(view.rows[level - 1]):
            assert c is not None
            box = lay.slot_box(level, slot)
            assert _close(_pixel(image, _band(box, TABLE_CARD.band)), THEME.gem(c.bonus), 2), (level, slot)
            # The face below the band is the card's pale tint.
            assert _close(_pixel(image, (box[0] + 8, box[1] + TABLE_CARD.band + 10)), THEME.card_face(c.bonus), 2)


def test_empty_slot_and_empty_deck() -> None:
    view = mid_view()
    image = render(view)
    box = lay.slot_box(1, 1)
    assert not _mostly(image, box, THEME.card_face(0), 0.2, 6)
    assert _mostly(image, box, THEME.empty_slot, 0.5, 30) or _mostly(image, box, THEME.background, 0.5, 30)
    deck = lay.deck_box(1)
    assert not _mostly(image, deck, THEME.back(1), 0.1)
    assert _mostly(image, lay.deck_box(2), THEME.back(2), 0.4)


def test_buying_a_card_changes_its_slot_the_deck_and_the_buyer() -> None:
    state = _state_with(3, 4, tokens=((4, 4, 4, 4, 4, 0), (0,) * 6, (0,) * 6), bank=(1, 1, 1, 1, 1, 5))
    before = render(GAME.view(state, None))
    after_state = _act(state, "b.1.0")
    after = render(GAME.view(after_state, None))
    assert _changed(before, after, lay.slot_box(1, 0))
    assert _changed(before, after, lay.deck_box(1))  # one card fewer
    assert _changed(before, after, lay.player_box(0))
    assert _changed(before, after, lay.BANK_BOX)  # the paid tokens went back
    for slot in (1, 2, 3):
        assert not _changed(before, after, lay.slot_box(1, slot))
    for level in (2, 3):
        assert not _changed(before, after, lay.deck_box(level))
        for slot in range(4):
            assert not _changed(before, after, lay.slot_box(level, slot))
    bought = GAME.view(state, None).rows[0][0]
    assert bought is not None
    row = lay.player_box(0)
    x, y = lay.cell_x(row, bought.bonus) - lay.BONUS_W / 2 + 5, row[1] + 4 + 5
    assert _close(_pixel(after, (x, y)), THEME.gem(bought.bonus), 3)
    assert not _close(_pixel(before, (x, y)), THEME.gem(bought.bonus), 3)  # faded: none before


def test_reserving_and_taking_change_the_right_places() -> None:
    state = GAME.setup(4, 6)
    before = render(GAME.view(state, None))
    reserved = _act(state, "r.2.3")
    after = render(GAME.view(reserved, None))
    assert _changed(before, after, lay.slot_box(2, 3))
    assert _changed(before, after, lay.deck_box(2))
    assert _changed(before, after, lay.mini_box(lay.player_box(0), 0))
    assert _changed(before, after, lay.BANK_BOX)  # a gold token came with it
    assert not _changed(before, after, lay.slot_box(2, 2))
    card_view = GAME.view(state, None).rows[1][3]
    assert card_view is not None
    small = lay.mini_box(lay.player_box(0), 0)
    assert _close(_pixel(after, _mini_face(small)), THEME.gem(card_view.bonus), 3)

    took = _act(state, "t.w.b.r")
    taken = render(GAME.view(took, None))
    assert _changed(before, taken, lay.BANK_BOX)
    assert _changed(before, taken, lay.player_box(0))
    table = (lay.BANK_BOX[2] + 2, lay.NOBLES_TOP, lay.TABLE_RIGHT, lay.ROWS_BOTTOM)
    assert not _changed(before, taken, table)


def _blind_states() -> tuple[SplendorState, SplendorState]:
    """Two states that differ only in which level-1 card seat 0 reserved from the deck."""
    state = _act(GAME.setup(3, 8), "r.1.d")
    hidden = state.reserved[0][0]
    deck = list(state.decks[0])
    other = deck[0]  # a card deep in the deck: swap it with the hidden one
    deck[0] = hidden
    twin = state.model_copy(
        update={
            "decks": (tuple(deck), *state.decks[1:]),
            "reserved": ((other,), *state.reserved[1:]),
            "blind": (other,),
        }
    )
    return state, twin


def test_hidden_reserved_cards_are_face_down_for_others_and_face_up_for_their_owner() -> None:
    state, _twin = _blind_states()
    small = lay.mini_box(lay.player_box(0), 0)
    public = render(GAME.view(state, None))
    assert _mostly(public, small, THEME.back(1), 0.45)
    owner_view = GAME.view(state, 0)
    hidden = owner_view.players[0].reserved[0].card
    assert hidden is not None
    owner = render(owner_view)
    assert not _mostly(owner, small, THEME.back(1), 0.2)
    assert _close(_pixel(owner, _mini_face(small)), THEME.gem(hidden.bonus), 3)
    # Another seat's view sees it face down, like the public.
    assert ImageChops.difference(public, render(GAME.view(state, 1))).getbbox() is None


def test_the_public_picture_does_not_depend_on_the_hidden_card() -> None:
    state, twin = _blind_states()
    assert state.reserved != twin.reserved
    a, b = render(GAME.view(state, None)), render(GAME.view(twin, None))
    assert a.tobytes() == b.tobytes()
    assert render(GAME.view(state, 0)).tobytes() != render(GAME.view(twin, 0)).tobytes()


def test_player_in_turn_is_highlighted() -> None:
    view = new_view()
    for seat in range(4):
        image = render(view.model_copy(update={"turn": seat}))
        for other, box in enumerate(lay.player_box(i) for i in range(4)):
            inside = _pixel(image, (box[0] + 12, box[3] - 8))
            assert _close(inside, THEME.active, 3) == (other == seat), (seat, other)


def test_final_round_and_phase_notices_change_the_header_only() -> None:
    view = mid_view()
    calm = view.model_copy(update={"final_round": False, "phase": "act", "to_return": 0})
    diff = ImageChops.difference(render(view), render(calm)).getbbox()
    assert diff is not None
    left, top, right, bottom = lay.HEADER_BOX
    assert left <= diff[0] and diff[2] <= right and top <= diff[1] and diff[3] <= bottom
    assert _mostly(render(view), (left, top, right, top + 60), THEME.final_round, 0.02, 10)
    assert not _mostly(render(calm), (left, top, right, top + 60), THEME.final_round, 0.001, 10)


def test_finished_game_shows_the_result_banner() -> None:
    view = finished_view()
    image = render(view, names=["علی", "سارا"])
    left, top, _right, _bottom = lay.RESULT_BOX
    assert _close(_pixel(image, (left + 14, top + 14)), THEME.win_banner, 3)
    shared = render(view.model_copy(update={"winners": (0, 1)}))
    assert _close(_pixel(shared, (left + 14, top + 14)), THEME.draw_banner, 3)


def test_names_default_and_odd_names_do_not_break_the_picture() -> None:
    view = new_view()
    assert seat_names(view, None) == ("بازیکن ۱", "بازیکن ۲", "بازیکن ۳", "بازیکن ۴")
    assert ImageChops.difference(render(view), render(view, names=seat_names(view, None))).getbbox() is None
    odd = render(view, names=["🎲🎲", "Alexandria Ocasio-Cortez the Magnificent ✨ محمد", ""])
    assert odd.size == (lay.WIDTH, lay.height(4))
    assert ImageChops.difference(odd, render(view)).getbbox() is not None


def test_theme_changes_colours_and_static_layer_is_cached() -> None:
    red = (200, 30, 30)
    theme = SplendorTheme(gems=(THEME.gems[0], THEME.gems[1], red, *THEME.gems[3:]))
    view = GAME.view(GAME.setup(2, 5), None)
    image = render(view, theme=theme)
    found = [(lv, s, c) for lv in (1, 2, 3) for s, c in enumerate(view.rows[lv - 1]) if c and c.bonus == 2]
    assert found
    level, slot, _c = found[0]
    assert _close(_pixel(image, _band(lay.slot_box(level, slot), TABLE_CARD.band)), red, 2)
    render(view, theme=theme)
    assert static_layer.cache_info().hits >= 1


# The private picture ------------------------------------------------------------------------------------


def test_private_picture_shows_every_reserved_card_face_up_with_affordability() -> None:
    state, _twin = _blind_states()
    state = _act(state, "t.w.b.g")  # seat 1
    state = _act(state, "r.3.0")  # seat 2
    state = _act(state, "r.2.1")  # seat 0 again: a deck card and a table card
    view = GAME.view(state, 0)
    image = render_reserved(view)
    assert image.size == (lay.PRIVATE_WIDTH, lay.PRIVATE_HEIGHT)
    reserve = view.players[0].reserved
    assert len(reserve) == 2 and reserve[0].from_deck
    for index, item in enumerate(reserve):
        assert item.card is not None
        box = lay.private_card_box(index)
        assert _close(_pixel(image, _band(box, PRIVATE_CARD.band)), THEME.gem(item.card.bonus), 2)
    # Nothing is drawn where a third card would be.
    assert _mostly(image, lay.private_card_box(2), THEME.background, 0.97, 2)


def test_standings_rank_by_points_then_fewer_cards_and_ties_share_a_place() -> None:
    l1 = by_level(1)
    players = (
        player(0, bought=(l1[0],)),  # 0 points, 1 card
        player(1, bought=(by_level(3)[0],)),  # the most points
        player(2, bought=(l1[1], l1[2])),  # 0 points, 2 cards: after seat 0
        player(3, bought=(l1[3],)),  # as seat 0: the same place
    )
    view = crafted(players, finished=True, end_reason="points", winners=(1,))
    assert [(place, p.seat) for place, p in standings(view)] == [(1, 1), (2, 0), (2, 3), (4, 2)]
    shared = view.model_copy(update={"winners": (0, 3)})  # the bot's winners first (a seat that left cannot win)
    assert [(place, p.seat) for place, p in standings(shared)] == [(1, 0), (1, 3), (3, 1), (4, 2)]


def test_at_the_end_the_rows_follow_the_places() -> None:
    view = finished_view().model_copy(update={"winners": (1,)})
    image = render(view, names=["علی", "سارا"])
    first, second = lay.player_box(0), lay.player_box(1)
    assert _close(_pixel(image, ((first[0] + first[2]) / 2, first[1] + 1)), THEME.win_banner, 30)
    assert not _close(_pixel(image, ((second[0] + second[2]) / 2, second[1] + 1)), THEME.win_banner, 30)
    assert ImageChops.difference(image, render(finished_view(), names=["علی", "سارا"])).getbbox() is not None


def test_gold_needed_is_what_the_gems_lack() -> None:
    c = CardView(id="c99", level=2, bonus=0, points=1, cost=(3, 0, 2, 0, 0))
    p = player(0, tokens=(1, 0, 1, 0, 0, 1), bought=tuple(x for x in by_level(1) if CARDS[x - 1].bonus == 0)[:1])
    assert gold_needed(c, p) == 2 and shortfall(c, p) == 1
    assert gold_needed(c, p.model_copy(update={"tokens": (2, 0, 2, 0, 0, 0)})) == 0


def test_shortfall_counts_bonuses_tokens_and_gold() -> None:
    c = CardView(id="c99", level=2, bonus=0, points=1, cost=(3, 0, 2, 0, 0))
    p = player(0, tokens=(1, 0, 1, 0, 0, 0), bought=tuple(x for x in by_level(1) if CARDS[x - 1].bonus == 0)[:1])
    assert shortfall(c, p) == 2  # white 3 - 1 bonus - 1 token, green 2 - 1 token
    assert shortfall(c, p.model_copy(update={"tokens": (1, 0, 1, 0, 0, 2)})) == 0


def test_private_picture_without_reserved_cards_says_so() -> None:
    view = GAME.view(GAME.setup(2, 1), 1)
    image = render_reserved(view)
    assert image.size == (lay.PRIVATE_WIDTH, lay.PRIVATE_HEIGHT)
    with_tokens = view.model_copy(
        update={"players": (view.players[0], view.players[1].model_copy(update={"tokens": (1, 2, 0, 0, 0, 1)}))}
    )
    assert ImageChops.difference(image, render_reserved(with_tokens)).getbbox() is not None
    with pytest.raises(ValueError, match="seat"):
        render_reserved(GAME.view(GAME.setup(2, 1), None))


# Boundaries -------------------------------------------------------------------------------------------------


def test_to_bytes_gives_a_small_faithful_jpeg() -> None:
    assert_sent_as_faithful_jpeg(render(mid_view()), tolerance=3.0)


# Golden images -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "make", "names"),
    [
        ("splendor_new_game", new_view, None),
        ("splendor_mid_game", mid_view, ["علی", "Sara", "مریم"]),
        ("splendor_finished", finished_view, ["علی", "سارا"]),
    ],
)
def test_golden(name: str, make: Callable[[], SplendorView], names: list[str] | None) -> None:
    image = render(make(), names=names)
    small = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    assert_golden(small, name)


def test_golden_private_picture() -> None:
    """Seat 0 of the mid game, in private: the card it reserved from deck 3 face up, what it lacks for each."""
    view = mid_view()
    mine = view.players[0]
    hidden = ReservedView(level=3, from_deck=True, card=card(by_level(3)[7]))
    mine = mine.model_copy(update={"reserved": (mine.reserved[0], hidden)})
    view = view.model_copy(update={"seat": 0, "players": (mine, *view.players[1:])})
    image = render_reserved(view)
    small = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    assert_golden(small, "splendor_private")
