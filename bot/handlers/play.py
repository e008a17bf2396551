"""The turn loop: a button press becomes one checked, compare-and-set move, then everything is redrawn.

Presses come from the group's board (``g:``/``n:``) or from a player's private message (``h:``/``k:``, for
choices that reveal a secret hand); both go through the same checks and the same move.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import CallbackQuery, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.flow.moves import play_step
from bot.flow.recovery import heal
from bot.flow.redraw import open_menu, redraw
from bot.messages import board, hands, keyboards, presence, texts
from bot.plumbing.figures import PRESSES_REFUSED
from bot.plumbing.services import locked_game, services, when_unlocked, where
from bot.plumbing.stop_points import stop_point
from bot.plumbing.store import GameRecord, StaleVersion
from rules import GAMES, IllegalAction, NotYourTurn

log = logging.getLogger(__name__)


async def answer(query: CallbackQuery, text: str | None = None, *, alert: bool = False) -> bool:
    """Answer a press (answers are not rate-limited, so this never waits for a budget); False if Telegram
    refused it, e.g. a query older than Telegram lets one wait (about 15 s): the press's effect stands and is
    drawn, the player only missed the notice."""
    try:
        await query.answer(text, show_alert=alert)
    except BadRequest as exc:
        log.warning("could not answer a press (%s); what it did stands", exc)
        return False
    return True


async def _checked(
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    record: GameRecord | None,
    version: str,
    private: bool,
    game_id: str | None = None,
) -> tuple[int, Any] | None:
    """The presser's seat and the state if this press may act now; otherwise answer why not (and heal a
    chat whose stale message was pressed). The pressed message must be the live one: the group's board, or
    the presser's latest private message."""
    refusal = await _refusal(context, query, record, version, private, game_id)
    if refusal is not None:
        count_refusal(refusal, game_id or (record.game_id if record is not None else None))
        await answer(query, refusal, alert=True)
        if refusal == texts.STALE and record is not None and (game_id is None or record.game_id == game_id):
            await heal(context, record)
        return None
    assert record is not None
    seat = record.seat_of(query.from_user.id)
    assert seat is not None
    return seat, board.load_state(record)


async def _refusal(
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    record: GameRecord | None,
    version: str,
    private: bool,
    game_id: str | None,
    *,
    locked: bool = True,
) -> str | None:
    """Why this press may not act on ``record``, or None. Without the chat's lock (``locked`` False) only
    refusals that are already final count: versions only grow, so a press refused at the version it names
    stays refused after any move. Whether the pressed message is the live one is asked only under the lock:
    the drawer notes a message as live just after Telegram took it, so a quick press could come between."""
    store = services(context).store
    live_id = None
    if record is not None and locked:
        if private:
            hand = await store.hand_message(record.chat_id, record.thread_id, query.from_user.id)
            live_id = hand.message_id if hand else None
        else:
            live = await store.live_message(record.chat_id, record.thread_id)
            live_id = live.message_id if live else None
    if locked and (live_id is None or (query.message is not None and query.message.message_id != live_id)):
        return texts.STALE
    return turn_refusal(record, query.from_user.id, version, game_id)


# Why a press or a page's move was refused, as /metrics names it (dorehami_presses_refused_total).
REASONS = {
    texts.STALE: "stale",
    texts.NOT_A_PLAYER: "not_a_player",
    texts.NOT_YOUR_TURN: "not_your_turn",
    texts.ILLEGAL: "illegal",
    texts.TOPIC_CLOSED_LINE: "topic_closed",
}


def count_refusal(refusal: str, game_id: str | None) -> None:
    """A press (or a move from the page) refused, counted by the game its button was for and why; a game the bot
    has not is "unknown" (the data of a press is the presser's to forge)."""
    PRESSES_REFUSED.labels(game_id if game_id in GAMES else "unknown", REASONS.get(refusal, "other")).inc()


def turn_refusal(record: GameRecord | None, user_id: int, version: str, game_id: str | None = None) -> str | None:
    """Why ``user_id`` may not move in ``record`` at ``version``, or None: the checks every move goes through,
    from a button or from the Mini App (bot/handlers/page.py)."""
    if (
        record is None
        or record.phase != "playing"
        or (game_id is not None and record.game_id != game_id)
        or str(record.version) != version
    ):
        return texts.STALE
    if record.topic_closed:  # the game stands still until the topic reopens, which saves a newer version
        return texts.TOPIC_CLOSED_LINE
    seat = record.seat_of(user_id)
    if seat is None:
        return texts.NOT_A_PLAYER
    if seat not in GAMES[record.game_id].to_act(board.load_state(record)):
        return texts.NOT_YOUR_TURN
    return None


async def _move(
    context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, record: GameRecord, seat: int, state: Any, code: str
) -> None:
    """Apply the pressed action, write it, redraw, answer."""
    refusal = await make_move(context, record, seat, state, code)
    if refusal is not None:
        count_refusal(refusal, record.game_id)
    await answer(query, refusal, alert=refusal is not None)


async def make_move(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int, state: Any, code: str
) -> str | None:
    """Apply ``code`` for ``seat``, write it, redraw; the words of the refusal if it could not be played. The
    caller holds the chat's lock and checked the turn (``turn_refusal``)."""
    await presence.note_press(context, record, record.players[seat].user_id)  # at the screen: no notice now
    game = GAMES[record.game_id]
    try:
        step = game.apply(state, seat, game.decode(code))
    except NotYourTurn:
        return texts.NOT_YOUR_TURN
    except IllegalAction:
        return texts.ILLEGAL
    try:
        record = await play_step(context, record, seat, step)
    except StaleVersion:
        return texts.STALE
    stop_point("move-saved", record.chat_id)  # tests stop here: to make the answer late, to stop the bot
    await redraw(context, record)  # noted first: a failed answer must not keep a saved move from the screen
    return None


async def on_action(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``g:<game>:<version>:<code>``: play the action from the group's board."""
    await _press(update, context, private=False, menu=False)


async def on_menu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``n:<game>:<version>:<prefix>``: show a level of the board's menu; the game does not change."""
    await _press(update, context, private=False, menu=True)


async def on_private_action(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``h:<chat>[_<topic>]:<version>:<code>``: play a choice from one's private message."""
    await _press(update, context, private=True, menu=False)


async def on_private_menu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``k:<chat>[_<topic>]:<version>:<prefix>``: show a level of one's private menu."""
    await _press(update, context, private=True, menu=True)


async def _press(update: Update, context: ContextTypes.DEFAULT_TYPE, *, private: bool, menu: bool) -> None:
    """A game button: checked (live message, version, seat to act), then the action played or the menu
    level opened, only if it is one of the presser's choices where it was pressed (a private choice cannot
    come from the group, nor a group choice from a private chat)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    game_id: str | None = None
    if private:
        chat_id, thread_id, version, rest = keyboards.parse_private(query.data)
    else:
        _, game_id, version, rest = query.data.split(":", 3)
        chat_id, thread_id = where(update)
    # Refused at once, before waiting for the chat's lock: in a burst of presses, the stale ones and the
    # outsiders' are answered without queueing behind the moves.
    early = await services(context).store.load(chat_id, thread_id)
    refusal = await _refusal(context, query, early, version, private, game_id, locked=False)
    if refusal is not None:
        count_refusal(refusal, game_id or (early.game_id if early is not None else None))
        await answer(query, refusal, alert=True)
        if refusal == texts.STALE and early is not None and (game_id is None or early.game_id == game_id):
            async with locked_game(context, chat_id, thread_id) as record:
                if record is not None:
                    await heal(context, record)
        return
    async with locked_game(context, chat_id, thread_id) as record:
        checked = await _checked(context, query, record, version, private=private, game_id=game_id)
        if checked is None or record is None:
            return
        seat, state = checked
        codes = hands.private_codes(record, state, seat) if private else hands.group_codes(record, state)[0]
        if (menu and not keyboards.menu(record.game_id, codes).shows(rest)) or (not menu and rest not in codes):
            count_refusal(texts.ILLEGAL, record.game_id)
            await answer(query, texts.ILLEGAL, alert=True)  # not one of their moves nor a level of their menu
        elif not menu:
            await _move(context, query, record, seat, state, rest)
        else:
            await answer(query)  # at once: the menu's edit may have to wait for the chat's budget
            await presence.note_press(context, record, query.from_user.id)
            await open_menu(context, record, state, rest, seat if private else None)


async def cmd_board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Send the board again at the bottom of the chat (the old one loses its buttons)."""
    svc = services(context)
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        message = update.effective_message
        if record is None or record.phase not in ("playing", "finished") or record.state is None:
            if record is not None and record.phase == "lobby":
                await svc.store.clear_live_message(chat_id, thread_id)  # the drawer posts it anew
                await redraw(context, record, again=True)
            elif message is not None:
                await when_unlocked(lambda: message.reply_text(texts.NO_GAME))
            return
        await board.ask_repost(context, record)
        await redraw(context, record, again=True)
