"""The Coin Age board picture, made from the public view alone: ``render(view) -> PIL image``.

The cached static layer (cards, map, names, the colours' cells) is copied and only what changes is drawn on
it: the turn or the result on top, the stacks and the last move on the map, who holds each colour under it,
and the players' scores and supplies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.coin_age import labels
from rendering.coin_age import layout as lay
from rendering.coin_age.facts import possible, ranking
from rendering.coin_age.names import fitted
from rendering.coin_age.sprites import Style, coin_sprite, paste_centred, ring_mask
from rendering.coin_age.static import lead_row, space_centres, static_layer
from rendering.coin_age.theme import DEFAULT_THEME, CoinAgeTheme
from rendering.text import draw_text, drawable, font, persian_digits, text_size
from rules.coin_age.model import CoinAgeView, TurnView


def render(
    view: CoinAgeView, *, theme: CoinAgeTheme = DEFAULT_THEME, names: Sequence[str] | None = None
) -> Image.Image:
    """The whole board as a 900×1072 RGB picture; ``names`` are the two seats' display names (default: the
    side names شیر and خط)."""
    seat_names = _seat_names(view, names)
    base = static_layer(
        theme,
        tuple((s.id, s.name, s.region) for s in view.spaces),
        tuple((r.id, len(r.spaces)) for r in view.regions),
    )
    image = base.copy()
    pen = ImageDraw.Draw(image)
    _draw_last_move(image, view, theme)
    _draw_stacks(image, view, theme)
    _draw_leads(image, pen, view, theme)
    for seat, box in zip(_card_order(view), lay.PLAYER_BOXES, strict=True):
        _draw_player(image, pen, view, seat, seat_names[seat], box, theme)
    if view.finished or view.turn is None:
        _draw_result(pen, view, seat_names, theme)
    else:
        _draw_turn(image, pen, view, seat_names, theme)
    return image


def _seat_names(view: CoinAgeView, names: Sequence[str] | None) -> tuple[str, str]:
    given = list(names or ())
    out = []
    for seat in (0, 1):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or view.sides[seat])
    return out[0], out[1]


def _card_order(view: CoinAgeView) -> tuple[int, ...]:
    """Seat 0 on the right while the game runs; once it is over, the best first (on the right)."""
    if not view.finished:
        return (0, 1)
    return tuple(seat for _, seat in ranking(view))


# Board --------------------------------------------------------------------------------------------------


def _draw_stacks(image: Image.Image, view: CoinAgeView, theme: CoinAgeTheme) -> None:
    centres = space_centres([s.id for s in view.spaces])
    for space in view.spaces:
        slots = lay.stack_slots(centres[space.id], tuple(c.size for c in space.stack))
        for coin, slot in zip(space.stack, slots, strict=True):
            if slot.top:
                sprite = coin_sprite(
                    coin.size, coin.side, slot.radius, theme=theme, style="top", digit_size=lay.TOP_DIGIT_SIZE
                )
            else:
                sprite = coin_sprite(
                    coin.size,
                    coin.side,
                    slot.radius,
                    theme=theme,
                    style="under",
                    digit_size=lay.UNDER_DIGIT_SIZE,
                    digit_offset=slot.radius - lay.UNDER_DIGIT_DY,
                )
            paste_centred(image, sprite, slot.centre)


def _draw_last_move(image: Image.Image, view: CoinAgeView, theme: CoinAgeTheme) -> None:
    """A white band, edged dark, inside each space the last move changed (a move marks where it left too)."""
    centres = space_centres([s.id for s in view.spaces])
    outer = lay.SPACE_RADIUS - 3
    edge, band = ring_mask(outer, lay.LAST_MOVE_BAND + 4), ring_mask(outer - 2, lay.LAST_MOVE_BAND)
    for space in view.last_move:
        x, y = centres[space]
        image.paste(theme.last_move_edge, (round(x) - edge.width // 2, round(y) - edge.height // 2), edge)
        image.paste(theme.last_move, (round(x) - band.width // 2, round(y) - band.height // 2), band)


def _chip(image: Image.Image, side: int, centre: tuple[float, float], radius: int, theme: CoinAgeTheme) -> None:
    """A plain disc in a side's colour, the mark of a player."""
    paste_centred(image, coin_sprite(0, side, radius, theme=theme, style="chip"), centre)


# Colours under the map ----------------------------------------------------------------------------------


def _draw_leads(image: Image.Image, pen: ImageDraw.ImageDraw, view: CoinAgeView, theme: CoinAgeTheme) -> None:
    """Per colour, a pip per space in the colour of the side holding it (seat 0's first, then seat 1's, then
    the open ones), and «×۲» in the colour of the side whose points there are doubled."""
    _label, cells = lead_row(tuple(len(r.spaces) for r in view.regions))
    badge_font = font(lay.LEAD_LABEL_SIZE, bold=True)
    for region, cell in zip(view.regions, cells, strict=True):
        holders = [0] * region.controlled[0] + [1] * region.controlled[1]
        for i, centre in enumerate(cell.pips):
            if i < len(holders):
                _chip(image, holders[i], centre, lay.LEAD_PIP_RADIUS, theme)
            else:
                paste_centred(image, coin_sprite(0, 0, lay.LEAD_PIP_RADIUS, theme=theme, style="open"), centre)
        if region.doubled is not None:
            side = region.doubled
            left, top, right, bottom = cell.badge
            pen.rounded_rectangle(cell.badge, 10, fill=theme.side_fill(side), outline=theme.coin_outline, width=2)
            centre = ((left + right) / 2, (top + bottom) / 2)
            draw_text(pen, centre, labels.DOUBLED, font=badge_font, fill=theme.side_ink(side))


# Player cards -------------------------------------------------------------------------------------------


def _draw_player(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CoinAgeView,
    seat: int,
    name: str,
    box: lay.Box,
    theme: CoinAgeTheme,
) -> None:
    """Name, score and the coins left by size (a count under each); outlined in the player's colour while it
    is their turn, and for the winner."""
    left, top, right, _bottom = box
    marked = seat in view.winners if view.finished else view.turn is not None and view.turn.seat == seat
    if marked:
        pen.rounded_rectangle(box, 18, outline=theme.side_fill(seat), width=lay.TURN_OUTLINE)
    chip_x = right - lay.INSET - lay.CARD_CHIP_RADIUS
    _chip(image, seat, (chip_x, top + lay.CARD_NAME_Y), lay.CARD_CHIP_RADIUS, theme)
    name_right = chip_x - lay.CARD_CHIP_RADIUS - 12
    shown, face = fitted(name, name_right - left - lay.INSET, lay.CARD_NAME_SIZE, lay.MIN_TEXT)
    draw_text(pen, (name_right, top + lay.CARD_NAME_Y), shown, font=face, fill=theme.ink, anchor="rm")
    pen.line((left + 20, top + lay.CARD_RULE_Y, right - 20, top + lay.CARD_RULE_Y), fill=theme.card_border, width=2)
    score_x = left + lay.SCORE_X
    total = persian_digits(view.scores[seat].total)
    draw_text(pen, (score_x, top + lay.SUPPLY_Y), total, font=font(lay.SCORE_SIZE, bold=True), fill=theme.ink)
    draw_text(pen, (score_x, top + lay.SCORE_LABEL_Y), labels.SCORE, font=font(lay.SCORE_LABEL_SIZE), fill=theme.muted)
    y = top + lay.SUPPLY_Y
    for size, count in enumerate(view.supply[seat]):
        cx = right - lay.INSET - max(lay.SUPPLY_COIN_RADIUS) - size * lay.SUPPLY_STEP
        sprite = coin_sprite(
            size,
            seat,
            lay.SUPPLY_COIN_RADIUS[size],
            theme=theme,
            style="plain" if count else "ghost",
            digit_size=lay.SUPPLY_DIGIT_SIZE,
        )
        paste_centred(image, sprite, (cx, y))
        _count(pen, (cx, y + lay.COUNT_DY), count, theme)


def _count(pen: ImageDraw.ImageDraw, centre: tuple[float, float], count: int, theme: CoinAgeTheme) -> None:
    """How many coins of a size are left: a round count under the coin, dark (light grey when none)."""
    x, y = centre
    r = lay.COUNT_RADIUS
    pen.ellipse((x - r, y - r, x + r, y + r), fill=theme.ink if count else theme.muted, outline=theme.card, width=2)
    draw_text(pen, (x, y), persian_digits(count), font=font(lay.COUNT_SIZE, bold=True), fill=theme.card)


# The top band: the turn ---------------------------------------------------------------------------------


def _draw_turn(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: CoinAgeView, names: tuple[str, str], theme: CoinAgeTheme
) -> None:
    """Whose turn (chip and name), the toss on the left, and what can still be done, in words."""
    turn = view.turn
    assert turn is not None
    right = lay.HEADER_BOX[2]
    row1, row2 = lay.HEADER_ROW_Y
    toss_right = _draw_toss(image, turn, theme)
    chip_x = right - lay.INSET - lay.HEADER_CHIP_RADIUS
    _chip(image, turn.seat, (chip_x, row1), lay.HEADER_CHIP_RADIUS, theme)
    name_right = chip_x - lay.HEADER_CHIP_RADIUS - 12
    who = labels.TURN.format(name="")
    who_face = font(lay.HEADER_NAME_SIZE, bold=True)
    room = round(name_right - toss_right) - 24 - text_size(who, font=who_face)[0]
    shown, _face = fitted(names[turn.seat], room, lay.HEADER_NAME_SIZE, lay.HEADER_NAME_SIZE)
    draw_text(pen, (name_right, row1), labels.TURN.format(name=shown), font=who_face, fill=theme.ink, anchor="rm")
    _draw_can_do(pen, labels.can_do(possible(view)), y=row2, theme=theme)


def _draw_can_do(pen: ImageDraw.ImageDraw, what: str, *, y: int, theme: CoinAgeTheme) -> None:
    """«کارهای ممکن:» in grey, then what can be done in bold; both a little smaller when it is long."""
    left, _top, right, _bottom = lay.HEADER_BOX
    room = right - left - 2 * lay.INSET
    for size in range(lay.HEADER_TEXT_SIZE, lay.MIN_TEXT - 1, -1):
        label_face, what_face = font(size), font(size, bold=True)
        label_w = text_size(labels.CAN_DO, font=label_face)[0] + size // 3
        if label_w + text_size(what, font=what_face)[0] <= room:
            break
    x = right - lay.INSET
    draw_text(pen, (x, y), labels.CAN_DO, font=label_face, fill=theme.muted, anchor="rm")
    draw_text(pen, (x - label_w, y), what, font=what_face, fill=theme.ink, anchor="rm")


def _draw_toss(image: Image.Image, turn: TurnView, theme: CoinAgeTheme) -> float:
    """The tossed coins as they fell, at the band's left: favourable ones in the player's colour (see-through
    once used), the others grey. Returns the right end of the coins."""
    in_hand = Counter((c.size, c.side) for c in turn.hand)
    centres = lay.toss_centres(len(turn.toss))
    for coin, centre in zip(turn.toss, centres, strict=True):
        still = in_hand[(coin.size, coin.side)] > 0
        if still:
            in_hand[(coin.size, coin.side)] -= 1
        favourable = coin.side == turn.seat
        style: Style = "grey" if not favourable else "plain" if still else "faded"
        radius = lay.TOSS_COIN_RADIUS[coin.size]
        sprite = coin_sprite(coin.size, coin.side, radius, theme=theme, style=style, digit_size=lay.TOSS_DIGIT_SIZE)
        paste_centred(image, sprite, centre)
    return centres[0][0] + max(lay.TOSS_COIN_RADIUS) if centres else lay.HEADER_BOX[0]


# The top band: the result -------------------------------------------------------------------------------


def _draw_result(pen: ImageDraw.ImageDraw, view: CoinAgeView, names: tuple[str, str], theme: CoinAgeTheme) -> None:
    """A banner in the winner's colour naming them (grey «مساوی» for a draw), and why the game ended or how
    equal totals were decided."""
    left, top, right, _bottom = lay.HEADER_BOX
    row1, row2 = lay.HEADER_ROW_Y
    pad = lay.BANNER_PAD
    banner = (left + pad, top + pad, right - pad, 2 * row1 - top - pad)
    face = font(lay.HEADER_NAME_SIZE, bold=True)
    if len(view.winners) == 1:
        winner = view.winners[0]
        pen.rounded_rectangle(banner, 14, fill=theme.side_fill(winner), outline=theme.coin_outline, width=2)
        room = right - left - 2 * lay.INSET - text_size(labels.WINNER.format(name=""), font=face)[0]
        shown, _face = fitted(names[winner], room, lay.HEADER_NAME_SIZE, lay.HEADER_NAME_SIZE)
        text, ink = labels.WINNER.format(name=shown), theme.side_ink(winner)
    else:
        pen.rounded_rectangle(banner, 14, fill=theme.draw_banner, outline=theme.coin_outline, width=2)
        text, ink = labels.DRAW, theme.on_banner
    draw_text(pen, ((left + right) / 2, row1), text, font=face, fill=ink)
    totals = {s.total for s in view.scores}
    note = (
        labels.TIEBREAK
        if len(totals) == 1 and len(view.winners) == 1
        else labels.END_REASONS.get(view.end_reason or "", "")
    )
    if note:
        draw_text(pen, ((left + right) / 2, row2), note, font=font(lay.HEADER_TEXT_SIZE), fill=theme.muted)
