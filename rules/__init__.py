"""Pure game engines behind one contract, found through ``GAMES``."""

from collections.abc import Mapping
from typing import Any

from rules.carcassonne import Carcassonne
from rules.coin_age import CoinAge
from rules.condottiere import Condottiere
from rules.conqueror import Conqueror
from rules.contract import (
    Event,
    Game,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    RuleViolation,
    Step,
)
from rules.splendor import Splendor

GAMES: Mapping[str, Game[Any, Any, Any]] = {
    game.id: game for game in (CoinAge(), Condottiere(), Conqueror(), Splendor(), Carcassonne())
}

__all__ = [
    "GAMES",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "Outcome",
    "RuleViolation",
    "Step",
]
