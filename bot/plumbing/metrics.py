"""The bot's own HTTP server for whoever runs it: ``/metrics`` in Prometheus's text format.

Started with the bot, in polling and webhook mode alike, when ``METRICS_PORT`` is set; it listens on
``METRICS_LISTEN`` (loopback unless told otherwise: the figures are for the operator, not the world).
"""

from __future__ import annotations

import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

log = logging.getLogger(__name__)

METRICS_PATH = "/metrics"


async def _metrics(request: web.Request) -> web.Response:
    return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})


async def start(listen: str, port: int) -> web.AppRunner:
    """Serve ``/metrics`` until the returned runner is cleaned up."""
    app = web.Application()
    app.router.add_get(METRICS_PATH, _metrics)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, listen, port).start()
    log.info("metrics on http://%s:%s%s", listen, port, METRICS_PATH)
    return runner
