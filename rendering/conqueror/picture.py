"""The کشورگشا board picture, made from the public view alone: ``render(view) -> PIL image``.

The cached static layer (the board on bare ground, cards, legend) is copied and only what changes is drawn
on it: owned and castle camps' grounds, walls, castles, pieces, and the panel (turn, scores, supplies).
The board is laid out from the cells' axial coordinates, so a random board draws as well as the fixed one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from rendering.conqueror import labels
from rendering.conqueror import layout as lay
from rendering.conqueror.sprites import (
    castle_sprite,
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
from rendering.theme import RGB
from rules.conqueror.model import ConquerorView


def render(
    view: ConquerorView,
    *,
    theme: ConquerorTheme = DEFAULT_THEME,
    names: Sequence[str] | None = None,
    choices: Collection[str] = (),
    chosen: str | None = None,
) -> Image.Image:
    """The whole game as a 1280×960 RGB picture; ``names`` are the two seats' display names (default: the
    colour names, قرمز and زرد). While a menu of camps is open, ``choices`` are the camps it offers (ringed,
    every other camp veiled) and ``chosen`` the camp picked before (a move's source: ringed dark)."""
    seat_names = _seat_names(view, names)
    cells = board_key(view)
    plan = board_plan(cells)
    image = static_layer(theme, cells).copy()
    _draw_grounds(image, view, plan, theme)
    _draw_walls(image, view, plan, theme)
    _draw_contents(image, view, plan, theme)
    if choices:
        _draw_choices(image, plan, choices, chosen, theme)
    pen = ImageDraw.Draw(image)
    for seat in (0, 1):
        _draw_player(image, pen, view, seat, seat_names[seat], theme)
    if view.finished or view.to_act is None:
        _draw_result(pen, view, seat_names, theme)
    else:
        _draw_turn(image, pen, view, view.to_act, seat_names, theme)
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


def _seat_names(view: ConquerorView, names: Sequence[str] | None) -> tuple[str, str]:
    given = list(names or ())
    out = []
    for seat in (0, 1):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or view.colours[seat])
    return out[0], out[1]


# Board --------------------------------------------------------------------------------------------------


def _draw_grounds(image: Image.Image, view: ConquerorView, plan: BoardPlan, theme: ConquerorTheme) -> None:
    """Repaint the camps whose ground is not the bare one: castle camps (grey) and owned camps (tinted)."""
    for i, (castle, owner) in enumerate(zip(view.castles, view.owners, strict=True)):
        if castle is not None:
            paint_camp(image, plan, i, theme.castle_ground, theme, castle=True)
        elif owner is not None:
            paint_camp(image, plan, i, theme.side_tint(owner), theme)


def _draw_walls(image: Image.Image, view: ConquerorView, plan: BoardPlan, theme: ConquerorTheme) -> None:
    g = plan.geometry
    length, thickness = g.scaled(lay.WALL_LENGTH, 10), g.scaled(lay.WALL_THICKNESS, 5)
    for wall in view.walls:
        a, b = plan.centre(plan.index[wall.camp]), plan.centre(plan.index[wall.across])
        sprite = wall_sprite(wall.seat, side_angle(wall.side), length, thickness, theme)
        paste_centred(image, sprite, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))


def _draw_contents(image: Image.Image, view: ConquerorView, plan: BoardPlan, theme: ConquerorTheme) -> None:
    """Castles (with a piece in the gate when manned) and the pieces standing in each camp, by colour."""
    g = plan.geometry
    castle_w, castle_h = g.scaled(lay.CASTLE_WIDTH, 12), g.scaled(lay.CASTLE_HEIGHT, 10)
    for i, castle in enumerate(view.castles):
        cx, cy = plan.centre(i)
        counts = (view.pieces[0][i], view.pieces[1][i])
        if castle is not None:
            sprite = castle_sprite(castle, castle_w, castle_h, view.manned[i], theme)
            paste_centred(image, sprite, (cx, cy + g.offset(lay.CASTLE_DY)))
            radius, digit = g.scaled(lay.CASTLE_PIECE_RADIUS, 6), g.scaled(lay.CASTLE_PIECE_SIZE, 11)
            y = cy + g.offset(lay.CASTLE_PIECE_DY)
            for seat, count in enumerate(counts):
                if count:
                    dx = g.offset(lay.CASTLE_PIECE_DX) * (1 if seat == 0 else -1)
                    paste_centred(image, piece_sprite(seat, count, radius, digit, theme), (cx + dx, y))
            continue
        if not any(counts):
            continue
        radius, digit = g.scaled(lay.PIECE_RADIUS, 7), g.scaled(lay.PIECE_SIZE, 12)
        both = all(counts)
        for seat, count in enumerate(counts):
            if count:
                dx = (g.offset(lay.PIECE_DX) * (1 if seat == 0 else -1)) if both else 0
                paste_centred(
                    image, piece_sprite(seat, count, radius, digit, theme), (cx + dx, cy + g.offset(lay.PIECE_DY))
                )


def _draw_choices(
    image: Image.Image, plan: BoardPlan, choices: Collection[str], chosen: str | None, theme: ConquerorTheme
) -> None:
    """Veil every camp the menu does not offer and ring the ones it does, so the eye finds them at once."""
    radius = plan.radius
    half = hex_box(radius)
    g = plan.geometry
    offered = {plan.index[c] for c in choices if c in plan.index}
    picked = plan.index.get(chosen) if chosen is not None else None
    veil = Image.new("L", image.size, 0)
    camp = hex_mask(radius, (0.0,) * 6).point(lambda v: v * theme.veil_opacity // 255)
    for i in range(len(plan.cells)):
        if i not in offered and i != picked:
            cx, cy = plan.centre(i)
            veil.paste(camp, (cx - half, cy - half), camp)
    image.paste(theme.veil, (0, 0), veil)
    ring = ring_mask(radius, g.scaled(lay.RING_OUTER), g.scaled(lay.RING_INNER))
    for i, colour in (
        *((i, theme.choice_ring) for i in offered),
        *(((picked, theme.chosen_ring),) if picked is not None else ()),
    ):
        cx, cy = plan.centre(i)
        image.paste(colour, (cx - half, cy - half), ring)


# Panel ----------------------------------------------------------------------------------------------------


def _chip(image: Image.Image, seat: int, centre: tuple[float, float], radius: int, theme: ConquerorTheme) -> None:
    """A plain disc in a seat's colour, the mark of a player."""
    paste_centred(image, piece_sprite(seat, 0, radius, 12, theme), centre)


def _draw_player(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: ConquerorView, seat: int, name: str, theme: ConquerorTheme
) -> None:
    left, top, right, _bottom = lay.PLAYER_BOXES[seat]
    if view.to_act == seat and not view.finished:
        pen.rounded_rectangle(lay.PLAYER_BOXES[seat], 18, outline=theme.side_fill(seat), width=5)
    _chip(image, seat, (right - 38, top + 40), 15, theme)
    name_font = font(30, bold=True)
    draw_text(
        pen, (right - 64, top + 40), ellipsize(name, 168, font=name_font), font=name_font, fill=theme.ink, anchor="rm"
    )
    draw_text(pen, (left + 104, top + 40), persian_digits(view.scores[seat]), font=font(44, bold=True), fill=theme.ink)
    draw_text(
        pen,
        (left + 46, top + 46),
        persian_digits(labels.SCORE_OF.format(target=view.target)),
        font=font(21),
        fill=theme.muted,
    )
    _draw_track(pen, view.scores[seat], view.target, seat, (left + 20, top + 82, right - 20, top + 104), theme)
    stats = (
        (labels.SUPPLY, view.supply[seat], "piece"),
        (labels.WALLS, view.walls_left[seat], "wall"),
        (labels.CASTLES, view.castle_counts[seat], "castle"),
    )
    third = (right - left) / 3
    for i, (label, count, icon) in enumerate(stats):
        cx = right - third * (i + 0.5)
        y = top + 142
        icon_at = (cx + 22, y)
        if icon == "piece":
            _chip(image, seat, icon_at, 13, theme)
        elif icon == "wall":
            paste_centred(image, wall_sprite(seat, 0, 24, 10, theme), icon_at)
        else:
            paste_centred(image, castle_sprite(seat, 28, 24, False, theme), icon_at)
        draw_text(pen, (cx - 16, y), persian_digits(count), font=font(30, bold=True), fill=theme.ink)
        draw_text(pen, (cx, top + 180), label, font=font(21), fill=theme.muted)


def _draw_track(
    pen: ImageDraw.ImageDraw, score: int, target: int, seat: int, box: lay.Box, theme: ConquerorTheme
) -> None:
    """The score track from 0 (right) to the target (left): one step per point, the score's steps filled."""
    left, top, right, bottom = box
    step = (right - left) / max(1, target)
    for k in range(max(1, target)):
        x1 = right - k * step
        fill: RGB = theme.side_fill(seat) if k < score else theme.track
        pen.rectangle((round(x1 - step + 1.5), top, round(x1 - 1), bottom), fill=fill)
    for k in range(9, target, 9):  # every ninth step a notch, so the eye can count
        x = round(right - k * step)
        pen.line((x, top - 5, x, bottom + 5), fill=theme.muted, width=2)


def _draw_turn(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: ConquerorView,
    seat: int,
    names: tuple[str, str],
    theme: ConquerorTheme,
) -> None:
    left, top, right, _bottom = lay.TURN_BOX
    cx = (left + right) / 2
    if view.opening:
        line = labels.OPENING.format(turn=view.turn)
    else:
        line = labels.ROUND.format(round=view.round, rounds=view.rounds, turn=view.turn, turns=view.turns_per_round)
    draw_text(pen, (cx, top + 104), persian_digits(line), font=font(24), fill=theme.ink)
    turn_font = font(24)
    draw_text(pen, (right - 24, top + 156), labels.TURN, font=turn_font, fill=theme.muted, anchor="rm")
    chip_x = right - 24 - text_size(labels.TURN, font=turn_font)[0] - 26
    _chip(image, seat, (chip_x, top + 156), 17, theme)
    name_font = font(34, bold=True)
    name = ellipsize(names[seat], round(chip_x - 28 - left - 16), font=name_font)
    draw_text(pen, (chip_x - 28, top + 156), name, font=name_font, fill=theme.ink, anchor="rm")
    y = top + 214
    if view.opening:
        draw_text(pen, (cx, y), labels.OPENING_HINT, font=font(22), fill=theme.muted)
        return
    text = persian_digits(labels.ACTIONS_LEFT.format(n=view.actions_left))
    draw_text(pen, (right - 24, y), text, font=font(24, bold=True), fill=theme.ink, anchor="rm")
    size, gap = 26, 9
    for k in range(3):
        x0 = left + 24 + k * (size + gap)
        filled = 3 - k <= view.actions_left  # fills from the right, as the line reads
        pen.rounded_rectangle(
            (x0, y - size / 2, x0 + size, y + size / 2),
            6,
            fill=theme.side_fill(seat) if filled else theme.card,
            outline=theme.outline if filled else theme.card_border,
            width=2,
        )


def _draw_result(pen: ImageDraw.ImageDraw, view: ConquerorView, names: tuple[str, str], theme: ConquerorTheme) -> None:
    left, top, right, _bottom = lay.TURN_BOX
    cx = (left + right) / 2
    reason = labels.END_REASONS.get(view.end_reason or "", "")
    headline = f"{labels.GAME_OVER} — {reason}" if reason else labels.GAME_OVER
    draw_text(
        pen,
        (cx, top + 100),
        persian_digits(headline.format(target=view.target)),
        font=font(24, bold=True),
        fill=theme.ink,
    )
    box = (left + 20, top + 128, right - 20, top + 234)
    if len(view.winners) == 1:
        winner = view.winners[0]
        pen.rounded_rectangle(box, 16, fill=theme.side_fill(winner), outline=theme.outline, width=2)
        ink = theme.side_ink(winner)
        draw_text(pen, (cx, top + 154), labels.WINNER, font=font(24, bold=True), fill=ink)
        name_font = font(38, bold=True)
        draw_text(pen, (cx, top + 200), ellipsize(names[winner], 280, font=name_font), font=name_font, fill=ink)
    else:
        pen.rounded_rectangle(box, 16, fill=theme.draw_banner, outline=theme.outline, width=2)
        draw_text(pen, (cx, top + 181), labels.DRAW, font=font(48, bold=True), fill=theme.on_banner)
