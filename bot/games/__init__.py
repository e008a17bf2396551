"""Per-game presentation for the bot, keyed like ``rules.GAMES``."""

from collections.abc import Mapping
from typing import Any

from bot.games.base import OptionToggle, Page, Presenter, Taps
from bot.games.carcassonne import presenter as carcassonne
from bot.games.carcassonne_page import page as carcassonne_page
from bot.games.coin_age import presenter as coin_age
from bot.games.coin_age_page import page as coin_age_page
from bot.games.condottiere import presenter as condottiere
from bot.games.condottiere_page import page as condottiere_page
from bot.games.conqueror import presenter as conqueror
from bot.games.conqueror_page import page as conqueror_page
from bot.games.splendor import presenter as splendor
from bot.games.splendor_page import page as splendor_page
from rules import GAMES, Game

PRESENTERS: Mapping[str, Presenter] = {p.game_id: p for p in (coin_age, conqueror, condottiere, splendor, carcassonne)}

# Games whose moves can be made by tapping their pictures on the Mini App (bot/webapp); each game's own
# ``<game>_page.py`` puts itself here.
PAGES: Mapping[str, Page] = {
    "carcassonne": carcassonne_page,
    "coin_age": coin_age_page,
    "condottiere": condottiere_page,
    "conqueror": conqueror_page,
    "splendor": splendor_page,
}

# What players can open: registered engines that have words and pictures. An engine may be registered (and
# pass the conformance suite) before its presenter exists; the bot does not offer it until then.
PLAYABLE: Mapping[str, Game[Any, Any, Any]] = {gid: game for gid, game in GAMES.items() if gid in PRESENTERS}

__all__ = ["PAGES", "PLAYABLE", "PRESENTERS", "OptionToggle", "Page", "Presenter", "Taps"]
