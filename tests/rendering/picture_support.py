"""What every picture test needs: comparing with golden images, and checking the JPEG the bot sends."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from rendering.encode import encode_jpeg, to_bytes

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_TOLERANCE = 2.0  # mean absolute difference per channel, 0–255: survives a Pillow or FreeType update


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def assert_golden(small: Image.Image, name: str) -> None:
    """Compare a reduced picture with ``golden/<name>.png``; ``UPDATE_GOLDEN=1`` writes it instead (look at the
    new file before committing it)."""
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        small.quantize(256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
        pytest.skip(f"golden image {path.name} written")
    assert path.is_file(), f"missing {path}; run with UPDATE_GOLDEN=1 to create it"
    with Image.open(path) as golden:
        assert golden.size == small.size
        difference = mean_difference(small, golden)
    assert difference < GOLDEN_TOLERANCE, f"{name} differs from its golden image by {difference:.2f}"


def assert_sent_as_faithful_jpeg(image: Image.Image, tolerance: float = 2.5) -> None:
    """What the bot sends: a JPEG of the same size, close to the picture, and not too large for a phone."""
    data, extension = to_bytes(image)
    assert extension == "jpg" and data.startswith(b"\xff\xd8")
    assert len(data) < 400_000
    decoded = Image.open(io.BytesIO(data)).convert("RGB")
    assert decoded.size == image.size
    assert mean_difference(decoded, image) < tolerance
    assert encode_jpeg(image) == data
