"""The bot's log: one line per record, as text for people or as one JSON object a line (``LOG_FORMAT=json``) for a
log store, which then also says what each record was about where that is known.

What a record is about lives in context variables, set where work on a chat begins: an update being handled
(``bot/plumbing/activity.py: UpdateProcessor``, polling and webhook alike), a deadline firing
(``bot/flow/timers.py``), a chat's drawer drawing (``bot/flow/redraw.py``), and the game once a chat's record is
read under its lock (``bot/plumbing/services.py: locked_game``). A task started from there inherits them, as
asyncio copies the context. ``Context`` puts them on each record; the JSON formatter (python-json-logger's)
writes the ones that are set: ``chat``, ``topic``, ``update``, ``game``, and ``worker`` with ``WORKER_NAME``.

This module imports nothing of the bot's, so that ``dorehami health`` starts without loading it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import IO, Any

from pythonjsonlogger.json import JsonFormatter

CHAT: ContextVar[int | None] = ContextVar("dorehami_log_chat", default=None)
TOPIC: ContextVar[int | None] = ContextVar("dorehami_log_topic", default=None)
UPDATE: ContextVar[int | None] = ContextVar("dorehami_log_update", default=None)
GAME: ContextVar[str | None] = ContextVar("dorehami_log_game", default=None)
FIELDS: dict[str, ContextVar[Any]] = {"chat": CHAT, "topic": TOPIC, "update": UPDATE, "game": GAME}

QUIET = ("httpx", "httpcore", "aiohttp.access")  # a line per request: only their warnings


@contextmanager
def about(chat: int | None, topic: int | None = None, update: int | None = None) -> Iterator[None]:
    """The records logged in the block (and in tasks started there) are about this chat, topic and update; the
    game is not known yet (``playing`` says it once the record is read). Each is as before after the block."""
    chat_token, topic_token, update_token = CHAT.set(chat), TOPIC.set(topic), UPDATE.set(update)
    game_token = GAME.set(None)
    try:
        yield
    finally:
        GAME.reset(game_token)
        UPDATE.reset(update_token)
        TOPIC.reset(topic_token)
        CHAT.reset(chat_token)


def playing(game: str) -> None:
    """The chat's game is ``game``: said by the records that follow, until the enclosing ``about`` ends."""
    GAME.set(game)


class Context(logging.Filter):
    """Puts what is known of the work being done on each record, as attributes (``extra``) the JSON formatter
    writes; a value the call gave itself (``extra={"chat": ...}``) is kept."""

    def __init__(self, worker: str = "") -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in FIELDS.items():
            value = var.get()
            if value is not None and getattr(record, name, None) is None:
                setattr(record, name, value)
        if self.worker and getattr(record, "worker", None) is None:
            record.worker = self.worker
        return True


def json_formatter() -> logging.Formatter:
    """time (UTC, ISO 8601), level, logger, message, the exception's traceback as text if there is one, then
    what ``Context`` added; non-ASCII (Persian) as it is."""
    return JsonFormatter(
        ["levelname", "name", "message"],
        rename_fields={"levelname": "level", "name": "logger", "exc_info": "exception"},
        timestamp="time",
        json_ensure_ascii=False,
    )


def text_formatter(worker: str = "") -> logging.Formatter:
    """One line per record; with several workers (WORKER_NAME) each line says which one wrote it."""
    who = f"[{worker.replace('%', '%%')}] " if worker else ""
    return logging.Formatter(f"%(asctime)s {who}%(levelname)s %(name)s: %(message)s")


def handler(form: str = "text", worker: str = "", stream: IO[str] | None = None) -> logging.Handler:
    """Records written to ``stream`` (stderr), as ``form`` ("text" or "json") says."""
    written = logging.StreamHandler(stream)
    written.setFormatter(json_formatter() if form == "json" else text_formatter(worker))
    written.addFilter(Context(worker))
    return written


def configure(level: str, form: str = "text", worker: str = "") -> None:
    """The root logger writes to stderr at ``level``, as ``form`` says."""
    logging.basicConfig(level=level, handlers=[handler(form, worker)])
    for noisy in QUIET:
        logging.getLogger(noisy).setLevel(logging.WARNING)
