"""Pictures of کشورگشا: ``render`` draws a view of ``rules.conqueror``; the other modules draw its parts."""

from rendering.conqueror.picture import render
from rendering.conqueror.theme import DEFAULT_THEME, ConquerorTheme

__all__ = ["DEFAULT_THEME", "ConquerorTheme", "render"]
