"""The کشورگشا picture: geometry on any board, colours where they belong, text a phone reads, encoding, and
golden images.

Positions are crafted on the fixed board's view (castles, pieces, walls; owners follow the seed's rule), so
the pictures do not depend on the engine's choices. Golden images live in ``tests/rendering/golden/`` at half
size; after an intended change of the picture, regenerate them with
``UPDATE_GOLDEN=1 pytest tests/rendering/test_conqueror_picture.py`` and look at the new files.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from picture_support import assert_golden, assert_sent_as_faithful_jpeg
from PIL import Image, ImageChops

from rendering.conqueror import layout as lay
from rendering.conqueror import sprites, static
from rendering.conqueror.labels import camp_label
from rendering.conqueror.picture import board_key, board_radius, camp_centres, picture_size, render
from rendering.conqueror.sprites import inset_hexagon
from rendering.conqueror.static import board_plan, static_layer
from rendering.conqueror.theme import DEFAULT_THEME, ConquerorTheme
from rendering.text import sizes_drawn
from rendering.theme import RGB, mix
from rules.conqueror.board import TILE_LETTERS
from rules.conqueror.engine import Conqueror
from rules.conqueror.model import PIECES, WALLS, ConquerorOptions, ConquerorView, WallView

GAME = Conqueror()
PACKAGE = Path(__file__).resolve().parents[2] / "rendering"
THEME = DEFAULT_THEME

WallSpec = tuple[str, str, int]  # camp, across, builder


def new_view(options: ConquerorOptions | None = None, seed: int = 7) -> ConquerorView:
    return GAME.view(GAME.setup(2, seed, options), None)


def crafted(
    *,
    castles: dict[str, int],
    manned: Iterable[str] = (),
    pieces: dict[str, tuple[int, int]] | None = None,
    walls: Iterable[WallSpec] = (),
    turn: int = 5,
    actions_left: int = 2,
    finished: bool = False,
    winners: tuple[int, ...] = (),
) -> ConquerorView:
    """A round-2 position on the fixed board; owners and scores by the seed's rule (more connected castles)."""
    base = new_view()
    labels = [c.label for c in base.cells]
    at = {(c.q, c.r): c.label for c in base.cells}
    pieces = pieces or {}
    manned = set(manned)
    wall_views = tuple(WallView(camp=a, across=b, side=_side(base, a, b), seat=seat) for a, b, seat in walls)
    walled = {frozenset((w.camp, w.across)) for w in wall_views}
    owners: list[int | None] = []
    for cell in base.cells:
        if cell.label in castles:
            owners.append(None)
            continue
        counts = [0, 0]
        for dq, dr in lay.DIRECTIONS:
            other = at.get((cell.q + dq, cell.r + dr))
            if other in castles and frozenset((cell.label, other)) not in walled:
                counts[castles[other]] += 1
        owners.append(None if counts[0] == counts[1] else int(counts[1] > counts[0]))
    on_board = [sum(pieces.get(label, (0, 0))[seat] for label in labels) for seat in (0, 1)]
    on_castles = [sum(1 for label in manned if castles[label] == seat) for seat in (0, 1)]
    return base.model_copy(
        update={
            "castles": tuple(castles.get(label) for label in labels),
            "manned": tuple(label in manned for label in labels),
            "pieces": tuple(tuple(pieces.get(label, (0, 0))[seat] for label in labels) for seat in (0, 1)),
            "owners": tuple(owners),
            "walls": wall_views,
            "scores": (owners.count(0), owners.count(1)),
            "supply": tuple(PIECES - on_board[seat] - on_castles[seat] for seat in (0, 1)),
            "walls_left": tuple(WALLS - sum(1 for w in wall_views if w.seat == seat) for seat in (0, 1)),
            "castle_counts": tuple(sum(1 for s in castles.values() if s == seat) for seat in (0, 1)),
            "opening": False,
            "round": 3 if finished else 2,
            "turn": 12 if finished else turn,
            "to_act": None if finished else (turn - 1) % 2,
            "actions_left": 0 if finished else actions_left,
            "finished": finished,
            "end_reason": "rounds" if finished else None,
            "winners": winners,
        }
    )


def _side(view: ConquerorView, camp: str, across: str) -> int:
    cells = {c.label: c for c in view.cells}
    a, b = cells[camp], cells[across]
    return lay.DIRECTIONS.index((b.q - a.q, b.r - a.r))


MID_CASTLES = {"A0": 0, "D0": 1, "B6": 0, "C0": 1, "F0": 0, "E3": 1, "G5": 1}
MID_WALLS: tuple[WallSpec, ...] = (("A0", "A1", 0), ("A3", "B5", 0), ("D0", "D5", 1), ("C0", "C6", 1), ("E3", "E4", 1))
MID_PIECES = {"A0": (1, 0), "A1": (2, 1), "D0": (0, 2), "B1": (3, 0), "E2": (0, 1), "G6": (1, 0)}


def mid_view() -> ConquerorView:
    return crafted(castles=MID_CASTLES, manned=("A0", "C0", "G5"), pieces=MID_PIECES, walls=MID_WALLS)


def finished_view() -> ConquerorView:
    view = crafted(castles=MID_CASTLES, manned=("F0",), pieces=MID_PIECES, walls=MID_WALLS, finished=True)
    best = max(view.scores)
    return view.model_copy(update={"winners": tuple(s for s in (0, 1) if view.scores[s] == best)})


def _close(a: tuple[int, ...], b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b, strict=True))


def _pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, ...]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value


def _hex_box(view: ConquerorView, label: str) -> tuple[int, int, int, int]:
    x, y = camp_centres(view)[label]
    r = board_radius(view)
    return (x - r, y - r, x + r + 1, y + r + 1)


def _board_box(image: Image.Image) -> tuple[int, int, int, int]:
    """The part of the picture under the header."""
    return (0, lay.BOARD_TOP, image.width, image.height)


def _changed_outside(
    a: Image.Image, b: Image.Image, boxes: Iterable[tuple[int, int, int, int]]
) -> tuple[int, int, int, int] | None:
    """Bounding box of what differs on the board outside ``boxes`` (None: nothing)."""
    diff = ImageChops.difference(a, b)
    for box in boxes:
        diff.paste((0, 0, 0), box)
    return diff.crop(_board_box(a)).getbbox()


# Geometry ------------------------------------------------------------------------------------------------


def _boards() -> list[ConquerorView]:
    views = [new_view()]
    for seed in (1, 2, 3):
        for tiles in (2, 5, 7, 12):
            views.append(new_view(ConquerorOptions(random_board=True, random_board_tiles=tiles), seed))
    return views


def test_every_board_fits_under_the_header_without_overlaps() -> None:
    for view in _boards():
        width, height = picture_size(view)
        left, top, right, bottom = lay.MARGIN, lay.BOARD_TOP, width - lay.MARGIN, height - lay.MARGIN
        centres = camp_centres(view)
        r = board_radius(view)
        assert lay.MIN_RADIUS <= r <= lay.MAX_RADIUS
        for label, (x, y) in centres.items():
            for cx, cy in inset_hexagon((x, y), r, (0.0,) * 6):
                assert left <= cx <= right and top <= cy <= bottom, (label, cx, cy)
        # Neighbours are exactly one hexagon width apart; nothing is closer.
        at = {(c.q, c.r): c.label for c in view.cells}
        for cell in view.cells:
            for dq, dr in lay.DIRECTIONS:
                other = at.get((cell.q + dq, cell.r + dr))
                if other:
                    assert abs(math.dist(centres[cell.label], centres[other]) - math.sqrt(3) * r) < 1.5
        points = list(centres.values())
        closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
        assert closest > math.sqrt(3) * r - 1.5


def test_fixed_board_fills_the_width_of_a_picture_for_a_phone() -> None:
    """The board as large as the width allows, on a picture a little taller than wide: a phone shows it at
    480 px wide, and a wide picture is a short one there."""
    view = new_view()
    width, height = picture_size(view)
    assert width == lay.WIDTH and width <= height <= lay.MAX_HEIGHT
    xs = [x for x, _y in camp_centres(view).values()]
    r = board_radius(view)
    assert max(xs) - min(xs) + math.sqrt(3) * r > 0.99 * (width - 2 * lay.MARGIN)
    assert r >= 64


@pytest.mark.parametrize("view", _boards(), ids=lambda v: f"{len(v.cells)}cells")
def test_every_board_s_picture_is_no_wider_than_a_phone_reads(view: ConquerorView) -> None:
    width, height = picture_size(view)
    assert width <= 1.4 * height and max(width, height) <= lay.MAX_HEIGHT


def test_tile_sides_get_the_thick_border() -> None:
    plan = board_plan(board_key(new_view()))
    a0 = plan.index["A0"]
    assert set(plan.insets[a0]) == {lay.THIN_BORDER}  # a centre touches only its own ring
    b4 = plan.insets[plan.index["B4"]]  # west of B0: north-west and west lie off the board
    assert b4[2] == b4[3] == lay.TILE_BORDER


@pytest.mark.parametrize("view", _boards()[:8], ids=lambda v: f"{len(v.cells)}cells")
def test_random_boards_render(view: ConquerorView) -> None:
    image = render(view)
    assert image.size == picture_size(view)
    centres = camp_centres(view)
    for cell in view.cells:
        assert _pixel(image, centres[cell.label])[:3] == THEME.ground(plain=cell.kind == "plain"), cell.label


# Pictures -------------------------------------------------------------------------------------------------


def test_new_game_shows_camp_and_plain_grounds_at_every_centre() -> None:
    view = new_view()
    image = render(view)
    assert image.size == picture_size(view) == (960, 1190)
    assert image.mode == "RGB"
    centres = camp_centres(view)
    for cell in view.cells:
        expected = THEME.plain if cell.kind == "plain" else THEME.camp
        assert _pixel(image, centres[cell.label])[:3] == expected, cell.label


def test_owned_camps_are_tinted_and_castles_show_their_owner() -> None:
    view = mid_view()
    image = render(view, names=["علی", "سارا"])
    centres = camp_centres(view)
    g = board_plan(board_key(view)).geometry
    w, h = g.scaled(lay.CASTLE_WIDTH), g.scaled(lay.CASTLE_HEIGHT)
    owned = 0
    for i, cell in enumerate(view.cells):
        x, y = centres[cell.label]
        y_castle = y + g.offset(lay.CASTLE_DY)
        castle, owner = view.castles[i], view.owners[i]
        if castle is not None:
            # The left tower's body, and the camp's stone ground beside it (castle camps never score).
            assert _close(_pixel(image, (x - 0.36 * w, y_castle + 0.1 * h)), THEME.side_fill(castle)), cell.label
            assert _close(_pixel(image, (x - 0.7 * g.radius, y - 0.2 * g.radius)), THEME.castle_ground), cell.label
        elif owner is not None and not any(view.pieces[s][i] for s in (0, 1)):
            owned += 1
            assert _pixel(image, (x, y))[:3] == THEME.side_tint(owner), cell.label
    assert owned >= 10


def test_manned_castle_has_a_piece_in_its_gate() -> None:
    view = mid_view()
    label = "C0"  # yellow, manned
    x, y = camp_centres(view)[label]
    unmanned = view.model_copy(update={"manned": tuple(False for _ in view.manned)})
    g = board_plan(board_key(view)).geometry
    gate = (x, y + g.offset(lay.CASTLE_DY) + 0.3 * g.scaled(lay.CASTLE_HEIGHT))
    assert _close(_pixel(render(view), gate), THEME.side_fill(1))
    assert _close(_pixel(render(unmanned), gate), THEME.outline, 30)


def test_pieces_show_both_colours() -> None:
    view = mid_view()
    image = render(view)
    x, y = camp_centres(view)["A1"]  # 2 red and 1 yellow, no castle
    g = board_plan(board_key(view)).geometry
    dx, dy, r = g.offset(lay.PIECE_DX), g.offset(lay.PIECE_DY), g.scaled(lay.PIECE_RADIUS)
    assert _close(_pixel(image, (x + dx + 0.6 * r, y + dy)), THEME.side_fill(0))  # red on the right
    assert _close(_pixel(image, (x - dx - 0.6 * r, y + dy)), THEME.side_fill(1))


def test_pieces_beside_a_castle_leave_it_whole() -> None:
    """Pieces of both colours in a castle's camp stand beside the castle, never over it, and the camp's label
    and capacity stay clear of them."""
    pieces = dict(MID_PIECES, D0=(3, 2))
    crowded = crafted(castles=MID_CASTLES, manned=("A0", "C0", "G5", "D0"), pieces=pieces, walls=MID_WALLS)
    empty = crafted(
        castles=MID_CASTLES, manned=("A0", "C0", "G5", "D0"), pieces=dict(pieces, D0=(0, 0)), walls=MID_WALLS
    )
    x, y = camp_centres(crowded)["D0"]
    g = board_plan(board_key(crowded)).geometry
    half_w, half_h = g.scaled(lay.CASTLE_WIDTH) / 2 + 1, g.scaled(lay.CASTLE_HEIGHT) / 2 + 1
    castle = (x - half_w, y + g.offset(lay.CASTLE_DY) - half_h, x + half_w, y + g.offset(lay.CASTLE_DY) + half_h)
    diff = ImageChops.difference(render(crowded), render(empty))
    diff.paste((0, 0, 0), (0, 0, diff.width, lay.BOARD_TOP))  # the supplies in the header
    left, top, right, bottom = diff.getbbox() or (0, 0, 0, 0)
    assert x - g.radius < left and right < x + g.radius and y - g.radius < top and bottom < y + g.radius
    for box in ((left, top, round(castle[0]), bottom), (round(castle[2]), top, right, bottom)):
        diff.paste((0, 0, 0), box)  # what changed beside the castle: the discs
    assert diff.getbbox() is None
    label_bottom = y + g.offset(lay.LABEL_DY) + g.scaled(lay.LABEL_SIZE) / 2
    assert top > label_bottom - 4 and bottom < y + g.offset(lay.PIP_DY) - g.scaled(lay.PIP_RADIUS)


def test_a_wall_changes_the_pixels_along_its_side() -> None:
    base = crafted(castles={"A0": 0, "D0": 1})
    walled = crafted(castles={"A0": 0, "D0": 1}, walls=[("D0", "D3", 1)])
    before, after = render(base), render(walled)
    a, b = camp_centres(base)["D0"], camp_centres(base)["D3"]
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert _close(_pixel(after, mid), THEME.side_fill(1))
    assert not _close(_pixel(before, mid), THEME.side_fill(1), 60)
    # Along the side, a quarter of the way from its middle to either corner, the wall is there too.
    side = walled.walls[0].side
    angle = math.radians(90 - 60 * side)
    quarter = board_radius(base) / 4
    for sign in (-1, 1):
        point = (mid[0] + sign * quarter * math.cos(angle), mid[1] + sign * quarter * math.sin(angle))
        assert _close(_pixel(after, point), THEME.side_fill(1)), point
    # Nothing else changed on the board but those two camps (D3 lost yellow's tint: the wall cut it off).
    assert _changed_outside(before, after, (_hex_box(base, "D0"), _hex_box(base, "D3"))) is None


def test_moving_a_piece_changes_only_the_two_camps_on_the_board() -> None:
    view = mid_view()
    moved_pieces = dict(MID_PIECES, B1=(2, 0), B0=(1, 0))
    after = crafted(castles=MID_CASTLES, manned=("A0", "C0", "G5"), pieces=moved_pieces, walls=MID_WALLS)
    before, moved = render(view), render(after)
    assert ImageChops.difference(before, moved).crop(_board_box(before)).getbbox() is not None
    assert _changed_outside(before, moved, (_hex_box(view, "B1"), _hex_box(view, "B0"))) is None


def test_turn_line_and_cards_follow_the_view() -> None:
    view = mid_view()
    other = view.model_copy(update={"actions_left": 1})
    diff = ImageChops.difference(render(view), render(other)).getbbox()
    assert diff is not None
    left, top, right, bottom = lay.LINE_BOX
    assert left <= diff[0] and diff[2] <= right and top <= diff[1] and diff[3] <= bottom
    # The seat to act has its card outlined in its colour, the first player's card on the right.
    to_act = view.to_act or 0
    card_left, card_top, card_right, _bottom = lay.CARD_BOXES[to_act]
    assert _close(_pixel(render(view), (card_left + 2, card_top + 90)), THEME.side_fill(to_act), 30)
    assert card_left > lay.CARD_BOXES[1][2] if to_act == 0 else card_right < lay.CARD_BOXES[0][0]


def _plate(image: Image.Image) -> tuple[int, ...]:
    left, top, _right, bottom = lay.LINE_BOX
    return _pixel(image, (left + 12, (top + bottom) / 2))


def test_finished_game_shows_the_winner_plate_and_ranks_the_cards_by_score() -> None:
    view = finished_view()
    assert view.finished and len(view.winners) == 1
    winner = view.winners[0]
    image = render(view, names=["علی", "سارا"])
    assert _close(_plate(image), THEME.side_fill(winner))
    # The winner's card comes first (on the right) whatever the seat, outlined in the first place's gold.
    left, top, _right, _bottom = lay.CARD_BOXES[0]
    assert _close(_pixel(image, (left + 2, top + 90)), THEME.first, 30)
    swapped = view.model_copy(update={"scores": view.scores[::-1], "winners": (1 - winner,)})
    chip_x, chip_y = lay.CARD_BOXES[0][2] - lay.CHIP_DX, lay.CARD_BOXES[0][1] + lay.CHIP_DY
    assert _close(_pixel(image, (chip_x, chip_y)), THEME.side_fill(winner))
    assert _close(_pixel(render(swapped), (chip_x, chip_y)), THEME.side_fill(1 - winner))


def test_draw_plate_and_equal_places() -> None:
    view = finished_view()
    tied = view.model_copy(update={"scores": (9, 9), "winners": (0, 1)})
    image = render(tied)
    assert _close(_plate(image), THEME.draw_banner)
    for left, top, _right, _bottom in lay.CARD_BOXES:  # both in first place, seat order kept
        assert _close(_pixel(image, (left + 2, top + 90)), THEME.first, 30)


def test_names_default_to_colours_and_odd_names_do_not_break_the_picture() -> None:
    view = mid_view()
    assert ImageChops.difference(render(view), render(view, names=view.colours)).getbbox() is None
    odd = render(view, names=["🎲🎲", "Alexandria Ocasio-Cortez the Magnificent ✨ محمد"])
    assert odd.size == picture_size(view)
    assert ImageChops.difference(odd, render(view)).getbbox() is not None


def test_theme_changes_colours_and_static_layer_is_cached() -> None:
    view = new_view()
    theme = ConquerorTheme(plain=(90, 160, 60))
    image = render(view, theme=theme)
    plain = next(c for c in view.cells if c.kind == "plain")
    assert _pixel(image, camp_centres(view)[plain.label])[:3] == (90, 160, 60)
    render(view, theme=theme)
    assert static_layer.cache_info().hits >= 1


def test_camp_labels_are_persian_letters_with_persian_digits() -> None:
    assert camp_label("B4") == "ج۴" and camp_label("A0") == "ب۰" and camp_label("M6") == "ن۶"
    every = {camp_label(f"{letter}{k}") for letter in TILE_LETTERS for k in range(7)}
    assert len(every) == 7 * len(TILE_LETTERS)
    assert not any(ch.isascii() for label in every for ch in label)


def test_a_menu_of_camps_rings_its_choices_and_fades_the_rest() -> None:
    view = mid_view()
    plain = render(view)
    marked = render(view, choices={"B1", "E2"}, chosen="A1")
    r = board_radius(view)
    inside = r * math.sqrt(3) / 2 - 3  # just inside the east side, on the ring
    centres = camp_centres(view)
    for label in ("B1", "E2"):  # a blue ring along the sides, clear of the label; the camp's middle as it was
        x, y = centres[label]
        assert _close(_pixel(marked, (x + inside, y)), THEME.choice_ring, 30), label
        assert _pixel(marked, (x, y)) == _pixel(plain, (x, y))
    x, y = centres["A1"]
    assert _close(_pixel(marked, (x + inside, y)), THEME.chosen_ring, 30)
    x, y = centres["G0"]  # not offered: faded towards the paper, its label still dark enough to read
    before, after = _pixel(plain, (x, y)), _pixel(marked, (x, y))
    assert sum(abs(a - v) for a, v in zip(after, THEME.veil, strict=False)) < sum(
        abs(b - v) for b, v in zip(before, THEME.veil, strict=False)
    )
    # The header is not touched.
    assert ImageChops.difference(plain, marked).crop((0, 0, plain.width, lay.BOARD_TOP)).getbbox() is None
    assert ImageChops.difference(render(view, choices=()), plain).getbbox() is None


def test_a_wall_menu_draws_the_sides_it_offers_in_the_colour_of_a_choice() -> None:
    view = crafted(castles={"A0": 0, "D0": 1})
    plain = render(view)
    marked = render(view, sides=[("A1", "A2"), ("A1", "D4")])
    centres = camp_centres(view)
    for camp, across in (("A1", "A2"), ("A1", "D4")):
        a, b = centres[camp], centres[across]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert _close(_pixel(marked, mid), mix(_pixel(plain, mid)[:3], THEME.choice_ring, 0.5), 45)
    # A side not offered has no wall; the camps named keep their ground, the others fade.
    a, b = centres["A1"], centres["A6"]
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert not _close(_pixel(marked, mid), THEME.choice_ring, 80)
    for label in ("A1", "A2", "D4"):
        assert _pixel(marked, centres[label]) == _pixel(plain, centres[label]), label
    assert _pixel(marked, centres["G0"]) != _pixel(plain, centres["G0"])


def _all_text(view: ConquerorView, **marks: object) -> list[float]:
    """The size of every text a picture draws, cached layers and sprites drawn anew."""
    for cached in (static.static_layer, static.camp_tile, sprites.piece_sprite):
        cached.cache_clear()
    with sizes_drawn() as sizes:
        render(view, names=["آرمان دلاوری‌نژاد خراسانی", "رایانه ۲ (متوسط)"], **marks)  # type: ignore[arg-type]
    return sizes


@pytest.mark.parametrize("view", [mid_view(), finished_view(), *_boards()], ids=lambda v: f"{len(v.cells)}cells")
def test_no_text_is_smaller_than_a_phone_reads(view: ConquerorView) -> None:
    """At 480 px wide (half the picture) every text's cap height is at least 10 px, on any board."""
    sizes = _all_text(view, choices={view.cells[0].label})
    assert sizes and min(sizes) >= lay.SMALLEST_TEXT


def test_to_bytes_gives_a_small_faithful_jpeg() -> None:
    assert_sent_as_faithful_jpeg(render(mid_view()), tolerance=2.5)


# Golden images -------------------------------------------------------------------------------------------


def _half(image: Image.Image) -> Image.Image:
    return image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)


@pytest.mark.parametrize(
    ("name", "make", "names"),
    [
        ("conqueror_new_game", new_view, None),
        ("conqueror_mid_game", mid_view, ["علی", "Sara"]),
        ("conqueror_finished", finished_view, ["علی", "سارا"]),
    ],
)
def test_golden(name: str, make: Callable[[], ConquerorView], names: list[str] | None) -> None:
    assert_golden(_half(render(make(), names=names)), name)


def test_golden_menu_of_moves() -> None:
    """A move's menu of targets: from A1 (ringed dark) to the camps it may reach (ringed blue)."""
    assert_golden(
        _half(render(mid_view(), names=["علی", "Sara"], choices={"A2", "A6", "D4"}, chosen="A1")), "conqueror_move_menu"
    )


def test_golden_menu_of_walls() -> None:
    """A wall's menu of sides: around B1, the sides a wall may take, drawn see-through."""
    sides = [("B1", n) for n in ("C3", "B2", "B0", "C4")]
    assert_golden(_half(render(mid_view(), names=["علی", "Sara"], sides=sides)), "conqueror_wall_menu")
