"""Webhook mode: any number of workers behind one URL, sharing one Redis.

PTB's own webhook server answers Telegram before the bot could note where the update stands in its chat, so
the bot runs a small aiohttp server of its own and hands updates to PTB itself (``Application`` without its
updater doing the receiving, as PTB's custom-webhook example does). For each update the worker

1. takes the chat's next ticket in Redis (``bot.chat_order``), *then* answers 200: Telegram sends a chat's
   next update only after that answer, so ticket order is the order Telegram delivered;
2. handles the update once the chat's earlier tickets are done, on whichever worker they were, and passes
   the turn on.

Game code runs under ``locked_game``; here its lock is ``SharedChatLocks``, a lease in Redis, so a deadline,
a press in a private chat and a press in the group never run one game's code at the same time on two
workers. Deadlines are claimed with leases (``bot.deadlines``) and a broadcast is one update, handled once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.config import Settings
from bot.plumbing import activity, liveness, supervise
from bot.plumbing.chat_order import ChatOrder, Ticket
from bot.plumbing.locks import SharedChatLocks, Wakeups, worker_id
from bot.plumbing.services import Services

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_PATH = "/healthz"  # the worker is alive: up, and none of its long-running tasks failing
READY_PATH = "/readyz"  # the worker should get traffic: alive, and Redis answered in the last silent_limit s


def url_path(url: str) -> str:
    """``/hook`` for ``https://example.org/hook``: where Telegram (or a proxy in front) posts updates."""
    return "/" + url.split("://", 1)[1].partition("/")[2]


class WebhookServer:
    """Receives updates over HTTP and hands each to PTB in its chat's turn."""

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        order: ChatOrder,
        path: str,
        secret: str | None,
        silent_limit: float = 30.0,
    ) -> None:
        self.app = app
        self.order = order
        self.path = path
        self.secret = secret
        self.silent_limit = silent_limit
        self.ready = False

    def web_app(self) -> web.Application:
        web_app = web.Application()
        web_app.router.add_post(self.path, self.receive)
        web_app.router.add_get(HEALTH_PATH, self.health)
        web_app.router.add_get(READY_PATH, self.readiness)
        return web_app

    async def health(self, request: web.Request) -> web.Response:
        """200 once this worker takes updates (load balancers and the test harness ask); 503 while one of its
        long-running tasks is failing and being restarted (bot/plumbing/supervise.py), as `dorehami health`."""
        if not self.ready:
            return web.Response(status=503, text="starting")
        if down := supervise.down():
            return web.Response(status=503, text="failing: " + ", ".join(sorted(down)))
        return web.Response(text="ok")

    async def readiness(self, request: web.Request) -> web.Response:
        """200 while this worker should get updates: alive, and Redis answered its deadline poll lately (a
        worker cut off from Redis answers every press with «try again»: a balancer should send them elsewhere)."""
        alive = await self.health(request)
        if alive.status != 200:
            return alive
        answered = liveness.last_answers().get("redis")
        if answered is None or time.time() - answered > self.silent_limit:
            return web.Response(status=503, text="redis: no answer")
        return web.Response(text="ok")

    async def receive(self, request: web.Request) -> web.Response:
        if self.secret is not None and request.headers.get(SECRET_HEADER) != self.secret:
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), self.app.bot)
        except Exception:
            log.warning("a webhook request that is not an update", exc_info=True)
            return web.Response(status=400)
        ticket = None
        chat = update.effective_chat
        if chat is not None:
            try:
                ticket = await self.order.take(chat.id, update.update_id)
            except Exception:  # Telegram tries again later
                log.warning("no ticket for update %s (redis?); asking Telegram to retry", update.update_id)
                return web.Response(status=503)
            if ticket is None:
                log.info("update %s came again; its first delivery is in hand", update.update_id)
                return web.Response()
        task = activity.spawn(self._handle(update, ticket), "update", self.app, update=update)
        if ticket is not None:
            task.add_done_callback(lambda _: self.order.release_soon(ticket))
        return web.Response()

    async def _handle(self, update: Update, ticket: Ticket | None) -> None:
        if ticket is None:
            await self._process(update)
            return
        async with self.order.turn(ticket):
            await self._process(update)

    async def _process(self, update: Update) -> None:
        # through the update processor, like PTB's own fetcher: it keeps ``concurrent_updates`` as the limit
        await self.app.update_processor.process_update(update, self.app.process_update(update))


async def serve(
    app: Application,  # type: ignore[type-arg]
    settings: Settings,
    allowed_updates: list[str],
    extend: Callable[[web.Application], None] | None = None,
) -> None:
    """Run one webhook worker until SIGTERM or SIGINT, asking Telegram for ``allowed_updates`` only; on the way
    out, handle the updates in hand. ``extend`` adds routes of the bot's own to the same server (the Mini App's
    page, served by every worker)."""
    assert settings.webhook_url is not None
    url = str(settings.webhook_url)
    svc: Services = app.bot_data["services"]
    worker = worker_id(settings.worker_name)
    lease = settings.worker_lease_seconds
    keys = svc.store.keys
    wakeups = Wakeups(svc.store.redis, keys.wake)
    order = ChatOrder(svc.store.redis, keys, wakeups, lease=lease)
    locks = SharedChatLocks(svc.store.redis, keys, wakeups, owner=worker, lease=lease)
    svc.locks = locks  # ``locked_game`` now excludes the other workers too
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    server = WebhookServer(app, order, url_path(url), secret, settings.health_silent_seconds)
    web_app = server.web_app()
    if extend is not None:
        extend(web_app)
    runner = web.AppRunner(web_app, access_log=None, shutdown_timeout=5.0)

    stop = asyncio.Event()
    activity.on_stop_signals(stop.set)  # the first signal stops taking updates; what is in hand is finished

    keepers: list[asyncio.Task[None]] = []
    await app.initialize()
    try:
        await wakeups.start()
        keepers = [
            supervise.supervised("lock leases", locks.keep_leases),
            supervise.supervised("ticket leases", order.keep_leases),
        ]
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()
        await runner.setup()
        await web.TCPSite(runner, settings.webhook_listen, settings.webhook_port).start()
        await app.bot.set_webhook(url=url, secret_token=secret, allowed_updates=allowed_updates)
        server.ready = True
        log.info("worker %s takes updates on %s:%s", worker, settings.webhook_listen, settings.webhook_port)
        await stop.wait()
    finally:
        server.ready = False
        await runner.cleanup()  # no new updates; the requests in hand get their answer
        if app.running:
            await app.stop()  # the updates in hand are handled and their turns passed on
            if app.post_stop is not None:
                await app.post_stop(app)
        for task in keepers:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await wakeups.close()
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)


def run_webhook(
    app: Application,  # type: ignore[type-arg]
    settings: Settings,
    allowed_updates: list[str],
    extend: Callable[[web.Application], None] | None = None,
) -> None:
    asyncio.run(serve(app, settings, allowed_updates, extend))
