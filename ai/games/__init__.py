"""A little knowledge per game, keyed like ``rules.GAMES``."""

from collections.abc import Mapping

from ai.games import carcassonne, coin_age, condottiere, conqueror, splendor
from ai.knowledge import Knowledge

KNOWLEDGE: Mapping[str, Knowledge] = {
    "coin_age": coin_age.KNOWLEDGE,
    "conqueror": conqueror.KNOWLEDGE,
    "condottiere": condottiere.KNOWLEDGE,
    "splendor": splendor.KNOWLEDGE,
    "carcassonne": carcassonne.KNOWLEDGE,
}
