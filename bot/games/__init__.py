"""Per-game presentation for the bot, keyed like ``rules.GAMES``."""

from collections.abc import Mapping

from bot.games.base import OptionToggle, Presenter
from bot.games.coin_age import presenter as coin_age

PRESENTERS: Mapping[str, Presenter] = {p.game_id: p for p in (coin_age,)}

__all__ = ["PRESENTERS", "OptionToggle", "Presenter"]
