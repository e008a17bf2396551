"""Pictures of game views: a view in, a PIL image out; no bot, network or state beyond cached layers."""

from rendering.coin_age import render as render_coin_age
from rendering.encode import encode_jpeg, encode_png, to_bytes
from rendering.theme import DEFAULT_THEME, CoinAgeTheme

__all__ = ["DEFAULT_THEME", "CoinAgeTheme", "encode_jpeg", "encode_png", "render_coin_age", "to_bytes"]
