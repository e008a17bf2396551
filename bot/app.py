"""The Telegram application: handlers wired to commands and buttons, start-up and shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, Update
from telegram.constants import ParseMode
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    Defaults,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.config import Settings
from bot.handlers import admin, info, lobby, membership, operators, play, private, stats
from bot.handlers.errors import on_error
from bot.handlers.guards import ButtonCallback, ButtonHandler
from bot.messages import texts
from bot.runtime import timers
from bot.runtime.deadlines import Deadlines
from bot.runtime.locks import worker_id
from bot.runtime.pacing import Limits, Pacer
from bot.runtime.ratelimit import PacedLimiter
from bot.runtime.recovery import reconcile
from bot.runtime.shared_budgets import SharedBudgets
from bot.runtime.store import Store
from bot.services import Services

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0


def heartbeat_path(settings: Settings) -> Path:
    return settings.data_dir / "heartbeat"


async def _heartbeat(path: Path) -> None:
    """Touch a file while the bot runs; ``dorehami health`` (the container's health check) reads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        await asyncio.to_thread(path.write_text, str(time.time()))
        await asyncio.sleep(HEARTBEAT_SECONDS)


def build_application(settings: Settings, redis_url: str) -> Application:  # type: ignore[type-arg]
    """The bot with its services. In webhook mode, where several workers may send for the same groups, the
    flood budgets are shared through Redis as well (bot/runtime/shared_budgets.py)."""
    assert settings.bot_token is not None
    store = Store.from_url(redis_url)
    limits = Limits()
    shared = SharedBudgets(store.redis, limits, worker_id(settings.worker_name)) if settings.webhook_url else None
    limiter = PacedLimiter(pacer=Pacer(limits, shared=shared))
    builder = (
        Application.builder()
        .token(settings.bot_token.get_secret_value())
        # Every text is HTML (names go through bot.messages.fa), and a reply whose message was deleted
        # meanwhile is still sent, unquoted, instead of failing.
        .defaults(Defaults(parse_mode=ParseMode.HTML, allow_sending_without_reply=True))
        .concurrent_updates(256)
        .rate_limiter(limiter)
        .connection_pool_size(64)
        .pool_timeout(10)
        .get_updates_read_timeout(40)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
    )
    if settings.bot_api_url is not None:
        base = str(settings.bot_api_url).rstrip("/")
        builder = builder.base_url(f"{base}/bot").base_file_url(f"{base}/file/bot")
    app = builder.build()
    limiter.on_refused = membership.refusal_watcher(app)  # a group migrated, or the bot removed or muted there
    app.bot_data["services"] = Services(store=store, settings=settings, deadlines=Deadlines(store.redis))
    add_handlers(app)
    return app


# The handler of each kind of button (bot/messages/keyboards.py: PATTERNS, SHOWN_IN; bot/handlers/guards.py).
BUTTONS: dict[str, ButtonCallback] = {
    "action": play.on_action,
    "menu": play.on_menu,
    "private_action": play.on_private_action,
    "private_menu": play.on_private_menu,
    "lobby": lobby.on_lobby_press,
    "option": lobby.on_option_press,
    "pick": lobby.on_pick_game,
    "settings": admin.on_settings_press,
    "again": lobby.on_play_again,
    "quit": lobby.on_leave_confirm,
}


def add_handlers(app: Application) -> None:  # type: ignore[type-arg]
    groups = filters.ChatType.GROUPS
    private_chat = filters.ChatType.PRIVATE
    app.add_handler(CommandHandler("start", private.cmd_start_private, filters=private_chat))
    app.add_handler(CommandHandler("start", lobby.cmd_start_game, filters=groups))
    app.add_handler(CommandHandler("new", lobby.cmd_new, filters=groups))
    app.add_handler(CommandHandler("join", lobby.cmd_join, filters=groups))
    app.add_handler(CommandHandler("leave", lobby.cmd_leave, filters=groups))
    app.add_handler(CommandHandler("cancel", lobby.cmd_cancel, filters=groups))
    app.add_handler(CommandHandler("board", play.cmd_board, filters=groups))
    app.add_handler(CommandHandler("settings", admin.cmd_settings, filters=groups))
    app.add_handler(CommandHandler("pause", admin.cmd_pause, filters=groups))
    app.add_handler(CommandHandler("resume", admin.cmd_resume, filters=groups))
    app.add_handler(CommandHandler("kick", admin.cmd_kick, filters=groups))
    group_only = ["new", "join", "leave", "cancel", "board", "settings", "pause", "resume", "kick"]
    app.add_handler(CommandHandler(group_only, _group_only, filters=private_chat))
    app.add_handler(CommandHandler("help", info.cmd_help))
    app.add_handler(CommandHandler("games", info.cmd_games))
    app.add_handler(CommandHandler("rules", info.cmd_rules))
    app.add_handler(CommandHandler("stats", stats.cmd_stats, filters=groups))
    app.add_handler(CommandHandler("mystats", stats.cmd_mystats, filters=private_chat))
    app.add_handler(CommandHandler("status", operators.cmd_status, filters=private_chat))
    app.add_handler(CommandHandler("maintenance", operators.cmd_maintenance, filters=private_chat))
    app.add_handler(CommandHandler("broadcast", operators.cmd_broadcast, filters=private_chat))
    for kind, callback in BUTTONS.items():  # each only for its own data, pressed where it is shown
        app.add_handler(ButtonHandler(kind, callback))
    app.add_handler(CallbackQueryHandler(_unknown_button))  # everything else: the stale alert
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, membership.on_migrate))
    app.add_handler(ChatMemberHandler(membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(private_chat, private.note_reachable), group=1)
    app.add_handler(TypeHandler(Update, membership.note_seen), group=2)
    app.add_error_handler(on_error)


async def _group_only(update: Update, context: object) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(texts.GROUP_ONLY)


async def _unknown_button(update: Update, context: object) -> None:
    if update.callback_query is not None:
        await update.callback_query.answer(texts.STALE, show_alert=True)


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    services: Services = app.bot_data["services"]
    await services.store.ping()
    await app.bot.set_my_commands(
        [BotCommand(c, d) for c, d in texts.GROUP_COMMANDS], scope=BotCommandScopeAllGroupChats()
    )
    await app.bot.set_my_commands(
        [BotCommand(c, d) for c, d in texts.PRIVATE_COMMANDS], scope=BotCommandScopeAllPrivateChats()
    )
    app.bot_data[operators.STARTED_AT] = time.time()
    app.bot_data["heartbeat"] = asyncio.create_task(_heartbeat(heartbeat_path(services.settings)))
    app.bot_data["reconcile"] = asyncio.create_task(reconcile(app))
    app.bot_data["timers"] = asyncio.create_task(timers.run(app))
    log.info("bot @%s ready", app.bot.username)


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    for name in ("heartbeat", "reconcile", "timers"):
        task = app.bot_data.pop(name, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    services: Services = app.bot_data["services"]
    await services.store.close()


def run(settings: Settings, redis_url: str) -> None:
    """Run until stopped: long polling (one worker: a chat's order and locks live in the process), or webhook
    mode when WEBHOOK_URL is set, where any number of workers may share the URL and the Redis
    (bot/runtime/webhook.py)."""
    app = build_application(settings, redis_url)
    if settings.webhook_url is not None:
        from bot.runtime.webhook import run_webhook

        run_webhook(app, settings)
    else:
        app.run_polling(allowed_updates=Update.ALL_TYPES, drop_pending_updates=False)
