"""Private messages for games with secrets: each player's hand, and the choices they make there.

After every change of a game, each player's own view is drawn and sent to their private chat, or edited in
place, only if what they would see changed: the caption and buttons, and the picture's bytes, compared with what
was last shown (kept per seat beside the game's record), so another player's move that leaves their hand as it
was costs no call; a change of the words alone edits the caption and keeps the picture. When every choice a
player has comes to be made there and they may not be looking (``bot/messages/presence.py``), the hand is sent
anew at the bottom of the chat and the old one deleted: an edit notifies nobody, and this one message is how they
learn it is their turn (``bot/messages/notices.py``); one who pressed a moment ago has it edited in place. A
player the bot cannot write to (they never opened the bot, or blocked it) is named in the group with a button
that opens the bot and sends the hand; the game waits for them, and the turn timer keeps it from waiting forever.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.error import BadRequest, Forbidden, RetryAfter
from telegram.ext import ContextTypes
from telegram.helpers import create_deep_linked_url

from bot.games import PRESENTERS
from bot.messages import keyboards, pictures, texts
from bot.messages.fa import mention
from bot.messages.page_buttons import page_button
from bot.messages.presence import may_be_away
from bot.messages.split import CAPTION_LIMIT, shorten
from bot.plumbing.services import services
from bot.plumbing.store import GameRecord, HandMessage, chat_tag
from rules import GAMES

log = logging.getLogger(__name__)


def hand_payload(chat_id: int, thread_id: int | None) -> str:
    """Deep-link payload that reopens one's hand: h<chat without sign>[_<topic>]."""
    return f"h{abs(chat_id)}" + (f"_{thread_id}" if thread_id is not None else "")


def hand_link(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> str:
    return create_deep_linked_url(context.bot.username, hand_payload(record.chat_id, record.thread_id))


def private_codes(record: GameRecord, state: Any, seat: int) -> list[str]:
    """The seat's choices to be made in private: the secret kinds, or every choice while several seats
    decide at once. None in a game in a private chat: its board is already private, and has them all."""
    hands = PRESENTERS[record.game_id].hands
    game = GAMES[record.game_id]
    seats = game.to_act(state)
    if hands is None or record.phase != "playing" or seat not in seats or record.in_private:
        return []
    codes = [game.encode(a) for a in game.legal_actions(state, seat)]
    if len(seats) > 1:
        return codes
    return [c for c in codes if hands.is_private(c)]


def group_codes(record: GameRecord, state: Any) -> tuple[list[str], bool]:
    """The choices shown under the group's board, and whether someone must act in private. A computer
    player's choices are never shown (it moves by itself); in a private chat the board has all of the
    person's choices, secret ones too (nobody else sees it)."""
    game = GAMES[record.game_id]
    seats = game.to_act(state)
    hands = PRESENTERS[record.game_id].hands
    persons = [seat for seat in seats if not record.players[seat].is_computer]
    if record.phase != "playing" or not persons:
        return [], False
    if hands is None or record.in_private:
        return [game.encode(a) for a in game.legal_actions(state, persons[0])], False
    if len(seats) > 1:
        return [], True
    codes = [game.encode(a) for a in game.legal_actions(state, seats[0])]
    public = [c for c in codes if not hands.is_private(c)]
    return public, len(public) < len(codes)


def decides_in_private(record: GameRecord, state: Any, seat: int) -> bool:
    """Whether every choice the seat has now is made in their private chat: their hand, sent anew, is then what
    tells them it is their turn (``bot/messages/notices.py``)."""
    if not private_codes(record, state, seat):
        return False
    return len(GAMES[record.game_id].to_act(state)) > 1 or not group_codes(record, state)[0]


def _keyboard(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, seat: int, prefix: str = ""
) -> InlineKeyboardMarkup | None:
    codes = private_codes(record, state, seat)
    opener = page_button(context, record, private=True)
    extra = [opener] if opener is not None else []
    if not codes:
        return InlineKeyboardMarkup([extra]) if extra else None
    view = GAMES[record.game_id].view(state, seat)
    route = keyboards.private_route(record.chat_id, record.thread_id)
    return keyboards.game_menu(record.game_id, record.version, codes, prefix, view, route=route, extra=extra)


def _caption(record: GameRecord, state: Any, seat: int, to_decide: bool) -> str:
    game = GAMES[record.game_id]
    presenter = PRESENTERS[record.game_id]
    assert presenter.hands is not None
    names = [p.name for p in record.players]
    lines = [f"{presenter.emoji} <b>{game.title}</b> — {texts.YOUR_HAND}", ""]
    lines += presenter.hands.lines(game.view(state, seat), names)
    if record.phase == "cancelled":
        lines += ["", texts.CANCELLED]
    if to_decide:  # first: a notification shows the caption's beginning
        lines = [texts.YOUR_MOVE_HERE, *lines]
    return shorten("\n".join(lines), CAPTION_LIMIT)


def board_seat(record: GameRecord) -> int | None:
    """Whose view the board's buttons are labelled from: the person's in a private chat (their secret
    choices are there), else nobody's (the public view)."""
    if not record.in_private:
        return None
    persons = [seat for seat, player in enumerate(record.players) if not player.is_computer]
    return persons[0] if persons else None


def hand_seats(record: GameRecord) -> list[int]:
    """The seats that have a private message: every person still in a game with secrets (the bot plays for a
    seat out of the game, so there is nothing to show them; a computer player has no chat)."""
    if PRESENTERS[record.game_id].hands is None or record.state is None:
        return []
    return [seat for seat, player in enumerate(record.players) if seat not in record.gone and not player.is_computer]


def _fingerprint(record: GameRecord, view: Any, markup: InlineKeyboardMarkup | None) -> str:
    """What a private message shows: the view, the buttons (their data carry the version) and the phase."""
    content = f"{view.model_dump_json()}|{markup.to_json() if markup else ''}|{record.phase}"
    return hashlib.sha1(content.encode()).hexdigest()


async def refresh_hands(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> None:
    """Bring every player's private message up to date (no-op for games without secrets)."""
    for seat in hand_seats(record):
        await send_hand(context, record, state, seat)


async def hands_behind(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any) -> list[int]:
    """Seats whose private message does not show ``record`` (never drawn, or drawn for an older version whose
    content or buttons differ), e.g. after a crash between the board's redraw and the hands'. A player the
    bot cannot write to, and was named in the group for it, is not behind: their hand comes when they ask."""
    store = services(context).store
    behind = []
    for seat in hand_seats(record):
        stored = await store.hand_message(record.chat_id, record.thread_id, record.players[seat].user_id)
        if stored is not None and stored.told_unreachable and not stored.again:
            continue
        view = GAMES[record.game_id].view(state, seat)
        if (
            stored is None
            or stored.again
            or stored.shown != _fingerprint(record, view, _keyboard(context, record, state, seat))
        ):
            behind.append(seat)
    return behind


async def ask_again(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int) -> None:
    """The player asked for their hand: the chat's drawer sends it as a new message at the bottom of their
    chat (never under the lock, where the private chat's budget could make it wait)."""
    store = services(context).store
    user_id = record.players[seat].user_id
    stored = await store.hand_message(record.chat_id, record.thread_id, user_id)
    wanted = (stored or HandMessage(message_id=0, shown="")).model_copy(update={"again": True, "shown": ""})
    await store.set_hand_message(record.chat_id, record.thread_id, user_id, wanted)


async def render_hand(record: GameRecord, state: Any, seat: int) -> pictures.Picture:
    """The seat's private picture (rendered off the event loop, or beforehand by the drawer)."""
    hands = PRESENTERS[record.game_id].hands
    assert hands is not None
    view = GAMES[record.game_id].view(state, seat)
    names = [p.name for p in record.players]
    key = (chat_tag(record.chat_id, record.thread_id), record.version, seat, "")
    return await pictures.render(key, lambda: hands.picture(view, names))


async def send_hand(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, seat: int, *, again: bool = False
) -> None:
    """Draw ``seat``'s view into their private message; ``again`` sends it as a new message even if unchanged
    (the player asked for it). A move that changes nothing the player sees (the caption, the buttons, the
    picture's bytes) costs no call, one that changes only the words edits the caption and keeps the picture.
    When every choice the seat has is to be made there and was not before, the hand is sent as a new message
    too: that is how they learn it is their turn (an edit notifies nobody), unless they turned turn notices
    off or are at the screen (``presence.may_be_away``: they pressed in the game a moment ago)."""
    hands = PRESENTERS[record.game_id].hands
    assert hands is not None
    store = services(context).store
    user = record.players[seat]
    view = GAMES[record.game_id].view(state, seat)
    markup = _keyboard(context, record, state, seat)
    shown = _fingerprint(record, view, markup)
    stored = await store.hand_message(record.chat_id, record.thread_id, user.user_id)
    again = again or (stored is not None and stored.again)
    if stored is not None and stored.shown == shown and not again:
        return
    awaits = decides_in_private(record, state, seat)
    if awaits and not (stored is not None and stored.awaits) and not again:
        # their turn begins here: a new message tells them, unless they are looking at it
        again = await store.wants_notices(user.user_id) and await may_be_away(context, record, user.user_id)
    caption = _caption(record, state, seat, markup is not None)
    data, filename = await render_hand(record, state, seat)
    looks = HandMessage(
        message_id=stored.message_id if stored is not None else 0,
        shown=shown,
        version=record.version,
        words=_digest(f"{caption}|{markup.to_json() if markup else ''}"),
        picture=_digest(data),
        awaits=awaits,
    )
    unchanged = stored is not None and (stored.words, stored.picture) == (looks.words, looks.picture)
    if unchanged and stored is not None and stored.message_id and not again and not stored.told_unreachable:
        await store.set_hand_message(record.chat_id, record.thread_id, user.user_id, looks)  # nothing to send
        return
    try:
        message_id = await _deliver(
            context, record, user.user_id, stored, again, looks, (data, filename), caption, markup
        )
    except Forbidden:
        await store.mark_reachable(user.user_id, False)
        if stored is None or not stored.told_unreachable:
            await _tell_group(context, record, seat)
        told = HandMessage(
            message_id=stored.message_id if stored else 0, shown="", version=record.version, told_unreachable=True
        )
        await store.set_hand_message(record.chat_id, record.thread_id, user.user_id, told)
        return
    await store.set_hand_message(
        record.chat_id, record.thread_id, user.user_id, looks.model_copy(update={"message_id": message_id})
    )


def _digest(content: str | bytes) -> str:
    return hashlib.sha1(content.encode() if isinstance(content, str) else content).hexdigest()


async def _deliver(
    context: ContextTypes.DEFAULT_TYPE,
    record: GameRecord,
    user_id: int,
    stored: HandMessage | None,
    again: bool,
    looks: HandMessage,
    picture: pictures.Picture,
    caption: str,
    markup: InlineKeyboardMarkup | None,
) -> int:
    """Edit the private message in place (its caption alone when the picture is the same), or send a new one;
    returns the message's id."""
    data, filename = picture
    if stored is not None and stored.message_id and not again:
        try:
            if stored.picture == looks.picture:
                await context.bot.edit_message_caption(
                    chat_id=user_id, message_id=stored.message_id, caption=caption, reply_markup=markup
                )
            else:
                media = InputMediaPhoto(media=data, filename=filename, caption=caption)
                await context.bot.edit_message_media(
                    chat_id=user_id, message_id=stored.message_id, media=media, reply_markup=markup
                )
            return stored.message_id
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return stored.message_id
            log.info("hand message %s of %s cannot be edited (%s); sending anew", stored.message_id, user_id, exc)
            # forgotten first: if the new one must wait for the budget, the next try does not edit again
            forgotten = stored.model_copy(update={"message_id": 0, "shown": "", "words": "", "picture": ""})
            await services(context).store.set_hand_message(record.chat_id, record.thread_id, user_id, forgotten)
    message = await context.bot.send_photo(
        chat_id=user_id, photo=data, filename=filename, caption=caption, reply_markup=markup
    )
    if not record.in_private:  # a group's game: a game played in this private chat keeps its board below it
        await services(context).store.note_private_message(user_id, message.message_id)
    if stored is not None and stored.message_id and stored.message_id != message.message_id:
        await _retire_hand(context, user_id, stored.message_id)
    return message.message_id


async def _retire_hand(context: ContextTypes.DEFAULT_TYPE, user_id: int, message_id: int) -> None:
    """An older hand would only confuse: deleted (a bot may delete its own messages in a private chat, and that
    takes nothing from the budgets), or, past the 48 hours Telegram allows for that, stripped of its buttons."""
    try:
        await context.bot.delete_message(chat_id=user_id, message_id=message_id)
        return
    except BadRequest as exc:
        log.info("hand message %s of %s not deleted (%s); its buttons are taken off", message_id, user_id, exc)
    except Forbidden:
        return
    with contextlib.suppress(BadRequest, Forbidden, RetryAfter):  # no room now: a press on it is stale anyway
        await context.bot.edit_message_reply_markup(chat_id=user_id, message_id=message_id, reply_markup=None)


def open_hand_button(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> InlineKeyboardButton:
    """In the group, for a player the bot cannot write to: opens the bot, which then sends their hand."""
    return InlineKeyboardButton(texts.OPEN_HAND, url=hand_link(context, record))


async def _tell_group(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, seat: int) -> None:
    player = record.players[seat]
    button = InlineKeyboardMarkup([[open_hand_button(context, record)]])
    await context.bot.send_message(
        chat_id=record.chat_id,
        message_thread_id=record.thread_id,
        text=texts.HAND_UNREACHABLE.format(who=mention(player.user_id, player.name)),
        reply_markup=button,
    )


async def show_private_menu(
    context: ContextTypes.DEFAULT_TYPE, record: GameRecord, state: Any, seat: int, prefix: str
) -> None:
    """Open a menu level in a player's private message: only its buttons change."""
    stored = await services(context).store.hand_message(record.chat_id, record.thread_id, record.players[seat].user_id)
    if stored is None:
        return
    try:
        await context.bot.edit_message_reply_markup(
            chat_id=record.players[seat].user_id,
            message_id=stored.message_id,
            reply_markup=_keyboard(context, record, state, seat, prefix),
        )
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise


def hand_button(context: ContextTypes.DEFAULT_TYPE, record: GameRecord) -> InlineKeyboardButton:
    """Under the group's board: the way to one's private message when the move is made there."""
    return InlineKeyboardButton(texts.GO_TO_HAND, url=hand_link(context, record))
