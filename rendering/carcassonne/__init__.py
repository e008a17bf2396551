"""Pictures of قلعه رودخان: ``render`` draws a view of ``rules.carcassonne``; the other modules draw its parts."""

from rendering.carcassonne.picture import Pending, render
from rendering.carcassonne.theme import DEFAULT_THEME, CarcassonneTheme

__all__ = ["DEFAULT_THEME", "CarcassonneTheme", "Pending", "render"]
