"""The Coin Age board picture: geometry, colours where they belong, encoding, and golden images.

Golden images live in ``tests/rendering/golden/`` at half size. After an intended change of the picture,
regenerate them with ``UPDATE_GOLDEN=1 pytest tests/rendering`` and look at the new files before committing.
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
from picture_support import assert_golden, assert_sent_as_faithful_jpeg, mean_difference
from PIL import Image, ImageChops, ImageStat

from rendering.coin_age import layout as lay
from rendering.coin_age.names import fitted
from rendering.coin_age.picture import render
from rendering.coin_age.static import lead_row, space_centres, static_layer
from rendering.coin_age.theme import DEFAULT_THEME, CoinAgeTheme
from rendering.encode import encode_png
from rendering.hexgrid import touching
from rendering.text import font
from rendering.theme import RGB
from rules.coin_age.engine import CoinAge
from rules.coin_age.model import START_SUPPLY, Coin, CoinAction, CoinAgeState, CoinAgeView, coin

GAME = CoinAge()
GOLDEN_SIZE = (lay.WIDTH // 2, lay.HEIGHT // 2)
BANNER_POINT = (lay.HEADER_BOX[0] + 40, lay.HEADER_ROW_Y[0])  # inside the result's banner, left of its words
PACKAGE = Path(__file__).resolve().parents[2] / "rendering"

# Crafted positions, independent of the engine's dice: stacks by space index (map order A1..A3, B1..B4, C1..C3).
TALL_STACKS: dict[int, tuple[Coin, ...]] = {
    0: (coin(1, 1),),
    3: (coin(3, 1), coin(0, 0)),
    5: (coin(3, 0), coin(2, 1), coin(1, 0), coin(0, 1)),
    7: (coin(0, 1),),
    9: (coin(2, 1), coin(1, 1), coin(0, 0)),
}
FULL_STACKS: dict[int, tuple[Coin, ...]] = {
    0: (coin(1, 1),),
    1: (coin(3, 0),),
    2: (coin(1, 0), coin(0, 1)),
    3: (coin(2, 0),),
    4: (coin(3, 1),),
    5: (coin(0, 1),),
    6: (coin(1, 0),),
    7: (coin(0, 1),),
    8: (coin(2, 1),),
    9: (coin(1, 0),),
}


def _supply_left(stacks: dict[int, tuple[Coin, ...]], taken: tuple[Coin, ...] = ()) -> tuple[tuple[int, ...], ...]:
    supply = [list(START_SUPPLY), list(START_SUPPLY)]
    for c in itertools.chain(*stacks.values(), taken):
        supply[c & 1][c >> 1] -= 1
    return tuple(tuple(s) for s in supply)


def crafted(
    stacks: dict[int, tuple[Coin, ...]],
    *,
    turn: int = 0,
    toss: tuple[Coin, ...] = (),
    hand: tuple[Coin, ...] | None = None,
    places: int = 0,
    moves: int = 0,
    captures: int = 0,
    can_pay: bool = False,
    finished: bool = False,
    last_touched: tuple[int, ...] = (),
) -> CoinAgeState:
    hand = toss if hand is None else hand
    return CoinAgeState(
        rng=1,
        supply=_supply_left(stacks, hand),
        stacks=tuple(stacks.get(i, ()) for i in range(10)),
        turn=turn,
        turn_number=9,
        toss=() if finished else toss,
        hand=() if finished else hand,
        places_left=places,
        moves_left=moves,
        captures_left=captures,
        can_pay=can_pay,
        finished=finished,
        end_reason="board_full" if finished else None,
        last_touched=last_touched,
    )


def new_view() -> CoinAgeView:
    return GAME.view(GAME.setup(2, 7), None)


def tall_view() -> CoinAgeView:
    toss = (coin(0, 0), coin(1, 1), coin(2, 0))
    state = crafted(TALL_STACKS, turn=0, toss=toss, hand=(coin(1, 1), coin(2, 0)), places=1, last_touched=(8, 9))
    return GAME.view(state, None)


def finished_view() -> CoinAgeView:
    return GAME.view(crafted(FULL_STACKS, finished=True), None)


def _close(a: tuple[int, ...], b: RGB, tolerance: int = 10) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b, strict=True))


def _pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, ...]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value


def _darkened(colour: RGB) -> RGB:
    r, g, b = colour
    return (round(r * 0.82), round(g * 0.82), round(b * 0.82))


# Geometry ------------------------------------------------------------------------------------------------


def test_honeycomb_sides_are_exactly_the_map_borders() -> None:
    view = new_view()
    centres = space_centres([s.id for s in view.spaces])
    drawn = {
        frozenset((a.id, b.id))
        for a, b in itertools.combinations(view.spaces, 2)
        if touching(centres[a.id], centres[b.id], lay.HEX_RADIUS)
    }
    borders = {frozenset((s.id, n)) for s in view.spaces for n in s.neighbours}
    assert len(borders) == 19
    assert drawn == borders


def test_board_and_panels_fit_the_picture() -> None:
    centres = space_centres([s.id for s in new_view().spaces])
    left, top, right, bottom = lay.BOARD_BOX
    for x, y in centres.values():
        assert left <= x - lay.HEX_RADIUS * 0.87 and x + lay.HEX_RADIUS * 0.87 <= right
        assert top <= y - lay.HEX_RADIUS and y + lay.HEX_RADIUS <= bottom


# Pictures -------------------------------------------------------------------------------------------------


def test_new_game_shows_region_colours_at_every_centre() -> None:
    view = new_view()
    image = render(view)
    assert image.size == (lay.WIDTH, lay.HEIGHT)
    assert lay.WIDTH <= 1.4 * lay.HEIGHT
    assert image.mode == "RGB"
    centres = space_centres([s.id for s in view.spaces])
    for space in view.spaces:
        assert _pixel(image, centres[space.id])[:3] == DEFAULT_THEME.region_fill(space.region), space.id


def test_every_coin_of_a_stack_shows_its_side() -> None:
    view = tall_view()
    image = render(view, names=["علی", "سارا"])
    centres = space_centres([s.id for s in view.spaces])
    theme = DEFAULT_THEME
    for space in view.spaces:
        centre = centres[space.id]
        slots = lay.stack_slots(centre, tuple(c.size for c in space.stack))
        allowed = {theme.region_fill(space.region), theme.coin_outline, theme.top_halo}
        for c in space.stack:
            allowed |= {theme.side_fill(c.side), _darkened(theme.side_fill(c.side)), theme.side_rim(c.side)}
        assert any(_close(_pixel(image, centre), colour, 40) for colour in allowed), space.id
        for c, slot in zip(space.stack, slots, strict=True):
            x, y = slot.centre
            if slot.top:
                face = _pixel(image, (x + 0.6 * slot.radius, y))
                assert _close(face, theme.side_fill(c.side)), (space.id, face)
            else:  # the crescent the smaller coin above leaves uncovered
                face = _pixel(image, (x + 0.4 * slot.radius, y + 0.55 * slot.radius))
                assert _close(face, _darkened(theme.side_fill(c.side))), (space.id, face)


def test_placing_a_coin_changes_only_its_space_and_the_panels() -> None:
    state = GAME.setup(2, 7)
    seat = GAME.to_act(state)[0]
    place = next(a for a in GAME.legal_actions(state, seat) if a.kind == "place")
    assert isinstance(place, CoinAction)
    before = render(GAME.view(state, None))
    after_view = GAME.view(GAME.apply(state, seat, place).state, None)
    after = render(after_view)
    diff = ImageChops.difference(before, after)
    assert diff.getbbox() is not None
    target = after_view.spaces[place.space]
    x, y = space_centres([s.id for s in after_view.spaces])[target.id]
    r = lay.HEX_RADIUS
    board = diff.crop(lay.BOARD_BOX)
    hexagon = diff.crop((round(x - r), round(y - r), round(x + r), round(y + r)))
    assert hexagon.getbbox() is not None
    # On the board, nothing but that one space changed.
    assert sum(ImageStat.Stat(board).sum) == sum(ImageStat.Stat(hexagon).sum)


def _band_point(view: CoinAgeView, space: str) -> tuple[float, float]:
    """A point in the middle of the last-move band, straight above a space's centre."""
    x, y = space_centres([s.id for s in view.spaces])[space]
    return x, y - (lay.HEX_RADIUS - lay.HEX_GAP / 2 - 3 - 2 - lay.LAST_MOVE_BAND / 2)


def test_the_spaces_of_the_last_move_are_marked() -> None:
    view = tall_view()
    assert view.last_move == ("C2", "C3")
    image = render(view)
    unmarked = render(view.model_copy(update={"last_move": ()}))
    for space in view.last_move:
        assert _close(_pixel(image, _band_point(view, space)), DEFAULT_THEME.last_move)
        assert not _close(_pixel(unmarked, _band_point(view, space)), DEFAULT_THEME.last_move, 60)
    other = next(s.id for s in view.spaces if s.id not in view.last_move)
    assert _pixel(image, _band_point(view, other)) == _pixel(unmarked, _band_point(view, other))


def test_the_engine_keeps_the_last_move_for_the_next_player() -> None:
    state = GAME.setup(2, 7)
    seat = GAME.to_act(state)[0]
    place = next(a for a in GAME.legal_actions(state, seat) if a.kind == "place")
    assert isinstance(place, CoinAction)
    state = GAME.apply(state, seat, place).state
    space = GAME.view(state, None).spaces[place.space].id
    assert GAME.view(state, None).last_move == (space,)
    while GAME.to_act(state) == (seat,):  # the turn ends: the mark stays until the next player changes the board
        state = GAME.apply(state, seat, next(a for a in GAME.legal_actions(state, seat) if a.kind == "end")).state
    assert GAME.view(state, None).last_move == (space,)


def test_an_unfavourable_toss_is_grey_not_the_opponent_s_colour() -> None:
    view = tall_view()  # seat 0 tossed a gold 1, a blue 2 (unfavourable) and a gold 3
    image = render(view)
    x, y = lay.toss_centres(3)[1]
    blue = (x, y - lay.TOSS_COIN_RADIUS[1] + 8)
    assert _close(_pixel(image, blue), DEFAULT_THEME.unfavourable, 16)
    assert not _close(_pixel(image, blue), DEFAULT_THEME.side_fill(1), 60)


def test_finished_game_shows_the_winner_banner() -> None:
    view = finished_view()
    assert view.finished and view.turn is None
    image = render(view, names=["علی", "سارا"])
    banner = _pixel(image, BANNER_POINT)
    if len(view.winners) == 1:
        assert _close(banner, DEFAULT_THEME.side_fill(view.winners[0]))
    else:
        assert _close(banner, DEFAULT_THEME.draw_banner)


def test_draw_banner() -> None:
    view = finished_view().model_copy(update={"winners": (0, 1)})
    assert _close(_pixel(render(view), BANNER_POINT), DEFAULT_THEME.draw_banner)


def test_names_default_to_sides_and_odd_names_do_not_break_the_picture() -> None:
    view = tall_view()
    assert ImageChops.difference(render(view), render(view, names=view.sides)).getbbox() is None
    odd = render(view, names=["🎲🎲", "Alexandria Ocasio-Cortez the Magnificent ✨ محمد"])
    assert odd.size == (lay.WIDTH, lay.HEIGHT)
    assert ImageChops.difference(odd, render(view)).getbbox() is not None


def test_theme_changes_colours_and_static_layer_is_cached() -> None:
    view = new_view()
    theme = CoinAgeTheme(forest=(10, 90, 40))
    image = render(view, theme=theme)
    centres = space_centres([s.id for s in view.spaces])
    forest = next(s for s in view.spaces if s.region == "F")
    assert _pixel(image, centres[forest.id])[:3] == (10, 90, 40)
    render(view, theme=theme)
    assert static_layer.cache_info().hits >= 1


def _chip_point(box: lay.Box) -> tuple[float, float]:
    """Inside the chip beside a card's name, right of its centre (clear of nothing but the chip)."""
    right, top = box[2], box[1]
    return right - lay.INSET - lay.CARD_CHIP_RADIUS + 6, top + lay.CARD_NAME_Y


def test_while_playing_seat_0_is_on_the_right_and_once_over_the_best_is() -> None:
    playing = render(tall_view())
    assert _close(_pixel(playing, _chip_point(lay.PLAYER_BOXES[0])), DEFAULT_THEME.side_fill(0))
    view = finished_view()
    best = max((0, 1), key=lambda seat: view.scores[seat].total)
    assert view.winners == (best,)
    over = render(view)
    assert _close(_pixel(over, _chip_point(lay.PLAYER_BOXES[0])), DEFAULT_THEME.side_fill(best))
    assert _close(_pixel(over, _chip_point(lay.PLAYER_BOXES[1])), DEFAULT_THEME.side_fill(1 - best))


def test_the_row_under_the_map_shows_who_holds_each_colour_and_whose_points_double() -> None:
    view = tall_view()
    image = render(view)
    _label, cells = lead_row(tuple(len(r.spaces) for r in view.regions))
    for region, cell in zip(view.regions, cells, strict=True):
        holders = [0] * region.controlled[0] + [1] * region.controlled[1]
        for i, pip in enumerate(cell.pips):
            expected = DEFAULT_THEME.side_fill(holders[i]) if i < len(holders) else DEFAULT_THEME.open_pip
            assert _close(_pixel(image, pip), expected), (region.id, i)
        left, top, _right, _bottom = cell.badge
        corner = _pixel(image, (left + 6, top + 6))
        if region.doubled is None:
            assert _close(corner, DEFAULT_THEME.background), region.id
        else:
            assert _close(corner, DEFAULT_THEME.side_fill(region.doubled)), region.id
    assert any(r.doubled is not None for r in view.regions) and any(r.doubled is None for r in view.regions)


def test_a_long_name_loses_whole_words_and_a_computer_keeps_its_level() -> None:
    face_size, room = lay.CARD_NAME_SIZE, 200
    shown, face = fitted("آرمان دلاوری‌نژاد خراسانی", room, face_size, lay.MIN_TEXT)
    assert shown == "آرمان دلاوری‌نژاد…" and face.size >= lay.MIN_TEXT
    shown, _face = fitted("رایانه ۱۲ (متوسط)", 150, face_size, lay.MIN_TEXT)
    assert shown.endswith("… (متوسط)")
    assert fitted("لیلا", room, face_size, lay.MIN_TEXT) == ("لیلا", font(face_size, bold=True))
    latin, _face = fitted("Alexandria Ocasio-Cortez the Magnificent", room, face_size, lay.MIN_TEXT)
    assert latin.startswith("Alexandria") and latin.endswith("…\u200e")


# Encoding ------------------------------------------------------------------------------------------------


def test_to_bytes_gives_a_small_faithful_jpeg() -> None:
    assert_sent_as_faithful_jpeg(render(tall_view()), tolerance=2.0)


def test_png_alternative_is_faithful() -> None:
    image = render(new_view())
    data = encode_png(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert mean_difference(Image.open(io.BytesIO(data)).convert("RGB"), image) < 2.0


# Golden images -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "make", "names"),
    [
        ("new_game", new_view, None),
        ("tall_stacks", tall_view, ["علی", "Sara"]),
        ("finished", finished_view, ["علی", "سارا"]),
    ],
)
def test_golden(name: str, make: object, names: list[str] | None) -> None:
    assert callable(make)
    view = make()
    assert isinstance(view, CoinAgeView)
    small = render(view, names=names).resize(GOLDEN_SIZE, Image.Resampling.LANCZOS)
    assert_golden(small, f"coin_age_{name}")
