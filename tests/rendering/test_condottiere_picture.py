"""The رکب pictures: the maps' layouts against the rules' borders (a meeting cell's wedges included), names and
tokens inside their provinces, colours and outlines where they belong, the hand, sizes, encoding, and golden
images.

Positions are crafted on real views (``model_copy``), so the pictures do not depend on the engine's choices.
Golden images live in ``tests/rendering/golden/`` at half size; after an intended change of the picture,
regenerate them with ``UPDATE_GOLDEN=1 pytest tests/rendering/test_condottiere_picture.py`` and look at the
new files.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from picture_support import assert_golden, assert_sent_as_faithful_jpeg
from PIL import Image, ImageChops

from rendering.condottiere import layout as lay
from rendering.condottiere.picture import conquest, map_plan, render, render_hand, seat_display_names
from rendering.condottiere.sprites import card_sprite, sort_key
from rendering.condottiere.static import border_segments, static_layer
from rendering.condottiere.theme import DEFAULT_THEME, CondottiereTheme
from rules import GAMES
from rules.condottiere.data import BOARDS, CODE, KIND_OF_CODE, copies
from rules.condottiere.model import CondottiereOptions, CondottiereView
from rules.condottiere.scoring import courtesans, strengths

GAME = GAMES["condottiere"]
PACKAGE = Path(__file__).resolve().parents[2] / "rendering"
THEME = DEFAULT_THEME
NAMES = ["علی", "سارا", "Bob", "مریم", "رضا", "نگار"]

Lines = list[tuple[str, ...]]


def codes(*kinds: str) -> tuple[str, ...]:
    """Card codes for kind codes, a new copy each time a kind repeats."""
    used: dict[str, int] = {}
    out = []
    for kind in kinds:
        n = used.get(kind, 0)
        used[kind] = n + 1
        ids = copies(KIND_OF_CODE[kind])
        out.append(CODE[ids[n % len(ids)]])
    return tuple(out)


FULL_LINES: Lines = [
    codes("10", "6", "dr", "5", "co", "3", "sc", "2"),
    codes("he", "4", "4", "co", "co", "1", "6"),
    codes("10", "10", "bi", "3", "5", "1", "2", "dr", "co"),
    codes("su"),
    codes("6", "5", "4", "3", "2", "1", "1", "co", "sc", "2", "3"),
    codes("1", "2", "dr", "10"),
]
REKAB_OWNERS = {0: 0, 3: 1, 7: 2, 12: 3, 2: 4, 10: 5}
ITALY_OWNERS = {0: 0, 1: 0, 5: 1, 10: 2, 16: 3, 12: 1}


def new_view(players: int = 4, *, classic: bool = False, seat: int | None = None, seed: int = 1) -> CondottiereView:
    return GAME.view(GAME.setup(players, seed, CondottiereOptions(classic_map=classic)), seat)


def crafted(
    players: int = 6,
    *,
    classic: bool = False,
    lines: Lines | None = None,
    season: str | None = "sp",
    owners: dict[int, int] | None = None,
    site: int | None = 5,
    peace: int | None = 9,
    passed: Iterable[int] = (),
    turn: int = 1,
    seat: int | None = None,
    hand: tuple[str, ...] | None = None,
) -> CondottiereView:
    """A battle under way: lines, strengths and Courtesans by the rules' scoring, owners and tokens as given."""
    view = new_view(players, classic=classic, seat=seat)
    lines = lines if lines is not None else FULL_LINES[:players]
    ids = [[CODE.index(c) for c in line] for line in lines]
    season_code = codes(season)[0] if season else None
    passed = set(passed)
    update: dict[str, object] = {
        "lines": tuple(lines),
        "strengths": strengths(ids, CODE.index(season_code) if season_code else -1),
        "courtesans": courtesans(ids),
        "season": season_code,
        "phase": "battle",
        "passed": tuple(s in passed for s in range(players)),
        "to_act": (turn,),
        "turn": turn,
        "battle": 4,
    }
    if view.variant == "map":
        held = owners if owners is not None else (ITALY_OWNERS if classic else REKAB_OWNERS)
        owner_list = tuple(held.get(i) for i in range(len(view.owners)))
        update |= {
            "owners": owner_list,
            "battle_site": site,
            "peace_token": peace,
            "provinces_held": tuple(sum(1 for o in owner_list if o == s) for s in range(players)),
        }
    else:
        update["wins"] = (2, 1)
    if hand is not None:
        update["hand"] = hand
        update["hand_sizes"] = tuple(len(hand) if s == seat else n for s, n in enumerate(view.hand_sizes))
    return view.model_copy(update=update)


def played(players: int, seed: int, steps: int, *, classic: bool = False) -> CondottiereView:
    """A position reached by seeded random play (mostly cards, rarely passes)."""
    state = GAME.setup(players, seed, CondottiereOptions(classic_map=classic))
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.view(state, None).finished:
            break
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        plays = [a for a in actions if a.kind != "pass"]
        action = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(actions)
        state = GAME.apply(state, seat, action).state
    return GAME.view(state, None)


def _province(name: str, key: str = "rekab_14") -> int:
    return next(p.index for p in BOARDS[key].provinces if p.id == name)


def view_province(index: int) -> str:
    return BOARDS["rekab_14"].provinces[index].id


def _pixel(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# The maps' layouts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_layout_borders_are_exactly_the_rules_borders(key: str) -> None:
    board = BOARDS[key]
    ids, cells, meeting = lay.map_cells()[key]
    assert sorted(ids) == sorted(p.id for p in board.provinces)
    owner: dict[lay.Hex, str] = {}
    for pid, group in zip(ids, cells, strict=True):
        assert group, pid
        for cell in group:
            assert cell not in owner, f"{cell} is in {owner[cell]} and {pid}"
            owner[cell] = pid
    assert not set(meeting) & set(owner), "a meeting cell is also a province's"
    drawn = set()
    for cell, pid in owner.items():
        for dq, dr in lay.DIRECTIONS:
            other = owner.get((cell[0] + dq, cell[1] + dr))
            if other is not None and other != pid:
                drawn.add(frozenset((pid, other)))
    for cell in meeting:  # each wedge is the province across its side: neighbouring wedges meet along a spoke
        wedges = [owner[(cell[0] + dq, cell[1] + dr)] for dq, dr in lay.DIRECTIONS]
        for here, then in zip(wedges, wedges[1:] + wedges[:1], strict=True):
            if here != then:
                drawn.add(frozenset((here, then)))
    rules = {
        frozenset((board.provinces[i].id, board.provinces[j].id))
        for i, neighbours in enumerate(board.neighbours)
        for j in neighbours
    }
    assert drawn == rules, (sorted(map(sorted, drawn - rules)), sorted(map(sorted, rules - drawn)))
    for a, b in board.corner_contacts:  # the corner-only contacts must not share a side
        assert frozenset((board.provinces[a].id, board.provinces[b].id)) not in drawn


@pytest.mark.parametrize("key", sorted(BOARDS))
def test_every_province_is_one_region(key: str) -> None:
    _ids, cells, _lakes = lay.map_cells()[key]
    for group in cells:
        members = set(group)
        seen = {group[0]}
        stack = [group[0]]
        while stack:
            q, r = stack.pop()
            for dq, dr in lay.DIRECTIONS:
                cell = (q + dq, r + dr)
                if cell in members and cell not in seen:
                    seen.add(cell)
                    stack.append(cell)
        assert seen == members


@pytest.mark.parametrize("classic", [False, True], ids=["rekab_14", "italy_17"])
def test_names_tokens_and_fill_points_lie_in_their_province(classic: bool) -> None:
    """Every name is drawn at least ``MIN_TEXT`` and nearly all lie wholly inside their province; every token
    stands inside its province, away from the border; fill points are the province's own."""
    view = new_view(classic=classic)
    plan = map_plan(view)
    assert plan is not None
    board = BOARDS[plan.key]
    outside = []
    for i, province in enumerate(board.provinces):
        for point in (plan.labels[i], plan.tokens[i], plan.fills[i]):
            assert plan.province_at(point) == i, province.id
        assert lay.MIN_TEXT <= plan.label_sizes[i] <= lay.LABEL_SIZE
        box = lay.label_box(province.name, plan.label_sizes[i], plan.labels[i])
        corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]
        if plan.label_inside[i]:
            assert all(plan.province_at(p) == i for p in corners), province.id
        else:
            outside.append(province.id)
        x, y = plan.tokens[i]
        reach = plan.radius * lay.TOKEN_RADIUS_FACTOR
        ring = [(x + reach * math.cos(a / 8 * math.pi), y + reach * math.sin(a / 8 * math.pi)) for a in range(16)]
        assert all(plan.province_at(p) == i for p in ring), province.id
    assert len(outside) <= 3, outside
    assert plan.radius >= 20


def test_the_meeting_cell_is_shared_by_the_four_provinces_around_it() -> None:
    """Bella, Caline, Borge and Pladaci meet at one point, as on the printed board: the hexagon between them is
    no lake but four wedges, one in each province's colour."""
    owners = {_province("bella"): 0, _province("caline"): 1, _province("borge"): 2, _province("pladaci"): 3}
    view = crafted(4, owners=owners, site=None, peace=None)
    plan = map_plan(view)
    assert plan is not None
    [(cell, wedges)] = plan.meeting
    assert {plan.ids[w] for w in wedges} == {"bella", "caline", "borge", "pladaci"}
    image = render(view)
    cx, cy = plan.centre(cell)
    for side, province in enumerate(wedges):
        angle = math.radians(-60 * side)
        point = (cx + plan.radius * 0.55 * math.cos(angle), cy + plan.radius * 0.55 * math.sin(angle))
        assert _pixel(image, point) == THEME.seat_fill(owners[province]), plan.ids[province]
    assert THEME.lake not in {_pixel(image, (cx + dx, cy + dy)) for dx in (-9, 0, 9) for dy in (-9, 0, 9)}


# Pictures -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("classic", [False, True], ids=["rekab_14", "italy_17"])
def test_new_game_shows_every_province_on_neutral_land(classic: bool) -> None:
    view = new_view(classic=classic)
    image = render(view)
    f = lay.frame(4, False)
    assert image.size == (f.width, f.height) and image.mode == "RGB"
    plan = map_plan(view)
    assert plan is not None
    for i in range(len(view.owners)):
        assert _pixel(image, plan.fills[i]) == THEME.land, plan.ids[i]


@pytest.mark.parametrize("classic", [False, True], ids=["rekab_14", "italy_17"])
def test_owned_provinces_take_their_owners_colour(classic: bool) -> None:
    players = 6
    view = new_view(players, classic=classic)
    owners = {i: i % players for i in range(0, len(view.owners), 2)}
    image = render(crafted(players, classic=classic, owners=owners, site=None, peace=None))
    plan = map_plan(view)
    assert plan is not None
    for i in range(len(view.owners)):
        expected = THEME.seat_fill(owners[i]) if i in owners else THEME.land
        assert _pixel(image, plan.fills[i]) == expected, plan.ids[i]


def test_seat_colours_are_distinct_from_each_other_the_land_and_the_sea() -> None:
    colours = [THEME.seat_fill(s) for s in range(6)] + [THEME.land, THEME.sea]
    for i, a in enumerate(colours):
        for b in colours[i + 1 :]:
            assert sum(abs(x - y) for x, y in zip(a, b, strict=True)) > 90, (a, b)


def test_battle_and_peace_tokens_change_only_their_provinces() -> None:
    bare = render(crafted(site=None, peace=None))
    view = crafted(site=5, peace=9)
    plan = map_plan(view)
    assert plan is not None
    with_battle = render(crafted(site=5, peace=None))
    with_both = render(view)
    map_box = lay.frame(6, False).map_box
    for province, after, before in ((5, with_battle, bare), (9, with_both, with_battle)):
        diff = ImageChops.difference(before, after).crop(map_box).getbbox()
        assert diff is not None
        box = plan.boxes[province]
        shifted = (box[0] - map_box[0] - 4, box[1] - map_box[1] - 4, box[2] - map_box[0] + 4, box[3] - map_box[1] + 4)
        assert _inside(diff, shifted)
    assert _pixel(with_battle, plan.tokens[5]) != _pixel(bare, plan.tokens[5])
    x, y = plan.tokens[9]
    assert _pixel(with_both, (x + plan.radius * 0.5, y)) == (255, 255, 255)  # the white token, right of its branch
    for province, colour in ((5, THEME.site_outline), (9, THEME.peace_outline)):  # each province outlined
        (x0, y0), (x1, y1), _coast = border_segments(plan, province)[0]
        assert _pixel(with_both, ((x0 + x1) / 2, (y0 + y1) / 2)) == colour


def test_a_played_card_changes_only_that_players_row() -> None:
    lines = [line[:3] for line in FULL_LINES]
    before = crafted(lines=lines, season=None)
    more = [*lines]
    more[2] = (*lines[2], *codes("bi"))  # a Bishop adds no strength: only the line changes
    after = crafted(lines=more, season=None)
    assert after.strengths == before.strengths
    diff = ImageChops.difference(render(before), render(after)).getbbox()
    assert diff is not None
    assert _inside(diff, lay.frame(6, False).rows[2])


def test_the_player_to_act_is_outlined_in_their_colour() -> None:
    view = crafted(turn=4)
    image = render(view)
    left, top, _right, bottom = lay.frame(6, False).rows[4]
    assert _pixel(image, (left + 2, (top + bottom) / 2)) == THEME.seat_fill(4)


def test_long_lines_stay_inside_their_row() -> None:
    long_line = codes("1", "2", "3", "4", "5", "6", "10", "co", "co", "sc", "sc", "dr", "he", "bi", "1", "2", "3")
    lines = [long_line, *FULL_LINES[1:]]
    view = crafted(lines=lines)
    f = lay.frame(6, False)
    row = f.rows[0]
    height = lay.line_card_height(row, tuple(len(line) for line in lines))
    width = lay.card_size(height)[0]
    assert height >= lay.MIN_LINE_CARD
    for x, y in lay.line_slots(row, len(long_line), height):
        assert _inside((x, y, x + width, y + height), row)
    assert render(view).size == (f.width, f.height)


@pytest.mark.parametrize(("players", "classic"), [(2, False), (3, False), (4, True), (5, False), (6, False), (6, True)])
def test_played_games_render_and_fit(players: int, classic: bool) -> None:
    for seed, steps in ((1, 12), (2, 60), (3, 400)):
        view = played(players, seed, steps, classic=classic)
        image = render(view, names=NAMES[:players])
        f = lay.frame(players, players == 2)
        assert image.size == (f.width, f.height)
        for box in (f.map_box, f.panel_box, *f.rows):
            assert _inside(box, (0, 0, f.width, f.height))
        assert f.width <= 1.4 * f.height and f.height <= 1200
        hand = render_hand(GAME.view(GAME.setup(players, seed), 0))
        assert hand.width == lay.HAND_WIDTH and hand.width <= 1.4 * hand.height


def test_two_player_variant_shows_battles_won_instead_of_a_map() -> None:
    view = crafted(2, season="wi")
    assert view.variant == "duel" and view.map is None
    image = render(view, names=NAMES[:2])
    f = lay.frame(2, True)
    assert image.size == (f.width, f.height)
    none_won = render(view.model_copy(update={"wins": (0, 0)}), names=NAMES[:2])
    diff = ImageChops.difference(image, none_won).getbbox()
    assert diff is not None and _inside(diff, f.map_box) is False  # the rows' counts of battles won change too
    assert ImageChops.difference(image, none_won).crop(f.map_box).getbbox() is not None


def test_finished_game_shows_the_winners_and_marks_the_provinces_that_won() -> None:
    owners = {_province("bella"): 0, _province("caline"): 0, _province("borge"): 0, _province("lia"): 0}
    owners[_province("rollo")] = 2
    view = crafted(owners=owners, site=None).model_copy(
        update={"finished": True, "phase": "over", "winners": (0,), "end_reason": "victory", "to_act": ()}
    )
    won = conquest(view)
    assert [view_province(i) for i in won] == ["bella", "caline", "borge"]  # three joined; Lia stands apart
    image = render(view, names=NAMES)
    f = lay.frame(6, False)
    left, top, _right, _bottom = f.panel_box
    plate = (left + lay.PANEL_PAD + 20, top + lay.PANEL_PAD + 48 + lay.PANEL_GAP + 20)
    assert _pixel(image, plate) == THEME.win_banner
    plan = map_plan(view)
    assert plan is not None
    for name in ("bella", "caline", "borge", "lia", "rollo"):  # Lia and Rollo border no winning province
        (x0, y0), (x1, y1), _coast = border_segments(plan, _province(name))[0]
        shown = _pixel(image, ((x0 + x1) / 2, (y0 + y1) / 2))
        assert (shown == THEME.winner_outline) is (_province(name) in won), name
    draw = render(view.model_copy(update={"winners": tuple(range(6)), "end_reason": "stalemate"}), names=NAMES)
    assert _pixel(draw, plate) == THEME.draw_banner


def test_five_provinces_anywhere_are_all_marked() -> None:
    owners = {_province(p): 1 for p in ("bella", "lia", "rollo", "atela", "armento")}
    view = crafted(owners=owners, site=None).model_copy(
        update={"finished": True, "phase": "over", "winners": (1,), "end_reason": "victory", "to_act": ()}
    )
    assert sorted(view_province(i) for i in conquest(view)) == ["armento", "atela", "bella", "lia", "rollo"]
    assert conquest(view.model_copy(update={"end_reason": "no_free_province"})) == ()


def test_the_bishop_has_its_own_picture_not_the_peace_token_s_olive_branch() -> None:
    for named in (False, True):
        bishop = card_sprite("bi", 120, 174, THEME, smallest=22, named=named).convert("RGB")
        colours = {colour for _count, colour in bishop.getcolors(1 << 16) or ()}
        assert THEME.olive not in colours and THEME.elder_beard in colours


def test_names_default_and_odd_names_do_not_break_the_picture() -> None:
    view = crafted()
    assert seat_display_names(view, None)[0] == "بازیکن ۱"
    default = render(view)
    assert ImageChops.difference(default, render(view, names=seat_display_names(view, None))).getbbox() is None
    odd = render(view, names=["🎲🎲", "Alexandria Ocasio-Cortez the Magnificent ✨ محمد", "", "x", "y", "z"])
    assert odd.size == default.size
    assert ImageChops.difference(odd, default).getbbox() is not None


def test_theme_changes_colours_and_static_layer_is_cached() -> None:
    view = crafted(owners={}, site=None, peace=None)
    theme = CondottiereTheme(land=(200, 230, 180))
    image = render(view, theme=theme)
    plan = map_plan(view)
    assert plan is not None
    assert _pixel(image, plan.fills[0]) == (200, 230, 180)
    render(view, theme=theme)
    assert static_layer.cache_info().hits >= 1


# The hand -----------------------------------------------------------------------------------------------------


def _cards_in_hand_picture(image: Image.Image, count: int) -> int:
    """Count the cards: runs of non-background pixels along the middle line of each row of the hand's plan."""
    plan = lay.hand_plan(count)
    background = THEME.background
    found = 0
    for y in sorted({top + plan.card[1] // 2 for _left, top in plan.slots}):
        inside = False
        for x in range(image.width):
            on_card = _pixel(image, (x, y)) != background
            if on_card and not inside:
                found += 1
            inside = on_card
    return found


@pytest.mark.parametrize("size", [0, 1, 5, 8, 9, 13, 17])
def test_hand_picture_shows_every_card(size: int) -> None:
    """Cards in rows of four to six, never wider than 1.4 times its height (a phone shows it whole)."""
    kinds = ["10", "1", "bi", "5", "sc", "co", "he", "wi", "sp", "3", "6", "2", "dr", "su", "4", "1", "co"][:size]
    hand = codes(*kinds)
    view = crafted(4, seat=2, hand=hand)
    image = render_hand(view)
    assert image.width == lay.HAND_WIDTH
    assert lay.HAND_MIN_HEIGHT <= image.height <= 1000 and image.width <= 1.4 * image.height
    assert _cards_in_hand_picture(image, size) == size


def test_hand_is_sorted_mercenaries_by_value_then_specials() -> None:
    hand = codes("sp", "10", "co", "1", "bi", "5", "10")
    ordered = sorted(hand, key=sort_key)
    assert [c.split("#")[0] for c in ordered] == ["1", "5", "10", "10", "bi", "co", "sp"]
    shuffled = crafted(4, seat=0, hand=tuple(reversed(hand)))
    assert ImageChops.difference(render_hand(shuffled), render_hand(crafted(4, seat=0, hand=hand))).getbbox() is None


def test_hand_reminder_follows_the_view() -> None:
    hand = codes("5", "co")
    view = crafted(4, seat=1, hand=hand)
    other = view.model_copy(update={"strengths": (0, 99, 0, 0)})
    diff = ImageChops.difference(render_hand(view), render_hand(other)).getbbox()
    assert diff is not None and diff[3] <= lay.HAND_HEADER


# Hygiene ----------------------------------------------------------------------------------------------------


def test_to_bytes_gives_a_small_faithful_jpeg() -> None:
    # a phone's picture packs more text per pixel than a desktop's: JPEG's edges cost a little more
    assert_sent_as_faithful_jpeg(render(crafted(), names=NAMES), tolerance=2.8)


# Golden images ------------------------------------------------------------------------------------------------


def _rekab() -> Image.Image:
    return render(crafted(passed=(2, 4)), names=NAMES)


def _italy() -> Image.Image:
    return render(crafted(4, classic=True, site=7, peace=14), names=NAMES[:4])


def _hand() -> Image.Image:
    hand = codes("bi", "10", "1", "sc", "su", "dr", "co", "he", "wi", "sp", "5", "6", "3")
    return render_hand(crafted(4, seat=1, hand=hand))


@pytest.mark.parametrize(
    ("name", "make"),
    [("condottiere_rekab_6p", _rekab), ("condottiere_italy_4p", _italy), ("condottiere_hand", _hand)],
)
def test_golden(name: str, make: Callable[[], Image.Image]) -> None:
    image = make()
    small = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    assert_golden(small, name)
