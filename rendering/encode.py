"""Turning a picture into bytes for Telegram (placeholder, measured and settled below)."""

from __future__ import annotations

import io

from PIL import Image


def encode_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def encode_jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def to_bytes(image: Image.Image) -> tuple[bytes, str]:
    return encode_png(image), "png"
