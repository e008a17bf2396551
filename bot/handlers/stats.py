"""/stats and /mystats: per group and game a leaderboard, per user their own record.

A finished game is counted once (bot/flow/results.py). Games with computer players are shown apart from games
among people: the group's leaderboard of such games is a board of its own, and a person's record against
computers is kept by level (the strongest computer in the game), not by game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from ai import LEVELS
from bot.flow.results import board_key, names_key, user_stats_key
from bot.games import PLAYABLE, PRESENTERS
from bot.handlers.info import reply_long
from bot.messages import texts
from bot.messages.fa import name, num
from bot.plumbing.services import services
from bot.plumbing.store import Store

LEADERBOARD_SIZE = 10


@dataclass(frozen=True, slots=True)
class Line:
    user_id: int
    name: str
    played: int
    won: int

    @property
    def rate(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0


async def leaderboard(store: Store, chat_id: int, game_id: str, computers: bool = False) -> list[Line]:
    raw = await store.redis.hgetall(board_key(store.keys, chat_id, game_id, computers))
    names = await store.redis.hgetall(names_key(store.keys, chat_id))
    counts: dict[int, dict[str, int]] = {}
    for field, value in raw.items():
        user, _, kind = str(field).partition(":")
        counts.setdefault(int(user), {})[kind] = int(value)
    lines = [
        Line(user, str(names.get(str(user), user)), c.get("played", 0), c.get("won", 0)) for user, c in counts.items()
    ]
    return sorted(lines, key=lambda line: (-line.won, -line.rate, -line.played, line.name))[:LEADERBOARD_SIZE]


async def cmd_stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stats in a group: a leaderboard per game played here."""
    message = update.effective_message
    assert message is not None
    store = services(context).store
    boards = {game_id: await leaderboard(store, message.chat_id, game_id) for game_id in PLAYABLE}
    against = {game_id: await leaderboard(store, message.chat_id, game_id, computers=True) for game_id in PLAYABLE}
    await reply_long(update, leaderboard_text(boards, against))  # a busy group's board can outgrow one message


def leaderboard_text(boards: dict[str, list[Line]], with_computers: dict[str, list[Line]] | None = None) -> str:
    """The group's leaderboards, one block per game played there: its games among people, then apart its
    games with computer players."""
    parts = ["📊 <b>جدول بازیکنان این گروه</b>"]
    with_computers = with_computers or {}
    for game_id in dict.fromkeys([*boards, *with_computers]):
        lines, others = boards.get(game_id, []), with_computers.get(game_id, [])
        if not lines and not others:
            continue
        parts += ["", f"{PRESENTERS[game_id].emoji} <b>{PLAYABLE[game_id].title}</b>"]
        parts += _ranked(lines)
        if others:
            parts += [texts.STATS_WITH_COMPUTERS, *_ranked(others)]
    if len(parts) == 1:
        parts.append("هنوز بازی‌ای در این گروه تمام نشده است.")
    return "\n".join(parts)


def record_text(won: int, played: int) -> str:
    """«۱ برد از ۲ بازی (۵۰٪)»: one form for the group's board and a person's own record."""
    rate = round(100 * won / played) if played else 0
    return texts.RECORD.format(won=num(won), played=num(played), rate=num(rate))


def _ranked(lines: list[Line]) -> list[str]:
    return [
        f"{num(rank)}. {name(line.name)} — {record_text(line.won, line.played)}" for rank, line in enumerate(lines, 1)
    ]


async def cmd_mystats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/mystats in private: the user's own record in every game."""
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None
    store = services(context).store
    raw = await store.redis.hgetall(user_stats_key(store.keys, user.id))
    parts = ["📊 <b>کارنامهٔ شما</b>"]
    for game_id, game in PLAYABLE.items():
        played = int(raw.get(f"{game_id}:played", 0))
        if played:
            won = int(raw.get(f"{game_id}:won", 0))
            parts.append(f"{PRESENTERS[game_id].emoji} {game.title}: {record_text(won, played)}")
    parts += against_computers(raw)
    if len(parts) == 1:
        parts.append("هنوز بازی‌ای را تمام نکرده‌اید. در گروهی با /new بازی بسازید!")
    await message.reply_text("\n".join(parts))


def against_computers(raw: Mapping[Any, Any]) -> list[str]:
    """A person's record against computer players, a line per game and level (the strongest computer of each
    game: bot/flow/results.py). Games counted before the game was kept (``computer:<level>``) show as one line
    a level, for every game together."""
    lines = []
    for stem, label in [
        *((f"computer:{g}:{lv}", f"{PRESENTERS[g].emoji} {game.title}، {level.title}") for g, game in PLAYABLE.items()
          for lv, level in LEVELS.items()),
        *((f"computer:{lv}", texts.MYSTATS_EARLIER.format(level=level.title)) for lv, level in LEVELS.items()),
    ]:  # fmt: skip
        played = int(raw.get(f"{stem}:played", 0))
        if played:
            lines.append(f"{label}: {record_text(int(raw.get(f'{stem}:won', 0)), played)}")
    return ["", texts.MYSTATS_COMPUTERS, *lines] if lines else []
