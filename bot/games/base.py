"""What the bot needs from each game beyond the engine: words, menu labels and pictures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from rendering.spots import Spot
from rules import Event


@dataclass(frozen=True, slots=True)
class OptionToggle:
    """A yes/no lobby option: the options model's field, its Persian label, and a short one for /settings'
    buttons (a phone shows some 35 characters across)."""

    field: str
    label: str
    short: str = ""


class Hands(Protocol):
    """A game's private messages: each player's own view (their hand) and the choices made there."""

    def is_private(self, code: str) -> bool:
        """Whether this action is chosen in the player's private chat (it involves their secret); while
        several seats decide at once, every decision is made there anyway."""
        ...

    def picture(self, view: Any, names: Sequence[str]) -> tuple[bytes, str]:
        """A seat's private picture on the Mini App, from ``view(state, seat)``; runs in a worker thread."""
        ...

    def chat_picture(self, view: Any, names: Sequence[str]) -> tuple[bytes, str]:
        """The seat's picture in their private chat: what is secret and what its buttons do, nothing that
        another player's move changes (the board shows that), so that their moves cost this chat no edit."""
        ...

    def lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The caption (HTML) of a seat's private message, in the same spirit as ``chat_picture``."""
        ...

    def standing(self, state: Any, seat: int) -> list[str]:
        """The private codes ``seat`` will have when its turn comes, as far as the state tells now (none when it
        cannot know): shown between its turns, so that its hand need not change when the turn comes."""
        ...


@dataclass(frozen=True, slots=True)
class Taps:
    """How one move is made on the Mini App: the tap ids in the order they are made. A tap id is a spot on a
    picture (``Page.spots``) or, when it has none, a button under the pictures (``Page.label``)."""

    ids: tuple[str, ...]
    unordered: bool = False  # the taps may come in any order (the gems of a take)


class Page(Protocol):
    """How a game's moves are made by tapping its pictures on the Mini App (bot/webapp). Every legal code of
    the seat to act is made of taps, no two codes of the same taps, so the page is complete as the buttons are."""

    def taps(self, code: str, view: Any) -> Taps:
        """The taps that make the move ``code``; ``view`` is the public view."""
        ...

    def spots(self, view: Any, own: Any | None) -> dict[str, Spot]:
        """Where each tap id is: on the board picture (``Presenter.picture(view, names, prefix)`` for any prefix:
        a preview never moves the board) or on the seat's own picture (``Hands.picture(own, names)``; ``own``
        is None for a spectator and in games without hands). Taps of the seat's codes missing here are buttons."""
        ...

    def label(self, tap: str, view: Any) -> str:
        """A tap in Persian: a button's text, or what a spot is (shown when it is chosen)."""
        ...

    def turns(self, tap: str) -> bool:
        """The tap is one of several turns of one thing (a tile's rotations): the page offers them one at a
        time, «↻» going to the next, rather than side by side."""
        ...


class Presenter(Protocol):
    """Puts one game into Persian and pictures; engines stay free of words (DESIGN.md)."""

    game_id: str
    emoji: str
    summary: str  # one line for /games: what one does (the player count is said beside it)
    # a move is played only from the level of its last choice, whose picture previews it; one reached
    # through levels with a single choice opens a confirmation with its preview (bot/messages/menus.py)
    confirm_moves: bool
    previews: bool  # the board's picture follows the menu: ``picture`` draws the choice made so far

    @property
    def toggles(self) -> Sequence[OptionToggle]: ...

    @property
    def hands(self) -> Hands | None:
        """Private messages for games with secrets (None: everything happens in the group)."""
        ...

    def rules_text(self, options: BaseModel) -> str: ...

    def describe(self, events: Sequence[Event], names: Sequence[str], view: Any) -> list[str]:
        """Lines (HTML) saying what just happened, in order; ``view`` is the public view after it."""
        ...

    def status(self, view: Any, names: Sequence[str]) -> list[str]:
        """Lines (HTML) for the board's caption: the state of the current turn."""
        ...

    def result(self, view: Any, names: Sequence[str]) -> list[str]:
        """Lines (HTML) of the final result: every score and the winner."""
        ...

    def root_depth(self, kind: str) -> int:
        """How many segments of an action code form a first-level button (see bot/messages/menus.py)."""
        ...

    def menu_flat(self, prefix: str) -> int:
        """The menu level ``prefix`` ("" the first) lists all the moves below it as buttons, skipping the
        levels between, when there are at most this many (0: never)."""
        ...

    def menu_columns(self, prefix: str) -> int:
        """Buttons per row at the menu level below ``prefix``."""
        ...

    def menu_rows_by(self, prefix: str) -> int:
        """At the level ``prefix``, a button starts a new row when the code it leads to differs from the
        previous button's in its first this many segments, so that rows keep a choice together (0: never)."""
        ...

    def menu_label(self, path: Sequence[str], view: Any) -> str:
        """The button text for the menu node reached by ``path`` (segments of an action code)."""
        ...

    def chain_label(self, paths: Sequence[Sequence[str]], view: Any) -> str:
        """The text of a button that goes down through levels with a single choice (bot/messages/menus.py):
        ``paths`` are the nodes from the button's own to the one it opens or plays, at least two."""
        ...

    def picture(self, view: Any, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        """The board as encoded bytes and a file name; runs in a worker thread. ``prefix`` is the menu level
        being browsed (see ``previews``)."""
        ...
