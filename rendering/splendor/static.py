"""The part of the اسپلندور table picture that never changes during a game, drawn once per theme and player
count, cached: the background, the header's and players' boxes, the bank's box with its title and the
colour names (the legend of the gem colours).
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from rendering.splendor import labels
from rendering.splendor import layout as lay
from rendering.splendor.sprites import SMALL_CARD, empty_slot_sprite, paste_at, tag_sprite
from rendering.splendor.theme import SplendorTheme
from rendering.text import draw_text, font

SUPERSAMPLE = 2
BOX_RADIUS = 16


def rounded_box(
    pen: ImageDraw.ImageDraw, box: lay.Box, theme: SplendorTheme, *, scale: int = 1, fill: bool = True
) -> None:
    left, top, right, bottom = box
    pen.rounded_rectangle(
        (left * scale, top * scale, right * scale, bottom * scale),
        BOX_RADIUS * scale,
        fill=theme.card if fill else None,
        outline=theme.card_border,
        width=2 * scale,
    )


@functools.lru_cache(maxsize=8)
def static_layer(theme: SplendorTheme, players: int) -> Image.Image:
    """Background and boxes, the bank's title and colour names. Callers must copy it."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (lay.WIDTH * s, lay.HEIGHT * s), theme.background)
    pen = ImageDraw.Draw(big)
    legend = lay.legend_box(players)
    for box in (lay.HEADER_BOX, lay.BANK_BOX, *lay.panel_boxes(players), *((legend,) if legend else ())):
        rounded_box(pen, box, theme, scale=s)
    image = big.reduce(s)
    pen = ImageDraw.Draw(image)
    if legend:
        _draw_legend(image, pen, legend, theme)
    _left, top, right, bottom = lay.BANK_BOX
    draw_text(pen, (right - 46, (top + bottom) / 2), labels.BANK, font=font(26, bold=True), fill=theme.ink)
    name_font = font(20)
    for colour, name in enumerate(labels.COLOUR_NAMES):
        x, _y = lay.bank_centre(colour)
        draw_text(pen, (x, bottom - 26), name, font=name_font, fill=theme.muted)
    return image


def _draw_legend(image: Image.Image, pen: ImageDraw.ImageDraw, box: lay.Box, theme: SplendorTheme) -> None:
    """What the Latin labels name, for a table with room to spare (two players)."""
    _left, top, right, _bottom = box
    draw_text(pen, (right - 20, top + 30), labels.LEGEND_TITLE, font=font(20, bold=True), fill=theme.ink, anchor="rm")
    row_font = font(20)
    for k, (tag, text) in enumerate(labels.LEGEND_ROWS):
        y = top + 76 + 46 * k
        sprite = tag_sprite(tag, 17, theme)
        paste_at(image, sprite, (right - 20 - sprite.width, y - sprite.height // 2))
        draw_text(pen, (right - 36 - sprite.width, y), text, font=row_font, fill=theme.ink, anchor="rm")


@functools.lru_cache(maxsize=4)
def private_layer(theme: SplendorTheme, empty: bool) -> Image.Image:
    """The private picture's background, the grid's box and the titles; without reserved cards, three empty
    places and the notice. Callers must copy it."""
    s = SUPERSAMPLE
    height = lay.PRIVATE_EMPTY_HEIGHT if empty else lay.PRIVATE_HEIGHT
    big = Image.new("RGB", (lay.PRIVATE_WIDTH * s, height * s), theme.background)
    pen = ImageDraw.Draw(big)
    box = private_grid_box(empty)
    rounded_box(pen, box, theme, scale=s)
    image = big.reduce(s)
    pen = ImageDraw.Draw(image)
    _left, top, right, _bottom = box
    draw_text(pen, (right - 20, top + 30), labels.MY_TOKENS, font=font(24, bold=True), fill=theme.ink, anchor="rm")
    title = labels.NO_RESERVED if empty else labels.MY_RESERVED
    draw_text(
        pen, (lay.PRIVATE_WIDTH - lay.MARGIN - 8, 46), title, font=font(32, bold=True), fill=theme.ink, anchor="rm"
    )
    if empty:
        style = SMALL_CARD
        step = style.width + 3 * lay.SMALL_CARD_GAP
        centre_x = (lay.MARGIN + box[0]) // 2
        y = (top + box[3] - style.height) // 2
        for k in range(3):
            x = centre_x + round((k - 1.5) * step + 1.5 * lay.SMALL_CARD_GAP)
            paste_at(image, empty_slot_sprite(style, theme), (x - 2, y - 2))
    return image


def private_grid_box(empty: bool) -> lay.Box:
    """The box with the player's bonuses and tokens, at the right."""
    return lay.PRIVATE_EMPTY_GRID_BOX if empty else lay.PRIVATE_GRID_BOX
