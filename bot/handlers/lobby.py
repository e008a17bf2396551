"""Lobbies: opening a game, joining and leaving, options, starting and cancelling.

In a private chat a lobby is for one person against computer players (bot/handlers/computer_lobby.py adds
and removes them, in groups too): the person is its only human player, and nobody can join.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.error import BadRequest, RetryAfter
from telegram.ext import ContextTypes

from bot.flow import absence
from bot.flow.cancel import cancel
from bot.flow.commit import commit
from bot.flow.recovery import heal
from bot.flow.redraw import redraw
from bot.games import PLAYABLE, PRESENTERS
from bot.handlers.access import is_admin, on_behalf_of_a_chat
from bot.handlers.operators import in_maintenance
from bot.messages import board, keyboards, texts
from bot.messages.fa import name, num
from bot.messages.lobby_message import join_link, options_of
from bot.messages.seats import present
from bot.plumbing.pacing import deferring
from bot.plumbing.services import locked_game, services, when_unlocked, where
from bot.plumbing.store import Absence, GameRecord, Player
from rules import GAMES

log = logging.getLogger(__name__)


def player_of(user: User) -> Player:
    display = user.full_name.strip() or (user.username or str(user.id))
    return Player(user_id=user.id, name=display[:40], username=user.username)


async def _reply(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    """Reply to the command, once the chat's lock is let go if it is held (``when_unlocked``)."""
    message = update.effective_message
    if message is not None:
        await when_unlocked(lambda: message.reply_text(text, reply_markup=markup))


async def written_as_a_chat(update: Update) -> bool:
    """A command sent as the group or a channel names nobody: it may not open, join or leave a game (an
    anonymous admin may still start, cancel and manage one, as an admin). Says so, and returns True."""
    if not on_behalf_of_a_chat(update):
        return False
    await _reply(update, texts.WRITE_AS_YOURSELF)
    return True


async def _refuse(update: Update, text: str) -> None:
    """Say no: as an alert to a button press, as a reply to a command."""
    if update.callback_query is not None:
        await update.callback_query.answer(text, show_alert=True)
    else:
        await _reply(update, text)


# Opening a lobby ---------------------------------------------------------------------------------


async def cmd_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if await written_as_a_chat(update):
        return
    game_id = (context.args or [""])[0].lower() if context.args else ""
    chat_id, _ = where(update)
    settings = await services(context).store.group_settings(chat_id)
    if not game_id:
        if not any(settings.allows(g) for g in PLAYABLE):
            await _reply(update, texts.NO_GAME_ALLOWED)
            return
        await _reply(update, texts.PICK_GAME, keyboards.game_picker(settings.allows))
        return
    if game_id not in PLAYABLE:
        await _reply(update, texts.UNKNOWN_GAME)
        return
    assert update.effective_user is not None
    await open_lobby(update, context, game_id, update.effective_user)


def asked_by(query: CallbackQuery) -> int | None:
    """Who sent the command that the pressed message answers (it quotes it), while that command still shows."""
    message = query.message
    replied = message.reply_to_message if isinstance(message, Message) else None
    return replied.from_user.id if replied is not None and replied.from_user is not None else None


async def on_pick_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``new:<game>``: the game picker's button (only ever pressed in a group: bot/handlers/guards.py) opens
    that game's lobby and takes the picker away (only the picker: the same data forged onto another message
    opens the lobby, as /new would, and deletes nothing). The one who typed /new picks, and creates the game;
    anyone else is told so. A refusal (a game already open, the game closed, maintenance) is the press's
    answer, as an alert: nothing is written and no message is sent."""
    query = update.callback_query
    assert query is not None and query.data is not None
    game_id = query.data.split(":", 1)[1]
    if game_id not in PLAYABLE:
        await query.answer(texts.UNKNOWN_GAME, show_alert=True)
        return
    asker = asked_by(query)
    if asker is not None and asker != query.from_user.id:
        await query.answer(texts.PICK_NOT_YOURS, show_alert=True)
        return
    if not await open_lobby(update, context, game_id, query.from_user):
        return  # open_lobby has answered the press with the reason
    await query.answer()
    if isinstance(query.message, Message) and keyboards.has_button(query.message.reply_markup, query.data):
        with contextlib.suppress(BadRequest):
            await query.message.delete()


async def closed_to_new_games(context: ContextTypes.DEFAULT_TYPE, chat_id: int, game_id: str) -> str | None:
    """Why no game of ``game_id`` may open or start in this chat now (maintenance, or the group's admins
    closed that game in /settings), or None. Asked by /new, the play-again button and start."""
    store = services(context).store
    if await in_maintenance(store):
        return texts.MAINTENANCE
    if not (await store.group_settings(chat_id)).allows(game_id):
        return texts.GAME_DISABLED
    return None


async def open_lobby(update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: str, user: User) -> bool:
    """Open a lobby of ``game_id`` in the chat (from /new or the picker); False, with the reason told (a
    reply to the command, an alert to the press), if it may not."""
    svc = services(context)
    chat_id, thread_id = where(update)
    refusal = await closed_to_new_games(context, chat_id, game_id)
    if refusal:
        await _refuse(update, refusal)
        return False
    settings = await svc.store.group_settings(chat_id)
    async with locked_game(context, chat_id, thread_id) as current:
        if current is not None and current.active:
            await _refuse(update, texts.GAME_EXISTS)
            return False
        creator = player_of(user)
        record = GameRecord(
            chat_id=chat_id,
            thread_id=thread_id,
            game_id=game_id,
            creator=creator,
            options=settings.options_for(game_id),
        )
        if record.in_private or await svc.store.is_reachable(user.id):  # in private: they just wrote to the bot
            record.players.append(creator)
        record = await commit(context, record, expected=current.version if current else 0)
        await svc.store.clear_live_message(chat_id, thread_id)
        await redraw(context, record)  # a new lobby message, when the group's budget has room
        return True


# Joining and leaving ---------------------------------------------------------------------------------


def join_error(record: GameRecord, user_id: int) -> str | None:
    if record.seat_of(user_id) is not None:
        return texts.ALREADY_JOINED
    if len(record.players) >= GAMES[record.game_id].max_players:
        return texts.LOBBY_FULL
    return None


async def add_player(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user: User) -> GameRecord:
    record.players.append(player_of(user))
    record = await commit(context, record)
    await redraw(context, record)
    return record


async def remove_player(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int) -> GameRecord:
    record.players = [p for p in record.players if p.user_id != user_id]
    persons = [p for p in record.players if not p.is_computer]
    if record.creator.user_id == user_id and persons:
        record.creator = persons[0]
    record = await commit(context, record)
    await redraw(context, record)
    return record


async def cmd_join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if await written_as_a_chat(update):
        return
    svc = services(context)
    chat_id, thread_id = where(update)
    user = update.effective_user
    assert user is not None
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or record.phase != "lobby":
            await _reply(update, texts.NO_LOBBY)
            return
        error = join_error(record, user.id)
        if error:
            await _reply(update, error)
            return
        if not await svc.store.is_reachable(user.id):
            link = InlineKeyboardMarkup(
                [[InlineKeyboardButton("🤖 شروع ربات", url=join_link(context, chat_id, thread_id))]]
            )
            await _reply(update, texts.NEED_START, link)
            return
        await add_player(context, record, user)


async def take_out(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int, reason: Absence) -> None:
    """Take a seat out of the running game (bot/flow/absence.py), write it and redraw."""
    _, lines = absence.remove(record, board.load_state(record), seat, reason)
    record.recent = (record.recent + lines)[-board.RECENT_LINES :]
    record = await commit(context, record)
    await redraw(context, record)


async def cmd_leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Leave a lobby at once; leaving a running game asks to confirm first (in a two-player game the opponent
    wins; with more, the game goes on with the bot's default moves for the seat)."""
    if await written_as_a_chat(update):
        return
    chat_id, thread_id = where(update)
    user = update.effective_user
    assert user is not None
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or not record.active:
            await _reply(update, texts.NO_LOBBY)
        elif record.seat_of(user.id) is None:
            await _reply(update, texts.NOT_JOINED)
        elif record.phase == "lobby":
            await remove_player(context, record, user.id)
            await _reply(update, texts.LEFT_LOBBY.format(who=name(player_of(user).name)))
        elif record.seat_of(user.id) in record.gone:
            await _reply(update, texts.KICK_GONE.format(who=name(player_of(user).name)))
        else:
            staying = [s for s in present(record) if s != record.seat_of(user.id)]
            persons = [s for s in staying if not record.players[s].is_computer]
            then = texts.LEAVE_WINS if len(staying) <= 1 else texts.LEAVE_PLAYS_ON if persons else texts.LEAVE_ENDS
            confirm = InlineKeyboardMarkup(
                [
                    [
                        InlineKeyboardButton(texts.LEAVE_YES, callback_data=f"q:{record.seed}:{user.id}:y"),
                        InlineKeyboardButton(texts.LEAVE_NO, callback_data=f"q:{record.seed}:{user.id}:n"),
                    ]
                ]
            )
            await _reply(update, texts.LEAVE_CONFIRM.format(who=name(player_of(user).name), then=then), confirm)


async def on_leave_confirm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``q:<game seed>:<user>:y|n``: the player who asked confirms leaving (or not); the seed names the game."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, seed, asker, choice = query.data.split(":")
    if str(query.from_user.id) != asker:
        await query.answer(texts.NOT_FOR_YOU, show_alert=True)
        return
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        seat = record.seat_of(query.from_user.id) if record is not None else None
        if record is None or record.phase != "playing" or str(record.seed) != seed:
            await query.answer(texts.STALE, show_alert=True)
            return
        if seat is None or seat in record.gone:
            await query.answer(texts.NOT_JOINED, show_alert=True)
            return
        if await said_yes(query, choice):
            await take_out(context, record, seat, "left")


async def said_yes(query: CallbackQuery, choice: str) -> bool:
    """A yes-or-no question answered (``choice`` "y" or "n"): the question taken away, the press answered
    («no» says the game goes on); whether it was yes."""
    if isinstance(query.message, Message):
        with contextlib.suppress(BadRequest):
            await query.message.delete()
    if choice == "n":
        await query.answer(texts.LEAVE_KEPT)
        return False
    await query.answer()
    return True


async def on_play_again(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``again:<version>``: a player of the game that just ended opens a lobby with the same players and
    options; they only have to press start."""
    query = update.callback_query
    assert query is not None and query.data is not None
    version = query.data.split(":", 1)[1]
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as last:
        if last is None or last.active:
            await query.answer(texts.GAME_EXISTS if last else texts.STALE, show_alert=True)
            return
        if str(last.version) != version:
            await query.answer(texts.STALE, show_alert=True)
            return
        if last.seat_of(query.from_user.id) is None:
            await query.answer(texts.NOT_IN_LAST_GAME, show_alert=True)
            return
        refusal = await closed_to_new_games(context, chat_id, last.game_id)
        if refusal:
            await query.answer(refusal, show_alert=True)
            return
        host = next(p for p in last.players if p.user_id == query.from_user.id)
        players = [host, *(p for p in last.players if p.user_id != host.user_id)]
        record = GameRecord(
            chat_id=chat_id,
            thread_id=thread_id,
            game_id=last.game_id,
            creator=host,
            players=players,
            options=last.options,
        )
        record = await commit(context, record, expected=last.version)
        await query.answer()
        if isinstance(query.message, Message):  # if the budget has room now; a second press is stale anyway
            with contextlib.suppress(BadRequest, RetryAfter), deferring():
                await query.message.edit_reply_markup(reply_markup=None)
        await services(context).store.clear_live_message(chat_id, thread_id)
        await redraw(context, record)


# Lobby buttons -----------------------------------------------------------------------------------------


def stale_text(record: GameRecord | None) -> str:
    """The alert for an old button: look at the lobby while there is one, else at the game's board."""
    return texts.STALE_LOBBY if record is not None and record.phase == "lobby" else texts.STALE


async def lobby_pressed(
    context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, record: GameRecord | None, version: str
) -> bool:
    """True if a lobby button press may act: the chat's lobby is open at that version and the pressed message
    is its live one; else the press is told its button is stale (and the chat's messages brought up to date)."""
    store = services(context).store
    live = await store.live_message(record.chat_id, record.thread_id) if record is not None else None
    if (
        record is None
        or record.phase != "lobby"
        or str(record.version) != version
        or live is None
        or (query.message is not None and live.message_id != query.message.message_id)
    ):
        await query.answer(stale_text(record), show_alert=True)
        if record is not None:
            await heal(context, record)
        return False
    return True


async def on_lobby_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, version, op = query.data.split(":", 2)
    svc = services(context)
    chat_id, thread_id = where(update)
    user = query.from_user
    async with locked_game(context, chat_id, thread_id) as record:
        if not await lobby_pressed(context, query, record, version) or record is None:
            return
        if op == "join":
            error = join_error(record, user.id)
            if error:
                await query.answer(error, show_alert=True)
            elif not await svc.store.is_reachable(user.id):
                await query.answer(texts.NEED_START, url=join_link(context, chat_id, thread_id))
            else:
                await query.answer(texts.JOINED_ALERT)
                await add_player(context, record, user)
        elif op == "leave":
            if record.seat_of(user.id) is None:
                await query.answer(texts.NOT_JOINED, show_alert=True)
            else:
                await query.answer(texts.LEFT_ALERT)
                await remove_player(context, record, user.id)
        elif op == "start":
            await _start(update, context, record, user)
        elif op == "cancel":
            if not await may_manage(context, record, user.id, None):
                await query.answer(texts.NOT_ALLOWED, show_alert=True)
            else:
                await query.answer()
                await cancel(context, record)
        else:
            await query.answer(stale_text(record), show_alert=True)


async def on_option_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, version, field = query.data.split(":", 2)
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or record.phase != "lobby" or str(record.version) != version:
            await query.answer(stale_text(record), show_alert=True)
            return
        if field not in {t.field for t in PRESENTERS[record.game_id].toggles}:
            await query.answer(stale_text(record), show_alert=True)
            return
        if not await may_manage(context, record, query.from_user.id, None):
            await query.answer(texts.NOT_ALLOWED, show_alert=True)
            return
        options = options_of(record)
        record.options = {**options.model_dump(), field: not getattr(options, field)}
        record = await commit(context, record)
        await query.answer()
        await redraw(context, record)


# Starting and cancelling ------------------------------------------------------------------------------


async def may_manage(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int, message: Message | None
) -> bool:
    if record.creator.user_id == user_id:
        return True
    return await is_admin(context.bot, record.chat_id, user_id, message)


async def cmd_start_in_group(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in a group belongs to every bot there: it only says how to start a game with this one."""
    await _reply(update, texts.START_IN_GROUP)


async def cmd_begin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/begin: the creator or an admin starts the lobby's game, as the lobby's «شروع» button does."""
    chat_id, thread_id = where(update)
    user = update.effective_user
    assert user is not None
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or record.phase != "lobby":
            await _reply(update, texts.NO_LOBBY if record is None or not record.active else texts.GAME_EXISTS)
            return
        await _start(update, context, record, user)


async def _start(update: Update, context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user: User) -> None:
    query = update.callback_query
    message = None if query else update.effective_message  # an anonymous admin's /begin carries the group
    if not await may_manage(context, record, user.id, message):
        await _refuse(update, texts.NOT_ALLOWED)
        return
    refusal = await closed_to_new_games(context, record.chat_id, record.game_id)
    if refusal:
        await _refuse(update, refusal)
        return
    game = GAMES[record.game_id]
    if len(record.players) < game.min_players:
        await _refuse(update, texts.TOO_FEW.format(min=num(game.min_players)))
        return
    if all(player.is_computer for player in record.players):
        await _refuse(update, texts.NEED_A_PERSON)
        return
    if query:
        await query.answer()
    record.seed = deal_seed(services(context).settings.deal_seed, record)
    state = game.setup(len(record.players), record.seed, options_of(record))
    record.state = state.model_dump(mode="json")
    record.phase = "playing"
    record.recent = []
    lobby_message = await services(context).store.live_message(record.chat_id, record.thread_id)
    record = await commit(context, record)
    if lobby_message is not None:
        players = "، ".join(name(p.name) for p in record.players)
        # only if the group's budget has room now (never waited for under the lock); else the drawer's new
        # board takes the lobby's buttons away
        with contextlib.suppress(BadRequest, RetryAfter), deferring():
            await context.bot.edit_message_text(
                chat_id=record.chat_id, message_id=lobby_message.message_id,
                text=f"{texts.GAME_STARTED}\n{PRESENTERS[record.game_id].emoji} {game.title} — {players}",
            )  # fmt: skip
            await services(context).store.clear_live_message(record.chat_id, record.thread_id)
    await redraw(context, record)  # the board as a new message, and the hands


async def cmd_cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat_id, thread_id = where(update)
    user = update.effective_user
    assert user is not None
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or not record.active:
            await _reply(update, texts.NO_GAME)
        elif not await may_manage(context, record, user.id, update.effective_message):
            await _reply(update, texts.NOT_ALLOWED)
        elif record.phase == "playing":  # a game's moves are lost for good: asked first
            anonymous = on_behalf_of_a_chat(update)
            who = texts.ADMINS if anonymous else name(player_of(user).name)
            question = texts.CANCEL_CONFIRM.format(who=who, game=GAMES[record.game_id].title)
            asker = 0 if anonymous else user.id
            buttons = keyboards.confirm("cancel", record.seed, asker, texts.CANCEL_YES, texts.CANCEL_NO)
            await _reply(update, question, buttons)
        else:
            await cancel(context, record)


def deal_seed(fixed: int | None, record: GameRecord) -> int:
    """A new game's seed (its deal, and its computer players' choices): secret, or with ``DEAL_SEED`` (tests,
    demos) drawn from it, the chat and the record's version, so that a run replays the same deals and a
    test that fails on one deal fails again on the next run."""
    if fixed is None:
        return secrets.randbits(62)
    where = f"{fixed}:{record.chat_id}:{record.thread_id}:{record.version}".encode()
    return int.from_bytes(hashlib.blake2b(where, digest_size=8).digest()) >> 2
