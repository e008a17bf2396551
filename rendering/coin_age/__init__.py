"""Pictures of عصر سکه‌ها: ``render`` draws a view of ``rules.coin_age``; the other modules draw its parts."""

from rendering.coin_age.picture import render
from rendering.coin_age.theme import DEFAULT_THEME, CoinAgeTheme

__all__ = ["DEFAULT_THEME", "CoinAgeTheme", "render"]
