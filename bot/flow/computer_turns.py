"""A computer player's move, made like a press: checked against the game's version, written once.

When a computer seat is to act, the write that made it so arms a ``computer`` deadline (bot/flow/commit.py),
so the move survives a restart and is made by one worker only (bot/plumbing/deadlines.py). Firing it loads the
game at version v without the chat's lock, has the move thought out in the process pool
(bot/plumbing/thinking.py) while the group's pause runs, then takes the lock and plays the move only if the
game is still at v (a person's press or a time-out may have come first: then the next version's deadline
thinks again). Thinking never holds the lock, so presses, menus and redraws go on meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures.process import BrokenProcessPool

from telegram.ext import ContextTypes

from bot.flow.computers import computer_to_act, search_seed
from bot.flow.moves import play_step
from bot.flow.redraw import redraw
from bot.messages import board
from bot.plumbing.deadlines import Deadline
from bot.plumbing.services import locked_game, parse_tag, services
from bot.plumbing.stop_points import stop_point
from bot.plumbing.store import GameRecord, StaleVersion
from rules import GAMES, IllegalAction

log = logging.getLogger(__name__)


async def move(context: ContextTypes.DEFAULT_TYPE, deadline: Deadline) -> None:
    """Fire a ``computer`` deadline: think at the armed version, then move if the game is still there."""
    svc = services(context)
    chat_id, thread_id = parse_tag(deadline.tag)
    record = await svc.store.load(chat_id, thread_id)
    if record is None or record.version != deadline.version or record.topic_closed:
        return  # the game moved on (or stands still): this deadline is obsolete
    seat = computer_to_act(record)
    if seat is None:
        return
    stop_point("computer-to-move", chat_id)  # tests kill the bot here: the move is due, not yet thought of
    code = await think(context, record, seat)
    pause = (await svc.store.group_settings(chat_id)).computer_pause_seconds
    wait = record.updated_at + pause - time.time()  # the pause runs from the move before, thinking included
    if wait > 0:
        await asyncio.sleep(min(wait, pause))
    async with locked_game(context, chat_id, thread_id) as current:
        if current is None or current.version != record.version:
            return  # a press or a time-out came first; its version has a deadline of its own
        game = GAMES[current.game_id]
        state = board.load_state(current)
        try:
            step = game.apply(state, seat, game.decode(code))
        except IllegalAction:  # never expected: the search only plays legal actions
            log.error("chat %s: the computer's move %r is illegal; playing the default move", deadline.tag, code)
            step = game.apply(state, seat, game.default_action(state, seat))
        try:
            saved = await play_step(context, current, seat, step)
        except StaleVersion:
            return
        await redraw(context, saved)


async def think(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int) -> str:
    """The code of the move the seat's computer player chooses, thought out in the process pool. A search that
    fails (a bug, never a player's doing) gives the game's default move rather than a game that stands still;
    a pool whose process died raises, so the deadline is tried again once its lease runs out."""
    player = record.players[seat]
    assert player.level is not None and record.state is not None
    thinker = services(context).thinker
    try:
        return await thinker.choose(
            record.game_id, json.dumps(record.state), seat, player.level, search_seed(record, seat)
        )
    except BrokenProcessPool:
        raise
    except Exception:
        log.exception("chat %s: the computer player at seat %d could not think; default move", record.chat_id, seat)
        game = GAMES[record.game_id]
        state = board.load_state(record)
        return game.encode(game.default_action(state, seat))
