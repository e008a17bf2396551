"""The Persian text helper: digits, shaping with Raqm, and the reshaper+bidi fallback when Raqm is missing."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import arabic_reshaper
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat, features

from rendering import text
from rendering.text import (
    draw_text,
    drawable,
    ellipsize,
    fitting_font,
    font,
    persian_digits,
    raqm_available,
    text_size,
)

SAMPLES = ["سلام", "نوبت Ali ۳", "سکه‌های انداخته‌شده", "موافق: ۲  ،  در دست: ۳"]


def _ink(sample: str, *, fallback: bool | None, size: int = 40) -> Image.Image:
    image = Image.new("L", (640, 90), 0)
    draw_text(ImageDraw.Draw(image), (320, 45), sample, font=font(size), fill=255, fallback=fallback)
    return image


def _naive(sample: str, size: int = 40) -> Image.Image:
    """What Pillow draws without any shaping: isolated letters, left to right."""
    image = Image.new("L", (640, 90), 0)
    face = ImageFont.truetype(str(text.font_path()), size, layout_engine=ImageFont.Layout.BASIC)
    ImageDraw.Draw(image).text((320, 45), sample, font=face, fill=255, anchor="mm")
    return image


def _difference(a: Image.Image, b: Image.Image) -> float:
    return float(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])


@pytest.fixture
def no_raqm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pretend Pillow was built without libraqm."""
    real_check = features.check
    monkeypatch.setattr(features, "check", lambda name: False if name == "raqm" else real_check(name))
    raqm_available.cache_clear()
    yield
    raqm_available.cache_clear()


def test_persian_digits() -> None:
    assert persian_digits(1234567890) == "۱۲۳۴۵۶۷۸۹۰"
    assert persian_digits("دور 12") == "دور ۱۲"
    assert persian_digits("٣ و 4") == "۳ و ۴"  # Arabic-Indic digits become Persian too
    assert persian_digits("ABC") == "ABC"


def test_this_machine_has_raqm() -> None:
    assert raqm_available() == features.check("raqm")
    assert raqm_available(), "libraqm (libfribidi + harfbuzz) should be available here"
    assert font(30).layout_engine == ImageFont.Layout.RAQM


def test_fonts_are_cached_and_bundled() -> None:
    assert font(30) is font(30)
    assert font(30, bold=True) is not font(30)
    assert text.font_path().is_file()
    assert (text.font_path().parent / "OFL.txt").is_file()


@pytest.mark.parametrize("fallback", [False, True])
def test_shaping_joins_letters(fallback: bool) -> None:
    word = "سلام"
    face = font(40)
    joined = text_size(word, font=face, fallback=fallback)[0]
    isolated = sum(text_size(letter, font=face, fallback=fallback)[0] for letter in word)
    assert joined < isolated * 0.9


@pytest.mark.parametrize("sample", SAMPLES)
def test_fallback_draws_what_raqm_draws(sample: str) -> None:
    shaped = _ink(sample, fallback=False)
    fallback = _ink(sample, fallback=True)
    naive = _naive(sample)
    assert shaped.getbbox() is not None
    # Both correct layouts agree to a pixel or so; the unshaped text is far off.
    assert _difference(shaped, fallback) < 4.0
    assert _difference(shaped, naive) > 2 * _difference(shaped, fallback) + 1.0


def test_fallback_path_runs_reshaper(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = arabic_reshaper.reshape

    def spy(value: str) -> str:
        calls.append(value)
        return str(real(value))

    monkeypatch.setattr(arabic_reshaper, "reshape", spy)
    text._visual.cache_clear()
    _ink("کلمه‌ای تازه", fallback=True)
    assert calls == ["کلمه‌ای تازه"]
    calls.clear()
    _ink("کلمه‌ای دیگر", fallback=False)
    assert calls == []


def test_fallback_keeps_latin_runs_left_to_right() -> None:
    visual = text._visual("نوبت Ali ۳")
    assert "Ali" in visual
    assert visual.index("Ali") < len(visual) - 3  # the Persian word, reversed, ends the visual string


def test_without_raqm_warns_once_and_uses_fallback(no_raqm: None, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="rendering.text"):
        assert not raqm_available()
        assert not raqm_available()
        face = font(36)
        image = _ink("سلام", fallback=None)
    warnings = [r for r in caplog.records if r.name == "rendering.text" and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert face.layout_engine == ImageFont.Layout.BASIC
    assert _difference(image, _ink("سلام", fallback=True)) == 0.0


def test_drawable_strips_emoji() -> None:
    assert drawable("Sara ✨ 🎲") == "Sara"
    assert drawable("👨‍👩‍👧") == ""
    assert drawable("  علی  ") == "علی"
    assert drawable("Ali\nReza") == "Ali Reza"
    assert drawable("نیم‌فاصله") == "نیم‌فاصله"  # ZWNJ is a format character and stays


def test_ellipsize_and_fitting_font() -> None:
    face = font(30, bold=True)
    long_name = "محمدحسین عبدالرحیم‌زاده اصفهانی"
    short = ellipsize(long_name, 200, font=face)
    assert short.endswith("…")
    assert text_size(short, font=face)[0] <= 200
    assert ellipsize("علی", 200, font=face) == "علی"
    latin = ellipsize("Alexandria the Magnificent", 200, font=face)
    assert latin.startswith("Alex") and latin.endswith("…\u200e")
    # The ellipsis stays at the right end of a Latin name, in both layouts.
    for fallback in (False, True):
        image = Image.new("L", (400, 60), 0)
        draw_text(ImageDraw.Draw(image), (390, 30), latin, font=face, fill=255, anchor="rm", fallback=fallback)
        box = image.getbbox()
        assert box is not None
        tail = image.crop((box[2] - 20, 0, box[2], 60)).getbbox()
        assert tail is not None and tail[3] - tail[1] < 10, "the right end should be the low, flat '…'"
    fitted = fitting_font("تپه‌های خاکستری", 120, size=30, min_size=14, bold=True)
    assert fitted.size < 30
    assert text_size("تپه‌های خاکستری", font=fitted)[0] <= 120
