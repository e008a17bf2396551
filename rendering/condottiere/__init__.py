"""Pictures of رکب: ``render`` draws a view of ``rules.condottiere``; the other modules draw its parts."""

from rendering.condottiere.picture import render, render_hand
from rendering.condottiere.theme import DEFAULT_THEME, CondottiereTheme

__all__ = ["DEFAULT_THEME", "CondottiereTheme", "render", "render_hand"]
