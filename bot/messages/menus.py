"""Button menus built from a game's legal action codes, so the bot needs no game-specific keyboards.

Action codes are dot-separated, coarse to fine (``p.C.B2``: place coin C on space B2). The first level of
the menu groups codes by their first ``root_depth`` segments; each deeper level adds one segment. A node
that is a whole code is an action button; any other node opens the next level.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MenuItem:
    key: str  # the code prefix this button stands for
    is_action: bool  # True: pressing it plays the action ``key``


def menu_items(codes: Sequence[str], prefix: str, root_depth: Callable[[str], int]) -> list[MenuItem]:
    """The buttons of the menu level below ``prefix`` ("" for the first level), in the codes' order."""
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
    """The prefix of the level above, or None on the first level."""
    if not prefix:
        return None
    parts = prefix.split(".")
    if len(parts) <= root_depth(parts[0]):
        return ""
    return ".".join(parts[:-1])
