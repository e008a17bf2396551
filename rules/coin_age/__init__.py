"""عصر سکه‌ها (Coin Age): a two-player game of tossed coins on a ten-space map."""

from rules.coin_age.engine import CoinAge
from rules.coin_age.model import CoinAction, CoinAgeOptions, CoinAgeState, CoinAgeView

__all__ = ["CoinAction", "CoinAge", "CoinAgeOptions", "CoinAgeState", "CoinAgeView"]
