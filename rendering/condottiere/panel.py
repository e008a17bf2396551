"""The group picture's words and counts: the battle's panel beside the map, and one row per player under it.

The panel says, top to bottom, which battle is fought where, whose turn it is and what they are choosing,
the season, the deck and the discards, and where the peace token lies; once the game is over, who won and
why. A player's row says who they are (chip and name), what they hold (cards in hand, provinces or battles
won, Courtesans in the line), whether they are to act, passed or won, their battle line and its strength.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from rendering.condottiere import labels
from rendering.condottiere import layout as lay
from rendering.condottiere.sprites import (
    battle_token,
    card_back,
    card_sprite,
    chip_sprite,
    hand_mark,
    heart_mark,
    kind_of,
    paste_centred,
    peace_token,
    province_mark,
    slot_sprite,
    win_sprite,
)
from rendering.condottiere.theme import CondottiereTheme
from rendering.text import draw_text, ellipsize, font, persian_digits, text_size
from rules.condottiere.data import BOARDS
from rules.condottiere.model import DUEL_WINS, CondottiereView

SMALL = lay.MIN_TEXT
FIGHTING = ("battle", "scarecrow", "peace")  # phases with a battle under way: lines and strengths matter


def wrap(text: str, width: int, size: int, *, bold: bool = False) -> list[str]:
    """``text`` in lines no wider than ``width``, broken between words (a word longer than a line is cut)."""
    face = font(size, bold=bold)
    lines: list[str] = []
    for word in text.split():
        if lines and text_size(f"{lines[-1]} {word}", font=face)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(ellipsize(word, width, font=face))
    return lines


# The panel ------------------------------------------------------------------------------------------------


def draw_panel(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    conquest: tuple[int, ...],
    theme: CondottiereTheme,
) -> None:
    """The battle's panel in ``box``; ``conquest``: the provinces that won the game (named under the winners)."""
    left, top, right, bottom = box
    inner = (left + lay.PANEL_PAD, top + lay.PANEL_PAD, right - lay.PANEL_PAD, bottom - lay.PANEL_PAD)
    headline = labels.GAME_OVER if view.finished else persian_digits(labels.BATTLE.format(n=view.battle))
    y: float = inner[1] + 24
    draw_text(pen, (inner[2], y), headline, font=font(lay.HEADLINE_SIZE, bold=True), fill=theme.ink, anchor="rm")
    y += 24 + lay.PANEL_GAP
    if view.finished:
        _draw_result(image, pen, view, names, (inner[0], round(y), inner[2], inner[3]), conquest, theme)
        return
    blocks = [_site, _turn, _season, _piles, _peace] if view.map else [_turn, _season, _piles]
    heights = [_HEIGHTS[block] for block in blocks]
    gap = min(32, (inner[3] - y - sum(heights)) / max(1, len(blocks) - 1))
    for block, height in zip(blocks, heights, strict=True):
        block(image, pen, view, names, (inner[0], round(y), inner[2], round(y + height)), theme)
        y += height + gap


def _icon_line(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    icon: Image.Image,
    words: tuple[str, bool],
    box: lay.Box,
    theme: CondottiereTheme,
    caption: str = "",
) -> None:
    """An icon at the right of ``box``'s middle line, then a muted caption and the words (bold: a name;
    otherwise muted, like the caption), cut to fit."""
    left, top, right, bottom = box
    y = (top + bottom) / 2
    paste_centred(image, icon, (right - icon.width / 2, y))
    x = right - icon.width - 12
    if caption:
        draw_text(pen, (x, y), caption, font=font(SMALL), fill=theme.muted, anchor="rm")
        x -= text_size(caption, font=font(SMALL))[0] + 8
    text, bold = words
    face = font(lay.PANEL_NAME_SIZE, bold=True) if bold else font(SMALL)
    shown = ellipsize(text, round(x - left), font=face)
    draw_text(pen, (x, y), shown, font=face, fill=theme.ink if bold else theme.muted, anchor="rm")


def _site(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    """Under the battle's number: the battle token and the province fought over."""
    site = None if view.battle_site is None or view.map is None else BOARDS[view.map].provinces[view.battle_site]
    words = (site.name, True) if site else (labels.NO_SITE, False)
    _icon_line(image, pen, battle_token(lay.TOKEN_ICON_RADIUS, theme), words, box, theme)


def _peace(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    """The peace token and the province it lies on, under its caption."""
    left, top, right, bottom = box
    draw_text(pen, (right, top + 16), labels.PEACE, font=font(SMALL), fill=theme.muted, anchor="rm")
    where = None if view.peace_token is None or view.map is None else BOARDS[view.map].provinces[view.peace_token]
    words = (where.name, True) if where else (labels.NO_PEACE, False)
    _icon_line(
        image, pen, peace_token(lay.TOKEN_ICON_RADIUS, theme), words, (left, top + lay.CAPTION, right, bottom), theme
    )


def _season(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    """The season slot: the season card in play and its name, or an empty slot."""
    width, height = lay.SEASON_ICON
    if view.season is None:
        _icon_line(image, pen, slot_sprite(width, height, theme), (labels.NO_SEASON, False), box, theme)
        return
    kind = kind_of(view.season)
    icon = card_sprite(kind, width, height, theme, smallest=SMALL, named=False)
    _icon_line(image, pen, icon, (labels.card_name(kind), True), box, theme, caption=labels.SEASON)


def _turn(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    """Whose turn, on a plate outlined in their colour, and what they are choosing; several players deciding
    at once (whether to discard their hands): their chips."""
    left, top, right, bottom = box
    seats = view.to_act or ((view.turn,) if view.turn is not None else ())
    if not seats:
        return
    draw_text(pen, (right, top + 16), labels.TO_ACT, font=font(SMALL), fill=theme.muted, anchor="rm")
    plate = (left, top + lay.CAPTION, right, bottom)
    outline = theme.seat_fill(seats[0]) if len(seats) == 1 else theme.ink
    pen.rounded_rectangle(plate, 14, fill=theme.active, outline=outline, width=4)
    y1, y2 = plate[1] + 28, plate[3] - 28
    x = right - 12 - lay.CHIP_RADIUS
    for seat in seats:
        paste_centred(image, chip_sprite(seat, lay.CHIP_RADIUS, theme, SMALL), (x, y1))
        x -= 2 * lay.CHIP_RADIUS + 8
    if len(seats) == 1:
        face = font(lay.NAME_SIZE, bold=True)
        name = ellipsize(names[seats[0]], round(x - left - 4), font=face)
        draw_text(pen, (x + lay.CHIP_RADIUS - 2, y1), name, font=face, fill=theme.ink, anchor="rm")
    phase = labels.PHASES.get(view.phase, "")
    draw_text(pen, (right - 14, y2), phase, font=font(SMALL), fill=theme.ink, anchor="rm")


def _piles(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    """Two piles with their counts: the deck and the discards, each over its caption (two players: a deck
    each, over its owner's chip)."""
    left, top, right, _bottom = box
    width, height = lay.PILE_CARD
    centre_y = top + height / 2
    caption_y = top + height + 24
    centres = (right - (right - left) / 4, right - 3 * (right - left) / 4)
    back = card_back(width, height, theme)
    if len(view.deck_sizes) > 1:
        for seat, size in enumerate(view.deck_sizes[:2]):  # seat 0 nearer the right, as the rows read
            _pile(image, back, (centres[seat], centre_y), size)
            _count(pen, (centres[seat], centre_y), size, theme)
            paste_centred(image, chip_sprite(seat, lay.CHIP_RADIUS, theme, SMALL), (centres[seat], caption_y))
        return
    discarded = sum(view.discard)
    for centre, pile, count, caption in (
        (centres[0], back, view.deck_sizes[0], labels.DECK),
        (centres[1], slot_sprite(width, height, theme), discarded, labels.DISCARD),
    ):
        _pile(image, pile, (centre, centre_y), count)
        _count(pen, (centre, centre_y), count, theme)
        draw_text(pen, (centre, caption_y), caption, font=font(SMALL), fill=theme.ink)


Block = Callable[[Image.Image, ImageDraw.ImageDraw, CondottiereView, Sequence[str], lay.Box, CondottiereTheme], None]
_HEIGHTS: dict[Block, int] = {
    _site: lay.ICON_LINE,
    _turn: lay.CAPTION + lay.TURN_BOX_HEIGHT,
    _season: lay.ICON_LINE,
    _piles: lay.PILE_CARD[1] + lay.CAPTION + 4,
    _peace: lay.CAPTION + lay.ICON_LINE,
}


def _pile(image: Image.Image, sprite: Image.Image, centre: tuple[float, float], count: int) -> None:
    """A few copies of a card offset up and left, as a pile (one when ``count`` is 0)."""
    layers = max(1, min(3, 1 + count // 12))
    for k in range(layers - 1, -1, -1):
        paste_centred(image, sprite, (centre[0] - 3 * k, centre[1] - 3 * k))


def _count(pen: ImageDraw.ImageDraw, centre: tuple[float, float], count: int, theme: CondottiereTheme) -> None:
    """A number on a small white plate, over a pile of cards."""
    text = persian_digits(count)
    bold = font(SMALL, bold=True)
    w = text_size(text, font=bold)[0]
    x, y = centre
    pen.rounded_rectangle(
        (x - w / 2 - 8, y - 17, x + w / 2 + 8, y + 19), 10, fill=theme.card, outline=theme.outline, width=2
    )
    draw_text(pen, (x, y + 1), text, font=bold, fill=theme.ink)


def _draw_result(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: Sequence[str],
    box: lay.Box,
    conquest: tuple[int, ...],
    theme: CondottiereTheme,
) -> None:
    """The winners on a green plate (grey for a draw), then why the game ended: the provinces that won it, or
    what decided it."""
    left, top, right, bottom = box
    players = len(view.hand_sizes)
    draw = len(view.winners) == players > 1
    caption = labels.DRAW if draw else labels.WINNER if len(view.winners) == 1 else labels.WINNERS
    face = font(lay.NAME_SIZE, bold=True)
    room = right - left - 2 * lay.CHIP_RADIUS - 40
    shown = [wrap(names[seat], room, lay.NAME_SIZE, bold=True)[:2] for seat in view.winners]
    line = 42
    plate_bottom = top + 48 + line * sum(len(parts) for parts in shown) + 8
    pen.rounded_rectangle((left, top, right, plate_bottom), 14, fill=theme.draw_banner if draw else theme.win_banner)
    draw_text(pen, (right - 16, top + 26), caption, font=font(SMALL), fill=theme.on_banner, anchor="rm")
    y = top + 26 + line
    for seat, parts in zip(view.winners, shown, strict=True):
        x = right - 16 - lay.CHIP_RADIUS
        paste_centred(image, chip_sprite(seat, lay.CHIP_RADIUS, theme, SMALL), (x, y))
        x -= lay.CHIP_RADIUS + 10
        for part in parts:
            draw_text(pen, (x, y), part, font=face, fill=theme.on_banner, anchor="rm")
            y += line
    y = plate_bottom + 34
    for text, bold in _reasons(view, conquest):
        for part in wrap(text, right - left, SMALL, bold=bold):
            if y > bottom - 16:
                return
            draw_text(pen, (right, y), part, font=font(SMALL, bold=bold), fill=theme.ink, anchor="rm")
            y += 42


def _reasons(view: CondottiereView, conquest: tuple[int, ...]) -> list[tuple[str, bool]]:
    """Why the game ended, as lines (text, bold): the conquest and its provinces, or the rule that ended it."""
    reason = view.end_reason or ""
    if reason == "victory" and view.map is not None and conquest:
        provinces = BOARDS[view.map].provinces
        held = [i for i, owner in enumerate(view.owners) if owner in view.winners]
        template = labels.ANYWHERE if len(conquest) == len(held) and len(held) >= 5 else labels.ADJACENT
        head = persian_digits(template.format(n=len(conquest)))
        return [(head, False), ("، ".join(provinces[i].name for i in conquest), True)]
    text = labels.END_REASONS.get(reason, "")
    if not text:
        return []
    return [(persian_digits(text.format(n=DUEL_WINS, most=labels.MOST[view.variant])), False)]


# The players' rows ----------------------------------------------------------------------------------------


def draw_row(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    seat: int,
    name: str,
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    plan = lay.row_plan(box)
    acting = seat in view.to_act and not view.finished
    passed = view.passed[seat] and not view.finished and view.phase in FIGHTING
    won = view.finished and seat in view.winners
    ink = theme.passed_ink if passed else theme.ink
    if acting:
        pen.rounded_rectangle(box, lay.CARD_RADIUS, fill=theme.active, outline=theme.seat_fill(seat), width=5)
    elif won:
        pen.rounded_rectangle(box, lay.CARD_RADIUS, fill=theme.card, outline=theme.win_banner, width=5)
    elif passed:
        pen.rounded_rectangle(box, lay.CARD_RADIUS, fill=theme.passed_row, outline=theme.card_border, width=2)
    paste_centred(image, chip_sprite(seat, lay.CHIP_RADIUS, theme, SMALL), plan.chip)
    name_font = font(lay.NAME_SIZE, bold=True)
    room = plan.name_right - plan.badge[2] - 6
    draw_text(
        pen,
        (plan.name_right, plan.name_y),
        ellipsize(name, room, font=name_font),
        font=name_font,
        fill=ink,
        anchor="rm",
    )
    _draw_counts(image, pen, view, seat, plan, ink, theme)
    badge = (
        (labels.TO_ACT, theme.seat_fill(seat), theme.seat_ink(seat))
        if acting
        else (labels.PASSED, theme.passed_badge, theme.on_badge)
        if passed
        else (labels.WON, theme.win_banner, theme.on_banner)
        if won
        else None
    )
    if badge is not None:
        text, fill, on = badge
        bl, bt, br, bb = plan.badge
        pen.rounded_rectangle(plan.badge, (bb - bt) // 2, fill=fill)
        draw_text(pen, ((bl + br) / 2, (bt + bb) / 2), text, font=font(SMALL, bold=True), fill=on)
    if view.finished and view.map is not None:
        _draw_held(pen, view, seat, plan, theme)
    if view.phase not in FIGHTING:
        return
    sl, st, sr, sb = plan.strength
    pen.rounded_rectangle(plan.strength, 12, fill=theme.passed_badge if passed else theme.strength_box)
    value = persian_digits(view.strengths[seat])
    size = lay.STRENGTH_SIZE if len(value) <= 2 else SMALL + 4
    draw_text(pen, ((sl + sr) / 2, (st + sb) / 2 + 2), value, font=font(size, bold=True), fill=theme.on_strength)
    line = view.lines[seat]
    boxes = lay.line_boxes(box, len(line), tuple(map(len, view.lines)))
    for code, (left, top, right, bottom) in zip(line, boxes, strict=True):
        sprite = card_sprite(kind_of(code), right - left, bottom - top, theme, smallest=SMALL, named=False)
        image.paste(sprite, (left, top), sprite)


def _draw_counts(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    seat: int,
    plan: lay.RowPlan,
    ink: tuple[int, int, int],
    theme: CondottiereTheme,
) -> None:
    """Under the name: a mark and a number each for the cards in hand, the provinces held (two players: the
    battles won) and, when there are any, the Courtesans in the line."""
    icon = lay.STAT_ICON
    marks = [(hand_mark(icon, theme), view.hand_sizes[seat])]
    if view.variant == "map":
        marks.append((province_mark(seat, icon, theme), view.provinces_held[seat]))
    else:
        marks.append((win_sprite(seat, icon // 2, theme), view.wins[seat]))
    if view.courtesans[seat] and view.phase in FIGHTING:
        marks.append((heart_mark(icon, theme), view.courtesans[seat]))
    face = font(SMALL, bold=True)
    x = plan.name_right + 2
    for sprite, count in marks:
        paste_centred(image, sprite, (x - sprite.width / 2, plan.stats_y))
        x -= sprite.width + 6
        text = persian_digits(count)
        draw_text(pen, (x, plan.stats_y + 1), text, font=face, fill=ink, anchor="rm")
        x -= text_size(text, font=face)[0] + 20


def _draw_held(
    pen: ImageDraw.ImageDraw, view: CondottiereView, seat: int, plan: lay.RowPlan, theme: CondottiereTheme
) -> None:
    """Once the game is over, where the battle line was: the provinces the player holds, by name."""
    assert view.map is not None
    provinces = BOARDS[view.map].provinces
    held = [provinces[i].name for i, owner in enumerate(view.owners) if owner == seat]
    if not held:
        return
    left, top, right, bottom = plan.cards
    right -= 12  # clear of the badge
    face = font(SMALL)
    parts = wrap("، ".join(held), right - left, SMALL)
    lines = parts[:2] if bottom - top >= 84 else parts[:1]
    if len(parts) > len(lines):
        lines[-1] = ellipsize(lines[-1] + " …", right - left, font=face)
    y = (top + bottom) / 2 - 21 * (len(lines) - 1)
    for line in lines:
        draw_text(pen, (right, y), line, font=face, fill=theme.ink, anchor="rm")
        y += 42
