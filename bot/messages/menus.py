"""Button menus built from a game's legal action codes, so the bot needs no game-specific keyboards.

Action codes are dot-separated, coarse to fine (``p.C.B2``: place coin C on space B2). The first level of
the menu groups codes by their first ``root_depth`` segments; each deeper level adds one segment. A node
that is a whole code is an action; any other node has a level of its own below it.

A level with one choice is never shown: a button goes straight down through such levels, to the first level
with more than one choice, or to the action the chain of single choices ends in (``Menu.choices``); the menu
opens on the first level with more than one choice (``Menu.top``), and «بازگشت» goes back to the level the
player saw (``Menu.back``). In a game that confirms moves, an action is played only from the level right
above it, whose picture previews it; a chain of single choices that ends in an action opens that action's
own level instead, with its preview and the confirm button. A level that lists its moves whole (``flat``)
plays them from its buttons in any game: its picture previews every one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class MenuItem:
    key: str  # the code prefix this button stands for
    is_action: bool  # True: pressing it plays the action ``key``


def menu_items(codes: Sequence[str], prefix: str, root_depth: Callable[[str], int]) -> list[MenuItem]:
    """The nodes of the menu level below ``prefix`` ("" for the first level), in the codes' order, before
    any level with one choice is skipped."""
    seen: dict[str, bool] = {}
    for code in codes:
        parts = code.split(".")
        if prefix:
            if not code.startswith(prefix + "."):
                continue
            depth = prefix.count(".") + 2
        else:
            depth = root_depth(parts[0])
        key = ".".join(parts[:depth])
        seen[key] = seen.get(key, False) or key == code
    return [MenuItem(key, is_action) for key, is_action in seen.items()]


def parent(prefix: str, root_depth: Callable[[str], int]) -> str | None:
    """The node above ``prefix`` ("" for a first-level node), or None on the first level."""
    if not prefix:
        return None
    parts = prefix.split(".")
    if len(parts) <= root_depth(parts[0]):
        return ""
    return ".".join(parts[:-1])


@dataclass(frozen=True, slots=True)
class Choice:
    """A button: the nodes it goes down through (``chain[0]`` is the one at its level, the last is where it
    leads) and whether pressing it plays the last one."""

    chain: tuple[MenuItem, ...]
    plays: bool

    @property
    def key(self) -> str:
        """The code it plays, or the level it opens."""
        return self.chain[-1].key


def never(prefix: str) -> int:
    """No level lists its moves whole."""
    return 0


class Layout(Protocol):
    """What a game's presenter says about the shape of its menus (bot/games/base.py)."""

    @property
    def confirm_moves(self) -> bool: ...

    def menu_flat(self, prefix: str) -> int: ...

    def root_depth(self, kind: str) -> int: ...


@dataclass(frozen=True, slots=True)
class Menu:
    """One seat's menu over its legal action codes. ``confirm``: the game confirms moves (see above).
    ``flat(prefix)``: the level ``prefix`` shows the moves below it all as buttons, the levels between
    skipped, when there are at most that many (0: never)."""

    codes: Sequence[str]
    root_depth: Callable[[str], int]
    confirm: bool = False
    flat: Callable[[str], int] = never
    # the tree of nodes, built once: each node's level below it, and the moves under it
    _levels: dict[str, list[MenuItem]] = field(init=False, repr=False, compare=False)
    _moves: dict[str, list[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        levels: dict[str, dict[str, bool]] = {}
        moves: dict[str, list[str]] = {"": list(self.codes)}
        for code in self.codes:
            parts = code.split(".")
            above = ""
            for depth in range(min(self.root_depth(parts[0]), len(parts)), len(parts) + 1):
                key = ".".join(parts[:depth])
                level = levels.setdefault(above, {})
                level[key] = level.get(key, False) or key == code
                if key != code:
                    moves.setdefault(key, []).append(code)
                above = key
        built = {
            above: [MenuItem(key, is_action) for key, is_action in level.items()] for above, level in levels.items()
        }
        object.__setattr__(self, "_levels", built)
        object.__setattr__(self, "_moves", moves)

    @classmethod
    def of(cls, layout: Layout, codes: Sequence[str]) -> Menu:
        """The menu of ``codes`` as the game's presenter lays its menus out."""
        return cls(codes, layout.root_depth, layout.confirm_moves, layout.menu_flat)

    def items(self, prefix: str) -> list[MenuItem]:
        """The nodes one level below the node ``prefix`` ("" the first level), before any is skipped."""
        return self._levels.get(prefix, [])

    def _below(self, prefix: str) -> list[str]:
        return self._moves.get(prefix, [])

    def _is_flat(self, prefix: str) -> bool:
        return 0 < len(self._below(prefix)) <= self.flat(prefix)

    def chain(self, item: MenuItem) -> tuple[MenuItem, ...]:
        """``item`` and the nodes below it while each level has one choice only."""
        chain = [item]
        while not chain[-1].is_action:
            below = self.items(chain[-1].key)
            if len(below) != 1:
                break
            chain.append(below[0])
        return tuple(chain)

    def _path(self, prefix: str, code: str) -> tuple[MenuItem, ...]:
        """The nodes from the level ``prefix`` down to ``code``, the first one at that level."""
        parts = code.split(".")
        start = len(prefix.split(".")) + 1 if prefix else min(self.root_depth(parts[0]), len(parts))
        keys = [".".join(parts[:depth]) for depth in range(start, len(parts) + 1)]
        return tuple(MenuItem(key, key == code) for key in keys)

    def choices(self, prefix: str) -> list[Choice]:
        """The buttons of the level ``prefix`` (a level the menu shows, see ``shows``)."""
        if self._is_flat(prefix):
            return [Choice(self._path(prefix, code), True) for code in self._below(prefix)]
        out = []
        for item in self.items(prefix):
            chain = self.chain(item)
            plays = chain[-1].is_action and not (self.confirm and len(chain) > 1)
            out.append(Choice(chain, plays))
        return out

    def top(self) -> str:
        """The level the menu opens on: the first level, or the level (or the confirmation of the one move)
        that its single choice leads to."""
        first = self.choices("")
        if len(first) == 1 and not first[0].plays:
            return first[0].key
        return ""

    def back(self, prefix: str) -> str | None:
        """The level a player opened ``prefix`` from: the nearest above it with more than one choice (those
        with one were skipped on the way down), or the top; None on the top."""
        top = self.top()
        if prefix in ("", top):
            return None
        up = parent(prefix, self.root_depth)
        while up:
            if len(self.items(up)) > 1:
                return up
            up = parent(up, self.root_depth)
        return top

    def shows(self, prefix: str) -> bool:
        """Whether the menu ever shows the level ``prefix``: the top ("" opens it too), a node with more than
        one choice below it that no flat level above it skips, or, in a game that confirms moves, the
        confirmation that a button of a shown level opens. A press asking for any other level is forged."""
        top = self.top()
        if prefix in ("", top):
            return True
        if prefix in self.codes:
            if not self.confirm:
                return False
            above = parent(prefix, self.root_depth) or ""  # a first-level move ("" above) is played from there
            if not above or len(self.items(above)) != 1:  # only reached through a skipped level
                return False
        else:
            parts = prefix.split(".")
            if len(parts) < self.root_depth(parts[0]) or len(self.items(prefix)) < 2:
                return False
        up = parent(prefix, self.root_depth)
        while up is not None:  # a flat level above shows the moves themselves, never this level
            if (len(self.items(up)) > 1 or up == top) and self._is_flat(up):
                return False
            up = parent(up, self.root_depth)
        return True

    def presses(self, code: str) -> list[str]:
        """The keys pressed on the shortest way from the top to playing ``code`` (a legal one): the levels
        opened, then the code itself (the confirm button, in a confirmation)."""
        level, pressed = self.top(), []
        while level != code:
            choice = next(c for c in self.choices(level) if code == c.key or code.startswith(c.key + "."))
            pressed.append(choice.key)
            if choice.plays:
                return pressed
            level = choice.key
        pressed.append(code)  # the confirmation's button
        return pressed
