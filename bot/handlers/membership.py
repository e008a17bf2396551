"""The bot's place in its chats: a group that became a supergroup, the bot removed or muted, a user who blocked
it, and who the bot has heard from in a group.

Telegram tells of each change twice, in either order: by an update (a service message with
``migrate_to_chat_id`` / ``migrate_from_chat_id``, a ``my_chat_member``) and by refusing the next call for that
chat (400 with ``migrate_to_chat_id``, which PTB raises as ``ChatMigrated``; 403 "bot was kicked"; 400 "not
enough rights to send"). Both lead here, and either may come first: a migration moves the chat's keys once
(``move_chat`` is a no-op the second time), and stopping a chat's games twice finds nothing left to stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import ChatMemberRestricted, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import Application, CallbackContext, ContextTypes

from bot.flow.commit import commit
from bot.flow.recovery import heal
from bot.handlers.access import on_behalf_of_a_chat
from bot.messages import notices
from bot.plumbing import activity
from bot.plumbing.chat_move import move_chat
from bot.plumbing.outage import STORE_DOWN
from bot.plumbing.services import locked_game, parse_tag, services
from bot.plumbing.store import chat_tag

log = logging.getLogger(__name__)

PENDING = "membership_pending"  # bot_data: the chat repairs under way, so a burst of refusals starts one each

# How Telegram words a group that no longer takes the bot's messages (403: removed; 400: muted).
_GONE = ("bot was kicked", "bot is not a member", "group chat was deactivated")
_MUTED = ("not enough rights to send", "have no rights to send", "chat_write_forbidden")


# A group that became a supergroup -----------------------------------------------------------------------


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The service message in either chat: the old group's ``migrate_to_chat_id``, the new one's
    ``migrate_from_chat_id``."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        await migrate_chat(context, message.chat_id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await migrate_chat(context, message.migrate_from_chat_id, message.chat_id)


async def migrate_chat(context: ContextTypes.DEFAULT_TYPE, old: int, new: int) -> bool:
    """Move the chat's game, deadlines, settings and statistics to its new id and post its lobby or board
    there; True if this call moved it (False: it had moved already)."""
    svc = services(context)
    async with svc.locks.hold(chat_tag(old, None)), svc.locks.hold(chat_tag(new, None)):
        if not await move_chat(svc.store, old, new):
            return False
    log.info("chat %s became the supergroup %s; its game follows", old, new)
    async with locked_game(context, new, None) as record:
        if record is not None and record.active:
            await heal(context, record)  # the live message was left behind: the lobby or board is posted anew
    return True


# The bot removed, muted or blocked -------------------------------------------------------------------------


async def on_my_chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot's own standing changed: in a group, stop its games if it may no longer write there; in a
    private chat, the user blocked (or unblocked) the bot."""
    change = update.my_chat_member
    if change is None:
        return
    status = change.new_chat_member.status
    if change.chat.type == ChatType.PRIVATE:
        reachable = status not in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)
        await services(context).store.mark_reachable(change.chat.id, reachable)
        return
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED) or not _may_post(change.new_chat_member):
        await stop_chat(context, change.chat.id, status)


def _may_post(member: object) -> bool:
    """A restricted bot may still post only with the rights to send text and photos."""
    if not isinstance(member, ChatMemberRestricted):
        return True
    return bool(member.can_send_messages and member.can_send_photos)


async def stop_chat(context: ContextTypes.DEFAULT_TYPE, chat_id: int, why: str) -> int:
    """End every lobby and game of a group the bot can no longer write to (each topic's, in a forum): cancelled
    without a word (nothing can be sent), deadlines dropped, out of the active set. Being added again starts
    clean. Returns how many were stopped."""
    svc = services(context)
    stopped = 0
    for tag in sorted(await svc.store.active_tags()):
        tag_chat, thread_id = parse_tag(tag)
        if tag_chat != chat_id:
            continue
        async with locked_game(context, chat_id, thread_id) as record:
            if record is None or not record.active:
                await svc.store.retire(chat_id, thread_id)
                await svc.deadlines.arm(tag, {})
                continue
            record.phase = "cancelled"
            # a cancelled game arms no deadline and leaves the active set; its turn notices are taken back
            notices.follow(context, await commit(context, record))
            stopped += 1
    log.info("chat %s: the bot may not write there (%s); %d game(s) stopped", chat_id, why, stopped)
    return stopped


# Calls Telegram refused -------------------------------------------------------------------------------------


def refusal_watcher(app: Application) -> Callable[[str, dict[str, Any], TelegramError], None]:  # type: ignore[type-arg]
    """For the bot's rate limiter (``PacedLimiter.on_refused``): a call refused because the group migrated, or
    because the bot was removed or muted there, starts the same repair its update would. The caller still gets
    the error; the repair runs in its own task, since the caller may hold the chat's lock."""
    context: ContextTypes.DEFAULT_TYPE = CallbackContext(app)

    def refused(endpoint: str, data: dict[str, Any], error: TelegramError) -> None:
        chat_id = _int(data.get("chat_id"))
        if chat_id is None or chat_id > 0:
            return  # private chats: the hands' own Forbidden handling covers a user who blocked the bot
        if isinstance(error, ChatMigrated):
            _start(app, ("migrate", chat_id), lambda: migrate_chat(context, chat_id, int(error.new_chat_id)))
        elif _lost(error):
            _start(app, ("stop", chat_id), lambda: stop_chat(context, chat_id, f"{endpoint}: {error.message}"))

    return refused


def _lost(error: TelegramError) -> bool:
    text = error.message.lower()
    if isinstance(error, Forbidden):
        return any(words in text for words in _GONE)
    return isinstance(error, BadRequest) and any(words in text for words in _MUTED + _GONE)


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _start(
    app: Application,  # type: ignore[type-arg]
    key: tuple[str, int],
    repair: Callable[[], Coroutine[Any, Any, object]],
) -> None:
    pending: dict[tuple[str, int], asyncio.Task[None]] = app.bot_data.setdefault(PENDING, {})
    if key in pending and not pending[key].done():
        return

    async def run() -> None:
        try:
            await repair()
        except Exception:
            log.exception("could not %s chat %s after Telegram refused a call", *key)
        finally:
            pending.pop(key, None)

    pending[key] = activity.spawn(run(), "recovery", app)


# Who the bot has heard from ---------------------------------------------------------------------------------


async def note_seen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A message or a press in a group shows its sender is a member (``bot.handlers.access.is_member``)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP):
        return
    if update.message is None and update.callback_query is None:
        return
    if on_behalf_of_a_chat(update):
        return
    try:
        await services(context).store.note_seen(chat.id, user.id)
    except STORE_DOWN:  # a hint for later, never worth an error to the user: the update itself was handled
        log.debug("could not note user %s in chat %s: Redis is away", user.id, chat.id)
