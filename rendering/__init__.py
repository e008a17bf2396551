"""Pictures of game views: a view in, a PIL image out; no bot, network or state beyond cached layers.

One package per game (``rendering/<game>/``, like ``rules/<game>/``) with ``render`` as its entry point; the
parts every game shares sit here: Persian text, colours, hex grids, the result banner, encoding, fonts.
"""

from rendering.encode import encode_jpeg, encode_png, to_bytes

__all__ = ["encode_jpeg", "encode_png", "to_bytes"]
