"""The log as a log store reads it (LOG_FORMAT=json): one JSON object a line, naming the chat, topic, update,
worker and game where they are known."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from telegram import Update

from bot.config import ConfigError, load_settings
from bot.plumbing import activity, logs

GROUP = -1001000000001


@pytest.fixture
def written() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger whose records go, as JSON lines, to a string (as the root logger's go to stderr)."""
    stream = io.StringIO()
    logger = logging.getLogger("tests.logs")
    logger.addHandler(logs.handler("json", "w1", stream))
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        yield logger, stream
    finally:
        logger.handlers.clear()


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    text = stream.getvalue()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_a_record_is_one_json_object_a_line_with_what_is_known(written: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = written
    logger.info("before any chat")
    with logs.about(GROUP, 7, 4321):
        logs.playing("coin_age")
        try:
            raise ValueError("the board\nis gone")
        except ValueError:
            logger.exception("could not redraw «%s»", "گروه")
    logger.warning("after")
    first, failed, after = lines(stream)
    assert set(first) == {"time", "level", "logger", "message", "worker"}
    assert first["level"] == "INFO" and first["logger"] == "tests.logs" and first["worker"] == "w1"
    assert first["time"].endswith("+00:00")
    assert failed["message"] == "could not redraw «گروه»"  # Persian as it is, not \\u escapes
    assert (failed["chat"], failed["topic"], failed["update"], failed["game"]) == (GROUP, 7, 4321, "coin_age")
    assert failed["exception"].startswith("Traceback") and "ValueError: the board\nis gone" in failed["exception"]
    assert "chat" not in after and "game" not in after  # the block is over: nothing is known any more


async def test_a_task_started_for_a_chat_logs_about_that_chat(written: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = written

    async def later() -> None:
        await asyncio.sleep(0)
        logger.info("drawn")

    with logs.about(GROUP):
        task = asyncio.create_task(later())
    logger.info("elsewhere")
    await task
    elsewhere, drawn = lines(stream)
    assert "chat" not in elsewhere and drawn["chat"] == GROUP


async def test_each_update_is_handled_with_its_chat_topic_and_id(written: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = written
    press = {
        "update_id": 77,
        "callback_query": {
            "id": "1",
            "chat_instance": "x",
            "from": {"id": 1002, "is_bot": False, "first_name": "Sara"},
            "data": "g:coin_age:3:a",
            "message": {
                "message_id": 9,
                "date": 0,
                "chat": {"id": GROUP, "type": "supergroup", "title": "g", "is_forum": True},
                "message_thread_id": 5,
                "is_topic_message": True,
            },
        },
    }
    update = Update.de_json(press, None)

    async def handle() -> None:
        logger.info("pressed")

    await activity.UpdateProcessor(4).process_update(update, handle())
    (pressed,) = lines(stream)
    assert (pressed["chat"], pressed["topic"], pressed["update"]) == (GROUP, 5, 77)


def test_the_text_format_stays_one_line_for_people() -> None:
    stream = io.StringIO()
    record = logging.LogRecord("bot.app", logging.WARNING, __file__, 1, "ready %s", ("now",), None)
    logs.handler("text", "w2", stream).handle(record)
    assert stream.getvalue().endswith(" [w2] WARNING bot.app: ready now\n")


def test_log_format_is_text_or_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    assert load_settings(_env_file=None).log_format == "text"
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    assert load_settings(_env_file=None).log_format == "json"
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ConfigError, match=r"^configuration error: LOG_FORMAT: "):
        load_settings(_env_file=None)
