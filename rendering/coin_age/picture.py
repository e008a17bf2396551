"""The Coin Age board picture, made from the public view alone: ``render(view) -> PIL image``.

The cached static layer (board, names, cards) is copied and only what changes is drawn on it: stacks, the
toss, allowances, scores, supplies and region control.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.coin_age import labels
from rendering.coin_age import layout as lay
from rendering.coin_age.sprites import Style, coin_sprite, paste_centred, ring_mask
from rendering.coin_age.static import LEGEND_ROWS_Y, LEGEND_SIDES_Y, space_centres, static_layer
from rendering.coin_age.theme import DEFAULT_THEME, CoinAgeTheme
from rendering.text import draw_text, drawable, ellipsize, font, persian_digits, text_size
from rendering.theme import RGB
from rules.coin_age.model import CoinAgeView, TurnView


def render(
    view: CoinAgeView, *, theme: CoinAgeTheme = DEFAULT_THEME, names: Sequence[str] | None = None
) -> Image.Image:
    """The whole board as a 1280×960 RGB picture; ``names`` are the two seats' display names (default: the
    side names شیر and خط)."""
    seat_names = _seat_names(view, names)
    base = static_layer(
        theme, tuple((s.id, s.name, s.region) for s in view.spaces), tuple((r.id, r.name) for r in view.regions)
    )
    image = base.copy()
    pen = ImageDraw.Draw(image)
    _draw_last_move(image, view, theme)
    _draw_stacks(image, view, theme)
    _draw_legend(image, pen, view, seat_names, theme)
    for seat in (0, 1):
        _draw_player(image, pen, view, seat, seat_names[seat], theme)
    if view.finished or view.turn is None:
        _draw_result(image, pen, view, seat_names, theme)
    else:
        _draw_turn(image, pen, view.turn, seat_names, theme)
    return image


def _seat_names(view: CoinAgeView, names: Sequence[str] | None) -> tuple[str, str]:
    given = list(names or ())
    out = []
    for seat in (0, 1):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or view.sides[seat])
    return out[0], out[1]


# Board --------------------------------------------------------------------------------------------------


def _draw_stacks(image: Image.Image, view: CoinAgeView, theme: CoinAgeTheme) -> None:
    centres = space_centres([s.id for s in view.spaces])
    for space in view.spaces:
        slots = lay.stack_slots(centres[space.id], tuple(c.size for c in space.stack))
        for coin, slot in zip(space.stack, slots, strict=True):
            if slot.top:
                sprite = coin_sprite(coin.size, coin.side, slot.radius, theme=theme, style="top", digit_size=32)
            else:
                sprite = coin_sprite(
                    coin.size,
                    coin.side,
                    slot.radius,
                    theme=theme,
                    style="under",
                    digit_size=21,
                    digit_offset=slot.radius - 16,
                )
            paste_centred(image, sprite, slot.centre)


def _draw_last_move(image: Image.Image, view: CoinAgeView, theme: CoinAgeTheme) -> None:
    """A white band, edged dark, inside each space the last move changed (a move marks where it left too)."""
    centres = space_centres([s.id for s in view.spaces])
    outer = lay.HEX_RADIUS - lay.HEX_GAP / 2 - 3
    edge, band = ring_mask(outer, lay.LAST_MOVE_BAND + 4), ring_mask(outer - 2, lay.LAST_MOVE_BAND)
    for space in view.last_move:
        x, y = centres[space]
        image.paste(theme.last_move_edge, (round(x) - edge.width // 2, round(y) - edge.height // 2), edge)
        image.paste(theme.last_move, (round(x) - band.width // 2, round(y) - band.height // 2), band)


# Legend ---------------------------------------------------------------------------------------------------


def _chip(image: Image.Image, side: int, centre: tuple[float, float], radius: int, theme: CoinAgeTheme) -> None:
    """A plain disc in a side's colour, the mark of a player."""
    paste_centred(image, coin_sprite(0, side, radius, theme=theme, style="chip"), centre)


def _draw_legend(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: CoinAgeView, names: tuple[str, str], theme: CoinAgeTheme
) -> None:
    """Whose colour is whose, then per region: spaces each player controls (on their colour's chips) and whose
    points are doubled."""
    left, _top, right, _bottom = lay.LEGEND_BOX
    x = right - 36
    name_font = font(24)
    for seat in (0, 1):
        _chip(image, seat, (x, LEGEND_SIDES_Y), 13, theme)
        name = ellipsize(names[seat], 130, font=name_font)
        draw_text(pen, (x - 22, LEGEND_SIDES_Y), name, font=name_font, fill=theme.ink, anchor="rm")
        x -= 22 + text_size(name, font=name_font)[0] + 44
    for y, region in zip(LEGEND_ROWS_Y, view.regions, strict=False):
        for side, cx in ((0, left + 110), (1, left + 68)):
            count = region.controlled[side]
            _chip(image, side, (cx, y), 18, theme)
            draw_text(pen, (cx, y), persian_digits(count), font=font(22, bold=True), fill=theme.side_ink(side))
        if region.doubled is None:
            draw_text(pen, (left + 28, y), labels.NOBODY, font=font(24, bold=True), fill=theme.muted)
        else:
            side = region.doubled
            pen.rounded_rectangle(
                (left + 8, y - 16, left + 46, y + 16), 9, fill=theme.side_fill(side), outline=theme.coin_outline
            )
            draw_text(pen, (left + 27, y), labels.DOUBLED, font=font(24, bold=True), fill=theme.side_ink(side))


# Player cards -------------------------------------------------------------------------------------------


def _draw_player(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: CoinAgeView, seat: int, name: str, theme: CoinAgeTheme
) -> None:
    left, top, right, bottom = lay.PLAYER_BOXES[seat]
    in_turn = view.turn is not None and view.turn.seat == seat and not view.finished
    if in_turn:
        pen.rounded_rectangle((left, top, right, bottom), 18, outline=theme.side_fill(seat), width=5)
    _chip(image, seat, (right - 38, top + 42), 16, theme)
    name_font = font(32, bold=True)
    draw_text(
        pen, (right - 64, top + 42), ellipsize(name, 250, font=name_font), font=name_font, fill=theme.ink, anchor="rm"
    )
    score = view.scores[seat]
    draw_text(pen, (left + 70, top + 46), persian_digits(score.total), font=font(52, bold=True), fill=theme.ink)
    draw_text(pen, (left + 70, top + 92), labels.SCORE, font=font(22), fill=theme.muted)
    detail = labels.SCORE_DETAIL.format(board=score.board, unplaced=score.unplaced)
    draw_text(pen, (right - 24, top + 94), persian_digits(detail), font=font(27), fill=theme.muted, anchor="rm")
    pen.line((left + 20, top + 124, right - 20, top + 124), fill=theme.card_border, width=2)
    row_y = top + 172
    draw_text(pen, (right - 24, row_y), labels.SUPPLY, font=font(26, bold=True), fill=theme.ink, anchor="rm")
    for size, count in enumerate(view.supply[seat]):
        cx = right - 134 - size * 78
        radius = lay.SMALL_COIN_RADIUS[size]
        style = "plain" if count else "ghost"
        paste_centred(image, coin_sprite(size, seat, radius, theme=theme, style=style, digit_size=24), (cx, row_y))
        badge_y = row_y + max(lay.SMALL_COIN_RADIUS) + 21  # under the coin, clear of its digit
        _badge(pen, (cx, badge_y), persian_digits(count), theme, muted=not count)


def _badge(
    pen: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, theme: CoinAgeTheme, *, muted: bool
) -> None:
    """How many coins of a size are left: a round count under the coin."""
    x, y = centre
    r = 17
    fill = theme.muted if muted else theme.ink
    pen.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=theme.card, width=2)
    draw_text(pen, (x, y), text, font=font(26, bold=True), fill=theme.card)


# Turn panel -----------------------------------------------------------------------------------------------


def _draw_turn(
    image: Image.Image, pen: ImageDraw.ImageDraw, turn: TurnView, names: tuple[str, str], theme: CoinAgeTheme
) -> None:
    left, top, right, _bottom = lay.TURN_BOX
    draw_text(pen, (right - 24, top + 110), labels.TURN, font=font(24), fill=theme.muted, anchor="rm")
    draw_text(
        pen,
        (left + 24, top + 110),
        persian_digits(labels.ROUND.format(n=turn.number)),
        font=font(24),
        fill=theme.muted,
        anchor="lm",
    )
    _chip(image, turn.seat, (right - 40, top + 156), 18, theme)
    name_font = font(36, bold=True)
    draw_text(
        pen,
        (right - 70, top + 156),
        ellipsize(names[turn.seat], 260, font=name_font),
        font=name_font,
        fill=theme.ink,
        anchor="rm",
    )
    pen.line((left + 20, top + 196, right - 20, top + 196), fill=theme.card_border, width=2)
    draw_text(pen, (right - 24, top + 226), labels.TOSS, font=font(25, bold=True), fill=theme.ink, anchor="rm")
    _draw_toss(image, pen, turn, theme, y=top + 288)
    summary = labels.TOSS_SUMMARY.format(favourable=turn.favourable, hand=len(turn.hand))
    draw_text(pen, ((left + right) / 2, top + 384), persian_digits(summary), font=font(23), fill=theme.ink)
    pen.line((left + 20, top + 414, right - 20, top + 414), fill=theme.card_border, width=2)
    allowances = (
        (labels.PLACES, turn.places_left),
        (labels.MOVES, turn.moves_left),
        (labels.CAPTURES, turn.captures_left),
        (labels.PAY, int(turn.can_pay)),
    )
    cell_w = (right - left - 48) / 2
    for i, (label, n) in enumerate(allowances):
        row, column = divmod(i, 2)
        cell_right = right - 16 - column * (cell_w + 16)
        cy = top + 456 + row * 56
        if n:
            pen.rounded_rectangle((cell_right - cell_w, cy - 22, cell_right, cy + 22), 12, fill=theme.active)
        draw_text(
            pen,
            (cell_right - cell_w / 2, cy),
            persian_digits(label.format(n=n)),
            font=font(24, bold=bool(n)),
            fill=theme.ink if n else theme.muted,
        )


def _draw_toss(image: Image.Image, pen: ImageDraw.ImageDraw, turn: TurnView, theme: CoinAgeTheme, *, y: int) -> None:
    """The tossed coins as they fell, right to left: favourable ones in the player's colour and tagged (faded
    once used), the others grey."""
    left, _top, right, _bottom = lay.TURN_BOX
    in_hand = Counter((c.size, c.side) for c in turn.hand)
    step = 80
    first = (left + right) / 2 + (len(turn.toss) - 1) * step / 2
    for i, coin in enumerate(turn.toss):
        cx = first - i * step
        still = in_hand[(coin.size, coin.side)] > 0
        if still:
            in_hand[(coin.size, coin.side)] -= 1
        radius = lay.SMALL_COIN_RADIUS[coin.size]
        favourable = coin.side == turn.seat
        style: Style = "grey" if not favourable else "plain" if still else "faded"
        paste_centred(
            image, coin_sprite(coin.size, coin.side, radius, theme=theme, style=style, digit_size=24), (cx, y)
        )
        if favourable:
            _tag(pen, (cx, y + 50), labels.FAVOURABLE, theme, faded=not still)


def _tag(pen: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, theme: CoinAgeTheme, *, faded: bool) -> None:
    x, y = centre
    fill: RGB = theme.favourable if not faded else theme.active
    pen.rounded_rectangle((x - 38, y - 17, x + 38, y + 17), 10, fill=fill)
    draw_text(pen, (x, y), text, font=font(23, bold=True), fill=theme.on_favourable if not faded else theme.favourable)


# Result ---------------------------------------------------------------------------------------------------


def _draw_result(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: CoinAgeView, names: tuple[str, str], theme: CoinAgeTheme
) -> None:
    left, top, right, _bottom = lay.TURN_BOX
    cx = (left + right) / 2
    draw_text(pen, (cx, top + 120), labels.GAME_OVER, font=font(34, bold=True), fill=theme.ink)
    reason = labels.END_REASONS.get(view.end_reason or "", "")
    if reason:
        draw_text(pen, (cx, top + 166), reason, font=font(23), fill=theme.muted)
    box = (left + 20, top + 196, right - 20, top + 356)
    if len(view.winners) == 1:
        winner = view.winners[0]
        pen.rounded_rectangle(box, 18, fill=theme.side_fill(winner), outline=theme.coin_outline, width=2)
        ink = theme.side_ink(winner)
        draw_text(pen, (cx, top + 234), labels.WINNER, font=font(26, bold=True), fill=ink)
        name_font = font(44, bold=True)
        draw_text(pen, (cx, top + 300), ellipsize(names[winner], 290, font=name_font), font=name_font, fill=ink)
    else:
        pen.rounded_rectangle(box, 18, fill=theme.draw_banner, outline=theme.coin_outline, width=2)
        draw_text(pen, (cx, top + 276), labels.DRAW, font=font(52, bold=True), fill=theme.on_banner)
    for seat in (0, 1):
        y = top + 400 + seat * 52
        _chip(image, seat, (right - 40, y), 16, theme)
        name_font = font(28, bold=True)
        draw_text(
            pen,
            (right - 68, y),
            ellipsize(names[seat], 200, font=name_font),
            font=name_font,
            fill=theme.ink,
            anchor="rm",
        )
        draw_text(
            pen,
            (left + 32, y),
            persian_digits(view.scores[seat].total),
            font=font(32, bold=True),
            fill=theme.ink,
            anchor="lm",
        )
    totals = {s.total for s in view.scores}
    if len(totals) == 1 and len(view.winners) == 1:
        draw_text(pen, (cx, top + 512), labels.TIEBREAK, font=font(20), fill=theme.muted)
