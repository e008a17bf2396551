"""The bot's operators (OPERATOR_IDS), in their private chat: /status, /maintenance on|off, /broadcast."""

from __future__ import annotations

import html
import logging
import time
from collections import Counter
from importlib.metadata import PackageNotFoundError, version

from telegram import Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.messages import texts
from bot.messages.fa import num
from bot.plumbing.services import parse_tag, services
from bot.plumbing.store import Store

log = logging.getLogger(__name__)

STARTED_AT = "started_at"


def _version() -> str:
    try:
        return version("dorehami")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "dev"


async def in_maintenance(store: Store) -> bool:
    return bool(await store.redis.exists(store.keys.maintenance))


async def _operator(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    user, message = update.effective_user, update.effective_message
    if user is not None and user.id in services(context).settings.operator_ids:
        return True
    if message is not None:
        await message.reply_text(texts.OPERATORS_ONLY)
    return False


async def cmd_status(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not await _operator(update, context):
        return
    message = update.effective_message
    assert message is not None
    store = services(context).store
    phases: Counter[str] = Counter()
    games: Counter[str] = Counter()
    groups: set[int] = set()
    private = 0  # games against computer players in private chats: counted apart from the groups
    for tag in await store.active_tags():
        chat_id, thread_id = parse_tag(tag)
        record = await store.load(chat_id, thread_id)
        if record is not None and record.in_private:
            private += 1
        elif record is not None:
            phases[record.phase] += 1
            games[record.game_id] += 1
            groups.add(chat_id)
    memory = await store.redis.info("memory")
    uptime = int(time.time() - context.bot_data.get(STARTED_AT, time.time()))
    lines = [
        "🛠 <b>وضعیت ربات</b>",
        f"نسخه: <code>{_version()}</code>، زمان کار: {num(uptime // 3600)} ساعت و {num(uptime % 3600 // 60)} دقیقه",
        f"گروه‌های فعال: {num(len(groups))}",
        f"بازی در جریان: {num(phases['playing'])}، اتاق انتظار: {num(phases['lobby'])}",
        "بر پایهٔ بازی: " + ("، ".join(f"{g} {num(n)}" for g, n in sorted(games.items())) or "—"),
        texts.STATUS_PRIVATE_GAMES.format(games=num(private)),
        f"مهلت‌های در صف: {num(await store.redis.zcard(store.keys.due))}",
        f"حافظهٔ Redis: {memory.get('used_memory_human', '?')}",
        f"حالت نگهداری: {'روشن' if await in_maintenance(store) else 'خاموش'}",
    ]
    await message.reply_text("\n".join(lines))


async def cmd_maintenance(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/maintenance on``: no new games (running ones go on) and the active groups are told; ``off`` ends it."""
    if not await _operator(update, context):
        return
    message = update.effective_message
    assert message is not None
    choice = (context.args or [""])[0].lower()
    store = services(context).store
    if choice == "on":
        await store.redis.set(store.keys.maintenance, 1)
        sent = await broadcast(context, texts.MAINTENANCE_NOTICE)
        await message.reply_text(texts.MAINTENANCE_ON.format(groups=num(sent)))
    elif choice == "off":
        await store.redis.delete(store.keys.maintenance)
        await message.reply_text(texts.MAINTENANCE_OFF)
    else:
        await message.reply_text(texts.MAINTENANCE_USAGE)


async def cmd_broadcast(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not await _operator(update, context):
        return
    message = update.effective_message
    assert message is not None and message.text is not None
    text = (message.text.split(None, 1)[1:] or [""])[0].strip()  # after /broadcast (or /broadcast@bot)
    if not text:
        await message.reply_text(texts.BROADCAST_USAGE)
        return
    sent = await broadcast(context, f"📢 {html.escape(text)}")  # shown as typed
    await message.reply_text(texts.BROADCAST_DONE.format(groups=num(sent)))


async def broadcast(context: ContextTypes.DEFAULT_TYPE, text: str) -> int:
    """Send ``text`` to every group (topic) with a lobby or a game; returns how many received it. The bot's
    rate limiter (bot/plumbing/ratelimit.py) paces the sends within the overall and per-group budgets. A private
    chat with a game against computer players is no group: its player hears of maintenance when /new says so."""
    store = services(context).store
    sent = 0
    for tag in sorted(await store.active_tags()):
        chat_id, thread_id = parse_tag(tag)
        if chat_id > 0:
            continue
        try:
            await context.bot.send_message(chat_id=chat_id, message_thread_id=thread_id, text=text)
            sent += 1
        except Forbidden:
            log.info("broadcast: the bot is no longer in chat %s", chat_id)
        except TelegramError as exc:
            log.warning("broadcast to %s failed: %s", tag, exc)
    return sent
