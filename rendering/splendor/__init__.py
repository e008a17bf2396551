"""Pictures of اسپلندور: ``render`` draws a view of ``rules.splendor``; the other modules draw its parts."""

from rendering.splendor.picture import render, render_reserved
from rendering.splendor.theme import DEFAULT_THEME, SplendorTheme

__all__ = ["DEFAULT_THEME", "SplendorTheme", "render", "render_reserved"]
