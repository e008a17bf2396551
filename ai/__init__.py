"""Computer players: one search over the engine contract for every game, at three levels.

Pure like ``rules``: no I/O, no clock, no global random; a position, a seed and a level always give the same
move. ``choose`` is all the bot needs; ``ai.baselines`` has the players the benchmarks measure it against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ai import puct
from ai.games import KNOWLEDGE
from ai.search import search
from rules import GAMES


@dataclass(frozen=True, slots=True)
class Level:
    """A strength, set by the search budget in iterations (never seconds, so it is the same on any machine)
    and by how the move is taken from the search (``ai.search.search``'s ``temperature``: 0 the best);
    ``guided``: where a game has a learned guide (``Knowledge.guide``), the level searches by it instead."""

    id: str
    title: str  # Persian, as players read it
    iterations: int
    temperature: float = 0.0
    guided: bool = False


# The weaker levels draw their move by the search's visits (issue 28: each level wins ≥ 70% against the one
# below, and a beginner can beat آسان): more iterations alone barely separated them in عصر سکه‌ها (سخت beat
# متوسط 57.7% of 26 games with four times the iterations, 55.0% of 20 with eight).
LEVELS: dict[str, Level] = {
    level.id: level
    for level in (
        Level("easy", "آسان", 40, temperature=1.0),
        Level("medium", "متوسط", 300, temperature=0.5),
        Level("hard", "سخت", 1200, guided=True),
    )
}


def choose(game_id: str, state: Any, seat: int, level: str, seed: int) -> Any:
    """The action the computer player at ``seat`` takes in ``state`` (a seat to act) at ``level``."""
    players = len(KNOWLEDGE[game_id].standing(state))  # a score per seat
    knowledge = KNOWLEDGE[game_id].at_table(players)
    strength = LEVELS[level]
    iterations = knowledge.iterations(strength.iterations, players)
    if strength.guided and knowledge.guide is not None:
        return puct.search(GAMES[game_id], state, seat, iterations, seed, knowledge.guide, mixed_with=knowledge).action
    return search(GAMES[game_id], state, seat, iterations, seed, knowledge, strength.temperature)


__all__ = ["LEVELS", "Level", "choose"]
