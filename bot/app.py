"""The Telegram application: handlers wired to commands and buttons, start-up and shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonWebApp,
    Update,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    Defaults,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.config import Limits, Settings
from bot.flow import timers
from bot.flow.recovery import reconcile
from bot.handlers import (
    admin,
    computer_lobby,
    confirm,
    info,
    lobby,
    membership,
    notify,
    operators,
    page,
    play,
    private,
    stats,
    topics,
)
from bot.handlers.errors import on_error
from bot.handlers.guards import ButtonCallback, ButtonHandler
from bot.messages import texts
from bot.plumbing import activity, liveness, metrics, schema, supervise
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.keys import Keys
from bot.plumbing.locks import worker_id
from bot.plumbing.pacing import Pacer
from bot.plumbing.ratelimit import PacedLimiter
from bot.plumbing.services import Services
from bot.plumbing.shared_budgets import SharedBudgets
from bot.plumbing.store import Store
from bot.plumbing.supervise import supervised
from bot.plumbing.telegram_outage import TELEGRAM_REACH, TelegramReach, WatchedRequest
from bot.plumbing.thinking import Thinker
from bot.plumbing.webhook import run_webhook

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0


async def _heartbeat(path: Path, polling: bool) -> None:
    """Write a file while the bot runs: when, which long-running tasks are down (bot/plumbing/supervise.py),
    and when Redis and, polling, Telegram last answered (bot/plumbing/liveness.py); ``dorehami health`` (the
    container's health check) reads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        answers = {peer: at for peer, at in liveness.last_answers().items() if polling or peer != "telegram"}
        beat = json.dumps({"at": time.time(), "down": sorted(supervise.down()), "answered": answers})
        await asyncio.to_thread(_replace, path, beat)
        await asyncio.sleep(HEARTBEAT_SECONDS)


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: written beside it, then renamed over it (one step), so
    that ``dorehami health`` never reads a file cut short. Writing it in place truncated it first: a check that
    read it in between found it empty and said "no heartbeat" (seen once on a busy machine)."""
    written = path.with_name(f"{path.name}.new")
    written.write_text(text)
    os.replace(written, path)


def build_application(settings: Settings, redis_url: str) -> Application:  # type: ignore[type-arg]
    """The bot with its services. In webhook mode, where several workers may send for the same groups, the
    flood budgets are shared through Redis as well (bot/plumbing/shared_budgets.py)."""
    assert settings.bot_token is not None
    store = Store.from_url(redis_url, Keys.of(settings), settings.replicas, settings.redis_replica_wait_ms)
    limits = Limits()
    worker = worker_id(settings.worker_name)
    shared = SharedBudgets(store.redis, store.keys, limits, worker) if settings.webhook_url else None
    pacer = Pacer(limits, shared=shared)
    pacer.export()  # its lanes' lengths on /metrics
    limiter = PacedLimiter(pacer=pacer)
    reach = TelegramReach()  # Telegram out of reach: logged once, chats drawn after (bot/plumbing/telegram_outage.py)
    builder = (
        Application.builder()
        .token(settings.bot_token.get_secret_value())
        # Every text is HTML (names go through bot.messages.fa), and a reply whose message was deleted
        # meanwhile is still sent, unquoted, instead of failing.
        .defaults(Defaults(parse_mode=ParseMode.HTML, allow_sending_without_reply=True))
        .concurrent_updates(activity.UpdateProcessor(256))  # each update's log lines name it, its chat and topic
        .update_queue(activity.CountedQueue())  # what the bot has in hand, for /metrics and the tests
        .rate_limiter(limiter)
        .request(WatchedRequest(reach, connection_pool_size=64, pool_timeout=10))  # every answer: Telegram is there
        .get_updates_request(WatchedRequest(reach, polls=True, connection_pool_size=1, read_timeout=40))
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
    )
    if settings.bot_api_url is not None:
        base = str(settings.bot_api_url).rstrip("/")
        builder = builder.base_url(f"{base}/bot").base_file_url(f"{base}/file/bot")
    app = builder.build()
    app.bot_data[TELEGRAM_REACH] = reach
    limiter.on_refused = membership.refusal_watcher(app)  # a group migrated, or the bot removed or muted there
    app.bot_data["services"] = Services(
        store=store,
        settings=settings,
        deadlines=Deadlines(store.redis, store.keys),
        thinker=Thinker(settings.computer_workers),
    )
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
    "confirm": confirm.on_confirm,
    "notices": notify.on_notices_press,
    "rules": info.on_rules_press,
    "computer": computer_lobby.on_computer_press,
}


# The update types the bot asks Telegram for (allowed_updates, polling and webhook alike): exactly the types
# its handlers take. Edited messages are not among them: a corrected /cancel, /kick, /new or /broadcast must not
# run again (PTB's CommandHandler would take edits too), so no handler takes them and Telegram sends none.
# my_chat_member tells the bot it was removed, muted or blocked (bot.handlers.membership).
UPDATE_TYPES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]


def _command(
    names: str | list[str], callback: Callable[[Update, Any], Coroutine[Any, Any, None]], where: filters.BaseFilter
) -> CommandHandler:  # type: ignore[type-arg]
    """A command, with or without the @botname suffix (PTB checks it against the bot's username), in new
    messages only."""
    return CommandHandler(names, callback, filters=filters.UpdateType.MESSAGE & where)


def add_handlers(app: Application) -> None:  # type: ignore[type-arg]
    groups = filters.ChatType.GROUPS
    private_chat = filters.ChatType.PRIVATE
    anywhere = filters.ALL
    game_chats = groups | private_chat  # a game is played in a group, or against computers in private
    app.add_handler(_command("start", private.cmd_start_private, private_chat))
    # /start in a group is every bot's command (Telegram gives it to whichever bot spoke last): a lobby's game
    # starts with /begin, or the lobby's «شروع» button, and /start there only says so
    app.add_handler(_command("start", lobby.cmd_start_in_group, groups))
    # new, begin, cancel and board work in a private chat too: a game there is against computer players
    app.add_handler(_command("begin", lobby.cmd_begin, game_chats))
    app.add_handler(_command("new", lobby.cmd_new, game_chats))
    app.add_handler(_command("join", lobby.cmd_join, groups))
    app.add_handler(_command("leave", lobby.cmd_leave, groups))
    app.add_handler(_command("cancel", lobby.cmd_cancel, game_chats))
    app.add_handler(_command("board", play.cmd_board, game_chats))
    app.add_handler(_command("settings", admin.cmd_settings, groups))
    app.add_handler(_command("pause", admin.cmd_pause, groups))
    app.add_handler(_command("resume", admin.cmd_resume, groups))
    app.add_handler(_command("kick", admin.cmd_kick, groups))
    group_only = ["join", "leave", "settings", "pause", "resume", "kick"]
    app.add_handler(_command(group_only, _group_only, private_chat))
    app.add_handler(_command("help", info.cmd_help, anywhere))
    app.add_handler(_command("games", info.cmd_games, anywhere))
    app.add_handler(_command("rules", info.cmd_rules, anywhere))
    app.add_handler(_command("stats", stats.cmd_stats, groups))
    app.add_handler(_command("mystats", stats.cmd_mystats, private_chat))
    app.add_handler(_command("notify", notify.cmd_notify, private_chat))
    app.add_handler(_command(["mystats", "notify"], _private_only, groups))
    app.add_handler(_command("status", operators.cmd_status, private_chat))
    app.add_handler(_command("maintenance", operators.cmd_maintenance, private_chat))
    app.add_handler(_command("broadcast", operators.cmd_broadcast, private_chat))
    # service messages reach every bot whatever its privacy mode: a forum topic closed or reopened
    closed, reopened = filters.StatusUpdate.FORUM_TOPIC_CLOSED, filters.StatusUpdate.FORUM_TOPIC_REOPENED
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & closed, topics.on_topic_closed))
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & reopened, topics.on_topic_reopened))
    for kind, callback in BUTTONS.items():  # each only for its own data, pressed where it is shown
        app.add_handler(ButtonHandler(kind, callback))
    app.add_handler(CallbackQueryHandler(_unknown_button))  # everything else: the stale alert
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.StatusUpdate.MIGRATE, membership.on_migrate))
    app.add_handler(ChatMemberHandler(membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & private_chat, private.note_reachable), group=1)
    app.add_handler(TypeHandler(Update, membership.note_seen), group=2)
    app.add_error_handler(on_error)
    for handlers in app.handlers.values():  # each handler's seconds on /metrics, by its callback's name
        for handler in handlers:
            handler.callback = activity.timed(handler_name(handler.callback), handler.callback)


def handler_name(callback: Callable[..., Any]) -> str:
    """A handler's label on /metrics: its module's last name and the callback's, ``play.on_action``."""
    return f"{callback.__module__.rsplit('.', 1)[-1]}.{callback.__qualname__}"


async def _group_only(update: Update, context: object) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(texts.GROUP_ONLY)


async def _private_only(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A command of one's own (/mystats, /notify) sent in a group: where it works, with a way there."""
    message = update.effective_message
    if message is not None:
        link = InlineKeyboardMarkup(
            [[InlineKeyboardButton(texts.OPEN_PRIVATE, url=f"https://t.me/{context.bot.username}")]]
        )
        await message.reply_text(texts.PRIVATE_ONLY, reply_markup=link)


async def _unknown_button(update: Update, context: object) -> None:
    if update.callback_query is not None:
        await update.callback_query.answer(texts.STALE, show_alert=True)


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    services: Services = app.bot_data["services"]
    await services.store.ping()
    await schema.migrate(services.store.redis, services.store.keys)  # before any update: data in today's shape
    await app.bot.set_my_commands(
        [BotCommand(c, d) for c, d in texts.GROUP_COMMANDS], scope=BotCommandScopeAllGroupChats()
    )
    await app.bot.set_my_commands(
        [BotCommand(c, d) for c, d in texts.PRIVATE_COMMANDS], scope=BotCommandScopeAllPrivateChats()
    )
    app.bot_data[operators.STARTED_AT] = time.time()
    settings = services.settings
    if settings.metrics_port is not None:
        app.bot_data["metrics"] = await metrics.start(settings.metrics_listen, settings.metrics_port, services.store)
    if settings.webapp_url is not None:  # every private chat's menu button opens the player's games
        menu = MenuButtonWebApp(texts.PAGE_MENU_BUTTON, WebAppInfo(str(settings.webapp_url)))
        await app.bot.set_chat_menu_button(menu_button=menu)
    polling = settings.webhook_url is None
    if polling and settings.webapp_url is not None:
        app.bot_data["webapp"] = await _serve_page(app, settings)
    app.bot_data["heartbeat"] = supervised("heartbeat", lambda: _heartbeat(settings.heartbeat_path, polling))
    app.bot_data["reconcile"] = activity.spawn(reconcile(app), "recovery")
    app.bot_data["timers"] = supervised("deadlines", lambda: timers.run(app))
    services.thinker.start()  # its processes start with the first computer move: not with the start-up's repairs
    if polling:  # in webhook mode bot/plumbing/webhook.py takes the signals
        activity.on_stop_signals(_stop_polling)
    log.info("bot @%s ready", app.bot.username)


def _stop_polling() -> None:
    """Out of run_polling, as PTB's own signal handler gets out (which ours replaces: it would let a second
    signal cut the stop short): the updater stops asking for updates, then the application handles the
    updates in hand, then ``_post_stop``."""
    raise SystemExit


async def _post_stop(app: Application) -> None:  # type: ignore[type-arg]
    """No update comes in any more and those in hand are handled (PTB's stop). The Mini App's page stops taking
    moves, no new deadline is claimed, and what is in hand (a redraw, a turn notice, a deadline firing) is
    finished before the connection to Telegram is closed, rather than lost with the process: for what is left
    of ``activity.STOP_SECONDS`` since the signal, after which it is cancelled (and redrawn at the next start)."""
    if (webapp := app.bot_data.pop("webapp", None)) is not None:  # polling: the page's own server
        await webapp.cleanup()
    await activity.finished()
    await _cancel(app, "timers")


async def _cancel(app: Application, name: str) -> None:  # type: ignore[type-arg]
    task = app.bot_data.pop(name, None)
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    for name in ("heartbeat", "reconcile", "timers"):
        await _cancel(app, name)
    for name in ("metrics", "webapp"):  # before the store closes: the pages' subscription uses it
        if (server := app.bot_data.pop(name, None)) is not None:
            await server.cleanup()
    services: Services = app.bot_data["services"]
    services.thinker.stop()
    await services.store.close()


async def _serve_page(app: Application, settings: Settings) -> web.AppRunner:  # type: ignore[type-arg]
    """Polling mode: the Mini App's page on a server of its own (in webhook mode, on the webhook's)."""
    web_app = web.Application()
    page.install(web_app, app, settings.webapp_path)
    runner = web.AppRunner(web_app, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    await web.TCPSite(runner, settings.webapp_listen, settings.webapp_port).start()
    log.info("Mini App page on %s:%s%s", settings.webapp_listen, settings.webapp_port, settings.webapp_path)
    return runner


def run(settings: Settings, redis_url: str) -> None:
    """Run until stopped: long polling (one worker: a chat's order and locks live in the process), or webhook
    mode when WEBHOOK_URL is set, where any number of workers may share the URL and the Redis
    (bot/plumbing/webhook.py)."""
    app = build_application(settings, redis_url)
    if settings.webhook_url is not None:
        extend = None
        if settings.webapp_url is not None:
            extend = lambda web_app: page.install(web_app, app, settings.webapp_path)  # noqa: E731
        run_webhook(app, settings, UPDATE_TYPES, extend)
    else:
        app.run_polling(allowed_updates=UPDATE_TYPES, drop_pending_updates=False, timeout=liveness.POLL_TIMEOUT)


def run_on_redis(settings: Settings, embedded_folder: str) -> None:
    """``run`` on REDIS_URL when it is set, else on an embedded server kept in ``DATA_DIR/embedded_folder``."""
    if settings.redis_url:
        run(settings, settings.redis_url)
        return
    with EmbeddedServer(settings.data_dir / embedded_folder) as server:
        run(settings, server.url)
