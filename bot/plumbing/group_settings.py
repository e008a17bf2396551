"""Per-group settings chosen by the group's admins with /settings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

DEFAULT_TURN_SECONDS = 120
DEFAULT_COMPUTER_PAUSE = 2

StandIn = Literal["off", "easy", "medium", "hard"]  # ai.LEVELS' keys, or no computer stand-in


class GroupSettings(BaseModel):
    """Defaults are what a new group gets: a two-minute turn timer with a reminder at half time."""

    turn_seconds: int = Field(default=DEFAULT_TURN_SECONDS, ge=0)  # 0: no turn timer
    reminder: bool = True
    max_timeouts: int = Field(default=2, ge=1, le=10)  # consecutive time-outs before a player is removed
    lobby_idle_seconds: int = Field(default=15 * 60, ge=0)  # an untouched lobby closes after this; 0: never
    disabled_games: list[str] = Field(default_factory=list)  # games /new does not offer in this group
    default_options: dict[str, dict[str, bool]] = Field(default_factory=dict)  # game -> option -> value
    computer_pause_seconds: int = Field(default=DEFAULT_COMPUTER_PAUSE, ge=0, le=60)  # before a computer's move
    stand_in: StandIn = "off"  # a computer player of this level replaces a player removed for time-outs

    def allows(self, game_id: str) -> bool:
        return game_id not in self.disabled_games

    def options_for(self, game_id: str) -> dict[str, bool]:
        """The lobby options a new game starts with here (the game's own defaults for the rest)."""
        return dict(self.default_options.get(game_id, {}))
