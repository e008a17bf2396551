"""The HTTP face of the Bot API: ``/bot<token>/<method>`` and ``/file/bot<token>/<path>``."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from typing import Any

from aiohttp import web

from sandbox.appkey import SANDBOX
from sandbox.errors import ApiError
from sandbox.methods import METHODS, Call
from sandbox.params import Params, read_params

log = logging.getLogger(__name__)

json_dumps = functools.partial(json.dumps, ensure_ascii=False)
# What api.telegram.org's nginx front end answers while the Bot API behind it is down (an outage's 502)
BAD_GATEWAY = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
    "<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n"
)
# Long polls are the bot waiting, not the bot working, so they do not count as in flight.
_PASSIVE_METHODS = {"getupdates"}


async def handle_method(request: web.Request) -> web.Response:
    """Run one Bot API method and log it, whatever the outcome."""
    sandbox = request.app[SANDBOX]
    name = request.match_info["method"]
    found = METHODS.get(name.lower())
    if sandbox.bot_api_down:  # an outage: the front end answers, the Bot API behind it does not
        sandbox.log.add(time.monotonic(), found[0] if found else name, None, None, {}, 502, 0.0)
        return web.Response(status=502, text=BAD_GATEWAY, content_type="text/html")
    active = name.lower() not in _PASSIVE_METHODS
    call = Call(found[0] if found else name, Params())
    started = time.monotonic()
    status = 499  # stays so if the client goes away mid-call
    if active:
        sandbox.in_flight += 1
        sandbox.touch()
    try:
        try:
            if found is None:
                raise ApiError(404, "Not Found")
            sandbox.profile.token = request.match_info["token"]  # the bot's token signs its Mini Apps' launch data
            call.params = await read_params(request)
            body: dict[str, Any] = {"ok": True, "result": await found[1](sandbox, call)}
            status = 200
        except ApiError as error:
            body, status = error.payload(), error.error_code
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Bot API method %s failed", call.method)
            status = 500
            body = {"ok": False, "error_code": 500, "description": "Internal Server Error"}
        return web.json_response(body, status=status, dumps=json_dumps)
    finally:
        chat_id = call.chat_id
        if chat_id is None and isinstance(call.params.values.get("chat_id"), int):
            chat_id = call.params.values["chat_id"]
        sandbox.log.add(
            started,
            call.method,
            chat_id,
            call.message_id,
            call.params.for_log(),
            status,
            time.monotonic() - started,
        )
        if active:
            sandbox.in_flight -= 1
            sandbox.touch()


async def handle_file(request: web.Request) -> web.Response:
    """File downloads, as at api.telegram.org/file/bot<token>/<file_path>."""
    stored = request.app[SANDBOX].world.file_by_path(request.match_info["path"])
    if stored is None:
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
    return web.Response(body=stored.data, content_type=stored.info.mime)


def setup(app: web.Application) -> None:
    app.router.add_route("*", "/bot{token}/{method}", handle_method)
    app.router.add_get("/file/bot{token}/{path:.+}", handle_file)
