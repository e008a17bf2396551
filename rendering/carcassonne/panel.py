"""The panel of the قلعه رودخان picture: the header (title, tiles left, whose turn, or the result), one row per
player (colour, name, score, meeples left) and the turn box, which follows the current decision: the drawn
tile, its legal rotations at the chosen position, its meeple spots with their labels, the meeple to confirm,
or the points per category once the game is over.
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
from rendering.text import draw_text, ellipsize, fitting_font, font, persian_digits, text_size
from rules.carcassonne.model import CATEGORIES, CarcassonneView

BOX_RADIUS = 14


def draw_panel(
    image: Image.Image,
    plan: Plan,
    view: CarcassonneView,
    names: Sequence[str],
    choice: Choice | None,
    theme: CarcassonneTheme,
) -> None:
    pen = ImageDraw.Draw(image)
    for box in (plan.header, _span(plan.players), plan.turn_box, *((plan.overview_box,) if plan.overview_box else ())):
        pen.rounded_rectangle(box, BOX_RADIUS, fill=theme.panel, outline=theme.panel_border, width=2)
    if view.finished:
        _draw_result(pen, plan.header, view, names, theme)
    else:
        _draw_header(image, pen, plan.header, view, names, theme)
    for seat, row in enumerate(plan.players):
        _draw_player(image, pen, row, view, seat, names[seat], theme)
    _draw_turn_box(image, pen, plan.turn_box, view, names, choice, theme)
    if plan.overview_box is not None:
        _left, top, right, _bottom = plan.overview_box
        draw_text(pen, (right - 16, top + 20), labels.OVERVIEW, font=font(19, bold=True), fill=theme.ink, anchor="rm")


def _span(boxes: tuple[Box, ...]) -> Box:
    return boxes[0][0], boxes[0][1], boxes[-1][2], boxes[-1][3]


# The header -----------------------------------------------------------------------------------------------


def _draw_header(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    box: Box,
    view: CarcassonneView,
    names: Sequence[str],
    theme: CarcassonneTheme,
) -> None:
    left, top, right, _bottom = box
    draw_text(pen, (right - 16, top + 30), labels.TITLE, font=font(27, bold=True), fill=theme.ink, anchor="rm")
    tiles_left = persian_digits(labels.TILES_LEFT.format(n=view.tiles_left))
    draw_text(pen, (left + 16, top + 32), tiles_left, font=font(17), fill=theme.muted, anchor="lm")
    y = top + 80
    x = right - 16
    if view.turn is None:
        return
    turn_font, name_font = font(21), font(25, bold=True)
    draw_text(pen, (x, y), labels.TURN, font=turn_font, fill=theme.muted, anchor="rm")
    x -= text_size(labels.TURN, font=turn_font)[0] + 8
    icon = meeple_sprite(theme.seat(view.turn), 28, False, theme)
    paste_centred(image, icon, (x - 14, y))
    x -= 34
    note = labels.FARMERS if view.farmers else ""
    note_font = font(17)
    note_w = text_size(note, font=note_font)[0] + 14 if note else 0
    name = ellipsize(names[view.turn], x - left - 16 - note_w, font=name_font)
    draw_text(pen, (x, y), name, font=name_font, fill=theme.ink, anchor="rm")
    if note:
        draw_text(pen, (left + 16, y + 2), note, font=note_font, fill=theme.muted, anchor="lm")


def _draw_result(
    pen: ImageDraw.ImageDraw, box: Box, view: CarcassonneView, names: Sequence[str], theme: CarcassonneTheme
) -> None:
    draw_result_banner(
        pen,
        box,
        labels.GAME_OVER,
        winners_line(view.winners, names, labels.WINNER, labels.SHARED_WIN, labels.NAME_SEPARATOR),
        fill=theme.win_banner if len(view.winners) == 1 else theme.draw_banner,
        ink=theme.on_banner,
        radius=BOX_RADIUS - 3,
        headline_font=font(24, bold=True),
        line_font=font(26, bold=True),
    )


# Players --------------------------------------------------------------------------------------------------


def _draw_player(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    row: Box,
    view: CarcassonneView,
    seat: int,
    name: str,
    theme: CarcassonneTheme,
) -> None:
    left, top, right, bottom = row
    if not view.finished and view.turn == seat:
        pen.rounded_rectangle(
            (left + 4, top + 3, right - 4, bottom - 3), 10, fill=theme.active, outline=theme.active_border, width=3
        )
    elif view.finished and seat in view.winners:
        pen.rounded_rectangle((left + 4, top + 3, right - 4, bottom - 3), 10, outline=theme.win_banner, width=3)
    y = top + 19
    paste_centred(image, meeple_sprite(theme.seat(seat), 30, False, theme), (right - 26, top + lay.PLAYER_ROW_H / 2))
    # The score at the left: the number, then the word left of it (read from the right: «۱۲ امتیاز»).
    word_font, score_font = font(15), font(28, bold=True)
    draw_text(pen, (left + 14, y + 4), labels.POINTS, font=word_font, fill=theme.muted, anchor="lm")
    x = left + 14 + text_size(labels.POINTS, font=word_font)[0] + 6
    score = persian_digits(view.scores[seat])
    draw_text(pen, (x, y + 6), score, font=score_font, fill=theme.ink, anchor="lm")
    x += text_size(score, font=score_font)[0] + 12
    name_font = font(20, bold=True)
    draw_text(
        pen,
        (right - 48, y),
        ellipsize(name, right - 48 - x, font=name_font),
        font=name_font,
        fill=theme.ink,
        anchor="rm",
    )
    # Meeples left, as small meeples under the name.
    count = view.meeples_left[seat]
    small = meeple_sprite(theme.seat(seat), 15, False, theme)
    for k in range(count):
        paste_centred(image, small, (right - 56 - k * 15, top + 39))
    if count == 0:
        left_text = persian_digits(labels.MEEPLES_LEFT.format(n=0))
        draw_text(pen, (right - 48, top + 39), left_text, font=font(14), fill=theme.muted, anchor="rm")


# The turn box ---------------------------------------------------------------------------------------------


def _caption(pen: ImageDraw.ImageDraw, box: Box, text: str, theme: CarcassonneTheme) -> None:
    left, top, right, _bottom = box
    face = fitting_font(text, right - left - 32, size=20, min_size=14, bold=True)
    draw_text(pen, (right - 16, top + 24), text, font=face, fill=theme.ink, anchor="rm")


def _draw_turn_box(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    box: Box,
    view: CarcassonneView,
    names: Sequence[str],
    choice: Choice | None,
    theme: CarcassonneTheme,
) -> None:
    if view.finished:
        _draw_points(pen, box, view, names, theme)
        return
    if view.phase != "tile" or view.drawn is None:
        return
    if choice is None:
        _draw_drawn(image, pen, box, view.drawn, theme)
    elif choice.placement is None:
        _draw_rotations(image, pen, box, view.drawn, choice, theme)
    else:
        _draw_spot_choice(image, pen, box, view, choice, theme)


def _draw_drawn(image: Image.Image, pen: ImageDraw.ImageDraw, box: Box, letter: str, theme: CarcassonneTheme) -> None:
    left, top, right, bottom = box
    _caption(pen, box, labels.DRAWN, theme)
    size = lay.DRAWN_TILE
    cx, cy = (left + right) // 2, top + 50 + size // 2
    image.paste(tile_sprite(letter, 0, size, theme), (cx - size // 2, cy - size // 2))
    hint_font = fitting_font(labels.CHOOSE_PLACE, right - left - 24, size=18, min_size=13)
    draw_text(pen, (cx, bottom - 34), labels.CHOOSE_PLACE, font=hint_font, fill=theme.muted)


def _draw_rotations(
    image: Image.Image, pen: ImageDraw.ImageDraw, box: Box, letter: str, choice: Choice, theme: CarcassonneTheme
) -> None:
    """The drawn tile in each rotation that fits the chosen position, in a 2 × 2 grid read from the right
    (larger in one row when two fit), each with its free spots lettered and captioned with its rotation, as
    its buttons name them (the bot lists each placement, rotation and meeple, as one button)."""
    left, top, right, _bottom = box
    number = labels.candidate_label(choice.candidate.number)
    rotations = choice.candidate.rotations
    ask = labels.CHOOSE_PLACEMENT if any(placement.spots for placement in rotations) else labels.CHOOSE_ROTATION
    _caption(pen, box, f"{labels.PLACE.format(n=number)} — {ask}", theme)
    size = lay.CHOICE_TILE if len(rotations) > 2 else lay.CHOICE_TILE_ROW
    cell_w = (right - left) // 2
    label_font = font(20, bold=True)
    lower = (lay.TURN_BOX_H - 48 - size - 38) // 3 if len(rotations) <= 2 else 0  # one row: nearer the middle
    for k, placement in enumerate(rotations):
        row, col = divmod(k, 2)
        cx = right - cell_w // 2 - col * cell_w
        y = top + 48 + row * (size + 38) + lower
        image.paste(tile_sprite(letter, placement.rotation, size, theme), (cx - size // 2, y))
        frame = Frame(0, 0, 1, 1, size, cx - size // 2, y)
        draw_spots(image, frame, 0, 0, letter, Choice(choice.candidate, placement), 0, theme)
        draw_text(pen, (cx, y + size + 17), labels.rotation_label(placement.rotation), font=label_font, fill=theme.ink)


def _draw_spot_choice(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    box: Box,
    view: CarcassonneView,
    choice: Choice,
    theme: CarcassonneTheme,
) -> None:
    """The tile as it will lie, large, with its spots' labels and their legend at the left (before a spot is
    chosen), or with the chosen meeple and what it stands on (to confirm)."""
    placement = choice.placement
    assert placement is not None and view.drawn is not None
    left, top, right, bottom = box
    seat = view.turn or 0
    caption = labels.CONFIRM
    if choice.spot is None:
        caption = labels.CHOOSE_SPOT if placement.spots else labels.NO_SPOT
    _caption(pen, box, f"{labels.rotation_label(placement.rotation)} — {caption}", theme)
    size = lay.DRAWN_TILE
    tile_left = right - 16 - size if choice.spot is None and placement.spots else (left + right - size) // 2
    frame = Frame(0, 0, 1, 1, size, tile_left, top + 48)
    image.paste(tile_sprite(view.drawn, placement.rotation, size, theme), (frame.left, frame.top))
    draw_spots(image, frame, 0, 0, view.drawn, choice, seat, theme)
    if choice.spot is None:
        legend_font = font(17)
        tag = spot_tag_size(size) - 4
        for index, spot in enumerate(placement.spots):
            y = top + 62 + index * 30
            sprite = spot_tag_sprite(labels.spot_label(index), tag, theme)
            x = tile_left - 14
            image.paste(sprite, (x - sprite.width, round(y - sprite.height / 2)), sprite)
            name = labels.FEATURE_NAMES[spot.feature]
            draw_text(pen, (x - sprite.width - 8, y), name, font=legend_font, fill=theme.ink, anchor="rm")
        return
    feature = choice.spot_feature()
    text = labels.NO_MEEPLE if feature is None else labels.MEEPLE_ON.format(feature=labels.FEATURE_NAMES[feature])
    draw_text(pen, ((left + right) / 2, bottom - 40), text, font=font(21, bold=True), fill=theme.ink)


def _draw_points(
    pen: ImageDraw.ImageDraw, box: Box, view: CarcassonneView, names: Sequence[str], theme: CarcassonneTheme
) -> None:
    """Points per category (fields only with farmers) and the total per player, the winners' rows in the
    winning colour."""
    left, top, right, _bottom = box
    _caption(pen, box, labels.POINTS, theme)
    shown = [k for k, category in enumerate(CATEGORIES) if view.farmers or category != "field"]
    columns = (*(labels.FEATURE_NAMES[CATEGORIES[k]] for k in shown), labels.TOTAL)
    cell = 44
    name_right = right - 16
    first = left + 16 + cell // 2  # the total's column, at the far left
    head_font, cell_font, name_font = font(14), font(18), font(17, bold=True)
    y = top + 64
    for k, title in enumerate(columns):
        x = first + (len(columns) - 1 - k) * cell
        draw_text(pen, (x, y), title, font=head_font, fill=theme.muted)
    name_w = name_right - (first + (len(columns) - 1) * cell + cell // 2) - 6
    for seat in range(view.players):
        y = top + 100 + seat * 36
        ink = theme.win_banner if seat in view.winners else theme.ink
        draw_text(
            pen, (name_right, y), ellipsize(names[seat], name_w, font=name_font), font=name_font, fill=ink, anchor="rm"
        )
        values = (*(view.points[seat][k] for k in shown), view.scores[seat])
        for k, value in enumerate(values):
            x = first + (len(columns) - 1 - k) * cell
            face = font(18, bold=True) if k == len(values) - 1 else cell_font
            draw_text(pen, (x, y), persian_digits(value), font=face, fill=ink)
    if view.discarded:
        text = persian_digits(labels.DISCARDED.format(n=len(view.discarded)))
        draw_text(
            pen, (right - 16, top + 100 + view.players * 36 + 8), text, font=font(15), fill=theme.muted, anchor="rm"
        )
