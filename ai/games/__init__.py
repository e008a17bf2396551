"""A little knowledge per game, keyed like ``rules.GAMES``: ``KNOWLEDGE`` written by hand, which every level plays,
and ``GUIDED``, what سخت plays at two players where a game has a network (the hand knowledge with what the network
adds, in the game's network module, so that a new network changes that game's files alone)."""

from collections.abc import Mapping

from ai.games import carcassonne, coin_age, coin_age_net, condottiere, conqueror, splendor, splendor_net
from ai.knowledge import Knowledge

KNOWLEDGE: Mapping[str, Knowledge] = {
    "coin_age": coin_age.KNOWLEDGE,
    "conqueror": conqueror.KNOWLEDGE,
    "condottiere": condottiere.KNOWLEDGE,
    "splendor": splendor.KNOWLEDGE,
    "carcassonne": carcassonne.KNOWLEDGE,
}
GUIDED: Mapping[str, Knowledge] = {"splendor": splendor_net.GUIDED, "coin_age": coin_age_net.GUIDED}
