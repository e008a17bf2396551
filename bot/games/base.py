"""What the bot needs from each game beyond the engine: words, menu labels and pictures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from rules import Event


@dataclass(frozen=True, slots=True)
class OptionToggle:
    """A yes/no lobby option: the options model's field and its Persian label."""

    field: str
    label: str


class Presenter(Protocol):
    """Puts one game into Persian and pictures; engines stay free of words (DESIGN.md)."""

    game_id: str
    emoji: str
    summary: str  # one line for /games

    @property
    def toggles(self) -> Sequence[OptionToggle]: ...

    def rules_text(self, options: BaseModel) -> str: ...

    def describe(self, events: Sequence[Event], names: Sequence[str]) -> list[str]:
        """Lines (HTML) saying what just happened, in order."""
        ...

    def status(self, view: Any, names: Sequence[str]) -> list[str]:
        """Lines (HTML) for the board's caption: the state of the current turn."""
        ...

    def result(self, view: Any, names: Sequence[str]) -> list[str]:
        """Lines (HTML) of the final result: every score and the winner."""
        ...

    def root_depth(self, kind: str) -> int:
        """How many segments of an action code form a first-level button (see bot/menus.py)."""
        ...

    def menu_columns(self, prefix: str) -> int:
        """Buttons per row at the menu level below ``prefix``."""
        ...

    def menu_label(self, path: Sequence[str], view: Any) -> str:
        """The button text for the menu node reached by ``path`` (segments of an action code)."""
        ...

    def picture(self, view: Any, names: Sequence[str]) -> tuple[bytes, str]:
        """The board as encoded bytes and a file name; runs in a worker thread."""
        ...
