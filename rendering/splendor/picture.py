"""The اسپلندور pictures, made from a view alone.

``render(view)`` is the table for the group (1280×960): nobles, the three rows with their decks, the bank,
and one panel per player. ``render_reserved(view)`` is the private picture of one seat's reserved cards,
with its tokens and bonuses (what it can afford). The cached static layer is copied and only what changes is
pasted on it; cards, chips, nobles and tags are cached sprites.

Every card, deck and reserved card carries a short Persian label that the bot's buttons repeat (see
``labels`` and ``bot/games/splendor.py``): the face-up cards ``۱`` to ``۱۲``, ``دستهٔ ۲`` on deck 2,
``۱`` under a player's first reserved card. A noble's button names the bonuses on its tile instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.banner import draw_result_banner, winners_line
from rendering.splendor import labels
from rendering.splendor import layout as lay
from rendering.splendor.labels import card_label, deck_label, reserved_label
from rendering.splendor.sprites import (
    PRIVATE_CARD,
    SMALL_CARD,
    TABLE_CARD,
    CardStyle,
    back_sprite,
    bonus_sprite,
    card_sprite,
    chip_sprite,
    crown_sprite,
    empty_slot_sprite,
    noble_sprite,
    paste_at,
    paste_centred,
    tag_sprite,
    token_sprite,
)
from rendering.splendor.static import private_grid_box, private_layer, static_layer
from rendering.splendor.theme import DEFAULT_THEME, GEM_COUNT, SplendorTheme
from rendering.text import draw_text, drawable, ellipsize, fitting_font, font, persian_digits, text_size
from rules.splendor.model import TOKEN_LIMIT, CardView, NobleView, PlayerView, ReservedView, SplendorView

__all__ = [
    "card_label",
    "deck_label",
    "noble_number",
    "render",
    "render_reserved",
    "reserved_label",
    "seat_names",
    "shortfall",
]


def noble_number(noble: NobleView) -> int:
    """3 for ``n03``: the number in the noble's action code (``n.3``)."""
    return int(noble.id.lstrip("n"))


def seat_names(view: SplendorView, names: Sequence[str] | None) -> tuple[str, ...]:
    """Display names, drawable; «بازیکن ۱» … for a seat without one."""
    given = list(names or ())
    out = []
    for seat in range(len(view.players)):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or persian_digits(labels.PLAYER.format(n=seat + 1)))
    return tuple(out)


def shortfall(card: CardView, player: PlayerView) -> int:
    """Gems the player lacks to buy ``card`` once bonuses and tokens are counted and gold fills in (0: it
    can buy it)."""
    missing = sum(
        max(0, need - player.bonuses[colour] - player.tokens[colour]) for colour, need in enumerate(card.cost)
    )
    return max(0, missing - player.tokens[GEM_COUNT])


# The table -------------------------------------------------------------------------------------------------


def render(
    view: SplendorView, *, theme: SplendorTheme = DEFAULT_THEME, names: Sequence[str] | None = None
) -> Image.Image:
    """The table as a 1280×960 RGB picture for 2–4 players; ``names`` are the seats' display names."""
    players = len(view.players)
    image = static_layer(theme, players).copy()
    pen = ImageDraw.Draw(image)
    shown = seat_names(view, names)
    _draw_nobles(image, view, theme)
    _draw_rows(image, view, theme)
    _draw_bank(image, pen, view, theme)
    _draw_header(image, pen, view, shown, theme)
    for player, box in zip(view.players, lay.panel_boxes(players), strict=True):
        _draw_panel(image, pen, view, player, shown[player.seat], box, theme)
    return image


def _draw_nobles(image: Image.Image, view: SplendorView, theme: SplendorTheme) -> None:
    for i, noble in enumerate(view.nobles):
        left, top, _right, _bottom = lay.noble_box(i, len(view.nobles))
        sprite = noble_sprite(noble.points, noble.requires, lay.NOBLE_SIZE, theme)
        paste_at(image, sprite, (left - 2, top - 2))


def _draw_rows(image: Image.Image, view: SplendorView, theme: SplendorTheme) -> None:
    for level in (3, 2, 1):
        left, top, _right, _bottom = lay.deck_box(level)
        count = view.decks[level - 1]
        sprite = back_sprite(level, count, deck_label(level) if count else "", TABLE_CARD, theme)
        paste_at(image, sprite, (left - 2, top - 2))
        for slot, card in enumerate(view.rows[level - 1]):
            left, top, _right, _bottom = lay.slot_box(level, slot)
            if card is None:
                sprite = empty_slot_sprite(TABLE_CARD, theme)
            else:
                sprite = card_sprite(card.bonus, card.points, card.cost, card_label(level, slot), TABLE_CARD, theme)
            paste_at(image, sprite, (left - 2, top - 2))


def _draw_bank(image: Image.Image, pen: ImageDraw.ImageDraw, view: SplendorView, theme: SplendorTheme) -> None:
    count_font = font(30, bold=True)
    for colour, count in enumerate(view.bank):
        x, y = lay.bank_centre(colour)
        paste_centred(image, chip_sprite(colour, lay.BANK_TOKEN_RADIUS, theme, cut=True, faded=not count), (x, y))
        draw_text(pen, (x, y + 48), persian_digits(count), font=count_font, fill=theme.ink if count else theme.muted)


def _draw_header(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: SplendorView, names: tuple[str, ...], theme: SplendorTheme
) -> None:
    left, top, right, _bottom = lay.HEADER_BOX
    if view.finished:
        _draw_result(pen, view, names, theme)
        return
    draw_text(pen, (right - 20, top + 32), labels.TITLE, font=font(30, bold=True), fill=theme.ink, anchor="rm")
    round_text = persian_digits(labels.ROUND.format(n=view.round))
    draw_text(pen, (left + 20, top + 32), round_text, font=font(24), fill=theme.muted, anchor="lm")
    if view.final_round:
        _pill(pen, (left + 20 + text_size(round_text, font=font(24))[0] + 16, top + 32), labels.FINAL_ROUND, theme)
    y = top + 80
    turn_font, name_font = font(22), font(28, bold=True)
    x = right - 20
    draw_text(pen, (x, y), labels.TURN, font=turn_font, fill=theme.muted, anchor="rm")
    x -= text_size(labels.TURN, font=turn_font)[0] + 10
    note = ""
    if view.phase == "return":
        note = persian_digits(labels.RETURN_TOKENS.format(n=view.to_return))
    elif view.phase == "noble":
        note = labels.CHOOSE_NOBLE
    note_font = font(20)
    note_w = text_size(note, font=note_font)[0] + 16 if note else 0
    name = ellipsize(names[view.turn], x - left - 20 - note_w, font=name_font)
    draw_text(pen, (x, y), name, font=name_font, fill=theme.ink, anchor="rm")
    if note:
        x -= text_size(name, font=name_font)[0] + 16
        draw_text(pen, (x, y + 2), note, font=note_font, fill=theme.active_border, anchor="rm")


def _pill(pen: ImageDraw.ImageDraw, start: tuple[int, int], text: str, theme: SplendorTheme) -> None:
    """A red rounded notice starting at ``start`` (its left middle)."""
    pill_font = font(22, bold=True)
    width = text_size(text, font=pill_font)[0] + 28
    x, y = start
    pen.rounded_rectangle((x, y - 18, x + width, y + 18), 18, fill=theme.final_round)
    draw_text(pen, (x + width / 2, y), text, font=pill_font, fill=theme.on_final_round)


def _draw_result(pen: ImageDraw.ImageDraw, view: SplendorView, names: tuple[str, ...], theme: SplendorTheme) -> None:
    reason = labels.END_REASONS.get(view.end_reason or "", "")
    headline = f"{labels.GAME_OVER} — {reason}" if reason else labels.GAME_OVER
    draw_result_banner(
        pen,
        lay.HEADER_BOX,
        persian_digits(headline),
        winners_line(view.winners, names, labels.WINNER, labels.SHARED_WIN, labels.NAME_SEPARATOR),
        fill=theme.win_banner if len(view.winners) == 1 else theme.draw_banner,
        ink=theme.on_banner,
        radius=12,
        headline_font=font(22),
        line_font=font(30, bold=True),
    )


# Players' panels --------------------------------------------------------------------------------------------


def _draw_panel(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: SplendorView,
    player: PlayerView,
    name: str,
    box: lay.Box,
    theme: SplendorTheme,
) -> None:
    left, top, right, _bottom = box
    if not view.finished and view.turn == player.seat:
        pen.rounded_rectangle(box, 16, fill=theme.active, outline=theme.active_border, width=5)
    elif view.finished and player.seat in view.winners:
        pen.rounded_rectangle(box, 16, outline=theme.win_banner, width=5)
    y = top + lay.PANEL_NAME_Y
    # Points at the left: the number, then the word left of it (read from the right: «۱۲ امتیاز»).
    word_font, points_font = font(18), font(36, bold=True)
    draw_text(pen, (left + 16, y + 3), labels.POINTS, font=word_font, fill=theme.muted, anchor="lm")
    x = left + 16 + text_size(labels.POINTS, font=word_font)[0] + 6
    points = persian_digits(player.points)
    draw_text(pen, (x, y), points, font=points_font, fill=theme.ink, anchor="lm")
    x += text_size(points, font=points_font)[0] + 14
    for _noble in player.nobles:
        paste_at(image, crown_sprite(26, theme), (x, y - 15))
        x += 31
    name_font = font(26, bold=True)
    draw_text(
        pen,
        (right - 16, y),
        ellipsize(name, right - 16 - x - 12, font=name_font),
        font=name_font,
        fill=theme.ink,
        anchor="rm",
    )
    body = lay.panel_body(box)
    _draw_grid(image, pen, player, right, body + 92, body + 146, theme)
    _draw_small_reserve(image, player.reserved, box, theme)


def _draw_grid(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    player: PlayerView,
    right: int,
    bonus_y: int,
    token_y: int,
    theme: SplendorTheme,
    *,
    large: bool = False,
) -> None:
    """Bonuses (small cards) and tokens (chips) per colour, white at the right, with the rows' names and
    the tokens' total (out of 10) at the right."""
    label_font = font(24 if large else 19)
    draw_text(pen, (right - 16, bonus_y), labels.BONUSES, font=label_font, fill=theme.ink, anchor="rm")
    draw_text(pen, (right - 16, token_y - 9), labels.TOKENS, font=label_font, fill=theme.ink, anchor="rm")
    total = persian_digits(labels.TOKEN_TOTAL.format(n=sum(player.tokens), limit=TOKEN_LIMIT))
    draw_text(pen, (right - 16, token_y + 15), total, font=font(17 if large else 15), fill=theme.muted, anchor="rm")
    if large:
        bonus_w, bonus_h, radius, digit = 42, 54, 25, 30
        cell, label_w = lay.PRIVATE_GRID_CELL, lay.PRIVATE_GRID_LABEL_W
    else:
        bonus_w, bonus_h, radius, digit = lay.BONUS_W, lay.BONUS_H, lay.TOKEN_RADIUS, 22
        cell, label_w = lay.GRID_CELL_W, lay.GRID_LABEL_W
    for colour in range(GEM_COUNT + 1):
        x = lay.grid_x(right, colour, cell=cell, label_w=label_w)
        if colour < GEM_COUNT:
            sprite = bonus_sprite(colour, player.bonuses[colour], bonus_w, bonus_h, digit, theme)
            paste_centred(image, sprite, (x, bonus_y))
        paste_centred(image, token_sprite(colour, player.tokens[colour], radius, digit, theme), (x, token_y))


def _draw_small_reserve(
    image: Image.Image, reserved: tuple[ReservedView, ...], panel: lay.Box, theme: SplendorTheme
) -> None:
    """Up to three small reserved cards, the first (``۱``) at the right, each with its label below; empty
    places are faint outlines."""
    style = SMALL_CARD
    for index in range(3):
        left, top, right, bottom = lay.reserved_box(panel, index)
        if index >= len(reserved):
            paste_at(image, empty_slot_sprite(style, theme), (left - 2, top - 2))
            continue
        paste_at(image, _card_or_back(reserved[index], reserved_label(index), style, theme), (left - 2, top - 2))
        tag = tag_sprite(reserved_label(index), style.tag_size, theme)
        paste_centred(image, tag, ((left + right) / 2, bottom + tag.height / 2 + 3))


def _card_or_back(item: ReservedView, label: str, style: CardStyle, theme: SplendorTheme) -> Image.Image:
    card = item.card
    if card is None:
        return back_sprite(item.level, None, label, style, theme)
    return card_sprite(card.bonus, card.points, card.cost, label, style, theme)


# The private picture ------------------------------------------------------------------------------------------


def render_reserved(view: SplendorView, *, theme: SplendorTheme = DEFAULT_THEME) -> Image.Image:
    """One seat's reserved cards in full (those from a deck too), each with its label (``۱``) and whether
    the player can buy it now, beside the player's bonuses and tokens; a smaller picture saying there are
    none when the reserve is empty. ``view`` is that seat's view (``view.seat``)."""
    if view.seat is None:
        raise ValueError("the private picture needs a seat's view")
    player = view.players[view.seat]
    empty = not player.reserved
    image = private_layer(theme, empty).copy()
    pen = ImageDraw.Draw(image)
    _left, top, right, _bottom = private_grid_box(empty)
    if empty:
        _draw_grid(image, pen, player, right, top + 88, top + 152, theme, large=True)
        return image
    _draw_grid(image, pen, player, right, top + 100, top + 172, theme, large=True)
    style = PRIVATE_CARD
    status_font = font(22, bold=True)
    for index, item in enumerate(player.reserved):
        x0, y0, x1, y1 = lay.private_card_box(index)
        paste_at(image, _card_or_back(item, reserved_label(index), style, theme), (x0 - 2, y0 - 2))
        cx = (x0 + x1) / 2
        if item.card is None:
            continue  # the owner's view always has the card; kept for a public view passed by mistake
        missing = shortfall(item.card, player)
        if missing:
            text, colour = persian_digits(labels.SHORT_BY.format(n=missing)), theme.short
        else:
            text, colour = labels.CAN_BUY, theme.affordable
        draw_text(pen, (cx, y1 + 28), text, font=status_font, fill=colour)
        hint = labels.BUY_HINT.format(button=labels.RESERVED_BUTTON.format(label=reserved_label(index)))
        hint_font = fitting_font(hint, x1 - x0 + 16, size=18, min_size=13)
        draw_text(pen, (cx, y1 + 60), hint, font=hint_font, fill=theme.muted)
        if item.from_deck:
            draw_text(pen, (cx, y0 - 14), labels.FROM_DECK, font=font(17), fill=theme.muted)
    return image
