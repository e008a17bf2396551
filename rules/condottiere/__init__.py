"""رکب (Condottiere): battles for provinces with mercenary cards, 3–6 players on a map or two players head on."""

from rules.condottiere.engine import Condottiere
from rules.condottiere.model import CondottiereAction, CondottiereOptions, CondottiereState, CondottiereView

__all__ = ["Condottiere", "CondottiereAction", "CondottiereOptions", "CondottiereState", "CondottiereView"]
