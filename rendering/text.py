"""Persian text for pictures: digits, cached fonts, and right-to-left shaping that works with or without Raqm.

Pillow shapes Arabic-script text only through libraqm; without it letters come out isolated and reversed, so
the fallback reshapes (arabic_reshaper) and reorders (python-bidi) the string before the basic layout draws it.
"""

from __future__ import annotations

import functools
import logging
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import arabic_reshaper
from bidi import get_display
from PIL import Image, ImageDraw, ImageFont, features

_log = logging.getLogger(__name__)

Ink = int | tuple[int, int, int] | tuple[int, int, int, int]  # int for "L" images

_DIGITS = str.maketrans("0123456789٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹۰۱۲۳۴۵۶۷۸۹")
_FONTS = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: "Vazirmatn-Regular.ttf", True: "Vazirmatn-Bold.ttf"}
# What Vazirmatn has no glyph for and user names often contain: emoji and other symbols, their joiners and
# presentation selectors. Dropped so a name never shows empty boxes.
_UNDRAWABLE = {0x200D, 0xFE0E, 0xFE0F, 0x20E3}
_UNDRAWABLE_CATEGORIES = {"So", "Sk", "Cs", "Co", "Cn", "Cc"}


def persian_digits(value: int | str) -> str:
    """Western and Arabic-Indic digits as Persian ones (۰–۹); other characters untouched."""
    return str(value).translate(_DIGITS)


def _drawable_char(ch: str) -> bool:
    if ch.isspace():
        return True  # kept, then runs of white space become one space
    return ord(ch) <= 0xFFFF and ord(ch) not in _UNDRAWABLE and unicodedata.category(ch) not in _UNDRAWABLE_CATEGORIES


def drawable(text: str) -> str:
    """Strip what the font cannot draw (emoji, symbols, joiners), so player names stay clean."""
    return " ".join("".join(ch for ch in text if _drawable_char(ch)).split())


@functools.cache
def raqm_available() -> bool:
    """Whether Pillow can shape complex scripts itself; warns once when it cannot."""
    ok = bool(features.check("raqm"))
    if not ok:
        _log.warning("libraqm is not available: Persian text falls back to arabic_reshaper + python-bidi")
    return ok


def font_path(*, bold: bool = False) -> Path:
    """The bundled Vazirmatn file (SIL Open Font License, see fonts/OFL.txt)."""
    return _FONTS / _FONT_FILES[bold]


@functools.cache
def _load(size: int, bold: bool, raqm: bool) -> ImageFont.FreeTypeFont:
    layout = ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(font_path(bold=bold)), size, layout_engine=layout)


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Vazirmatn at ``size`` px, loaded once; uses Raqm layout when Pillow has it."""
    return _load(size, bold, raqm_available())


def _basic_twin(face: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """The same face with the basic layout, which the fallback needs (it draws pre-shaped text)."""
    if face.layout_engine == ImageFont.Layout.BASIC:
        return face
    return _basic_variant(str(face.path), face.size, face.index)


@functools.cache
def _basic_variant(path: str, size: float, index: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, index=index, layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=512)
def _visual(text: str) -> str:
    """Reshaped, visually ordered text for the basic layout (joined letters, right-to-left runs reversed)."""
    return str(get_display(arabic_reshaper.reshape(text), base_dir="R"))


_SIZES_DRAWN: ContextVar[list[float] | None] = ContextVar("rendering_sizes_drawn", default=None)


@contextmanager
def sizes_drawn() -> Iterator[list[float]]:
    """The size of every text drawn in the block, in order: how the phone test finds a picture's smallest text
    (a cached layer drawn before the block is not in it: the test clears the caches first)."""
    sizes: list[float] = []
    token = _SIZES_DRAWN.set(sizes)
    try:
        yield sizes
    finally:
        _SIZES_DRAWN.reset(token)


def _use_fallback(fallback: bool | None) -> bool:
    return not raqm_available() if fallback is None else fallback


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    font: ImageFont.FreeTypeFont,
    fill: Ink,
    anchor: str = "mm",
    stroke_width: float = 0,
    stroke_fill: Ink | None = None,
    fallback: bool | None = None,
) -> None:
    """Draw one line of right-to-left (Persian) text, anchored like Pillow's ``anchor`` (default: centred).

    ``fallback`` forces (True) or forbids (False) the reshaper+bidi path; None picks it only without Raqm.
    Without a stroke, the shaped text is cached as a mask and stamped, since the same labels and digits are
    drawn on every picture and shaping is most of the cost of a render.
    """
    if (sizes := _SIZES_DRAWN.get()) is not None and text.strip():
        sizes.append(font.size)
    use_fallback = _use_fallback(fallback)
    if stroke_width:
        _draw_shaped(draw, xy, text, font, fill, anchor, use_fallback, stroke_width, stroke_fill)
        return
    mask, (dx, dy) = _stamp(text, font, anchor, use_fallback)
    if mask is None:
        return
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    draw.bitmap((x, y), mask, fill=fill)


def _draw_shaped(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: Ink,
    anchor: str,
    use_fallback: bool,
    stroke_width: float = 0,
    stroke_fill: Ink | None = None,
) -> None:
    if use_fallback:
        draw.text(
            xy,
            _visual(text),
            font=_basic_twin(face),
            fill=fill,
            anchor=anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )
    else:
        draw.text(
            xy,
            text,
            font=face,
            fill=fill,
            anchor=anchor,
            direction="rtl",
            language="fa",
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )


@functools.lru_cache(maxsize=1024)
def _stamp(
    text: str, face: ImageFont.FreeTypeFont, anchor: str, use_fallback: bool
) -> tuple[Image.Image | None, tuple[int, int]]:
    """The text's coverage mask and its offset from the anchor point (None for text without ink)."""
    if use_fallback:
        left, top, right, bottom = _basic_twin(face).getbbox(_visual(text), anchor=anchor)
    else:
        left, top, right, bottom = face.getbbox(text, anchor=anchor, direction="rtl", language="fa")
    left, top, right, bottom = int(left) - 1, int(top) - 1, int(right) + 1, int(bottom) + 1
    if right - left <= 2 or bottom - top <= 2:
        return None, (0, 0)
    mask = Image.new("L", (right - left, bottom - top), 0)
    _draw_shaped(ImageDraw.Draw(mask), (-left, -top), text, face, 255, anchor, use_fallback)
    return mask, (left, top)


def text_size(text: str, *, font: ImageFont.FreeTypeFont, fallback: bool | None = None) -> tuple[int, int]:
    """Width (advance) and height (ascent to descent of the face) of one line, in pixels."""
    ascent, descent = font.getmetrics()
    if _use_fallback(fallback):
        width = _basic_twin(font).getlength(_visual(text))
    else:
        width = font.getlength(text, direction="rtl", language="fa")
    return round(width), ascent + descent


def _starts_left_to_right(text: str) -> bool:
    """Whether the first strong character is Latin-like (bidi class L), e.g. an English name."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("L", "R", "AL"):
            return kind == "L"
    return False


def ellipsis_mark(text: str) -> str:
    """«…» for the end of ``text`` cut short; after a Latin name with a left-to-right mark, which keeps it at the
    name's end in a right-to-left line."""
    return "…\u200e" if _starts_left_to_right(text) else "…"


def ellipsize(text: str, max_width: int, *, font: ImageFont.FreeTypeFont) -> str:
    """Cut ``text`` to fit ``max_width``, ending with '…' when something was cut.

    In a right-to-left line a trailing '…' would jump to the far left of a Latin name; a left-to-right mark
    after it keeps it at the name's end.
    """
    if text_size(text, font=font)[0] <= max_width:
        return text
    mark = ellipsis_mark(text)
    for end in range(len(text) - 1, 0, -1):
        candidate = text[:end].rstrip() + mark
        if text_size(candidate, font=font)[0] <= max_width:
            return candidate
    return "…"


def fitting_font(text: str, max_width: int, *, size: int, min_size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The largest font from ``size`` down to ``min_size`` in which ``text`` fits ``max_width``."""
    for candidate in range(size, min_size - 1, -1):
        face = font(candidate, bold=bold)
        if text_size(text, font=face)[0] <= max_width:
            return face
    return font(min_size, bold=bold)
