"""The اسپلندور pictures, made from a view alone, for a phone's screen.

``render(view)`` is the table for the group (900 px wide, about as high): whose turn it is, the nobles, the
bank beside the three rows with their decks, and one row per player with their points, bonuses, tokens (out
of the ten allowed), nobles and reserved cards. ``render_reserved(view)`` is the private picture of one
seat's reserved cards in full, with what it lacks to buy each, and its tokens and bonuses. The cached static
layer is copied and only what changes is pasted on it; cards, chips, nobles and badges are cached sprites.

Every card, deck and reserved card has a short Persian label that the bot's buttons repeat (see ``labels``
and ``bot/games/splendor.py``), written over it: the face-up cards ``۱`` to ``۱۲``, ``دستهٔ ۲`` over deck 2,
``رزروشدهٔ ۱`` over a player's first reserved card. A noble's button names the bonuses on its tile instead.
At the end the players are listed by place (``standings``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.banner import draw_result_banner, winners_line
from rendering.splendor import labels
from rendering.splendor import layout as lay
from rendering.splendor.labels import card_label, deck_label, reserved_label
from rendering.splendor.sprites import (
    MINI_CARD,
    PRIVATE_CARD,
    TABLE_CARD,
    back_sprite,
    bonus_sprite,
    card_sprite,
    crown_sprite,
    empty_slot_sprite,
    mini_sprite,
    noble_sprite,
    paste_at,
    paste_centred,
    token_sprite,
)
from rendering.splendor.static import draw_label, private_layer, static_layer
from rendering.splendor.theme import DEFAULT_THEME, GEM_COUNT, SplendorTheme
from rendering.text import draw_text, drawable, ellipsize, font, persian_digits, text_size
from rules.places import by_place
from rules.splendor.model import TOKEN_LIMIT, CardView, NobleView, PlayerView, ReservedView, SplendorView

__all__ = [
    "card_label",
    "deck_label",
    "gold_needed",
    "noble_number",
    "render",
    "render_reserved",
    "reserved_label",
    "seat_names",
    "shortfall",
    "standings",
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


def gold_needed(card: CardView, player: PlayerView) -> int:
    """The gems the player lacks for ``card`` once bonuses and tokens are counted: the gold a buy spends,
    gold standing in for exactly what each colour lacks."""
    return sum(max(0, need - player.bonuses[colour] - player.tokens[colour]) for colour, need in enumerate(card.cost))


def shortfall(card: CardView, player: PlayerView) -> int:
    """Gems the player lacks to buy ``card`` once bonuses and tokens are counted and gold fills in (0: it
    can buy it)."""
    return max(0, gold_needed(card, player) - player.tokens[GEM_COUNT])


def standings(view: SplendorView) -> tuple[tuple[int, PlayerView], ...]:
    """The players by place, each with its place (1 the best): the winners first, then the most points and,
    on equal points, the fewer cards bought (the rulebook's tie-break); players equal in both share a place,
    and the next place counts them all (1, 2, 2, 4)."""

    keys = [(p.seat in view.winners, p.points, -len(p.cards)) for p in view.players]
    return tuple((place, view.players[seat]) for place, seat in by_place(keys))


# The table -------------------------------------------------------------------------------------------------


def render(
    view: SplendorView, *, theme: SplendorTheme = DEFAULT_THEME, names: Sequence[str] | None = None
) -> Image.Image:
    """The table as a 900 px wide RGB picture for 2–4 players (``lay.height``); ``names`` are the seats'
    display names."""
    players = len(view.players)
    image = static_layer(theme, players).copy()
    pen = ImageDraw.Draw(image)
    shown = seat_names(view, names)
    _draw_rows(image, view, theme)
    _draw_bank(image, view, theme)
    if view.finished:
        _draw_result(pen, view, shown, theme)
        for index, (place, player) in enumerate(standings(view)):
            _draw_player(image, pen, view, player, shown[player.seat], lay.player_box(index), theme, place)
    else:
        _draw_header(image, pen, view, shown, theme)
        _draw_nobles(image, view, theme)
        for player in view.players:
            _draw_player(image, pen, view, player, shown[player.seat], lay.player_box(player.seat), theme)
    return image


def _draw_nobles(image: Image.Image, view: SplendorView, theme: SplendorTheme) -> None:
    for i, noble in enumerate(view.nobles):
        left, top, _right, _bottom = lay.noble_box(i, len(view.nobles))
        paste_at(image, noble_sprite(noble.points, noble.requires, theme), (left - 2, top - 2))


def _draw_rows(image: Image.Image, view: SplendorView, theme: SplendorTheme) -> None:
    for level in (3, 2, 1):
        left, top, _right, _bottom = lay.deck_box(level)
        paste_at(image, back_sprite(level, view.decks[level - 1], TABLE_CARD, theme), (left - 2, top - 2))
        for slot, card in enumerate(view.rows[level - 1]):
            left, top, _right, _bottom = lay.slot_box(level, slot)
            if card is None:
                sprite = empty_slot_sprite(TABLE_CARD, theme)
            else:
                sprite = card_sprite(card.bonus, card.points, card.cost, TABLE_CARD, theme)
            paste_at(image, sprite, (left - 2, top - 2))


def _draw_bank(image: Image.Image, view: SplendorView, theme: SplendorTheme) -> None:
    """A chip per colour with the count left (faded when none is); the colour names are static."""
    for colour, count in enumerate(view.bank):
        sprite = token_sprite(colour, count, lay.BANK_CHIP_RADIUS, lay.BANK_DIGIT, theme)
        paste_centred(image, sprite, lay.bank_centre(colour))


def _draw_header(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: SplendorView, names: tuple[str, ...], theme: SplendorTheme
) -> None:
    """«نوبتِ <name>» at the right, what the player must do now after it; the round and the final round's
    notice at the left."""
    left, top, right, bottom = lay.HEADER_BOX
    y = (top + bottom) / 2
    small, name_font = font(lay.TEXT_SMALL), font(lay.TEXT_BIG, bold=True)
    x: float = left + 16
    round_text = persian_digits(labels.ROUND.format(n=view.round))
    draw_text(pen, (x, y), round_text, font=small, fill=theme.muted, anchor="lm")
    x += text_size(round_text, font=small)[0] + 14
    if view.final_round:
        x = _pill(pen, (x, y), labels.FINAL_ROUND, theme) + 14
    note = ""
    if view.phase == "return":
        note = persian_digits(labels.RETURN_TOKENS.format(n=view.to_return))
    elif view.phase == "noble":
        note = labels.CHOOSE_NOBLE
    note_font = font(lay.TEXT_SMALL, bold=True)
    note_w = text_size(note, font=note_font)[0] + 16 if note else 0
    at = right - 16
    draw_text(pen, (at, y + 2), labels.TURN, font=small, fill=theme.muted, anchor="rm")
    at -= text_size(labels.TURN, font=small)[0] + 10
    name = ellipsize(names[view.turn], round(at - x - note_w), font=name_font)
    draw_text(pen, (at, y), name, font=name_font, fill=theme.ink, anchor="rm")
    if note:
        at -= text_size(name, font=name_font)[0] + 16
        draw_text(pen, (at, y + 2), note, font=note_font, fill=theme.active_border, anchor="rm")


def _pill(pen: ImageDraw.ImageDraw, start: tuple[float, float], text: str, theme: SplendorTheme) -> float:
    """A red rounded notice starting at ``start`` (its left middle); returns its right edge."""
    pill_font = font(lay.TEXT_SMALL, bold=True)
    width = text_size(text, font=pill_font)[0] + 28
    x, y = start
    pen.rounded_rectangle((x, y - 19, x + width, y + 19), 19, fill=theme.final_round)
    draw_text(pen, (x + width / 2, y), text, font=pill_font, fill=theme.on_final_round)
    return x + width


def _draw_result(pen: ImageDraw.ImageDraw, view: SplendorView, names: tuple[str, ...], theme: SplendorTheme) -> None:
    """The result banner in the header's and the nobles' place (nobles left on the table no longer count)."""
    left, top, right, _bottom = lay.HEADER_BOX
    pen.rectangle((left, top, right, lay.NOBLES_TOP + lay.NOBLE_H), fill=theme.background)
    reason = labels.END_REASONS.get(view.end_reason or "", "")
    headline = f"{labels.GAME_OVER} — {reason}" if reason else labels.GAME_OVER
    draw_result_banner(
        pen,
        lay.RESULT_BOX,
        persian_digits(headline),
        winners_line(view.winners, names, labels.WINNER, labels.SHARED_WIN, labels.NAME_SEPARATOR),
        fill=theme.win_banner if len(view.winners) == 1 else theme.draw_banner,
        ink=theme.on_banner,
        radius=14,
        headline_font=font(lay.TEXT),
        line_font=font(lay.TEXT_BIG + 4, bold=True),
    )


# Players' rows ----------------------------------------------------------------------------------------------


def _draw_player(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: SplendorView,
    player: PlayerView,
    name: str,
    box: lay.Box,
    theme: SplendorTheme,
    place: int = 0,
) -> None:
    """One player's row, from the right: the place (at the end), the name over the tokens held out of ten,
    the points, a column per colour (bonus over tokens, white at the right), the nobles, the reserved cards."""
    _left, top, right, bottom = box
    if not view.finished and view.turn == player.seat:
        pen.rounded_rectangle(box, lay.BOX_RADIUS, fill=theme.active, outline=theme.active_border, width=4)
    elif view.finished and player.seat in view.winners:
        pen.rounded_rectangle(box, lay.BOX_RADIUS, outline=theme.win_banner, width=4)
    cy = (top + bottom) / 2
    if place:
        _draw_place(pen, (right - lay.PAD - lay.RANK_W / 2, cy), place, theme)
    name_right = lay.name_right(box, bool(place))
    name_font = font(lay.TEXT, bold=True)
    name_w = lay.NAME_W + (0 if place else lay.RANK_W)
    draw_text(
        pen,
        (name_right, top + 23),
        ellipsize(name, name_w, font=name_font),
        font=name_font,
        fill=theme.ink,
        anchor="rm",
    )
    held = sum(player.tokens)
    over = held > TOKEN_LIMIT
    held_text = persian_digits(labels.TOKENS_HELD.format(n=held, limit=TOKEN_LIMIT))
    held_font = font(lay.TEXT_SMALL, bold=over)
    draw_text(
        pen,
        (name_right, top + 55),
        held_text,
        font=held_font,
        fill=theme.over_limit if over else theme.muted,
        anchor="rm",
    )
    x = lay.points_centre(box)
    draw_text(pen, (x, top + 26), persian_digits(player.points), font=font(40, bold=True), fill=theme.ink)
    draw_text(pen, (x, top + 58), labels.POINTS, font=font(lay.TEXT_SMALL), fill=theme.muted)
    for colour in range(GEM_COUNT + 1):
        x = lay.cell_x(box, colour)
        if colour < GEM_COUNT:
            sprite = bonus_sprite(colour, player.bonuses[colour], lay.BONUS_W, lay.BONUS_H, lay.TEXT, theme)
            paste_centred(image, sprite, (x, top + 4 + lay.BONUS_H / 2))
        sprite = token_sprite(colour, player.tokens[colour], lay.TOKEN_RADIUS, lay.TEXT, theme, marks=False)
        paste_centred(image, sprite, (x, bottom - 3 - lay.TOKEN_RADIUS))
    crown = crown_sprite(lay.CROWN, theme)
    step = min(lay.CROWN + 4, (lay.NOBLES_W - lay.CROWN) // max(1, len(player.nobles) - 1))
    for k in range(len(player.nobles)):
        paste_centred(image, crown, (lay.nobles_right(box) - lay.CROWN / 2 - 2 - k * step, cy))
    _draw_minis(image, player.reserved, box, theme)


def _draw_place(pen: ImageDraw.ImageDraw, centre: tuple[float, float], place: int, theme: SplendorTheme) -> None:
    """A player's place at the end: a medal-coloured disc with the number."""
    x, y = centre
    r = 18
    pen.ellipse((x - r, y - r, x + r, y + r), fill=theme.place(place), outline=theme.outline, width=2)
    draw_text(pen, (x, y + 1), persian_digits(place), font=font(lay.TEXT, bold=True), fill=theme.ink)


def _draw_minis(image: Image.Image, reserved: tuple[ReservedView, ...], box: lay.Box, theme: SplendorTheme) -> None:
    """Up to three reserved cards, the first at the right: colour and points, or the back of a card hidden
    from the viewer; faint places for the rest."""
    for index in range(3):
        left, top, _right, _bottom = lay.mini_box(box, index)
        if index < len(reserved):
            item = reserved[index]
            card = item.card
            if card is None:
                sprite = mini_sprite(None, item.level, 0, MINI_CARD, theme)
            else:
                sprite = mini_sprite(card.bonus, card.level, card.points, MINI_CARD, theme)
        else:
            sprite = empty_slot_sprite(MINI_CARD, theme)
        paste_at(image, sprite, (left - 2, top - 2))


# The private picture ------------------------------------------------------------------------------------------


def render_reserved(view: SplendorView, *, theme: SplendorTheme = DEFAULT_THEME, holdings: bool = True) -> Image.Image:
    """One seat's reserved cards in full (those from a deck too), each under the name its button has and over
    whether the player can buy it now (and with how much gold), beside (``holdings``) the player's bonuses and
    tokens and what each card lacks; the same picture with three empty places and a title saying so when the
    reserve is empty. ``view`` is that seat's view (``view.seat``). Without ``holdings`` the picture changes
    only with the reserve and what of it the player can buy (their holdings are on the board)."""
    if view.seat is None:
        raise ValueError("the private picture needs a seat's view")
    player = view.players[view.seat]
    image = private_layer(theme, not player.reserved, holdings).copy()
    pen = ImageDraw.Draw(image)
    if holdings:
        _draw_private_grid(image, pen, player, theme)
    label_font = font(lay.PRIVATE_TEXT, bold=True)
    note_font = font(lay.PRIVATE_TEXT_SMALL)
    for index, item in enumerate(player.reserved):
        box = lay.private_card_box(index)
        x0, y0, x1, _y1 = box
        label = labels.RESERVED_BUTTON.format(label=reserved_label(index))
        draw_label(pen, box, lay.PRIVATE_LABELS_Y, label, label_font, theme)
        card = item.card
        if card is None:  # the owner's view always has the card; kept for a public view passed by mistake
            paste_at(image, back_sprite(item.level, None, PRIVATE_CARD, theme), (x0 - 2, y0 - 2))
            continue
        paste_at(image, card_sprite(card.bonus, card.points, card.cost, PRIVATE_CARD, theme), (x0 - 2, y0 - 2))
        cx = (x0 + x1) / 2
        missing = shortfall(card, player)
        notes = []
        if missing:
            short = labels.SHORT_BY.format(n=missing) if holdings else labels.CANNOT_BUY
            status, colour = persian_digits(short), theme.short
        else:
            status, colour = labels.CAN_BUY, theme.affordable
            if gold := gold_needed(card, player):
                notes.append(persian_digits(labels.GOLD_SPENT.format(n=gold)))
        if item.from_deck:
            notes.append(labels.FROM_DECK)
        draw_text(pen, (cx, lay.PRIVATE_STATUS_Y), status, font=label_font, fill=colour)
        for k, note in enumerate(notes):
            draw_text(pen, (cx, lay.PRIVATE_NOTE_Y + 28 * k), note, font=note_font, fill=theme.muted)
    return image


def _draw_private_grid(image: Image.Image, pen: ImageDraw.ImageDraw, player: PlayerView, theme: SplendorTheme) -> None:
    """The player's bonuses and tokens per colour, white at the right, and the tokens held out of ten."""
    bonus_y, token_y = lay.private_rows_y()
    for colour in range(GEM_COUNT + 1):
        x = lay.private_cell_x(colour)
        if colour < GEM_COUNT:
            sprite = bonus_sprite(
                colour, player.bonuses[colour], lay.PRIVATE_BONUS_W, lay.PRIVATE_BONUS_H, lay.PRIVATE_DIGIT, theme
            )
            paste_centred(image, sprite, (x, bonus_y))
        sprite = token_sprite(colour, player.tokens[colour], lay.PRIVATE_TOKEN_RADIUS, lay.PRIVATE_DIGIT, theme)
        paste_centred(image, sprite, (x, token_y))
    held = sum(player.tokens)
    over = held > TOKEN_LIMIT
    total = persian_digits(labels.TOKEN_TOTAL.format(n=held, limit=TOKEN_LIMIT))
    right = lay.private_cell_x(0) + lay.PRIVATE_CELL_W // 2 + lay.PRIVATE_GRID_LABEL_W - 16
    draw_text(
        pen,
        (right, token_y + 18),
        total,
        font=font(lay.PRIVATE_TEXT_SMALL, bold=over),
        fill=theme.over_limit if over else theme.muted,
        anchor="rm",
    )
