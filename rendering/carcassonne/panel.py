"""The bar and the band of the قلعه رودخان picture, around the board.

The bar says whose turn it is and what to press now, or, at the end, who won. The band follows the current
decision: the drawn tile beside the players (colour, name, meeples left, score) while a position is picked;
the drawn tile in each rotation that fits the chosen position, its free spots lettered; the tile as it will
lie, large, with its spots' letters and what each stands on, or with the chosen meeple to confirm; and the
final ranking with every player's points per category once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.banner import draw_result_banner, winners_line
from rendering.carcassonne import labels
from rendering.carcassonne import layout as lay
from rendering.carcassonne.board import draw_spots, spot_tag_size
from rendering.carcassonne.choice import Choice
from rendering.carcassonne.layout import Box, Frame, Plan
from rendering.carcassonne.sprites import meeple_sprite, paste_centred, spot_tag_sprite, tile_sprite
from rendering.carcassonne.theme import CarcassonneTheme
from rendering.text import draw_text, ellipsize, font, persian_digits, text_size
from rendering.theme import RGB
from rules.carcassonne.data import MEEPLES
from rules.carcassonne.model import CATEGORIES, CarcassonneView
from rules.places import by_place

TEXT = lay.MIN_FONT  # hints, legends, titles of columns
NAME = 30  # players' names, bold
NUMBER = 38  # scores, bold


def draw_bar(
    image: Image.Image,
    plan: Plan,
    view: CarcassonneView,
    names: Sequence[str],
    choice: Choice | None,
    theme: CarcassonneTheme,
) -> None:
    """Whose turn (their meeple and name) at the right, what to press at the left; the result at the end."""
    pen = ImageDraw.Draw(image)
    box = plan.bar
    if view.finished:
        draw_result_banner(
            pen,
            (box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6),  # the banner keeps a margin of its own
            labels.GAME_OVER,
            winners_line(view.winners, names, labels.WINNER, labels.SHARED_WIN, labels.NAME_SEPARATOR),
            fill=theme.win_banner if len(view.winners) == 1 else theme.draw_banner,
            ink=theme.on_banner,
            radius=lay.BOX_RADIUS,
            headline_font=font(30, bold=True),
            line_font=font(36, bold=True),
        )
        return
    _panel_box(pen, box, theme)
    if view.turn is None:
        return
    left, top, right, bottom = box
    y = (top + bottom) / 2
    hint = _hint(view, choice)
    hint_font = font(TEXT, bold=True)
    hint_w = text_size(hint, font=hint_font)[0] if hint else 0
    if hint:
        draw_text(pen, (left + lay.PAD + 4, y), hint, font=hint_font, fill=theme.active_border, anchor="lm")
    x = right - lay.PAD - 22
    paste_centred(image, meeple_sprite(theme.seat(view.turn), 42, False, theme), (x, y))
    x -= 30
    turn_font, name_font = font(TEXT), font(32, bold=True)
    draw_text(pen, (x, y), labels.TURN, font=turn_font, fill=theme.muted, anchor="rm")
    x -= text_size(labels.TURN, font=turn_font)[0] + 8
    room = x - (left + lay.PAD + hint_w + 28)
    draw_text(
        pen, (x, y), ellipsize(names[view.turn], room, font=name_font), font=name_font, fill=theme.ink, anchor="rm"
    )


def _hint(view: CarcassonneView, choice: Choice | None) -> str:
    """What the player in turn presses now (the buttons under the picture)."""
    if view.phase != "tile" or view.drawn is None or not view.candidates:
        return ""
    if choice is None:
        return labels.CHOOSE_PLACE
    if choice.placement is None:
        spots = any(placement.spots for placement in choice.candidate.rotations)
        return labels.CHOOSE_PLACEMENT if spots else labels.CHOOSE_ROTATION
    return labels.CHOOSE_SPOT if choice.spot is None and choice.placement.spots else labels.CONFIRM


def draw_band(
    image: Image.Image,
    plan: Plan,
    view: CarcassonneView,
    names: Sequence[str],
    choice: Choice | None,
    theme: CarcassonneTheme,
) -> None:
    pen = ImageDraw.Draw(image)
    if view.finished:
        _panel_box(pen, plan.band, theme)
        _draw_ranking(image, pen, plan.band, view, names, theme)
    elif choice is None or view.drawn is None:
        _draw_drawn(image, pen, lay.drawn_box(plan.band), view, theme)
        rows = lay.player_rows(plan.band, view.players)
        _panel_box(pen, (rows[0][0] - lay.PAD, plan.band[1], plan.band[2], plan.band[3]), theme)
        for seat, row in enumerate(rows):
            _draw_player(image, pen, row, view, seat, names[seat], theme)
    elif choice.placement is None:
        _panel_box(pen, plan.band, theme)
        _draw_rotations(image, pen, plan.band, view.drawn, choice, theme)
    else:
        _panel_box(pen, plan.band, theme)
        _draw_spot_choice(image, pen, plan.band, view, choice, theme)


def _panel_box(pen: ImageDraw.ImageDraw, box: Box, theme: CarcassonneTheme) -> None:
    pen.rounded_rectangle(box, lay.BOX_RADIUS, fill=theme.panel, outline=theme.panel_border, width=2)


# A position to pick: the drawn tile and the players --------------------------------------------------------


def _draw_drawn(
    image: Image.Image, pen: ImageDraw.ImageDraw, box: Box, view: CarcassonneView, theme: CarcassonneTheme
) -> None:
    """The drawn tile under its caption, the tiles left under it."""
    _panel_box(pen, box, theme)
    left, top, right, bottom = box
    cx = (left + right) // 2
    text = font(TEXT)
    if view.drawn is not None:
        draw_text(pen, (cx, top + 30), labels.DRAWN, font=font(TEXT, bold=True), fill=theme.ink)
        size = lay.DRAWN_TILE
        y = (top + bottom - size) // 2
        image.paste(tile_sprite(view.drawn, 0, size, theme), (cx - size // 2, y))
    tiles_left = persian_digits(labels.TILES_LEFT.format(n=view.tiles_left))
    draw_text(pen, (cx, bottom - 30), tiles_left, font=text, fill=theme.muted)


def _draw_player(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    row: Box,
    view: CarcassonneView,
    seat: int,
    name: str,
    theme: CarcassonneTheme,
) -> None:
    """Meeple and name from the right, the score at the far left and the meeples beside it."""
    left, top, right, bottom = row
    y = (top + bottom) / 2
    if view.turn == seat:
        pen.rounded_rectangle(
            (left, top + 2, right, bottom - 2), 10, fill=theme.active, outline=theme.active_border, width=3
        )
    icon = min(40, bottom - top - 12)
    paste_centred(image, meeple_sprite(theme.seat(seat), icon, False, theme), (right - 8 - icon / 2, y))
    score = persian_digits(view.scores[seat])
    draw_text(pen, (left + 12, y), score, font=font(NUMBER, bold=True), fill=theme.ink, anchor="lm")
    x = left + 12 + max(56, text_size(score, font=font(NUMBER, bold=True))[0]) + 14
    x = _draw_supply(image, x, y, theme.seat(seat), view.meeples_left[seat], theme)
    name_font = font(NAME, bold=True)
    name_right = right - 16 - icon
    draw_text(
        pen,
        (name_right, y),
        ellipsize(name, name_right - x, font=name_font),
        font=name_font,
        fill=theme.ink,
        anchor="rm",
    )


def _draw_supply(image: Image.Image, x: int, y: float, colour: RGB, left: int, theme: CarcassonneTheme) -> int:
    """A player's seven meeples from ``x`` rightwards, those on the board pale, the same for every player
    whatever is left (none too): how many are left reads at a glance. Returns where the next part may start."""
    free, used = (
        meeple_sprite(colour, lay.SUPPLY_MEEPLE, False, theme),
        meeple_sprite(theme.used, lay.SUPPLY_MEEPLE, False, theme),
    )
    for k in range(MEEPLES):
        paste_centred(image, free if k < left else used, (x + lay.SUPPLY_MEEPLE / 2 + k * lay.SUPPLY_STEP, y))
    return x + (MEEPLES - 1) * lay.SUPPLY_STEP + lay.SUPPLY_MEEPLE + 16


# A rotation to pick ---------------------------------------------------------------------------------------


def _draw_rotations(
    image: Image.Image, pen: ImageDraw.ImageDraw, band: Box, letter: str, choice: Choice, theme: CarcassonneTheme
) -> None:
    """The drawn tile in each rotation that fits the chosen position, side by side from the right, each with
    its free spots lettered and its degrees under it, as its buttons name them (the bot lists each
    placement, rotation and meeple, as one button)."""
    size = lay.ROTATION_TILE
    label_font = font(32, bold=True)
    rotations = choice.candidate.rotations
    for placement, (x, y) in zip(rotations, lay.rotation_cells(band, len(rotations)), strict=True):
        image.paste(tile_sprite(letter, placement.rotation, size, theme), (x, y))
        frame = Frame(0, 0, 1, 1, size, x, y)
        draw_spots(image, frame, 0, 0, letter, Choice(choice.candidate, placement), 0, theme)
        label_y = y + size + lay.ROTATION_LABEL_H // 2 + 2
        draw_text(
            pen, (x + size / 2, label_y), labels.rotation_label(placement.rotation), font=label_font, fill=theme.ink
        )


# A meeple to place, or the placement to confirm ------------------------------------------------------------


def _draw_spot_choice(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    band: Box,
    view: CarcassonneView,
    choice: Choice,
    theme: CarcassonneTheme,
) -> None:
    """The tile as it will lie, large, at the right: with its spots' letters and, at the left, what each
    letter stands on (before a spot is chosen), or with the chosen meeple and what it stands on."""
    placement = choice.placement
    assert placement is not None and view.drawn is not None
    left, top, _right, bottom = band
    frame = lay.spot_tile(band)
    image.paste(tile_sprite(view.drawn, placement.rotation, frame.tile, theme), (frame.left, frame.top))
    draw_spots(image, frame, 0, 0, view.drawn, choice, view.turn or 0, theme)
    area = (left + lay.PAD, top + lay.PAD, frame.left - 2 * lay.GAP, bottom - lay.PAD)
    if choice.spot is not None or not placement.spots:
        feature = choice.spot_feature()
        if feature is not None:
            text = labels.MEEPLE_ON.format(feature=labels.FEATURE_NAMES[feature])
        else:
            text = labels.NO_MEEPLE if placement.spots else labels.NO_SPOT
        centre = ((area[0] + area[2]) / 2, (area[1] + area[3]) / 2)
        draw_text(pen, centre, text, font=font(36, bold=True), fill=theme.ink)
        return
    _draw_legend(image, pen, area, [spot.feature for spot in placement.spots], theme)


def _draw_legend(
    image: Image.Image, pen: ImageDraw.ImageDraw, area: Box, features: list[str], theme: CarcassonneTheme
) -> None:
    """Each spot's letter and what it stands on, in columns of four read from the right."""
    left, top, right, bottom = area
    columns = (len(features) + 3) // 4
    per_column = (len(features) + columns - 1) // columns
    column_w = (right - left) // 2
    first_y = (top + bottom) / 2 - (per_column - 1) * lay.LEGEND_ROW_H / 2
    face = font(32)
    tag_size = spot_tag_size(lay.SPOT_TILE)
    for index, feature in enumerate(features):
        column, row = divmod(index, per_column)
        x = right - 16 - column * column_w
        y = first_y + row * lay.LEGEND_ROW_H
        sprite = spot_tag_sprite(labels.spot_label(index), tag_size, theme)
        image.paste(sprite, (x - sprite.width, round(y - sprite.height / 2)), sprite)
        draw_text(
            pen, (x - sprite.width - 14, y), labels.FEATURE_NAMES[feature], font=face, fill=theme.ink, anchor="rm"
        )


# The end: the ranking ------------------------------------------------------------------------------------


def _draw_ranking(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    band: Box,
    view: CarcassonneView,
    names: Sequence[str],
    theme: CarcassonneTheme,
) -> None:
    """Every player by score, best first (equal scores share a place): the place, the meeple, the name, the
    points per category (fields only with farmers) and the total; the winners' rows ringed."""
    left, _top, right, _bottom = band
    shown = [k for k, category in enumerate(CATEGORIES) if view.farmers or category != "field"]
    titles = (*(labels.FEATURE_NAMES[CATEGORIES[k]] for k in shown), labels.TOTAL)
    columns = lay.table_columns(band, len(titles))
    title_y, rows = lay.table_rows(band, view.players)
    for x, title in zip(columns, titles, strict=True):
        draw_text(pen, (x, title_y), title, font=font(TEXT), fill=theme.muted)
    place_x, icon_x = right - lay.PAD - 24, right - lay.PAD - 74
    name_left = columns[0] + lay.TABLE_CELL_W // 2 + 8
    name_font, value_font, total_font = font(NAME, bold=True), font(30), font(32, bold=True)
    half = lay.TABLE_ROW_H // 2
    for (place, seat), y in zip(by_place(view.scores), rows, strict=True):
        won = seat in view.winners
        ink = theme.win_banner if won else theme.ink
        if won:
            box = (left + lay.PAD - 6, y - half + 2, right - lay.PAD + 6, y + half - 2)
            pen.rounded_rectangle(box, 10, outline=theme.win_banner, width=3)
        draw_text(pen, (place_x, y), persian_digits(place), font=total_font, fill=ink)
        paste_centred(image, meeple_sprite(theme.seat(seat), 34, False, theme), (icon_x, y))
        name = ellipsize(names[seat], icon_x - 26 - name_left, font=name_font)
        draw_text(pen, (icon_x - 26, y), name, font=name_font, fill=ink, anchor="rm")
        values = (*(view.points[seat][k] for k in shown), view.scores[seat])
        for k, (x, value) in enumerate(zip(columns, values, strict=True)):
            face = total_font if k == len(values) - 1 else value_font
            draw_text(pen, (x, y), persian_digits(value), font=face, fill=ink)
