"""A little knowledge per game, keyed like ``rules.GAMES``."""

from collections.abc import Mapping
from dataclasses import replace

from ai.games import carcassonne, coin_age, condottiere, conqueror, splendor, splendor_net
from ai.knowledge import Knowledge

# اسپلندور's network reads the linear judgement of ``splendor``, so it is attached here, not there

KNOWLEDGE: Mapping[str, Knowledge] = {
    "coin_age": coin_age.KNOWLEDGE,
    "conqueror": conqueror.KNOWLEDGE,
    "condottiere": condottiere.KNOWLEDGE,
    "splendor": replace(splendor.KNOWLEDGE, guide=splendor_net.guide(splendor_net.shipped())),
    "carcassonne": carcassonne.KNOWLEDGE,
}
