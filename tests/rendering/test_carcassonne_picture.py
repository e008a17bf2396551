"""The قلعه رودخان picture: every tile type drawn as its data says in every rotation, meeples on their turned
spots, candidates numbered where they lie, each step of the bot's menu, the whole board at 72 tiles with the
ranking, a closer view with an overview for a board too large, a phone's sizes, and golden images.

Boards are grown here from the tile data by a small seeded placer (edges must match), so the pictures do not
depend on the engine's shuffles; one test plays the real engine. Golden images live in
``tests/rendering/golden/`` at half size; after an intended change of the picture, regenerate them with
``UPDATE_GOLDEN=1 pytest tests/rendering/test_carcassonne_picture.py`` and look at the new files.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from picture_support import assert_golden, assert_sent_as_faithful_jpeg
from PIL import Image, ImageChops, ImageStat

from rendering.carcassonne import labels
from rendering.carcassonne import layout as lay
from rendering.carcassonne.board import meeple_size, spot_tag_size, spread
from rendering.carcassonne.geometry import HALF_ANCHORS, UNASSIGNED, segment_map, spot_point
from rendering.carcassonne.layout import Frame
from rendering.carcassonne.picture import Pending, layout, render, seat_names
from rendering.carcassonne.sprites import contact_sheet, meeple_sprite, spot_tag_sprite, tile_sprite
from rendering.carcassonne.theme import DEFAULT_THEME, CarcassonneTheme
from rendering.splendor.theme import mix
from rendering.text import sizes_drawn
from rendering.theme import RGB
from rules.carcassonne import Carcassonne, CarcassonneOptions
from rules.carcassonne.data import BY_LETTER, LETTERS, ORIENTED, STEP, TILES, full_set
from rules.carcassonne.model import (
    CandidateSpot,
    CarcassonneView,
    MeepleSpot,
    MeepleView,
    PlacedTileView,
    PlacementChoice,
)
from rules.places import by_place

THEME = DEFAULT_THEME
NAMES = ["علی", "سارا", "Reza", "مریم‌السادات حسینی‌نژاد", "پدرام"]
Placed = tuple[str, int, int, int]  # letter, x, y, rotation


# Boards grown from the data -----------------------------------------------------------------------------


def fits(board: dict[tuple[int, int], Placed], letter: str) -> list[tuple[int, int, int]]:
    """Every (x, y, rotation) where ``letter`` may lie: next to a tile, every edge matching its neighbour."""
    empty = {(x + dx, y + dy) for x, y in board for dx, dy in STEP} - set(board)
    out = []
    for x, y in sorted(empty, key=lambda p: (p[1], p[0])):
        for rotation in range(4):
            edges = ORIENTED[BY_LETTER[letter].index][rotation].edges
            ok = True
            for d, (dx, dy) in enumerate(STEP):
                other = board.get((x + dx, y + dy))
                if other is not None:
                    theirs = ORIENTED[BY_LETTER[other[0]].index][other[3]].edges
                    ok = ok and theirs[(d + 2) % 4] == edges[d]
            if ok:
                out.append((x, y, rotation))
    return out


def grow(count: int, seed: int, spread: float = 2.5) -> list[Placed]:
    """The starting tile and up to ``count`` more from a seeded shuffle of the box, each laid at a legal
    place near the middle (``spread`` loosens the blob); tiles that fit nowhere are left out."""
    chooser = random.Random(seed)
    box = full_set()
    box.remove(BY_LETTER["D"].index)
    chooser.shuffle(box)
    board: dict[tuple[int, int], Placed] = {(0, 0): ("D", 0, 0, 0)}
    order: list[Placed] = [("D", 0, 0, 0)]
    for index in box[:count]:
        letter = LETTERS[index]
        options = fits(board, letter)
        if not options:
            continue
        x, y, rotation = min(options, key=lambda o: abs(o[0]) + abs(o[1]) + spread * chooser.random())
        board[(x, y)] = (letter, x, y, rotation)
        order.append((letter, x, y, rotation))
    return order


def tile_views(order: list[Placed]) -> tuple[PlacedTileView, ...]:
    return tuple(
        PlacedTileView(index=i, tile=t, x=x, y=y, rotation=r, edges=ORIENTED[BY_LETTER[t].index][r].edges)
        for i, (t, x, y, r) in enumerate(order)
    )


def spots_of(letter: str) -> tuple[MeepleSpot, ...]:
    return tuple(MeepleSpot(spot=s.spot, feature=s.kind) for s in BY_LETTER[letter].segments)


def candidates_for(order: list[Placed], letter: str) -> tuple[CandidateSpot, ...]:
    by_place: dict[tuple[int, int], list[int]] = {}
    for x, y, rotation in fits({(p[1], p[2]): p for p in order}, letter):
        by_place.setdefault((x, y), []).append(rotation)
    return tuple(
        CandidateSpot(
            number=n,
            x=x,
            y=y,
            rotations=tuple(PlacementChoice(rotation=r, spots=spots_of(letter)) for r in rotations),
        )
        for n, ((x, y), rotations) in enumerate(sorted(by_place.items(), key=lambda i: (i[0][1], i[0][0])), start=1)
    )


def crafted(
    order: list[Placed],
    *,
    players: int = 4,
    drawn: str | None = "V",
    meeples: tuple[MeepleView, ...] = (),
    finished: bool = False,
    farmers: bool = True,
    scores: tuple[int, ...] | None = None,
    turn: int | None = None,
) -> CarcassonneView:
    tiles = tile_views(order)
    used = [sum(1 for m in meeples if m.seat == seat) for seat in range(players)]
    scores = scores or tuple(3 * seat + 2 * len(order) // 10 for seat in range(players))
    return CarcassonneView(
        seat=None,
        players=players,
        farmers=farmers,
        tiles=tiles,
        meeples=meeples,
        meeples_left=tuple(7 - n for n in used),
        scores=scores,
        points=tuple((s // 4, s // 2, s - s // 4 - s // 2 - s // 5, s // 5) for s in scores),
        tiles_left=72 - len(order),
        discarded=(),
        turn=None if finished else (len(order) % players if turn is None else turn),
        phase="over" if finished else "tile",
        drawn=None if finished else drawn,
        drawn_edges=None if finished or drawn is None else ORIENTED[BY_LETTER[drawn].index][0].edges,
        candidates=() if finished or drawn is None else candidates_for(order, drawn),
        last_tile=tiles[-1] if len(tiles) > 1 else None,
        finished=finished,
        winners=(2,) if finished else (),
    )


def scattered_meeples(order: list[Placed], players: int, every: int = 3) -> tuple[MeepleView, ...]:
    """A meeple of each seat in turn on every ``every``-th tile, on a segment picked by a seeded chooser."""
    chooser = random.Random(7)
    out = []
    for i, (letter, x, y, _r) in enumerate(order):
        if i % every == 1:
            segment = chooser.choice(BY_LETTER[letter].segments)
            seat = (i // every) % players
            out.append(MeepleView(seat=seat, tile_index=i, x=x, y=y, spot=segment.spot, feature=segment.kind))
    return tuple(out)


def opening_view() -> CarcassonneView:
    return crafted([("D", 0, 0, 0)], players=3, drawn="U", farmers=False, scores=(0, 0, 0), turn=0)


def mid_view() -> CarcassonneView:
    order = grow(24, seed=5)
    return crafted(order, meeples=scattered_meeples(order, 4), drawn="K")


def finished_view() -> CarcassonneView:
    order = grow(71, seed=11)
    return crafted(order, meeples=scattered_meeples(order, 4, every=4), finished=True)


def snake_view() -> CarcassonneView:
    """A board too wide for a readable whole picture: a long straight road of 40 tiles."""
    order: list[Placed] = [("D", 0, 0, 0)] + [("U", x, 0, 1) for x in range(1, 40)]
    return crafted(order, drawn="U", farmers=False)


# Colours -------------------------------------------------------------------------------------------------


def kind_palette(theme: CarcassonneTheme = THEME) -> dict[str, list[RGB]]:
    return {
        "field": [theme.field, theme.grass],
        "city": [theme.city, theme.house, theme.roof, mix(theme.roof, (0, 0, 0), 0.3)],
        "road": [theme.road],
        "other": [theme.wall, theme.wall_top, theme.road_edge, theme.village, theme.shield, theme.monastery],
    }


def kind_at(image: Image.Image, xy: tuple[float, float]) -> str:
    """The landscape kind whose colour is nearest the pixel at ``xy``."""
    pixel = pixel_at(image, xy)
    best = min(
        ((sum((a - b) ** 2 for a, b in zip(pixel[:3], colour, strict=True)), kind))
        for kind, colours in kind_palette().items()
        for colour in colours
    )
    return best[1]


def kind_near(image: Image.Image, xy: tuple[float, float], reach: int = 2) -> str:
    """The landscape kind most pixels around ``xy`` show (walls, verges and outlines not counted)."""
    votes: dict[str, int] = {}
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            x = min(image.width - 1, max(0, round(xy[0]) + dx))
            y = min(image.height - 1, max(0, round(xy[1]) + dy))
            kind = kind_at(image, (x, y))
            if kind != "other":
                votes[kind] = votes.get(kind, 0) + 1
    return max(votes, key=lambda k: votes[k]) if votes else "other"


def pixel_at(image: Image.Image, xy: tuple[float, float]) -> tuple[int, ...]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value


def close(pixel: tuple[int, ...], colour: RGB, tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


def share_near(image: Image.Image, box: tuple[int, int, int, int], colour: RGB, tolerance: int = 24) -> float:
    """The share of the pixels in ``box`` within ``tolerance`` of ``colour`` in every channel."""
    part = image.crop(box).convert("RGB")
    difference = ImageChops.difference(part, Image.new("RGB", part.size, colour))
    near = [channel.point(lambda v: 255 if v <= tolerance else 0) for channel in difference.split()]
    both = ImageChops.multiply(ImageChops.multiply(near[0], near[1]), near[2])
    return both.histogram()[255] / (part.width * part.height)


# Labels --------------------------------------------------------------------------------------------------


def test_labels_are_persian_and_shared_with_the_buttons() -> None:
    assert labels.candidate_label(12) == "۱۲"
    assert [labels.rotation_label(r).strip("\u200e") for r in range(4)] == ["۰°", "۹۰°", "۱۸۰°", "۲۷۰°"]
    assert [labels.spot_label(i) for i in range(8)] == ["الف", "ب", "پ", "ت", "ث", "ج", "چ", "ح"]
    assert labels.SEAT_MARKS == ("🔴", "🔵", "🟢", "🟡", "⚫️")
    assert len(THEME.seats) == len(labels.SEAT_MARKS) == len(labels.SEAT_COLOUR_NAMES) == 5
    assert labels.FEATURE_NAMES == {"city": "شهر", "road": "جاده", "field": "مزرعه", "monastery": "صومعه"}
    assert seat_names(3, None) == ("بازیکن ۱", "بازیکن ۲", "بازیکن ۳")
    assert seat_names(2, ["🎲", "Sara"]) == ("بازیکن ۱", "Sara")


# Tiles -------------------------------------------------------------------------------------------------


def test_segment_maps_separate_every_tile_types_fields() -> None:
    for tile in TILES:
        seg_map = segment_map(tile.letter)
        histogram = seg_map.histogram()
        assert histogram[UNASSIGNED] <= 4, tile.letter
        for index, _segment in enumerate(tile.segments):
            assert histogram[index + 1] > 0, (tile.letter, index)


@pytest.mark.parametrize("letter", list(LETTERS))
def test_every_edge_is_drawn_as_its_data_says_in_every_rotation(letter: str) -> None:
    size = 64
    inset = 3 / size
    middles = ((0.5, inset), (1 - inset, 0.5), (0.5, 1 - inset), (inset, 0.5))
    expected = {"c": "city", "r": "road", "f": "field"}
    for rotation in range(4):
        sprite = tile_sprite(letter, rotation, size, THEME)
        oriented = ORIENTED[BY_LETTER[letter].index][rotation]
        for d, code in enumerate(oriented.edges):
            x, y = middles[d]
            assert kind_near(sprite, (x * (size - 1), y * (size - 1))) == expected[code], (letter, rotation, "NESW"[d])
            for half in (2 * d, 2 * d + 1):
                hx, hy = HALF_ANCHORS[half]
                want = "field" if oriented.half_segment[half] >= 0 else "city"
                if code == "r":
                    want = "field"  # a road's halves are the fields either side of it
                assert kind_near(sprite, (hx * (size - 1), hy * (size - 1))) == want, (letter, rotation, half)


def test_a_city_is_told_from_a_field_and_a_road_at_a_phones_size() -> None:
    """On a tile a phone shows 24 px wide (48 px in the picture), a city's red roofs and grey stone are far
    from a field's green and a road's light cream, its wall runs where it meets a field, and its shield
    stands out."""
    city = tile_sprite("C", 0, 48, THEME).convert("RGB")
    mean = ImageStat.Stat(city).mean
    assert mean[0] > mean[1] + 30  # red, where a field is green
    for other in (THEME.field, THEME.road):
        assert sum((a - b) ** 2 for a, b in zip(mean, other, strict=True)) ** 0.5 > 70, other
    assert share_near(city, (0, 0, 48, 48), THEME.roof, 30) > 0.08
    assert share_near(city, (0, 0, 48, 48), THEME.shield, 30) > 0.02
    cap = tile_sprite("E", 0, 96, THEME)  # a city on the north edge, its wall arching over the field
    wall_y = round(96 * 0.3)  # the wall's lowest point, at the edge's middle
    assert share_near(cap, (40, wall_y - 8, 56, wall_y + 8), THEME.wall, 30) > 0.2
    assert share_near(cap, (0, 60, 96, 96), THEME.wall, 30) == 0  # the field south of it has none


def test_tile_sprites_are_cached_and_turn() -> None:
    first = tile_sprite("E", 0, 48, THEME)
    assert tile_sprite("E", 0, 48, THEME) is first
    assert tile_sprite("E", 1, 48, THEME).tobytes() != first.tobytes()
    assert tile_sprite("E", 4, 48, THEME).tobytes() == first.tobytes()


# Meeples and spots -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("letter", "spot", "rotation"), [("E", "c0", 1), ("K", "f1", 2), ("A", "m", 3), ("U", "r0", 1)]
)
def test_a_meeple_stands_on_its_turned_spot(letter: str, spot: str, rotation: int) -> None:
    feature = next(s.kind for s in BY_LETTER[letter].segments if s.spot == spot)
    order: list[Placed] = [("D", 0, 0, 0), (letter, 0, 1, rotation)]
    meeple = MeepleView(seat=1, tile_index=1, x=0, y=1, spot=spot, feature=feature)
    view = crafted(order, meeples=(meeple,), drawn=None, players=2)
    image = render(view)
    frame = layout(view).board
    left, top = frame.corner(0, 1)
    px, py = spot_point(letter, spot, rotation)
    assert close(pixel_at(image, (left + px * frame.tile, top + py * frame.tile)), THEME.seat(1))
    # The spot turned with the tile, and the meeple is nowhere else on it.
    bare = render(view.model_copy(update={"meeples": ()}))
    assert share_near(bare, (left, top, left + frame.tile, top + frame.tile), THEME.seat(1), 12) == 0
    if (letter, spot) == ("E", "c0"):
        assert px > 0.75  # the cap faces east after one quarter turn


def test_a_farmer_lies_down_and_the_others_stand() -> None:
    """A meeple on a field lies on its back, longer than high, as at the table; on a city, road or
    monastery it stands, higher than wide; both in the seat's colour."""
    for size in (14, meeple_size(48), meeple_size(72)):
        for lying in (False, True):
            sprite = meeple_sprite(THEME.seat(2), size, lying, THEME)
            left, top, right, bottom = (
                sprite.getchannel("A").point(lambda v: 255 if v > 128 else 0).getbbox() or (0,) * 4
            )
            width, height = right - left, bottom - top
            assert width > 1.3 * height if lying else height >= width, (size, lying, width, height)
            assert share_near(sprite, (0, 0, sprite.width, sprite.height), THEME.seat(2), 12) > 0.1
    view = mid_view()
    farmers = [m for m in view.meeples if m.feature == "field"]
    assert farmers and len(farmers) < len(view.meeples)


def test_meeples_of_every_seat_are_drawn_in_their_colours() -> None:
    view = mid_view()
    image = render(view, names=NAMES)
    frame = layout(view).board
    letters = {t.index: (t.tile, t.rotation) for t in view.tiles}
    assert {m.seat for m in view.meeples} == {0, 1, 2, 3}
    for meeple in view.meeples:
        letter, rotation = letters[meeple.tile_index]
        left, top = frame.corner(meeple.x, meeple.y)
        px, py = spot_point(letter, meeple.spot, rotation)
        assert close(pixel_at(image, (left + px * frame.tile, top + py * frame.tile)), THEME.seat(meeple.seat))


# Candidates and the pending choice ------------------------------------------------------------------------


def _candidate_box(frame: Frame, x: int, y: int) -> tuple[int, int, int, int]:
    left, top = frame.corner(x, y)
    return left + 6, top + 6, left + frame.tile - 6, top + frame.tile - 6


def test_candidates_are_numbered_where_they_lie() -> None:
    view = mid_view()
    image = render(view)
    frame = layout(view).board
    assert view.candidates
    for candidate in view.candidates:
        box = _candidate_box(frame, candidate.x, candidate.y)
        assert share_near(image, box, THEME.candidate, 10) > 0.4  # the light square
        assert share_near(image, box, THEME.ink, 40) > 0.01  # its number
    # Nothing numbered where no candidate is: an empty position far from the board is the table's colour.
    occupied = {(t.x, t.y) for t in view.tiles} | {(c.x, c.y) for c in view.candidates}
    free = [(x, y) for x in range(frame.x0, frame.x0 + frame.cols) for y in range(frame.y0, frame.y0 + frame.rows)]
    free = [p for p in free if p not in occupied]
    assert free
    for x, y in free:
        assert share_near(image, _candidate_box(frame, x, y), THEME.table, 4) > 0.95


def test_each_step_of_the_menu_marks_the_choice() -> None:
    view = mid_view()
    candidate = max(view.candidates, key=lambda c: len(c.rotations))
    others = [c for c in view.candidates if c.number != candidate.number]
    x, y = candidate.x, candidate.y

    chosen = render(view, pending=Pending(x, y))
    plan = layout(view, Pending(x, y))
    box = _candidate_box(plan.board, x, y)
    assert share_near(chosen, box, THEME.chosen, 16) > 0.4
    for other in others:  # the other positions are left out once one is chosen
        if plan.board.contains(other.x, other.y):
            assert share_near(chosen, _candidate_box(plan.board, other.x, other.y), THEME.candidate, 10) < 0.05
    # The band shows the drawn tile once per legal rotation, each with its spots lettered.
    cells = lay.rotation_cells(plan.band, len(candidate.rotations))
    for (left, top), turned in zip(cells, candidate.rotations, strict=True):
        tile_box = (left, top, left + lay.ROTATION_TILE, top + lay.ROTATION_TILE)
        assert share_near(chosen, tile_box, THEME.field, 20) > 0.1
        assert (share_near(chosen, tile_box, THEME.spot_ring, 40) > 0.005) == bool(turned.spots)

    placement = max(candidate.rotations, key=lambda p: len(p.spots))
    pending = Pending(x, y, placement.rotation)
    spots = render(view, pending=pending)
    plan = layout(view, pending)
    frame = plan.board
    left, top = frame.corner(x, y)
    drawn = view.drawn
    assert drawn is not None
    edges = ORIENTED[BY_LETTER[drawn].index][placement.rotation].edges
    kinds = {"c": "city", "r": "road", "f": "field"}
    inset = 4
    middles = (
        (frame.tile / 2, inset),
        (frame.tile - inset - 1, frame.tile / 2),
        (frame.tile / 2, frame.tile - inset - 1),
    )
    for d, (mx, my) in enumerate(middles):
        if edges[d] == "r":  # under the spots' labels a road may be hidden; fields and cities are wide enough
            continue
        assert kind_at(spots, (left + mx, top + my + (6 if d == 0 else 0))) in (kinds[edges[d]], "other")
    # The spots' letters are on the band's large tile, turned as on the board.
    big_left, big_top = lay.spot_tile_corner(plan.band)
    for index, spot in enumerate(placement.spots):
        px, py = spot_point(drawn, spot.spot, placement.rotation)
        tag = spot_tag_sprite(labels.spot_label(index), spot_tag_size(lay.SPOT_TILE), THEME)
        cx, cy = round(big_left + px * lay.SPOT_TILE), round(big_top + py * lay.SPOT_TILE)
        pill = (cx - tag.width // 2, cy - tag.height // 2, cx + tag.width // 2, cy + tag.height // 2)
        assert share_near(spots, pill, THEME.spot_ring, 40) > 0.1, spot.spot
        assert share_near(spots, pill, THEME.spot, 10) > 0.2, spot.spot

    spot = placement.spots[0]
    confirm = render(view, pending=Pending(x, y, placement.rotation, spot.spot))
    px, py = spot_point(drawn, spot.spot, placement.rotation)
    seat = view.turn
    assert seat is not None
    assert close(pixel_at(confirm, (left + px * frame.tile, top + py * frame.tile)), THEME.seat(seat))
    nothing = render(view, pending=Pending(x, y, placement.rotation, "n"))
    size = meeple_size(frame.tile)
    around = (round(left + px * frame.tile) - size // 3, round(top + py * frame.tile) - size // 3)
    box = (*around, around[0] + 2 * (size // 3), around[1] + 2 * (size // 3))
    assert share_near(nothing, box, THEME.seat(seat), 12) < 0.02


@pytest.mark.parametrize(("letter", "rotation"), [("L", 1), ("S", 0), ("T", 2)])
def test_spots_labels_are_moved_apart_within_their_tile(letter: str, rotation: int) -> None:
    """Spots close together (a city's spot near a road's, a crossing's seven) get labels that do not overlap
    and stay on the tile; labels already apart stay where their spots are."""
    frame = Frame(0, 0, 1, 1, lay.ROTATION_TILE, 100, 50)
    points = [spot_point(letter, s.spot, rotation) for s in BY_LETTER[letter].segments]
    centres = [(100 + x * frame.tile, 50 + y * frame.tile) for x, y in points]
    sizes = [spot_tag_sprite(labels.spot_label(i), spot_tag_size(frame.tile), THEME).size for i in range(len(points))]

    def boxes(at: list[tuple[float, float]]) -> list[tuple[float, float, float, float]]:
        return [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for (x, y), (w, h) in zip(at, sizes, strict=True)]

    def overlaps(at: list[tuple[float, float]]) -> int:
        return sum(
            not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])
            for a, b in itertools.combinations(boxes(at), 2)
        )

    moved = spread(centres, sizes, frame.box)
    assert overlaps(centres) and not overlaps(moved)
    left, top, right, bottom = frame.box
    assert all(left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom for box in boxes(moved))
    apart = [(0.0, 0.0), (100.0, 100.0)]
    assert spread(apart, [(20, 20), (20, 20)], (-50, -50, 200, 200)) == apart


def test_a_choice_the_view_does_not_offer_is_refused() -> None:
    view = mid_view()
    candidate = view.candidates[0]
    legal = {p.rotation for p in candidate.rotations}
    with pytest.raises(ValueError, match="candidate"):
        render(view, pending=Pending(99, 99))
    illegal = next(r for r in range(4) if r not in legal) if len(legal) < 4 else None
    if illegal is not None:
        with pytest.raises(ValueError, match="rotation"):
            render(view, pending=Pending(candidate.x, candidate.y, illegal))
    with pytest.raises(ValueError, match="spot"):
        render(view, pending=Pending(candidate.x, candidate.y, candidate.rotations[0].rotation, "zz"))
    with pytest.raises(ValueError, match="tile"):
        render(finished_view(), pending=Pending(0, 0))


# The whole board and the closer view -------------------------------------------------------------------


def test_the_whole_finished_board_fits_with_the_result() -> None:
    view = finished_view()
    assert len(view.tiles) >= 60
    image = render(view, names=NAMES)
    plan = layout(view)
    assert plan.overview is None and image.size == (plan.width, plan.height)
    assert image.width == lay.WIDTH and image.height <= 1280
    left, top, right, bottom = plan.board_box
    for tile in view.tiles:
        cx, cy = plan.board.centre(tile.x, tile.y)
        assert left <= cx < right and top <= cy < bottom
        assert share_near(image, _candidate_box(plan.board, tile.x, tile.y), THEME.table, 4) < 0.5
    left, top, right, _bottom = plan.bar
    assert share_near(image, (left + 8, top + 8, right - 8, top + 20), THEME.win_banner, 6) > 0.9


def test_the_finished_picture_ranks_the_players_by_score() -> None:
    """The result table's rows go by score (the meeple of each row is its player's), the winners ringed."""
    view = finished_view().model_copy(update={"scores": (30, 41, 41, 12), "winners": (1, 2)})
    image = render(view, names=NAMES[:4])
    band = layout(view).band
    _title, rows = lay.table_rows(band, view.players)
    icon_x = band[2] - lay.PAD - 74
    for (_place, seat), y in zip(by_place(view.scores), rows, strict=True):
        assert share_near(image, (icon_x - 6, y - 4, icon_x + 6, y + 8), THEME.seat(seat), 40) > 0.3, seat
        ring = (band[0] + lay.PAD - 6, y - 4, band[0] + lay.PAD - 3, y + 4)
        assert (share_near(image, ring, THEME.win_banner, 30) > 0.5) == (seat in view.winners), seat


def test_a_board_too_large_gets_a_closer_view_and_an_overview() -> None:
    view = snake_view()
    assert len(view.candidates) > 30
    plan = layout(view)
    assert plan.overview is not None and plan.overview_box is not None
    image = render(view)
    # The closer view holds the tile laid last and is readable; the overview holds the whole board.
    last = view.last_tile
    assert last is not None and plan.board.contains(last.x, last.y)
    assert plan.board.tile >= 40  # the candidates' numbers keep their size
    assert layout(view, Pending(last.x + 1, 0)).board.tile >= 64
    for tile in view.tiles:
        assert plan.overview.contains(tile.x, tile.y)
        ox, oy = plan.overview.centre(tile.x, tile.y)
        ol, ot, orr, ob = plan.overview_box
        assert ol < ox < orr and ot < oy < ob
    # Candidates outside the closer view are marked on the overview.
    outside = [c for c in view.candidates if not plan.board.contains(c.x, c.y)]
    inside = [c for c in view.candidates if plan.board.contains(c.x, c.y)]
    assert outside and inside
    for candidate in outside:
        cx, cy = plan.overview.centre(candidate.x, candidate.y)
        assert share_near(image, (round(cx) - 1, round(cy) - 1, round(cx) + 1, round(cy) + 1), THEME.candidate) > 0.5
    # Choosing a position far away moves the closer view there.
    far = outside[0]
    assert layout(view, Pending(far.x, far.y)).board.contains(far.x, far.y)


def test_the_real_engine_renders_every_step() -> None:
    game = Carcassonne()
    state = game.setup(3, 4, CarcassonneOptions(farmers=True))
    chooser = random.Random(4)
    turns = 0
    while game.outcome(state) is None:
        view = game.view(state, None)
        if turns in (0, 20, 45):
            candidate = view.candidates[-1]
            placement = candidate.rotations[-1]
            spot = placement.spots[0].spot if placement.spots else "n"
            for pending in (
                None,
                Pending(candidate.x, candidate.y),
                Pending(candidate.x, candidate.y, placement.rotation),
                Pending(candidate.x, candidate.y, placement.rotation, spot),
            ):
                assert render(view, names=NAMES[:3], pending=pending).width == lay.WIDTH
        seat = state.turn
        state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat))).state
        turns += 1
    view = game.view(state, None)
    image = render(view, names=NAMES[:3])
    plan = layout(view)
    frames = [plan.board] if plan.overview is None else [plan.overview]
    for tile in view.tiles:
        assert any(frame.contains(tile.x, tile.y) for frame in frames)
        cx, cy = frames[0].centre(tile.x, tile.y)
        assert 0 <= cx < image.width and 0 <= cy < image.height


def test_every_step_is_drawn_for_a_phone() -> None:
    """Every text at least ``MIN_FONT`` (10 px high once the picture is 480 px wide, as a phone shows it), and
    the picture no wider than 1.4 times its height, at every step of a turn and at the end."""
    view = mid_view()
    candidate = max(view.candidates, key=lambda c: len(c.rotations))
    placement = max(candidate.rotations, key=lambda p: len(p.spots))
    x, y, rotation = candidate.x, candidate.y, placement.rotation
    views = [(opening_view(), None), (snake_view(), None), (finished_view(), None)]
    steps = (None, Pending(x, y), Pending(x, y, rotation), Pending(x, y, rotation, placement.spots[0].spot))
    for view, pending in [*views, *((view, step) for step in steps)]:
        with sizes_drawn() as sizes:
            image = render(view, names=NAMES[: view.players], pending=pending, theme=CarcassonneTheme(ink=(0, 0, 1)))
        assert sizes and min(sizes) >= lay.MIN_FONT, pending  # a new theme: no sprite or stamp drawn before
        assert image.width == lay.WIDTH and image.width <= 1.4 * image.height <= 1.4 * 1280


def test_every_players_meeples_are_drawn_the_same_way() -> None:
    """Each row shows its player's seven meeples, those on the board pale, at the same places whatever is
    left, none too: two players' supplies swapped change their icons' colours and nothing else."""
    view = mid_view().model_copy(update={"meeples_left": (0, 7, 3, 1)})
    swapped = view.model_copy(update={"meeples_left": (7, 0, 3, 1)})
    image, other = render(view, names=NAMES[:4]), render(swapped, names=NAMES[:4])
    rows = lay.player_rows(layout(view).band, 4)
    changed = ImageChops.difference(image, other).getbbox()
    assert changed is not None
    assert rows[0][1] <= changed[1] and changed[3] <= rows[1][3]  # the two rows only
    supply_left = rows[0][0] + 12 + 56 + 14  # after the score
    supply_right = supply_left + 6 * lay.SUPPLY_STEP + lay.SUPPLY_MEEPLE + 4
    assert supply_left - 4 <= changed[0] and changed[2] <= supply_right
    pale = share_near(image, (supply_left, rows[0][1], supply_right, rows[0][3]), THEME.used, 16)
    full = share_near(image, (supply_left, rows[1][1], supply_right, rows[1][3]), THEME.seat(1), 16)
    assert pale > 0.1 and abs(pale - full) < 0.05  # as many icons, as large, in either colour


def test_theme_changes_colours() -> None:
    theme = CarcassonneTheme(field=(20, 200, 200))
    view = opening_view()
    image = render(view, theme=theme)
    frame = layout(view).board
    left, top = frame.corner(0, 0)
    assert close(pixel_at(image, (left + frame.tile * 0.9, top + frame.tile * 0.9)), theme.field, 12)


def test_to_bytes_gives_a_small_faithful_jpeg() -> None:
    assert_sent_as_faithful_jpeg(render(mid_view(), names=NAMES), tolerance=3.5)


# Golden images ---------------------------------------------------------------------------------------------


def _pending_view(step: int) -> Callable[[], tuple[CarcassonneView, Pending | None]]:
    def make() -> tuple[CarcassonneView, Pending | None]:
        view = mid_view()
        candidate = max(view.candidates, key=lambda c: len(c.rotations))
        placement = max(candidate.rotations, key=lambda p: len(p.spots))
        steps = [
            None,
            Pending(candidate.x, candidate.y),
            Pending(candidate.x, candidate.y, placement.rotation),
            Pending(candidate.x, candidate.y, placement.rotation, placement.spots[0].spot),
        ]
        return view, steps[step]

    return make


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("carcassonne_opening", lambda: (opening_view(), None)),
        ("carcassonne_mid_game", _pending_view(0)),
        ("carcassonne_position", _pending_view(1)),
        ("carcassonne_spots", _pending_view(2)),
        ("carcassonne_confirm", _pending_view(3)),
        ("carcassonne_finished", lambda: (finished_view(), None)),
        ("carcassonne_closer_view", lambda: (snake_view(), None)),
    ],
)
def test_golden(name: str, make: Callable[[], tuple[CarcassonneView, Pending | None]]) -> None:
    view, pending = make()
    image = render(view, names=NAMES[: view.players], pending=pending)
    small = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    assert_golden(small, name)


def test_golden_contact_sheet_of_every_tile_type_in_every_rotation() -> None:
    assert_golden(contact_sheet(48, THEME), "carcassonne_tiles")
