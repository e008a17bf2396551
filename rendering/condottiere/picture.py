"""The رکب pictures, made from views alone.

``render(view)``: the group picture from the public view: the map (owners' colours, the battle and peace
tokens) or, with two players, the battles won; every player's battle line with its strength; the season,
the deck and the discards. ``render_hand(view)``: one seat's hand, from that seat's view.

The cached static layer (cards, the map on neutral land) is copied and only what changes is drawn on it:
owned provinces are recoloured through cached masks, tokens and cards are cached sprites, text is stamped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from rendering.condottiere import labels
from rendering.condottiere import layout as lay
from rendering.condottiere.sprites import (
    battle_token,
    card_back,
    card_sprite,
    chip_sprite,
    kind_of,
    paste_centred,
    peace_token,
    slot_sprite,
    sort_key,
    win_sprite,
)
from rendering.condottiere.static import MapArt, draw_label, map_art, static_layer
from rendering.condottiere.theme import DEFAULT_THEME, CondottiereTheme
from rendering.text import draw_text, drawable, ellipsize, font, persian_digits, text_size
from rules.condottiere.data import BOARDS
from rules.condottiere.model import DUEL_WINS, CondottiereView

MapKey = tuple[str, tuple[str, ...], tuple[str, ...]]


def render(
    view: CondottiereView, *, theme: CondottiereTheme = DEFAULT_THEME, names: Sequence[str] | None = None
) -> Image.Image:
    """The whole game as an RGB picture, 1280×1000 (two players: 1280×720); ``names`` are the seats' display
    names (default «بازیکن ۱», «بازیکن ۲», …)."""
    seat_names = seat_display_names(view, names)
    key = map_key(view)
    players = len(view.hand_sizes)
    f = lay.frame(players, key is None)
    image = static_layer(theme, key, players).copy()
    pen = ImageDraw.Draw(image)
    if key is not None:
        _draw_map(image, pen, view, map_art(theme, *key), theme)
    else:
        _draw_wins(image, pen, view, seat_names, f.map_box, theme)
    _draw_header(image, pen, view, seat_names, f.header_box, theme)
    _draw_status(image, pen, view, f.status_box, theme)
    card_height = lay.line_card_height(f.rows[0], tuple(len(line) for line in view.lines))
    for seat, box in enumerate(f.rows):
        _draw_row(image, pen, view, seat, seat_names[seat], box, card_height, theme)
    return image


def render_hand(view: CondottiereView, *, theme: CondottiereTheme = DEFAULT_THEME) -> Image.Image:
    """One seat's hand, sorted (mercenaries by value, then the specials), with the battle site and the seat's
    own line strength: 1000 px wide, 8 cards a row."""
    cards = sorted(view.hand, key=sort_key)
    rows = max(1, math.ceil(len(cards) / lay.HAND_PER_ROW))
    height = lay.HAND_HEADER + rows * (lay.HAND_CARD_H + lay.HAND_ROW_GAP) + lay.HAND_MARGIN - lay.HAND_ROW_GAP + 8
    image = Image.new("RGB", (lay.HAND_WIDTH, height), theme.background)
    pen = ImageDraw.Draw(image)
    right = lay.HAND_WIDTH - lay.HAND_MARGIN
    y = lay.HAND_HEADER / 2 + 4
    x = right
    if view.seat is not None:
        chip = chip_sprite(view.seat, 17, theme)
        paste_centred(image, chip, (x - 17, y))
        x -= 44
    title = labels.YOUR_HAND.format(n=len(cards)) if cards else labels.EMPTY_HAND
    title_font = font(30, bold=True)
    draw_text(pen, (x, y), persian_digits(title), font=title_font, fill=theme.ink, anchor="rm")
    x -= text_size(persian_digits(title), font=title_font)[0] + 28
    draw_text(pen, (x, y + 2), _hand_reminder(view), font=font(24), fill=theme.muted, anchor="rm")
    top = lay.HAND_HEADER
    for i, code in enumerate(cards):
        row, col = divmod(i, lay.HAND_PER_ROW)
        left = right - (col + 1) * lay.HAND_CARD_W - col * lay.HAND_GAP
        sprite = card_sprite(kind_of(code), lay.HAND_CARD_W, lay.HAND_CARD_H, theme)
        image.paste(sprite, (left, top + row * (lay.HAND_CARD_H + lay.HAND_ROW_GAP)), sprite)
    return image


def _hand_reminder(view: CondottiereView) -> str:
    parts = []
    if view.variant == "map":
        parts.append(_site_text(view))
    if view.seat is not None:
        if view.passed[view.seat]:
            parts.append(labels.PASSED_NOTE)
        parts.append(persian_digits(labels.YOUR_LINE.format(n=view.strengths[view.seat])))
    return " — ".join(parts)


# Public helpers (tests, callers marking the map) -------------------------------------------------------------


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
    return None if key is None else lay.map_plan(key[0], key[1])


# The map ------------------------------------------------------------------------------------------------------


def _draw_map(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: CondottiereView, art: MapArt, theme: CondottiereTheme
) -> None:
    plan = art.plan
    names = BOARDS[plan.key].provinces
    chip_radius = max(9, round(plan.radius * 0.5))
    for i, owner in enumerate(view.owners):
        if owner is None:
            continue
        box = plan.boxes[i]
        image.paste(theme.seat_fill(owner), box, art.masks[i])
        image.paste(art.lines[i], box[:2], art.lines[i])
        draw_label(pen, plan.labels[i], names[i].name, plan.label_widths[i], theme.seat_ink(owner))
        paste_centred(image, chip_sprite(owner, chip_radius, theme), plan.tokens[i])
    token_radius = max(10, round(plan.radius * lay.TOKEN_RADIUS_FACTOR))
    if view.battle_site is not None:
        box = plan.boxes[view.battle_site]
        outline = art.site_lines[view.battle_site]
        image.paste(outline, box[:2], outline)
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
    """Two-player variant: the battles won, first to ``DUEL_WINS``: per player, the name and a row of slots
    filled from the right."""
    left, top, right, bottom = box
    draw_text(pen, ((left + right) / 2, top + 40), labels.WINS_TITLE, font=font(26, bold=True), fill=theme.ink)
    pen.line((left + 24, top + 74, right - 24, top + 74), fill=theme.card_border, width=2)
    players = len(view.wins)
    band = (bottom - top - 84) / players
    radius, gap = 40, 14
    name_font = font(30, bold=True)
    for seat in range(players):
        y = top + 84 + band * (seat + 0.5)
        paste_centred(image, chip_sprite(seat, 17, theme), (right - 38, y))
        draw_text(
            pen,
            (right - 64, y),
            ellipsize(names[seat], 170, font=name_font),
            font=name_font,
            fill=theme.ink,
            anchor="rm",
        )
        slots = max(DUEL_WINS, view.wins[seat])
        first = right - 250 - radius
        step = min(2 * radius + gap, (first - left - 24 - radius) / max(1, slots - 1))
        for k in range(slots):
            won = k < view.wins[seat]
            paste_centred(image, win_sprite(seat if won else None, radius, theme), (first - k * step, y))


# Header and status ----------------------------------------------------------------------------------------


def _site_text(view: CondottiereView) -> str:
    if view.map is None:
        return ""
    if view.battle_site is None:
        return labels.NO_SITE
    return labels.SITE.format(province=BOARDS[view.map].provinces[view.battle_site].name)


def _draw_header(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    names: tuple[str, ...],
    box: lay.Box,
    theme: CondottiereTheme,
) -> None:
    left, top, right, _bottom = box
    y1, y2 = top + 32, top + 76
    title_font = font(34, bold=True)
    draw_text(pen, (right - 22, y1), labels.TITLE, font=title_font, fill=theme.ink, anchor="rm")
    x = right - 22 - text_size(labels.TITLE, font=title_font)[0] - 24
    if not view.finished:  # a finished game's counter names the battle that will never be fought
        battle = persian_digits(labels.BATTLE.format(n=view.battle))
        battle_font = font(26, bold=True)
        draw_text(pen, (x, y1 + 2), battle, font=battle_font, fill=theme.ink, anchor="rm")
        x -= text_size(battle, font=battle_font)[0] + 24
    site = "" if view.finished else _site_text(view)
    if site:
        site_font = font(24)
        draw_text(
            pen,
            (x, y1 + 2),
            ellipsize(site, round(x - left - 20), font=site_font),
            font=site_font,
            fill=theme.ink,
            anchor="rm",
        )
    if view.finished:
        _draw_result(pen, view, names, (left + 12, y2 - 22, right - 12, y2 + 22), theme)
        return
    phase = labels.PHASES.get(view.phase, "")
    line_font = font(24, bold=True)
    if view.phase == "discard" and len(view.to_act) != 1:
        waiting = "، ".join(names[s] for s in view.to_act)
        text = f"{phase} {labels.DISCARD_WAIT.format(names=waiting)}"
        draw_text(
            pen,
            (right - 22, y2),
            ellipsize(text, right - left - 44, font=line_font),
            font=line_font,
            fill=theme.ink,
            anchor="rm",
        )
        return
    seat = view.to_act[0] if view.to_act else view.turn
    x = right - 22
    if seat is not None:
        paste_centred(image, chip_sprite(seat, 15, theme), (x - 15, y2))
        x -= 40
        turn = labels.TURN.format(name=names[seat])
        turn = ellipsize(turn, 300, font=line_font)
        draw_text(pen, (x, y2), turn, font=line_font, fill=theme.ink, anchor="rm")
        x -= text_size(turn, font=line_font)[0] + 14
        phase = f"— {phase}"
    draw_text(pen, (x, y2), phase, font=font(24), fill=theme.muted, anchor="rm")


def _draw_result(
    pen: ImageDraw.ImageDraw, view: CondottiereView, names: tuple[str, ...], box: lay.Box, theme: CondottiereTheme
) -> None:
    winners = "، ".join(names[s] for s in view.winners)
    draw = len(view.winners) != 1
    pen.rounded_rectangle(box, 12, fill=theme.draw_banner if draw else theme.win_banner)
    reason = labels.END_REASONS.get(view.end_reason or "", "")
    text = (labels.DRAW if draw else labels.WINNER).format(names=winners)
    text = f"{labels.GAME_OVER} — {text}" + (f" ({reason})" if reason else "")
    face = font(24, bold=True)
    draw_text(
        pen,
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        ellipsize(text, box[2] - box[0] - 24, font=face),
        font=face,
        fill=theme.on_banner,
    )


def _draw_status(
    image: Image.Image, pen: ImageDraw.ImageDraw, view: CondottiereView, box: lay.Box, theme: CondottiereTheme
) -> None:
    """The season slot, the deck(s) and the discards, then the tokens' places."""
    left, top, right, _bottom = box
    width, height = lay.card_size(118)
    third = (right - left) / 3
    card_top = top + 18
    caption_y = card_top + height + 22
    small = font(22)
    big = font(30, bold=True)
    # The season slot, on the right.
    cx = right - third / 2
    if view.season is not None:
        sprite = card_sprite(kind_of(view.season), width, height, theme)
        image.paste(sprite, (round(cx - width / 2), card_top), sprite)
    else:
        sprite = slot_sprite(width, height, theme)
        image.paste(sprite, (round(cx - width / 2), card_top), sprite)
        draw_text(pen, (cx, card_top + height / 2), labels.NO_SEASON, font=small, fill=theme.muted)
    draw_text(pen, (cx, caption_y), labels.SEASON, font=small, fill=theme.muted)
    # The deck(s), in the middle.
    cx = right - third * 1.5
    back = card_back(width, height, theme)
    if len(view.deck_sizes) == 1:
        _stack(image, back, (cx, card_top + height / 2), view.deck_sizes[0])
        _count(pen, (cx, card_top + height / 2), view.deck_sizes[0], big, theme)
        draw_text(pen, (cx, caption_y), labels.DECK, font=small, fill=theme.muted)
    else:
        narrow = lay.card_size(84)
        small_back = card_back(*narrow, theme)
        for seat, size in enumerate(view.deck_sizes[:2]):
            x = cx + (1 - 2 * seat) * (narrow[0] / 2 + 8)  # seat 0 on the right
            _stack(image, small_back, (x, card_top + height / 2), size)
            _count(pen, (x, card_top + height / 2), size, font(24, bold=True), theme)
            paste_centred(image, chip_sprite(seat, 12, theme), (x, card_top + height / 2 + narrow[1] / 2 + 16))
        draw_text(pen, (cx, caption_y), labels.DECKS, font=small, fill=theme.muted)
    # The discard pile, on the left.
    cx = right - third * 2.5
    discarded = sum(view.discard)
    if discarded:
        _stack(image, slot_sprite(width, height, theme), (cx, card_top + height / 2), discarded)
    else:
        image.paste(
            slot_sprite(width, height, theme), (round(cx - width / 2), card_top), slot_sprite(width, height, theme)
        )
    _count(pen, (cx, card_top + height / 2), discarded, big, theme)
    caption = labels.DISCARD if view.variant == "map" else labels.OUT_OF_GAME
    draw_text(pen, (cx, caption_y), caption, font=small, fill=theme.muted)
    # The tokens' places.
    if view.map is not None and not view.finished:
        y = caption_y + 44
        line_font = font(24)
        paste_centred(image, battle_token(14, theme), (right - 34, y))
        draw_text(pen, (right - 60, y), _site_text(view), font=line_font, fill=theme.ink, anchor="rm")
        y += 42
        peace = (
            labels.PEACE.format(province=BOARDS[view.map].provinces[view.peace_token].name)
            if view.peace_token is not None
            else labels.NO_PEACE
        )
        paste_centred(image, peace_token(14, theme), (right - 34, y))
        draw_text(pen, (right - 60, y), peace, font=line_font, fill=theme.ink, anchor="rm")


def _stack(image: Image.Image, sprite: Image.Image, centre: tuple[float, float], count: int) -> None:
    """A few copies of a card offset up and left, as a pile (none when ``count`` is 0)."""
    layers = 0 if count <= 0 else min(3, 1 + count // 12)
    for k in range(layers - 1, -1, -1):
        paste_centred(image, sprite, (centre[0] - 3 * k, centre[1] - 3 * k))
    if layers == 0:
        paste_centred(image, sprite, centre)


def _count(
    pen: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    count: int,
    face: ImageFont.FreeTypeFont,
    theme: CondottiereTheme,
) -> None:
    """A number on a small white plate, over a pile of cards."""
    text = persian_digits(count)
    w, h = text_size(text, font=face)
    x, y = centre
    pen.rounded_rectangle(
        (x - w / 2 - 10, y - h / 2 + 2, x + w / 2 + 10, y + h / 2 - 2),
        10,
        fill=theme.card,
        outline=theme.outline,
        width=2,
    )
    draw_text(pen, (x, y), text, font=face, fill=theme.ink)


# Rows -------------------------------------------------------------------------------------------------------


def _draw_row(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    view: CondottiereView,
    seat: int,
    name: str,
    box: lay.Box,
    card_height: int,
    theme: CondottiereTheme,
) -> None:
    left, top, right, bottom = box
    acting = seat in view.to_act and not view.finished
    passed = view.passed[seat] and not view.finished
    if acting:
        pen.rounded_rectangle(box, 18, fill=theme.active, outline=theme.seat_fill(seat), width=5)
    elif view.finished and seat in view.winners:
        pen.rounded_rectangle(box, 18, fill=theme.card, outline=theme.win_banner, width=5)
    elif passed:
        pen.rounded_rectangle(box, 18, fill=theme.passed_row, outline=theme.card_border, width=2)
    y = top + lay.ROW_PAD + lay.ROW_NAME_LINE / 2
    x = right - 14
    paste_centred(image, chip_sprite(seat, 15, theme), (x - 15, y))
    x -= 40
    name_font = font(26, bold=True)
    shown = ellipsize(name, 230, font=name_font)
    draw_text(pen, (x, y), shown, font=name_font, fill=theme.ink, anchor="rm")
    x -= text_size(shown, font=name_font)[0] + 20
    stats = [labels.HAND.format(n=view.hand_sizes[seat])]
    if view.variant == "map":
        stats.append(labels.PROVINCES.format(n=view.provinces_held[seat]))
    else:
        stats.append(labels.WINS.format(n=view.wins[seat]))
    if view.courtesans[seat]:
        stats.append(labels.COURTESANS.format(n=view.courtesans[seat]))
    stat_font = font(22)
    for text in stats:
        shown_stat = persian_digits(text)
        draw_text(pen, (x, y + 1), shown_stat, font=stat_font, fill=theme.muted, anchor="rm")
        x -= text_size(shown_stat, font=stat_font)[0] + 16
    # Marks at the left end of the name line: passed, to act.
    mark_x = left + lay.STRENGTH_WIDTH + 2 * lay.ROW_PAD
    mark_font = font(21, bold=True)
    for text, on, fill, ink in (
        (labels.PASSED, passed, theme.passed_badge, theme.on_badge),
        (labels.TO_ACT, acting, theme.seat_fill(seat), theme.seat_ink(seat)),
    ):
        if not on:
            continue
        w = text_size(text, font=mark_font)[0] + 22
        pen.rounded_rectangle((mark_x, y - 15, mark_x + w, y + 15), 15, fill=fill)
        draw_text(pen, (mark_x + w / 2, y), text, font=mark_font, fill=ink)
        mark_x += w + 8
    # Strength.
    sl, st, sr, sb = (
        left + lay.ROW_PAD,
        top + lay.ROW_PAD,
        left + lay.ROW_PAD + lay.STRENGTH_WIDTH,
        bottom - lay.ROW_PAD,
    )
    pen.rounded_rectangle((sl, st, sr, sb), 12, fill=theme.strength_box)
    mid = (sl + sr) / 2
    draw_text(pen, (mid, st + 20), labels.STRENGTH, font=font(18), fill=theme.on_strength)
    value = persian_digits(view.strengths[seat])
    value_size = 44 if len(value) <= 2 else 36
    draw_text(pen, (mid, (st + 20 + sb) / 2 + 6), value, font=font(value_size, bold=True), fill=theme.on_strength)
    # The battle line.
    line = view.lines[seat]
    width = lay.card_size(card_height)[0]
    for code, corner in zip(line, lay.line_slots(box, len(line), card_height), strict=True):
        sprite = card_sprite(kind_of(code), width, card_height, theme)
        image.paste(sprite, corner, sprite)
