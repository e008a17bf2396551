"""The کشورگشا board picture, made from the public view alone: ``render(view) -> PIL image``.

The cached static layer (the board on bare ground) is copied and only what changes is drawn on it: owned and
castle camps' grounds, walls, castles, pieces, a menu's marks, and the header (the players' cards, the turn
line or the result). The board is laid out from the cells' axial coordinates, so a random board draws as well
as the fixed one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from rendering.conqueror import labels
from rendering.conqueror import layout as lay
from rendering.conqueror.sprites import (
    castle_sprite,
    ghost_wall_sprite,
    hex_box,
    hex_mask,
    paste_centred,
    piece_sprite,
    ring_mask,
    side_angle,
    wall_sprite,
)
from rendering.conqueror.static import BoardPlan, CellKey, board_plan, paint_camp, static_layer
from rendering.conqueror.theme import DEFAULT_THEME, ConquerorTheme
from rendering.text import draw_text, drawable, ellipsize, font, persian_digits, text_size
from rendering.theme import RGB, mix
from rules.conqueror.model import ACTIONS_PER_TURN, ConquerorView
from rules.places import places


def render(
    view: ConquerorView,
    *,
    theme: ConquerorTheme = DEFAULT_THEME,
    names: Sequence[str] | None = None,
    choices: Collection[str] = (),
    chosen: str | None = None,
    sides: Collection[tuple[str, str]] = (),
) -> Image.Image:
    """The whole game as an RGB picture 960 px wide, as tall as the board needs; ``names`` are the two seats'
    display names (default: the colour names, قرمز and زرد). While a menu is open, ``choices`` are the camps
    it offers (ringed), ``chosen`` the camp picked before (a move's source: ringed dark) and ``sides`` the
    walls it offers as (camp, across) pairs (drawn see-through); every camp none of them names is faded."""
    seat_names = _seat_names(view, names)
    cells = board_key(view)
    plan = board_plan(cells)
    image = static_layer(theme, cells).copy()
    _draw_grounds(image, view, plan, theme)
    _draw_walls(image, view, plan, theme)
    _draw_contents(image, view, plan, theme)
    if choices or chosen is not None or sides:
        _draw_choices(image, plan, choices, chosen, sides, theme)
    pen = ImageDraw.Draw(image)
    _draw_cards(image, pen, view, seat_names, theme)
    if view.finished or view.to_act is None:
        _draw_result(pen, view, seat_names, theme)
    else:
        _draw_turn(pen, view, view.to_act, theme)
    return image


def board_key(view: ConquerorView) -> tuple[CellKey, ...]:
    """The board's printed data, hashable: what the static layer and the layout depend on."""
    return tuple((c.label, c.tile, c.q, c.r, c.capacity, c.kind == "plain") for c in view.cells)


def camp_centres(view: ConquerorView) -> dict[str, tuple[int, int]]:
    """Pixel centre of every camp, by label (for tests and for callers that mark camps)."""
    plan = board_plan(board_key(view))
    return {cell[0]: plan.centre(i) for i, cell in enumerate(plan.cells)}


def board_radius(view: ConquerorView) -> int:
    """The hexagons' circumradius on this view's picture."""
    return board_plan(board_key(view)).radius


def picture_size(view: ConquerorView) -> tuple[int, int]:
    """The picture's width and height for this view's board."""
    canvas = board_plan(board_key(view)).canvas
    return canvas.width, canvas.height


def _seat_names(view: ConquerorView, names: Sequence[str] | None) -> tuple[str, str]:
    given = list(names or ())
    out = []
    for seat in (0, 1):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or view.colours[seat])
    return out[0], out[1]


# Board --------------------------------------------------------------------------------------------------


def _draw_grounds(image: Image.Image, view: ConquerorView, plan: BoardPlan, theme: ConquerorTheme) -> None:
    """Repaint the camps whose ground is not the bare one: castle camps (stone) and owned camps (tinted)."""
    for i, (castle, owner) in enumerate(zip(view.castles, view.owners, strict=True)):
        if castle is not None:
            paint_camp(image, plan, i, theme.castle_ground, theme)
        elif owner is not None:
            paint_camp(image, plan, i, theme.side_tint(owner), theme)


def _wall_at(plan: BoardPlan, camp: str, across: str) -> tuple[float, float]:
    return lay.wall_centre(plan.centre(plan.index[camp]), plan.centre(plan.index[across]))


def _draw_walls(image: Image.Image, view: ConquerorView, plan: BoardPlan, theme: ConquerorTheme) -> None:
    length, thickness = plan.geometry.wall()
    for wall in view.walls:
        sprite = wall_sprite(wall.seat, side_angle(wall.side), length, thickness, theme)
        paste_centred(image, sprite, _wall_at(plan, wall.camp, wall.across))


def _draw_contents(image: Image.Image, view: ConquerorView, plan: BoardPlan, theme: ConquerorTheme) -> None:
    """Castles (with a piece in the gate when manned) and the pieces standing in each camp, by colour: red on
    the right, yellow on the left; beside a castle, at its feet."""
    g = plan.geometry
    digit = g.scaled(lay.PIECE_SIZE, lay.SMALLEST_TEXT)
    for i, castle in enumerate(view.castles):
        centre = plan.centre(i)
        counts = (view.pieces[0][i], view.pieces[1][i])
        if castle is not None:
            middle, (castle_w, castle_h) = g.castle(centre)
            paste_centred(image, castle_sprite(castle, castle_w, castle_h, view.manned[i], theme), middle)
        radius, discs = g.pieces(centre, castle is not None, all(counts))
        for seat, (count, disc) in enumerate(zip(counts, discs, strict=True)):
            if count:
                paste_centred(image, piece_sprite(seat, count, radius, digit, theme), disc)


def _draw_choices(
    image: Image.Image,
    plan: BoardPlan,
    choices: Collection[str],
    chosen: str | None,
    sides: Collection[tuple[str, str]],
    theme: ConquerorTheme,
) -> None:
    """Fade every camp the menu does not name, ring the ones it offers and draw the walls it offers pale, so
    the eye finds them at once; the faded labels still read."""
    radius = plan.radius
    half = hex_box(radius)
    g = plan.geometry
    offered = {plan.index[c] for c in choices if c in plan.index}
    picked = plan.index.get(chosen) if chosen is not None else None
    named = offered | {plan.index[c] for pair in sides for c in pair if c in plan.index}
    if picked is not None:
        named.add(picked)
    veil = Image.new("L", image.size, 0)
    camp = hex_mask(radius, (0.0,) * 6).point(lambda v: v * theme.veil_opacity // 255)
    for i in range(len(plan.cells)):
        if i not in named:
            cx, cy = plan.centre(i)
            veil.paste(camp, (cx - half, cy - half), camp)
    image.paste(theme.veil, (0, 0), veil)
    ring = ring_mask(radius, g.offset(lay.RING_OUTER), g.offset(lay.RING_INNER))
    for i, colour in (
        *((i, theme.choice_ring) for i in offered),
        *(((picked, theme.chosen_ring),) if picked is not None else ()),
    ):
        cx, cy = plan.centre(i)
        image.paste(colour, (cx - half, cy - half), ring)
    length, thickness = g.wall()
    for camp_label, across in sides:
        side = _side_towards(plan, plan.index[camp_label], plan.index[across])
        sprite = ghost_wall_sprite(side_angle(side), length, thickness, theme)
        paste_centred(image, sprite, _wall_at(plan, camp_label, across))


def _side_towards(plan: BoardPlan, a: int, b: int) -> int:
    """The side of camp ``a`` that faces its neighbour ``b``."""
    _la, _ta, qa, ra, _ca, _pa = plan.cells[a]
    _lb, _tb, qb, rb, _cb, _pb = plan.cells[b]
    return lay.side_towards((qa, ra), (qb, rb))


# Header ---------------------------------------------------------------------------------------------------


def _chip(image: Image.Image, seat: int, centre: tuple[float, float], radius: int, theme: ConquerorTheme) -> None:
    """A plain disc in a seat's colour, the mark of a player."""
    paste_centred(image, piece_sprite(seat, 0, radius, lay.SMALLEST_TEXT, theme), centre)


def _draw_cards(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: ConquerorView, names: tuple[str, str], theme: ConquerorTheme
) -> None:
    """A card per player: colour, name, score out of the target, supplies; the player to act's card outlined
    in their colour. Once the game is over the cards stand in the order of the scores, each with its place
    under its score (equal scores share the first, both outlined in gold)."""
    finished = view.finished or view.to_act is None
    order = sorted((0, 1), key=lambda s: (-view.scores[s], s)) if finished else [0, 1]
    ranks = places(view.scores)
    for box, seat in zip(lay.CARD_BOXES, order, strict=True):
        _draw_card(image, pen, view, seat, names[seat], box, ranks[seat] if finished else None, theme)


def _draw_card(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: ConquerorView,
    seat: int,
    name: str,
    box: lay.Box,
    place: int | None,
    theme: ConquerorTheme,
) -> None:
    left, top, right, _bottom = box
    acting = view.to_act == seat and not view.finished
    fill = mix(theme.card, theme.side_tint(seat), 0.45) if acting else theme.card
    outline, width = (theme.side_fill(seat), lay.CARD_OUTLINE) if acting else (theme.card_border, 2)
    if place == 1:
        outline, width = theme.first, lay.CARD_OUTLINE
    pen.rounded_rectangle(box, lay.CARD_RADIUS, fill=fill, outline=outline, width=width)
    chip = (right - lay.CHIP_DX, top + lay.CHIP_DY)
    _chip(image, seat, chip, lay.CHIP_RADIUS, theme)
    name_font = font(lay.NAME_SIZE, bold=True)
    name_right = right - lay.NAME_DX
    name_room = name_right - (left + 2 * lay.SCORE_DX)
    draw_text(
        pen,
        (name_right, chip[1]),
        ellipsize(name, name_room, font=name_font),
        font=name_font,
        fill=theme.ink,
        anchor="rm",
    )
    score_x = left + lay.SCORE_DX
    score = persian_digits(view.scores[seat])
    draw_text(pen, (score_x, top + lay.SCORE_DY), score, font=font(lay.SCORE_SIZE, bold=True), fill=theme.ink)
    if place is None:
        under, under_font, ink = labels.SCORE_OF.format(target=view.target), font(lay.TARGET_SIZE), theme.muted
    else:
        under, under_font, ink = labels.PLACES[place], font(lay.TARGET_SIZE, bold=True), theme.ink
    draw_text(pen, (score_x, top + lay.TARGET_DY), persian_digits(under), font=under_font, fill=ink)
    _draw_stats(image, pen, view, seat, (right, top + lay.STATS_DY), theme)
    _draw_bar(pen, view, seat, (left + 2 * lay.SCORE_DX, top + lay.BAR_DY, right - lay.BAR_INSET), theme)


def _draw_stats(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: ConquerorView,
    seat: int,
    at: tuple[int, int],
    theme: ConquerorTheme,
) -> None:
    """Pieces in the supply, walls left and castles, each a number beside the board's own mark for it."""
    right, y = at
    stat_font = font(lay.STATS_SIZE, bold=True)
    icons = (
        piece_sprite(seat, 0, lay.STAT_PIECE_RADIUS, lay.SMALLEST_TEXT, theme),
        wall_sprite(seat, 0, *lay.STAT_WALL, theme),
        castle_sprite(seat, *lay.STAT_CASTLE, False, theme),
    )
    counts = (view.supply[seat], view.walls_left[seat], view.castle_counts[seat])
    for k, (icon, count) in enumerate(zip(icons, counts, strict=True)):
        icon_x = right - lay.STATS_DX - k * lay.STATS_STEP
        paste_centred(image, icon, (icon_x, y))
        draw_text(
            pen, (icon_x - lay.STAT_ICON_DX, y), persian_digits(count), font=stat_font, fill=theme.ink, anchor="rm"
        )


def _draw_bar(
    pen: ImageDraw.ImageDraw, view: ConquerorView, seat: int, span: tuple[int, int, int], theme: ConquerorTheme
) -> None:
    """How far the score has come towards the target, filled from the right as the line reads."""
    left, y, right = span
    pen.rounded_rectangle((left, y - lay.BAR_HEIGHT // 2, right, y + lay.BAR_HEIGHT // 2), 4, fill=theme.track)
    done = min(1.0, view.scores[seat] / max(1, view.target))
    if done > 0:
        x = round(right - done * (right - left))
        pen.rounded_rectangle(
            (x, y - lay.BAR_HEIGHT // 2, right, y + lay.BAR_HEIGHT // 2), 4, fill=theme.side_fill(seat)
        )


def _draw_turn(pen: ImageDraw.ImageDraw, view: ConquerorView, seat: int, theme: ConquerorTheme) -> None:
    """The round and turn on the right; the actions left on the left, in the colour of the player to act."""
    left, top, right, bottom = lay.LINE_BOX
    y = (top + bottom) / 2
    line_font = font(lay.LINE_SIZE)
    if view.opening:
        draw_text(pen, ((left + right) / 2, y), labels.OPENING, font=line_font, fill=theme.ink)
        return
    where = labels.ROUND.format(round=view.round, rounds=view.rounds, turn=view.turn, turns=view.turns_per_round)
    draw_text(pen, (right - 8, y), persian_digits(where), font=line_font, fill=theme.ink, anchor="rm")
    size, gap = lay.ACTION_BOX, lay.ACTION_GAP
    x = left + 8
    for k in range(ACTIONS_PER_TURN):  # the squares nearest the words are the ones left: read first
        filled = k >= ACTIONS_PER_TURN - view.actions_left
        pen.rounded_rectangle(
            (x, y - size / 2, x + size, y + size / 2),
            6,
            fill=theme.side_fill(seat) if filled else theme.card,
            outline=theme.outline if filled else theme.card_border,
            width=2,
        )
        x += size + gap
    draw_text(pen, (x + 4, y), labels.ACTIONS_LEFT, font=line_font, fill=theme.ink, anchor="lm")


def _draw_result(pen: ImageDraw.ImageDraw, view: ConquerorView, names: tuple[str, str], theme: ConquerorTheme) -> None:
    """A plate in the winner's colour (grey for a draw) saying the game is over and who won."""
    left, top, right, bottom = lay.LINE_BOX
    winner = view.winners[0] if len(view.winners) == 1 else None
    fill: RGB = theme.draw_banner if winner is None else theme.side_fill(winner)
    ink: RGB = theme.on_banner if winner is None else theme.side_ink(winner)
    pen.rounded_rectangle(lay.LINE_BOX, 14, fill=fill, outline=theme.outline, width=2)
    line_font = font(lay.LINE_SIZE, bold=True)
    head = f"{labels.GAME_OVER}، "
    if winner is None:
        text = head + labels.DRAW
    else:
        room = right - left - 40 - text_size(head + labels.WINNER.format(name=""), font=line_font)[0]
        text = head + labels.WINNER.format(name=ellipsize(names[winner], room, font=line_font))
    draw_text(pen, ((left + right) / 2, (top + bottom) / 2), text, font=line_font, fill=ink)
