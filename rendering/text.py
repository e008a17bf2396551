"""Persian text for pictures: digits, cached fonts, and right-to-left shaping that works with or without Raqm.

Pillow shapes Arabic-script text only through libraqm; without it letters come out isolated and reversed, so
the fallback reshapes (arabic_reshaper) and reorders (python-bidi) the string before the basic layout draws it.
"""

from __future__ import annotations

import functools
import logging
from importlib import resources
from pathlib import Path

from PIL import ImageDraw, ImageFont, features

_log = logging.getLogger(__name__)

Ink = tuple[int, int, int] | tuple[int, int, int, int]

_DIGITS = str.maketrans("0123456789٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹۰۱۲۳۴۵۶۷۸۹")
_FONT_FILES = {False: "Vazirmatn-Regular.ttf", True: "Vazirmatn-Bold.ttf"}
# Characters Vazirmatn has no glyph for and user names often contain: emoji (outside the BMP), their
# joiners and presentation selectors. Dropped so a name never shows empty boxes.
_UNDRAWABLE = {0x200D, 0xFE0E, 0xFE0F, 0x20E3}


def persian_digits(value: int | str) -> str:
    """Western and Arabic-Indic digits as Persian ones (۰–۹); other characters untouched."""
    return str(value).translate(_DIGITS)


def drawable(text: str) -> str:
    """Strip what the font cannot draw (emoji and their joiners), so player names stay clean."""
    return "".join(ch for ch in text if ord(ch) <= 0xFFFF and ord(ch) not in _UNDRAWABLE).strip()


@functools.cache
def raqm_available() -> bool:
    """Whether Pillow can shape complex scripts itself; warns once when it cannot."""
    ok = bool(features.check("raqm"))
    if not ok:
        _log.warning("libraqm is not available: Persian text falls back to arabic_reshaper + python-bidi")
    return ok


def font_path(*, bold: bool = False) -> Path:
    """The bundled Vazirmatn file (SIL Open Font License, see fonts/OFL.txt)."""
    return Path(str(resources.files("rendering").joinpath("fonts", _FONT_FILES[bold])))


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
    import arabic_reshaper
    from bidi import get_display

    return str(get_display(arabic_reshaper.reshape(text), base_dir="R"))


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
    """
    if _use_fallback(fallback):
        draw.text(
            xy,
            _visual(text),
            font=_basic_twin(font),
            fill=fill,
            anchor=anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )
        return
    draw.text(
        xy,
        text,
        font=font,
        fill=fill,
        anchor=anchor,
        direction="rtl",
        language="fa",
        stroke_width=stroke_width,
        stroke_fill=stroke_fill,
    )


def text_size(text: str, *, font: ImageFont.FreeTypeFont, fallback: bool | None = None) -> tuple[int, int]:
    """Width (advance) and height (ascent to descent of the face) of one line, in pixels."""
    ascent, descent = font.getmetrics()
    if _use_fallback(fallback):
        width = _basic_twin(font).getlength(_visual(text))
    else:
        width = font.getlength(text, direction="rtl", language="fa")
    return round(width), ascent + descent


def ellipsize(text: str, max_width: int, *, font: ImageFont.FreeTypeFont) -> str:
    """Cut ``text`` to fit ``max_width``, ending with '…' when something was cut."""
    if text_size(text, font=font)[0] <= max_width:
        return text
    for end in range(len(text) - 1, 0, -1):
        candidate = text[:end].rstrip() + "…"
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
