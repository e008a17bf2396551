"""Pictures of اسپلندور: ``render`` draws a view of ``rules.splendor``; the other modules draw its parts."""

from rendering.splendor.picture import gold_needed, render, render_reserved, standings
from rendering.splendor.theme import DEFAULT_THEME, SplendorTheme

__all__ = ["DEFAULT_THEME", "SplendorTheme", "gold_needed", "render", "render_reserved", "standings"]
