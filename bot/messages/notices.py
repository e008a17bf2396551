"""The one real notification a player gets when a game waits for them, taken back when it no longer does.

The board is edited at every move, and an edit notifies nobody. So when a player's turn begins (or a choice
awaits them in private) and they may not be looking (they have not pressed in the game for
``AWAY_AFTER_SECONDS``: ``bot/messages/presence.py``; one who just pressed is at the screen, where the board
names them), they are told once:

- in a game with secrets, when every choice they have is made in their private chat: by their hand itself,
  sent anew at the bottom of that chat (``bot/messages/hands.py``), so there is no second message;
- otherwise by a short private message, «نوبت شماست — <game> در <group>», with a button to the group's board
  when Telegram can link to it (``bot/messages/links.py``) and one to turn these off. A private chat has its own
  flood budget: the group's 20 messages a minute are not spent;
- a player the bot cannot write to (they never started it, or blocked it) by a short message in the group that
  mentions them, if the group's budget has room at once; if not, none: the board comes first.

The notice is deleted when the turn moves on (``deleteMessage`` takes nothing from the budgets; a bot may
delete its own messages), and the turn timer's reminder takes its place the same way. A private notice never
answered (no press of theirs since it came: the turn timed out or was skipped) is left at the bottom of their
chat instead, and if it is still the newest message a game sent there when their next turn begins, that turn is
said in it: an edit, one call instead of a delete and a send, and no second buzz for a game they have not come
back to (their first is still unanswered). Notices are sent by a
task of their own once the chat's drawer has drawn the board, never under the chat's lock, and once per turn
however many workers draw (``bot/plumbing/turn_notices.py``). Computer players (user ids ≤ 0), seats out of the
game, a game played in a private chat and a closed topic get none, nor does a player who turned them off.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import ContextTypes

from bot.games import PRESENTERS
from bot.messages import board, hands, presence, texts
from bot.messages.fa import mention, name
from bot.messages.links import message_link
from bot.plumbing import activity
from bot.plumbing.chat_cards import ChatCard, ChatCards
from bot.plumbing.outage import STORE_DOWN
from bot.plumbing.pacing import deferring
from bot.plumbing.services import services
from bot.plumbing.store import GameRecord, chat_tag
from bot.plumbing.telegram_outage import out_of_reach, telegram_reach
from bot.plumbing.turn_notices import Notice, TurnBook
from rules import GAMES

log = logging.getLogger(__name__)

TASKS, BOOK, CARDS = "notice_tasks", "turn_book", "chat_cards"
NOTICES_OFF_DATA, NOTICES_ON_DATA = "u:off", "u:on"  # bot/messages/keyboards.py: PATTERNS["notices"]


def follow(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> None:
    """``record`` is drawn (or ended): notices follow it in a task of their own, so that nothing waits here
    for a private chat's budget."""
    _spawn(context, _follow(context, record))


def waiting(record: GameRecord) -> list[int]:
    """The people the game waits for now: no computer player, nobody out of the game; nobody in a game that
    is not running, is played in a private chat, or stands still in a closed topic."""
    if record.phase != "playing" or record.state is None or record.topic_closed or record.chat_id > 0:
        return []
    seats = GAMES[record.game_id].to_act(board.load_state(record))
    people = [record.players[seat].user_id for seat in seats if seat not in record.gone]
    return [user_id for user_id in people if user_id > 0]


async def remind(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, left: str) -> None:
    """Half the turn's time is gone: everyone the game waits for is reminded the way they are told of their
    turn, the reminder taking the place of their notice."""
    tag = chat_tag(record.chat_id, record.thread_id)
    store = services(context).store
    for user_id in waiting(record):
        if not await store.wants_notices(user_id):
            continue
        began = await book(context).turn_began(tag, user_id)
        seat = record.seat_of(user_id)
        assert seat is not None
        in_private = hands.decides_in_private(record, board.load_state(record), seat)
        card = await cards(context).card(context.bot, record.chat_id)
        text = texts.TURN_REMINDER.format(left=left, game=_game(record), where=_where(card))
        if in_private:
            text += "\n" + texts.CHOOSE_IN_HAND
        private = (text, await _private_buttons(context, record, card, link=not in_private))
        group = texts.REMINDER_IN_GROUP.format(who=_mention(record, seat), left=left)
        await _deliver(context, record, seat, private, group, hand_button=in_private, began=began, reminder=True)


async def _follow(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> None:
    tag = chat_tag(record.chat_id, record.thread_id)
    try:
        turns = await book(context).advance(tag, str(record.seed), record.version, waiting(record))
        if turns is not None:  # None: drawn before, or a newer version was noted already
            for user_id in turns.ended:
                await _turn_ended(context, record, tag, user_id)
            for user_id in turns.began:
                await _tell(context, record, user_id)
        for user_id in waiting(record):
            if turns is None or user_id not in turns.began:
                await _restate(context, record, user_id)
        if not record.active:  # over: a notice left unanswered (its player no longer waited for) goes too
            for player in record.players:
                if not player.is_computer:
                    await _take_back(context, tag, player.user_id)
    except STORE_DOWN as exc:
        log.warning("chat %s: turn notices wait for Redis (%s); the next turn's come as usual", tag, exc)
    except Exception as exc:
        if not out_of_reach(exc):
            log.exception("chat %s: turn notices failed", tag)
            return
        telegram_reach(context).met(tag)  # drawn again once Telegram answers, and its notices told then
        log.warning("chat %s: turn notices wait for Telegram (%s)", tag, exc)


async def _turn_ended(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, tag: str, user_id: int) -> None:
    """The user's turn ended: their notice is taken back, unless it is one in their private chat they never
    answered (the turn timed out, or was skipped): it stays at the bottom of their chat, and their next turn is
    said in it (``_deliver``), so that they are not buzzed a second time for a game they have not come back to."""
    notice = await book(context).kept(tag, user_id)
    if notice is None:
        return
    if record.phase == "playing" and await _unanswered(context, record, user_id, notice):
        return
    await _take_back(context, tag, user_id)


async def _unanswered(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int, notice: Notice) -> bool:
    """Whether ``notice`` is a turn notice (not a reminder) in the user's private chat that is still the newest
    message a game sent there, and the user has not pressed in this game since it was sent."""
    if notice.chat_id != user_id or notice.reminder or not notice.sent:
        return False
    if notice.message_id < await services(context).store.newest_private_message(user_id):
        return False
    return not await presence.pressed_since(context, record, user_id, notice.sent)


async def _tell(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int) -> None:
    """The user's turn began at ``record``: tell them, once, if they may not be looking (they did not press in
    the game a moment ago: ``bot/messages/presence.py``)."""
    store = services(context).store
    if not await store.wants_notices(user_id) or not await presence.may_be_away(context, record, user_id):
        return
    seat = record.seat_of(user_id)
    assert seat is not None
    in_private = hands.decides_in_private(record, board.load_state(record), seat)
    if in_private:
        hand = await store.hand_message(record.chat_id, record.thread_id, user_id)
        if hand is not None and not hand.told_unreachable:
            return  # their hand came anew, at the bottom of their private chat: that was the notification
        if hand is not None and hand.version == record.version:
            return  # the group was told just now that their hand cannot reach them, by a mention
    private, group = await _plain_notice(context, record, seat, in_private)
    await _deliver(context, record, seat, private, group, hand_button=in_private, began=record.version)


async def _plain_notice(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int, in_private: bool
) -> tuple[tuple[str, InlineKeyboardMarkup], str]:
    """What a turn notice says, in the private chat (text and buttons) and in the group."""
    card = await cards(context).card(context.bot, record.chat_id)
    text = texts.TURN_NOTICE.format(emoji=PRESENTERS[record.game_id].emoji, game=_game(record), where=_where(card))
    private = (text, await _private_buttons(context, record, card, link=True))
    return private, texts.TURN_IN_GROUP.format(who=_mention(record, seat))


async def _restate(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int) -> None:
    """A turn that goes on: a notice out for it that no longer holds is said again in place, an edit that
    notifies nobody. Its button led to a board posted anew since (/board), or it is the half-time reminder
    while the timer is stopped (/pause): it says again only that it is their turn, leading to the live board."""
    tag = chat_tag(record.chat_id, record.thread_id)
    notice = await book(context).kept(tag, user_id)
    if notice is None:
        return
    live = await services(context).store.live_message(record.chat_id, record.thread_id)
    moved = notice.chat_id == user_id and live is not None and notice.board_id != live.message_id
    if not moved and not (notice.reminder and record.paused):
        return
    seat = record.seat_of(user_id)
    assert seat is not None
    in_private = hands.decides_in_private(record, board.load_state(record), seat)
    (text, buttons), group = await _plain_notice(context, record, seat, in_private)
    markup: InlineKeyboardMarkup | None = buttons
    if notice.chat_id != user_id:  # a mention in the group
        text = group
        markup = InlineKeyboardMarkup([[hands.open_hand_button(context, record)]]) if in_private else None
    try:
        await context.bot.edit_message_text(
            chat_id=notice.chat_id, message_id=notice.message_id, text=text, reply_markup=markup
        )
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():  # deleted, say: the turn's next notice is a new one
            log.info("turn notice %s in %s not said again (%s)", notice.message_id, notice.chat_id, exc)
            return
    except TelegramError as exc:
        log.info("turn notice %s in %s not said again (%s)", notice.message_id, notice.chat_id, exc)
        return
    board_id = live.message_id if live is not None else 0
    await book(context).keep(tag, user_id, Notice(notice.chat_id, notice.message_id, board_id, sent=notice.sent))


async def _deliver(
    context: ContextTypes.DEFAULT_TYPE,
    record: GameRecord,
    seat: int,
    private: tuple[str, InlineKeyboardMarkup],
    group: str,
    *,
    hand_button: bool,
    began: int | None,
    reminder: bool = False,
) -> None:
    """Send the notice to the seat's private chat, or else to the group; it replaces their previous notice,
    and is taken back at once if their turn ended meanwhile (the turn that ``began`` at that version). A turn
    notice they never answered, still the newest message there, is said again in place instead: an edit, that
    buzzes nobody a second time (a reminder is always a new message: buzzing again is what it is for)."""
    store = services(context).store
    tag = chat_tag(record.chat_id, record.thread_id)
    user_id = record.players[seat].user_id
    notice = None if reminder else await _said_again(context, record, user_id, private)
    if notice is None:
        await _take_back(context, tag, user_id)
    if notice is None and await store.is_reachable(user_id):
        text, markup = private
        live = await store.live_message(record.chat_id, record.thread_id)
        try:
            message = await context.bot.send_message(chat_id=user_id, text=text, reply_markup=markup)
            board_id = live.message_id if live is not None else 0
            notice = Notice(user_id, message.message_id, board_id, reminder, time.time())
            await store.note_private_message(user_id, message.message_id)
        except Forbidden:  # never started, or blocked: the group is told instead
            await store.mark_reachable(user_id, False)
        except TelegramError as exc:
            log.info("no turn notice for %s (%s)", user_id, exc)
            return
    if notice is None:
        notice = await _in_group(context, record, group, hand_button, reminder)
    if notice is None:
        return
    turns = book(context)
    await turns.keep(tag, user_id, notice)
    if began is not None and await turns.turn_began(tag, user_id) != began:
        await _take_back(context, tag, user_id, only=notice)  # the turn moved on while this was on its way


async def _said_again(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int, private: tuple[str, InlineKeyboardMarkup]
) -> Notice | None:
    """The user's notice still unanswered at the bottom of their private chat, edited to say ``private``; None
    if there is none, or it could not be edited (then a new one is sent)."""
    tag = chat_tag(record.chat_id, record.thread_id)
    notice = await book(context).kept(tag, user_id)
    if notice is None or not await _unanswered(context, record, user_id, notice):
        return None
    text, markup = private
    try:
        await context.bot.edit_message_text(
            chat_id=user_id, message_id=notice.message_id, text=text, reply_markup=markup
        )
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():  # deleted by the user, say
            log.info("turn notice %s of %s not said again (%s); sent anew", notice.message_id, user_id, exc)
            return None
    except TelegramError as exc:
        log.info("turn notice %s of %s not said again (%s); sent anew", notice.message_id, user_id, exc)
        return None
    live = await services(context).store.live_message(record.chat_id, record.thread_id)
    return Notice(user_id, notice.message_id, live.message_id if live is not None else 0, sent=notice.sent)


async def _in_group(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, text: str, hand_button: bool, reminder: bool
) -> Notice | None:
    """The group message for a player the bot cannot write to, if the group's budget has room now."""
    markup = InlineKeyboardMarkup([[hands.open_hand_button(context, record)]]) if hand_button else None
    try:
        with deferring():  # never in the way of the board: no room now, no notice
            message = await context.bot.send_message(
                chat_id=record.chat_id, message_thread_id=record.thread_id, text=text, reply_markup=markup
            )
    except RetryAfter:
        log.info("chat %s: no room in the group's budget for a turn notice; none sent", record.chat_id)
        return None
    except TelegramError as exc:  # removed, muted, a closed topic: bot.handlers.membership hears of it too
        log.info("chat %s: no turn notice in the group (%s)", record.chat_id, exc)
        return None
    return Notice(record.chat_id, message.message_id, reminder=reminder)


async def _take_back(context: ContextTypes.DEFAULT_TYPE, tag: str, user_id: int, only: Notice | None = None) -> None:
    notice = await book(context).take(tag, user_id, only)
    if notice is None:
        return
    try:
        await context.bot.delete_message(chat_id=notice.chat_id, message_id=notice.message_id)
    except TelegramError as exc:  # deleted already, older than Telegram lets a bot delete, the bot blocked
        log.info("turn notice %s in %s not deleted (%s)", notice.message_id, notice.chat_id, exc)


async def _private_buttons(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, card: ChatCard, *, link: bool
) -> InlineKeyboardMarkup:
    rows: list[list[InlineKeyboardButton]] = []
    live = await services(context).store.live_message(record.chat_id, record.thread_id) if link else None
    url = message_link(card, live.message_id, record.thread_id) if live is not None else None
    if url is not None:
        rows.append([InlineKeyboardButton(texts.GO_TO_GAME, url=url)])
    rows.append([InlineKeyboardButton(texts.NOTICES_OFF, callback_data=NOTICES_OFF_DATA)])
    return InlineKeyboardMarkup(rows)


def _game(record: GameRecord) -> str:
    return GAMES[record.game_id].title


def _where(card: ChatCard) -> str:
    return texts.IN_GROUP.format(chat=name(card.title)) if card.title else ""


def _mention(record: GameRecord, seat: int) -> str:
    player = record.players[seat]
    return mention(player.user_id, player.name)


def book(context: ContextTypes.DEFAULT_TYPE) -> TurnBook:
    found = context.bot_data.get(BOOK)
    if not isinstance(found, TurnBook):
        found = context.bot_data[BOOK] = TurnBook(services(context).store.redis, services(context).store.keys)
    return found


def cards(context: ContextTypes.DEFAULT_TYPE) -> ChatCards:
    found = context.bot_data.get(CARDS)
    if not isinstance(found, ChatCards):
        found = context.bot_data[CARDS] = ChatCards()
    return found


def _spawn(context: ContextTypes.DEFAULT_TYPE, coroutine: Coroutine[Any, Any, None]) -> None:
    # the application awaits its tasks when it stops, so notices on their way still go out
    task = activity.spawn(coroutine, "notice", context.application)
    running: set[asyncio.Task[None]] = context.bot_data.setdefault(TASKS, set())
    running.add(task)
    task.add_done_callback(running.discard)
