"""Pre-drawn, anti-aliased coin pictures, cached: pasting a sprite is far cheaper than drawing a coin."""

from __future__ import annotations

import functools
from typing import Literal

from PIL import Image, ImageDraw

from rendering.coin_age.theme import CoinAgeTheme
from rendering.hexgrid import hex_corners
from rendering.text import draw_text, font, persian_digits
from rendering.theme import RGB

Style = Literal["top", "under", "plain", "faded", "ghost", "chip", "open", "grey"]
BARE: frozenset[Style] = frozenset({"chip", "open"})  # discs without a digit: marks, not coins
SUPERSAMPLE = 4
HALO = 4  # px of white ring around the coin that counts


def _darken(colour: RGB, amount: float) -> RGB:
    r, g, b = colour
    return (round(r * (1 - amount)), round(g * (1 - amount)), round(b * (1 - amount)))


@functools.lru_cache(maxsize=256)
def coin_sprite(
    size: int,
    side: int,
    radius: int,
    *,
    theme: CoinAgeTheme,
    style: Style = "plain",
    digit_size: int = 24,
    digit_offset: int = 0,
) -> Image.Image:
    """An RGBA coin of value ``size + 1`` in its side's colours, ``radius`` px, centred in the image.

    ``top`` adds a white halo (the coin that scores); ``under`` is dimmed with its digit ``digit_offset`` px
    below the centre, where the smaller coin on top leaves it visible; ``faded`` is see-through (a tossed coin
    already used); ``ghost`` is an empty outline (none left in a supply); ``chip`` is a bare disc marking a
    player, ``open`` a bare white one marking nobody; ``grey`` is a tossed coin that landed unfavourable (no
    one's colour: it cannot be played).
    """
    margin = HALO + 2
    box = 2 * (radius + margin)
    s = SUPERSAMPLE
    big = Image.new("RGBA", (box * s, box * s), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    c = box * s / 2

    def disc(r: float, fill: tuple[int, ...] | None, outline: tuple[int, ...] | None = None, width: int = 0) -> None:
        pen.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=outline, width=width)

    face = theme.unfavourable if style == "grey" else theme.open_pip if style == "open" else theme.side_fill(side)
    rim = theme.unfavourable_rim if style == "grey" else theme.muted if style == "open" else theme.side_rim(side)
    if style == "under":
        face, rim = _darken(face, 0.18), _darken(rim, 0.18)
    if style == "ghost":
        disc(radius * s, None, (*theme.muted, 255), width=2 * s)
    else:
        if style == "top":
            disc((radius + HALO + 1.5) * s, (*theme.coin_outline, 255))
            disc((radius + HALO) * s, (*theme.top_halo, 255))
        disc(radius * s, (*theme.coin_outline, 255))
        disc((radius - 1.5) * s, (*rim, 255))
        disc((radius - 4) * s, (*face, 255))
        if style not in BARE:
            disc((radius * 0.78) * s, None, (*rim, 255), width=max(1, round(1.2 * s)))
    image = big.reduce(s)
    if style not in BARE:
        draw_text(
            ImageDraw.Draw(image),
            (box / 2, box / 2 + digit_offset),
            persian_digits(size + 1),
            font=font(digit_size, bold=True),
            fill=_digit_ink(style, side, theme),
        )
    if style == "faded":
        alpha = image.getchannel("A").point(lambda v: v * 35 // 100)
        image.putalpha(alpha)
    return image


def _digit_ink(style: Style, side: int, theme: CoinAgeTheme) -> RGB:
    if style == "ghost":
        return theme.muted
    return theme.unfavourable_ink if style == "grey" else theme.side_ink(side)


@functools.lru_cache(maxsize=4)
def ring_mask(radius: float, width: float) -> Image.Image:
    """An "L" mask of a hexagonal band ``width`` px wide just inside a space's edge (the space's centre is the
    mask's): the mark of a space the last move changed."""
    s = SUPERSAMPLE
    half = round(radius) + 2
    big = Image.new("L", (2 * half * s, 2 * half * s), 0)
    pen = ImageDraw.Draw(big)
    centre = (half * s, half * s)
    pen.polygon(hex_corners(centre, radius * s), fill=255)
    pen.polygon(hex_corners(centre, (radius - width) * s), fill=0)
    return big.reduce(s)


def paste_centred(canvas: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste an RGBA sprite onto an RGB canvas with its centre at ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)
