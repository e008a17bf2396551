"""The رکب pictures, made from views alone, for a phone's screen.

``render(view)``: the group picture from the public view: the map (owners' colours, the battle site and the
peace token's province outlined, the winning provinces marked once the game is over) or, with two players,
the battles won; the battle's panel beside it; under them a row per player with their counts, their battle
line and its strength. ``render_hand(view)``: one seat's hand, from that seat's view, in rows of big cards.

The cached static layer (cards, the map on neutral land) is copied and only what changes is drawn on it:
owned provinces are recoloured through cached masks, outlines are painted through cached masks, tokens,
chips and cards are cached sprites, text is stamped.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.condottiere import labels
from rendering.condottiere import layout as lay
from rendering.condottiere.panel import draw_panel, draw_row
from rendering.condottiere.sprites import (
    battle_token,
    card_sprite,
    chip_sprite,
    kind_of,
    label_sprite,
    paste_centred,
    peace_token,
    slot_sprite,
    sort_key,
    win_sprite,
)
from rendering.condottiere.static import MapArt, MapKey, map_art, static_layer
from rendering.condottiere.theme import DEFAULT_THEME, CondottiereTheme
from rendering.text import draw_text, drawable, ellipsize, font, persian_digits
from rules.condottiere.data import BOARDS
from rules.condottiere.model import ADJACENT_TO_WIN, DUEL_WINS, PROVINCES_TO_WIN, CondottiereView


def render(
    view: CondottiereView, *, theme: CondottiereTheme = DEFAULT_THEME, names: Sequence[str] | None = None
) -> Image.Image:
    """The whole game as an RGB picture 900 px wide (``layout.frame``); ``names`` are the seats' display names
    (default «بازیکن ۱», «بازیکن ۲», …)."""
    seat_names = seat_display_names(view, names)
    key = map_key(view)
    players = len(view.hand_sizes)
    f = lay.frame(players, key is None)
    image = static_layer(theme, key, players).copy()
    pen = ImageDraw.Draw(image)
    won = conquest(view)
    if key is not None:
        _draw_map(image, view, map_art(theme, key, f.map_box), won, theme)
    else:
        _draw_wins(image, pen, view, seat_names, f.map_box, theme)
    draw_panel(image, pen, view, seat_names, f.panel_box, won, theme)
    for seat, box in enumerate(f.rows):
        draw_row(image, pen, view, seat, seat_names[seat], box, theme)
    return image


def render_hand(
    view: CondottiereView, *, theme: CondottiereTheme = DEFAULT_THEME, reminder: bool = True
) -> Image.Image:
    """One seat's hand, sorted (mercenaries by value, then the specials), in rows of four to six cards under a
    title and, with ``reminder``, a reminder of the battle (its site, the seat's own line strength, whether it
    passed): without it the picture changes only when the hand does."""
    cards = hand_boxes(view)
    plan = lay.hand_plan(len(cards))
    image = Image.new("RGB", (plan.width, plan.height), theme.background)
    pen = ImageDraw.Draw(image)
    right = plan.width - lay.HAND_MARGIN
    y = lay.HAND_MARGIN + 24
    x = right
    if view.seat is not None:
        paste_centred(image, chip_sprite(view.seat, lay.CHIP_RADIUS, theme, lay.HAND_MIN_TEXT), (x - 19, y))
        x -= 2 * lay.CHIP_RADIUS + 12
    title = persian_digits(labels.YOUR_HAND.format(n=len(cards))) if cards else labels.EMPTY_HAND
    draw_text(pen, (x, y), title, font=font(lay.HAND_TITLE_SIZE, bold=True), fill=theme.ink, anchor="rm")
    note = _hand_reminder(view) if reminder else ""
    if note:
        face = font(lay.HAND_MIN_TEXT + 4)
        shown = ellipsize(note, right - lay.HAND_MARGIN, font=face)
        draw_text(pen, (right, y + 50), shown, font=face, fill=theme.muted, anchor="rm")
    width, height = plan.card
    if not cards:
        image.paste(slot_sprite(width, height, theme), plan.empty, slot_sprite(width, height, theme))
    for code, (left, top, _right, _bottom) in cards:
        sprite = card_sprite(kind_of(code), width, height, theme, smallest=lay.HAND_MIN_TEXT, named=True)
        image.paste(sprite, (left, top), sprite)
    return image


def hand_boxes(view: CondottiereView) -> tuple[tuple[str, lay.Box], ...]:
    """The seat's cards in the order its hand picture shows them (mercenaries by value, then the specials; the
    first at the top right), each with its box there."""
    cards = sorted(view.hand, key=sort_key)
    plan = lay.hand_plan(len(cards))
    width, height = plan.card
    return tuple((code, (x, y, x + width, y + height)) for code, (x, y) in zip(cards, plan.slots, strict=True))


def _hand_reminder(view: CondottiereView) -> str:
    parts = []
    if view.map is not None and view.battle_site is not None and not view.finished:
        parts.append(labels.SITE_NOTE.format(province=BOARDS[view.map].provinces[view.battle_site].name))
    if view.seat is not None and view.phase in ("battle", "scarecrow", "peace"):
        if view.passed[view.seat]:
            parts.append(labels.PASSED_NOTE)
        parts.append(persian_digits(labels.YOUR_LINE.format(n=view.strengths[view.seat])))
    return " — ".join(parts)


# Public helpers (tests, callers marking the map, the bot's words) --------------------------------------------


def seat_display_names(view: CondottiereView, names: Sequence[str] | None) -> tuple[str, ...]:
    given = list(names or ())
    out = []
    for seat in range(len(view.hand_sizes)):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or persian_digits(labels.PLAYER.format(n=seat + 1)))
    return tuple(out)


def map_key(view: CondottiereView) -> MapKey | None:
    """The map's printed data, hashable (None in the two-player variant)."""
    if view.map is None:
        return None
    board = BOARDS[view.map]
    return view.map, tuple(p.id for p in board.provinces), tuple(p.name for p in board.provinces)


def map_plan(view: CondottiereView) -> lay.MapPlan | None:
    """Where the view's map is drawn (None in the two-player variant)."""
    key = map_key(view)
    if key is None:
        return None
    return lay.map_plan(*key, lay.frame(len(view.hand_sizes), False).map_box)


def conquest(view: CondottiereView) -> tuple[int, ...]:
    """The provinces that won a game won by conquest, in map order: a winner's every province when they hold
    ``PROVINCES_TO_WIN``, else their largest group of provinces joined by borders (``ADJACENT_TO_WIN`` or
    more). Empty for any other end."""
    if view.end_reason != "victory" or view.map is None:
        return ()
    neighbours = BOARDS[view.map].neighbours
    won: set[int] = set()
    for seat in view.winners:
        held = [i for i, owner in enumerate(view.owners) if owner == seat]
        if len(held) >= PROVINCES_TO_WIN:
            won.update(held)
            continue
        left, best = set(held), set[int]()
        while left:
            group, frontier = set(), [left.pop()]
            while frontier:
                here = frontier.pop()
                group.add(here)
                found = [j for j in neighbours[here] if j in left]
                left.difference_update(found)
                frontier += found
            best = max(best, group, key=len)
        if len(best) >= ADJACENT_TO_WIN:
            won.update(best)
    return tuple(sorted(won))


# The map ------------------------------------------------------------------------------------------------------


def _draw_map(
    image: Image.Image, view: CondottiereView, art: MapArt, won: tuple[int, ...], theme: CondottiereTheme
) -> None:
    plan = art.plan
    names = BOARDS[plan.key].provinces
    for i, owner in enumerate(view.owners):
        if owner is None:
            continue
        box = plan.boxes[i]
        fill = theme.seat_fill(owner)
        image.paste(fill, box, art.masks[i])
        image.paste(art.lines[i], box[:2], art.lines[i])
    outlines = [(i, theme.winner_outline) for i in won]
    if view.battle_site is not None:
        outlines.append((view.battle_site, theme.site_outline))
    if view.peace_token is not None:
        outlines.append((view.peace_token, theme.peace_outline))
    for i, colour in outlines:
        image.paste(colour, plan.boxes[i][:2], art.outlines[i])
    for i, owner in enumerate(view.owners):  # names over the outlines: a name leaving its province stays whole
        if owner is None and plan.label_inside[i]:
            continue  # the static layer's
        ink, halo = (theme.label, theme.land) if owner is None else (theme.seat_ink(owner), theme.seat_fill(owner))
        sprite = label_sprite(names[i].name, plan.label_sizes[i], ink, None if plan.label_inside[i] else halo)
        paste_centred(image, sprite, plan.labels[i])
        if owner is not None:
            paste_centred(image, chip_sprite(owner, lay.MAP_CHIP_RADIUS, theme, lay.MIN_TEXT), plan.tokens[i])
    token_radius = round(plan.radius * lay.TOKEN_RADIUS_FACTOR)
    if view.battle_site is not None:
        paste_centred(image, battle_token(token_radius, theme), plan.tokens[view.battle_site])
    if view.peace_token is not None:
        paste_centred(image, peace_token(token_radius, theme), plan.tokens[view.peace_token])


def _draw_wins(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: tuple[str, ...],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    """Two-player variant: the battles won, first to ``DUEL_WINS``: per player, the chip and name over a row of
    discs filled from the right."""
    left, top, right, bottom = box
    title = persian_digits(labels.WINS_TITLE.format(n=DUEL_WINS))
    draw_text(pen, ((left + right) / 2, top + 36), title, font=font(lay.MIN_TEXT, bold=True), fill=theme.ink)
    pen.line((left + 24, top + 66, right - 24, top + 66), fill=theme.card_border, width=2)
    players = len(view.wins)
    band = (bottom - top - 76) / players
    radius = lay.WIN_RADIUS
    name_font = font(lay.NAME_SIZE, bold=True)
    for seat in range(players):
        y = top + 76 + band * seat + 34
        x = right - 24 - lay.CHIP_RADIUS
        paste_centred(image, chip_sprite(seat, lay.CHIP_RADIUS, theme, lay.MIN_TEXT), (x, y))
        x -= lay.CHIP_RADIUS + 12
        shown = ellipsize(names[seat], round(x - left - 24), font=name_font)
        draw_text(pen, (x, y), shown, font=name_font, fill=theme.ink, anchor="rm")
        slots = max(DUEL_WINS, view.wins[seat])
        step = min(2 * radius + lay.WIN_GAP, (right - left - 48 - 2 * radius) / max(1, slots - 1))
        for k in range(slots):
            won = k < view.wins[seat]
            centre = (right - 24 - radius - k * step, y + radius + 34)
            paste_centred(image, win_sprite(seat if won else None, radius, theme), centre)
