"""The Mini App: the board as a web page, served by the bot's own aiohttp server (polling and webhook mode).

Routes under the page's path (``WEBAPP_URL``'s, e.g. ``/app/``): the page and its assets, and an API every
request of which carries Telegram's launch data (``X-Telegram-Init-Data``, or ``init`` where a header cannot
be set: the event stream). The launch names the user; the link's parameter (``p``) names the chat, signed by
the bot (bot/plumbing/page_link.py). Everyone with the link may watch; only a player may move, through the
same checks and the same compare-and-set as a press (bot/handlers/play.py), and the group's board gets one
edit: the move.

The page follows the game by server-sent events: one long response per page, woken by the worker's single
subscription to the store's saves (``Keys.saved``, published inside the compare-and-set itself, so a move
made on any worker, by a press, a page, a computer player or a time-out, wakes the pages on every worker;
``plumbing.locks.Wakeups``). Pub/sub keeps nothing for a subscriber that was away, so a stream also looks at
the store every ``RECHECK_SECONDS``. Chosen over polling because a spectator sees a
move as soon as it is saved at no cost while nothing happens, and over a WebSocket because the page only
listens (its moves are plain requests, which any worker answers).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path
from typing import Any

from aiohttp import web
from telegram.ext import Application, CallbackContext, ContextTypes

from bot.games import PRESENTERS
from bot.handlers.play import count_refusal, make_move, turn_refusal
from bot.messages import board, hands, page, texts
from bot.plumbing import launch_data, page_link
from bot.plumbing.launch_data import BadLaunch, Launch
from bot.plumbing.locks import Wakeups, wait_for_wakeup
from bot.plumbing.outage import STORE_DOWN, outage
from bot.plumbing.page_link import BadLink
from bot.plumbing.services import locked_game, services
from bot.plumbing.store import GameRecord, chat_tag
from rendering.encode import MIME_TYPES
from rules import GAMES

log = logging.getLogger(__name__)

ASSETS = Path(__file__).resolve().parent.parent / "webapp"
INIT_HEADER = "X-Telegram-Init-Data"
RECHECK_SECONDS = 5.0  # a page's stream also asks the store this often (a published version can be missed)
PTB_APP: web.AppKey[Application[Any, Any, Any, Any, Any, Any]] = web.AppKey("ptb_app")
FEED: web.AppKey[Wakeups] = web.AppKey("page_feed")


def routes(base: str) -> list[web.AbstractRouteDef]:
    """The page's routes under ``base`` (``/app/``)."""
    return [
        web.get(base, _index),
        web.get(base + "api/game", _game),
        web.get(base + "api/games", _games),
        web.get(base + "api/picture", _picture),
        web.post(base + "api/move", _move),
        web.get(base + "api/events", _events),
        web.get(base + "static/{name}", _asset),
    ]


def install(web_app: web.Application, ptb_app: Application[Any, Any, Any, Any, Any, Any], base: str) -> None:
    """Serve the page from ``web_app`` (the webhook's server, or a server of its own when polling)."""
    web_app[PTB_APP] = ptb_app
    store = ptb_app.bot_data["services"].store
    web_app[FEED] = Wakeups(store.redis, store.keys.saved, "page feed")
    web_app.add_routes(routes(base))
    web_app.on_startup.append(_start_feed)
    web_app.on_cleanup.append(_close_feed)


async def _start_feed(web_app: web.Application) -> None:
    await web_app[FEED].start()


async def _close_feed(web_app: web.Application) -> None:
    await web_app[FEED].close()


def _context(request: web.Request) -> ContextTypes.DEFAULT_TYPE:
    return CallbackContext(request.app[PTB_APP])


def _token(request: web.Request) -> str:
    return str(request.app[PTB_APP].bot.token)


def _refuse(status: int, reason: str, request: web.Request) -> web.HTTPException:
    """A request that is not a real viewer's: logged once, answered without a word about why."""
    log.warning("page request refused (%s): %s %s", reason, request.method, request.path)
    error = web.HTTPUnauthorized if status == 401 else web.HTTPForbidden
    return error(text=texts.PAGE_REFUSED, content_type="text/plain")


def _launch(request: web.Request) -> Launch:
    """Who asks: their launch data, checked."""
    raw = request.headers.get(INIT_HEADER) or request.query.get("init", "")
    try:
        return launch_data.verify(raw, _token(request))
    except BadLaunch as exc:
        raise _refuse(401, str(exc), request) from None


def _viewer(request: web.Request) -> tuple[Launch, int, int | None]:
    """Who asks and which chat and topic they ask about."""
    launch = _launch(request)
    payload = request.query.get("p", "")
    if launch.start_param and launch.start_param != payload:
        raise _refuse(403, "launched for another chat", request)
    try:
        chat_id, thread_id = page_link.read(_token(request), payload)
    except BadLink as exc:
        raise _refuse(403, f"link: {exc}", request) from None
    return launch, chat_id, thread_id


def _answer(body: dict[str, Any], status: int = 200) -> web.Response:
    response = web.json_response(body, status=status, headers={"Cache-Control": "no-store"})
    response.enable_compression()
    return response


async def _record(request: web.Request, chat_id: int, thread_id: int | None) -> GameRecord:
    try:
        record = await services(_context(request)).store.load(chat_id, thread_id)
    except STORE_DOWN:
        outage(_context(request)).met()
        raise web.HTTPServiceUnavailable(text=texts.PAGE_STORE_DOWN) from None
    if record is None or record.state is None or record.phase not in ("playing", "finished", "cancelled"):
        raise web.HTTPNotFound(text=texts.PAGE_NO_GAME)
    return record


ASSET_TYPES = {"index.html": "text/html", "app.js": "text/javascript", "app.css": "text/css"}


@functools.cache
def _read(name: str) -> bytes:
    """A file of the page, read once: they ship with the package and never change while it runs."""
    return ((ASSETS if name == "index.html" else ASSETS / "static") / name).read_bytes()


def _file(name: str) -> web.Response:
    """One of the page's files, compressed for a client that takes it (the page's first load is counted)."""
    response = web.Response(
        body=_read(name),
        content_type=ASSET_TYPES[name],
        charset="utf-8",
        headers={"Cache-Control": "no-cache"},
    )
    response.enable_compression()
    return response


async def _index(request: web.Request) -> web.Response:
    return _file("index.html")


async def _asset(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in ASSET_TYPES or name == "index.html":
        raise web.HTTPNotFound()
    return _file(name)


async def _game(request: web.Request) -> web.Response:
    launch, chat_id, thread_id = _viewer(request)
    record = await _record(request, chat_id, thread_id)
    return _answer(await asyncio.to_thread(page.content, record, launch.user_id))


async def _games(request: web.Request) -> web.Response:
    """The viewer's lobbies and running games (the private chat's menu button opens the page on this list)."""
    launch = _launch(request)
    try:
        records = await services(_context(request)).store.games_of(launch.user_id)
    except STORE_DOWN:
        outage(_context(request)).met()
        raise web.HTTPServiceUnavailable(text=texts.PAGE_STORE_DOWN) from None
    token = _token(request)
    listed = [
        page.listed(record, launch.user_id, page_link.make(token, record.chat_id, record.thread_id))
        for record in records
        if record.phase == "playing"
    ]
    return _answer({"games": listed, "none": texts.PAGE_NO_GAMES})


async def _picture(request: web.Request) -> web.Response:
    """The board (for the prefix of the moves a player is choosing among, in a game whose picture previews it)
    or the viewer's own hand, at the version asked for: a version gone by is answered 410 (the page reloads).
    The same rendering as the group's board and the player's hand (bot/messages/pictures.py): a move's board
    is rendered once for the group and every page."""
    launch, chat_id, thread_id = _viewer(request)
    record = await _record(request, chat_id, thread_id)
    if request.query.get("v") != str(record.version):
        raise web.HTTPGone(text=texts.PAGE_MOVED_ON)
    state = board.load_state(record)
    if request.query.get("kind") == "hand":
        seat = record.seat_of(launch.user_id)
        if seat is None or PRESENTERS[record.game_id].hands is None:
            raise web.HTTPNotFound(text=texts.PAGE_NO_HAND)
        data, name = await hands.render_hand(record, state, seat)
    else:
        prefix = request.query.get("prefix", "")
        if not PRESENTERS[record.game_id].previews or page.acting_seat(record, state, launch.user_id) is None:
            prefix = ""  # only a player choosing a move sees it previewed
        data, name = await board.picture(record, state, prefix)
    kind_of = MIME_TYPES[name.rpartition(".")[2]]
    return web.Response(body=data, content_type=kind_of, headers={"Cache-Control": "private, max-age=3600"})


async def _move(request: web.Request) -> web.Response:
    """A move from the page: the same checks as a press, then the same write and redraw."""
    launch, chat_id, thread_id = _viewer(request)
    try:
        body = await request.json()
        version, code = str(body["version"]), str(body["code"])
    except (ValueError, KeyError, TypeError):
        raise _refuse(403, "not a move", request) from None
    context = _context(request)
    try:
        refusal = turn_refusal(await services(context).store.load(chat_id, thread_id), launch.user_id, version)
        if refusal is None:  # refused at once, as a press is, before waiting for the chat's lock
            async with locked_game(context, chat_id, thread_id) as record:
                refusal = turn_refusal(record, launch.user_id, version)
                if refusal is None and record is not None:
                    refusal = await _play(context, record, launch.user_id, code)
        record = await services(context).store.load(chat_id, thread_id)
    except STORE_DOWN:
        outage(context).met()
        return _answer({"error": texts.PAGE_STORE_DOWN}, 503)
    if record is None or record.state is None:
        return _answer({"error": texts.PAGE_NO_GAME}, 404)
    content = await asyncio.to_thread(page.content, record, launch.user_id)
    if refusal is not None:
        count_refusal(refusal, record.game_id)
        words = refusal
        if refusal == texts.STALE:
            words = texts.PAGE_MOVED_ON if record.phase == "playing" else texts.PAGE_OVER
        return _answer({"error": words, "game": content}, 409)
    return _answer({"game": content})


async def _play(context: ContextTypes.DEFAULT_TYPE, record: GameRecord, user_id: int, code: str) -> str | None:
    state = board.load_state(record)
    seat = page.acting_seat(record, state, user_id)
    if seat is None:
        return texts.NOT_YOUR_TURN
    game = GAMES[record.game_id]
    if code not in (game.encode(a) for a in game.legal_actions(state, seat)):
        return texts.ILLEGAL
    return await make_move(context, record, seat, state, code)


async def _events(request: web.Request) -> web.StreamResponse:
    """``version`` events: the game's version now, then each newer one, until the page goes away."""
    _, chat_id, thread_id = _viewer(request)
    record = await _record(request, chat_id, thread_id)
    tag, version = chat_tag(chat_id, thread_id), record.version
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    store = services(_context(request)).store
    try:
        await response.write(f"event: version\ndata: {version}\n\n".encode())
        while True:
            with request.app[FEED].watch(tag) as saved:  # watched before the look: no save falls between
                try:
                    stored = await store.load(chat_id, thread_id)
                except STORE_DOWN:
                    stored = None
                if stored is not None and stored.version > version:
                    version = stored.version
                    await response.write(f"event: version\ndata: {version}\n\n".encode())
                    continue
                await wait_for_wakeup(saved, RECHECK_SECONDS)
            if not saved.is_set():
                await response.write(b": still here\n\n")  # keeps the line open through proxies
    except (ConnectionResetError, asyncio.CancelledError):
        pass  # the page was closed, or the server stops
    return response
