"""Every Bot API request the bot makes, counted and timed at the one point all of them pass: PTB's HTTP client.

PTB sends each request through ``HTTPXRequest.do_request`` (the updater's ``getUpdates`` through a client of
its own, a subclass of this one too), after the pacer (``bot/plumbing/pacing.py``) let it go and before PTB
turns the answer into an exception. Here the method is read from the URL's last part and the outcome from
the HTTP status: ``ok``, the 4xx Telegram gives (400, 401, 403, 404, 409, 429; another 4xx is ``4xx``),
``5xx``, or ``timeout`` and ``network`` when no answer came (``cancelled``: the bot stopped waiting). A 429's
``retry_after`` is added up as the seconds Telegram told the bot to wait. The figures are
``bot/plumbing/figures.py``'s ``dorehami_telegram_*``.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from http import HTTPStatus
from typing import Any

from telegram.error import TimedOut
from telegram.request import HTTPXRequest

from bot.plumbing.figures import RETRY_AFTER_SECONDS, TELEGRAM_REQUESTS, TELEGRAM_SECONDS

_METHOD = re.compile(r"[A-Za-z]{1,40}")
_KNOWN_STATUSES = frozenset({400, 401, 403, 404, 409, 429})


def method_of(url: str) -> str:
    """The Bot API method a request's URL names (``…/bot<token>/sendPhoto``): its last part, if it is one."""
    last = url.rsplit("/", 1)[-1].split("?", 1)[0]
    return last if _METHOD.fullmatch(last) else "other"


def outcome_of(code: int) -> str:
    """An answer's outcome label: ``ok``, a status Telegram gives for a reason of its own, ``4xx`` or ``5xx``."""
    if HTTPStatus.OK <= code <= 299:
        return "ok"
    if code in _KNOWN_STATUSES:
        return str(code)
    return "5xx" if code >= HTTPStatus.INTERNAL_SERVER_ERROR else "4xx"


def retry_after(payload: bytes) -> float:
    """A 429 answer's ``parameters.retry_after`` (0 if it has none)."""
    try:
        seconds = json.loads(payload)["parameters"]["retry_after"]
    except (ValueError, KeyError, TypeError):
        return 0.0
    return float(seconds) if isinstance(seconds, int | float) and not isinstance(seconds, bool) else 0.0


class MeasuredRequest(HTTPXRequest):
    """PTB's HTTP client, counting and timing every request by method and outcome."""

    async def do_request(self, url: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        method = method_of(url)
        started = time.perf_counter()
        outcome = "network"
        try:
            code, payload = await super().do_request(url, *args, **kwargs)
        except TimedOut:
            outcome = "timeout"
            raise
        except asyncio.CancelledError:  # the caller gave up (a stop): not Telegram's doing
            outcome = "cancelled"
            raise
        else:
            outcome = outcome_of(code)
            if code == HTTPStatus.TOO_MANY_REQUESTS:
                RETRY_AFTER_SECONDS.labels(method).inc(retry_after(payload))
            return code, payload
        finally:
            TELEGRAM_SECONDS.labels(method).observe(time.perf_counter() - started)
            TELEGRAM_REQUESTS.labels(method, outcome).inc()
