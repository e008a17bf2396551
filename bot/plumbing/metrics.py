"""The bot's own HTTP server for whoever runs it: ``/metrics`` in Prometheus's text format.

Started with the bot, in polling, webhook and sandbox mode alike, when ``METRICS_PORT`` is set; it listens on
``METRICS_LISTEN`` (loopback unless told otherwise: the figures are for the operator, not the world). Each
process serves its own: several webhook workers are several targets to scrape.

Most figures (``bot/plumbing/figures.py``) are counted where things happen. What only Redis knows is asked at
each scrape, in the server's own event loop, bounded by ``SCRAPE_REDIS_SECONDS``: a PING (``dorehami_redis_up``
and its seconds) and the active games by game and phase (``Store.census``: two reads, whatever the number of
games). Redis away or slow makes ``dorehami_redis_up`` 0 and leaves the games as last counted, never an
error page: a scrape always answers.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from redis.exceptions import RedisError

from bot.plumbing.figures import ACTIVE_GAMES, REDIS_SECONDS, REDIS_UP
from bot.plumbing.outage import STORE_DOWN
from bot.plumbing.store import Store

log = logging.getLogger(__name__)

METRICS_PATH = "/metrics"
SCRAPE_REDIS_SECONDS = 1.0  # at most this long a scrape waits for Redis
STORE = web.AppKey("store", Store)

_counted: set[tuple[str, str]] = set()  # the games and phases given a figure so far: 0 once none is left


async def refresh(store: Store) -> bool:
    """Ask Redis what the figures need from it (see the module's docstring); whether it answered."""
    try:
        async with asyncio.timeout(SCRAPE_REDIS_SECONDS):
            with REDIS_SECONDS.labels("ping").time():
                await store.ping()
            census = await store.census()
    except (TimeoutError, RedisError, *STORE_DOWN) as exc:
        log.debug("metrics: Redis did not answer (%s)", exc)
        REDIS_UP.set(0)
        return False
    REDIS_UP.set(1)
    for game, phase in _counted - census.keys():
        ACTIVE_GAMES.labels(game, phase).set(0)
    for (game, phase), count in census.items():
        ACTIVE_GAMES.labels(game, phase).set(count)
    _counted.update(census)
    return True


async def _metrics(request: web.Request) -> web.Response:
    await refresh(request.app[STORE])
    return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})


async def start(listen: str, port: int, store: Store) -> web.AppRunner:
    """Serve ``/metrics`` until the returned runner is cleaned up."""
    app = web.Application()
    app[STORE] = store
    app.router.add_get(METRICS_PATH, _metrics)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, listen, port).start()
    log.info("metrics on http://%s:%s%s", listen, port, METRICS_PATH)
    return runner
