"""کشورگشا (Conqueror): two players build castles and walls on a board of hexagonal camps."""

from rules.conqueror.engine import Conqueror
from rules.conqueror.model import ConquerorAction, ConquerorOptions, ConquerorState, ConquerorView

__all__ = ["Conqueror", "ConquerorAction", "ConquerorOptions", "ConquerorState", "ConquerorView"]
