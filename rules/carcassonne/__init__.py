"""قلعه رودخان (Carcassonne): the base game's 72 tiles for 2–5 players, farmers as an option."""

from rules.carcassonne.engine import Carcassonne
from rules.carcassonne.model import CarcAction, CarcassonneOptions, CarcassonneState, CarcassonneView

__all__ = ["CarcAction", "Carcassonne", "CarcassonneOptions", "CarcassonneState", "CarcassonneView"]
