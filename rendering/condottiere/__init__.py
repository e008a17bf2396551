"""Pictures of رکب: ``render`` draws a view of ``rules.condottiere``; the other modules draw its parts."""

from rendering.condottiere.labels import card_name
from rendering.condottiere.picture import conquest, render, render_hand
from rendering.condottiere.theme import DEFAULT_THEME, CondottiereTheme

__all__ = ["DEFAULT_THEME", "CondottiereTheme", "card_name", "conquest", "render", "render_hand"]
