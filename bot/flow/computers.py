"""Computer players' seats: who they are, when one is to move, and the seed its search gets.

A computer seat is a ``Player`` with a negative ``user_id`` (-1, -2, … unique within the game: it is no
Telegram user, so nothing ever writes to it) and a ``level`` (an ``ai.LEVELS`` key). Everything else about it
is an ordinary seat: it counts toward the game's limits, it can win, the game's events name it.
"""

from __future__ import annotations

from typing import Any

from ai import LEVELS
from bot.messages import texts
from bot.messages.fa import num
from bot.plumbing.store import GameRecord, Player
from rules import GAMES

SEED_MIX = 0x9E3779B97F4A7C15  # spreads consecutive versions over the seed space (the golden-ratio constant)


def new_computer(record: GameRecord, level: str) -> Player:
    """A computer player of ``level`` with the smallest number nobody in the game has (nor had: a computer
    that replaced a person keeps its number)."""
    taken = {-p.user_id for p in [*record.players, *record.replaced.values()] if p.user_id < 0}
    n = next(k for k in range(1, len(taken) + 2) if k not in taken)
    return Player(user_id=-n, name=texts.COMPUTER_NAME.format(n=num(n), level=LEVELS[level].title), level=level)


def people(record: GameRecord) -> list[int]:
    """The seats of persons."""
    return [seat for seat, player in enumerate(record.players) if not player.is_computer]


def has_computers(record: GameRecord) -> bool:
    return any(player.is_computer for player in record.players)


def strongest_level(record: GameRecord) -> str | None:
    """The highest level among the game's computer players (how /mystats files a game against them)."""
    levels = {player.level for player in record.players if player.level is not None}
    return next((level for level in reversed(LEVELS) if level in levels), None)


def computer_to_act(record: GameRecord, state: Any = None) -> int | None:
    """The first computer seat still in the game whose move is awaited, if any (``state`` is read from the
    record when not given)."""
    if record.phase != "playing" or record.state is None or not has_computers(record):
        return None
    game = GAMES[record.game_id]
    if state is None:
        state = game.state_model.model_validate(record.state)
    return next(
        (s for s in game.to_act(state) if record.players[s].is_computer and s not in record.gone),
        None,
    )


def person_to_act(record: GameRecord, state: Any) -> bool:
    """Whether a person still in the game is to move (only then can a turn time out)."""
    seats = GAMES[record.game_id].to_act(state)
    return any(not record.players[s].is_computer and s not in record.gone for s in seats)


def search_seed(record: GameRecord, seat: int) -> int:
    """The computer's seed for this move: from the game's seed and version, so a replay makes the same move."""
    return (record.seed ^ (record.version * SEED_MIX) ^ (seat + 1)) % (1 << 62)
