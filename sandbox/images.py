"""Reads an image's type and size from its header bytes, so photos get real PhotoSize values."""

from __future__ import annotations

import struct
from dataclasses import dataclass

# JPEG start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) do not.
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


@dataclass(frozen=True)
class ImageInfo:
    """What the sandbox needs to describe an uploaded photo."""

    mime: str
    extension: str
    width: int
    height: int


def read_image_info(data: bytes) -> ImageInfo:
    """Identify a PNG, JPEG or GIF and its size; raise ValueError for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return ImageInfo("image/png", "png", width, height)
    if data.startswith(b"\xff\xd8"):
        width, height = _jpeg_size(data)
        return ImageInfo("image/jpeg", "jpg", width, height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return ImageInfo("image/gif", "gif", width, height)
    raise ValueError("unsupported image format")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Walk the JPEG segments up to the first start-of-frame marker."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ValueError("corrupt JPEG segment")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xDA)):  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if marker in _JPEG_SOF:
            if pos + 9 > len(data):
                break
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return width, height
        pos += 2 + length
    raise ValueError("JPEG without a frame header")
