"""A finished game's result: announced in the group once and counted in the statistics once.

The count is guarded by a marker keyed by the game's seed (unique per
game), so announcing a result again after a crash does not count it twice.

Games with computer players are counted apart from games among people: the group's leaderboard of such games
is a board of its own (``stats:<game>:computer``), and a person's record against computers is kept by level
(the strongest computer in the game), not by game. Computers themselves are never counted; a person a
computer replaced (bot/flow/absence.py) counts as having played and lost.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.ext import ContextTypes

from bot.flow.computers import strongest_level
from bot.messages import keyboards, texts
from bot.messages.board import result_lines
from bot.messages.seats import winners
from bot.plumbing.keys import Keys
from bot.plumbing.services import services
from bot.plumbing.stop_points import stop_point
from bot.plumbing.store import GameRecord, Store
from rules import GAMES

COUNTED_TTL = 30 * 24 * 3600


def winners_of(record: GameRecord, winners: tuple[int, ...]) -> set[int]:
    """Seats that won; on a draw (every seat "won") nobody is counted as a winner."""
    return set() if len(winners) == len(record.players) > 1 else set(winners)


def board_key(keys: Keys, chat_id: int, game_id: str, computers: bool = False) -> str:
    """The group's leaderboard of a game: among people, or of its games with computer players."""
    return f"{keys.chat(chat_id)}stats:{game_id}" + (":computer" if computers else "")


def names_key(keys: Keys, chat_id: int) -> str:
    """The names the group's leaderboards show, by user id."""
    return f"{keys.chat(chat_id)}names"


def user_stats_key(keys: Keys, user_id: int) -> str:
    """A person's own record in every game (/mystats)."""
    return f"{keys.user(user_id)}stats"


async def count_result(store: Store, record: GameRecord, winners: tuple[int, ...]) -> bool:
    """Add a finished game to the statistics; False if it was counted before."""
    keys = store.keys
    marker = f"{keys.chat(record.chat_id)}counted:{record.seed}"
    if not await store.redis.set(marker, 1, nx=True, ex=COUNTED_TTL):
        return False
    won = winners_of(record, winners)
    level = strongest_level(record)
    board = board_key(keys, record.chat_id, record.game_id, computers=level is not None)
    # the field stem of a person's record: the game, or the game and the strongest computer player's level
    mine = f"computer:{record.game_id}:{level}" if level is not None else record.game_id
    persons = [(seat in won, player) for seat, player in enumerate(record.players) if not player.is_computer]
    persons += [(False, person) for person in record.replaced.values()]
    async with store.redis.pipeline(transaction=False) as pipe:
        for winner, player in persons:
            pipe.hincrby(user_stats_key(keys, player.user_id), f"{mine}:played", 1)
            if winner:
                pipe.hincrby(user_stats_key(keys, player.user_id), f"{mine}:won", 1)
            if record.in_private:
                continue  # no group to rank them in
            pipe.hincrby(board, f"{player.user_id}:played", 1)
            if winner:
                pipe.hincrby(board, f"{player.user_id}:won", 1)
            pipe.hset(names_key(keys, record.chat_id), str(player.user_id), player.name)
        await pipe.execute()
    return True


async def announce_result(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    """The result as a new message (it notifies the group, unlike the board's edit); then the game is done.
    Under the chat's lock; a game already retired has had its result (a heal that raced the drawer, another
    worker) and is not announced twice."""
    game = GAMES[record.game_id]
    store = services(context).store
    if not await store.is_active(record.chat_id, record.thread_id):
        return
    stop_point("result-due", record.chat_id)  # tests kill the bot here: the game is over, nobody was told
    await count_result(store, record, winners(record, state))
    lines = [f"🏁 <b>{game.title}</b> تمام شد!", "", *result_lines(record, state)]
    again = InlineKeyboardMarkup(
        [[InlineKeyboardButton(texts.PLAY_AGAIN, callback_data=keyboards.checked_data(f"again:{record.version}"))]]
    )
    await context.bot.send_message(
        chat_id=record.chat_id,
        message_thread_id=record.thread_id,
        text="\n".join(lines),
        reply_markup=again,
    )
    await store.retire(record.chat_id, record.thread_id)
