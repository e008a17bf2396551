"""The parts of the اسپلندور pictures that never change during a game, drawn once per theme and player count,
cached: the background, the header's and players' boxes, the bank's column with its title and the colour
names, and every card's and deck's label (a place keeps its label whatever card lies there).
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw, ImageFont

from rendering.splendor import labels
from rendering.splendor import layout as lay
from rendering.splendor.labels import card_label, deck_label
from rendering.splendor.theme import SplendorTheme
from rendering.text import draw_text, font, text_size

SUPERSAMPLE = 2


def rounded_box(
    pen: ImageDraw.ImageDraw, box: lay.Box, theme: SplendorTheme, *, scale: int = 1, fill: bool = True
) -> None:
    left, top, right, bottom = box
    pen.rounded_rectangle(
        (left * scale, top * scale, right * scale, bottom * scale),
        lay.BOX_RADIUS * scale,
        fill=theme.card if fill else None,
        outline=theme.card_border,
        width=2 * scale,
    )


@functools.lru_cache(maxsize=8)
def static_layer(theme: SplendorTheme, players: int) -> Image.Image:
    """Background, boxes, the bank's title and colour names, the cards' labels. Callers must copy it."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (lay.WIDTH * s, lay.height(players) * s), theme.background)
    pen = ImageDraw.Draw(big)
    for box in (lay.HEADER_BOX, lay.BANK_BOX, *(lay.player_box(i) for i in range(players))):
        rounded_box(pen, box, theme, scale=s)
    image = big.reduce(s)
    pen = ImageDraw.Draw(image)
    left, top, right, _bottom = lay.BANK_BOX
    draw_text(
        pen,
        ((left + right) / 2, top + lay.LABEL_H / 2 + 4),
        labels.BANK,
        font=font(lay.TEXT, bold=True),
        fill=theme.ink,
    )
    name_font = font(lay.TEXT_SMALL)
    for colour, name in enumerate(labels.COLOUR_NAMES):
        x, y = lay.bank_centre(colour)
        draw_text(pen, (x, y + lay.BANK_CHIP_RADIUS + 18), name, font=name_font, fill=theme.muted)
    label_font = font(lay.TEXT, bold=True)
    for level in (1, 2, 3):
        places = [(lay.deck_box(level), deck_label(level))]
        places += [(lay.slot_box(level, slot), card_label(level, slot)) for slot in range(lay.SLOTS)]
        for box, text in places:
            draw_label(pen, box, lay.label_y(box), text, label_font, theme)
    return image


def draw_label(
    pen: ImageDraw.ImageDraw, box: lay.Box, y: float, text: str, face: ImageFont.FreeTypeFont, theme: SplendorTheme
) -> None:
    """A card's label over it at ``y``, on the cloth, between two short rules as wide as the card: a caption of
    the place, in no circle, so that it is never read as one of the card's costs."""
    x = (box[0] + box[2]) / 2
    draw_text(pen, (x, y), text, font=face, fill=theme.label)
    half = text_size(text, font=face)[0] / 2 + 8
    for start, end in ((box[0] + 8, x - half), (x + half, box[2] - 8)):
        if end - start > 6:
            pen.line((start, y + 1, end, y + 1), fill=theme.label_line, width=2)


@functools.lru_cache(maxsize=4)
def private_layer(theme: SplendorTheme, empty: bool, grid: bool = True) -> Image.Image:
    """The private picture's background, its title and (``grid``) the grid's box with its rows' names; without
    reserved cards, three empty places. Callers must copy it."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (lay.PRIVATE_WIDTH * s, lay.PRIVATE_HEIGHT * s), theme.background)
    pen = ImageDraw.Draw(big)
    if grid:
        rounded_box(pen, lay.PRIVATE_GRID_BOX, theme, scale=s)
    if empty:
        for index in range(3):
            left, top, right, bottom = lay.private_card_box(index)
            pen.rounded_rectangle(
                (left * s, top * s, right * s, bottom * s),
                12 * s,
                fill=theme.empty_slot,
                outline=theme.card_border,
                width=2 * s,
            )
    image = big.reduce(s)
    pen = ImageDraw.Draw(image)
    title = labels.NO_RESERVED if empty else labels.MY_RESERVED
    draw_text(
        pen,
        (lay.PRIVATE_WIDTH / 2, lay.PRIVATE_TITLE_Y),
        title,
        font=font(lay.PRIVATE_TITLE, bold=True),
        fill=theme.ink,
    )
    if not grid:
        return image.crop((0, 0, lay.PRIVATE_WIDTH, lay.PRIVATE_CARDS_ONLY_HEIGHT))
    right = lay.private_cell_x(0) + lay.PRIVATE_CELL_W // 2 + lay.PRIVATE_GRID_LABEL_W - 16
    bonus_y, token_y = lay.private_rows_y()
    row_font = font(lay.PRIVATE_TEXT, bold=True)
    draw_text(pen, (right, bonus_y), labels.BONUSES, font=row_font, fill=theme.ink, anchor="rm")
    draw_text(pen, (right, token_y - 14), labels.TOKENS, font=row_font, fill=theme.ink, anchor="rm")
    return image
