"""End to end, real processes: Telegram itself away (every Bot API call answered 502 by its front end, as in an
outage) while a group's turn timer runs out.

The player who did not act is removed at their first time-out, which ends the two-player game: saved while
Telegram is away, its last board and its result cannot be sent. The outage is logged once when it starts and
once when it ends, the chat that could not be drawn says so in one line, no traceback is logged, and once
Telegram answers the last board and the result come out, with nobody pressing anything and no timer left to
set anything off: the bot draws again what the outage kept from the screen.
"""

from __future__ import annotations

from typing import Any

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    board_of,
    choose_setting,
    drawn_version,
    eventually,
    finished,
    game_record,
    log_lines,
    set_timer,
    start_game,
    table,
    wait_log,
)
from bot.handlers.admin import MAX_TIMEOUT_CHOICES
from sandbox.control_client import ControlClient

AWAY, BACK = "Telegram is out of reach", "Telegram answers again"
RESULT = "🏁"  # the result's first words


def result_of(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((m for m in messages if m["from_bot"] and RESULT in (m["text"] or "")), None)


WAITS = "redraw waits for Telegram"


async def test_a_board_kept_from_the_screen_by_telegram_s_outage_is_drawn_when_it_answers(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    group = await table(sandbox)
    await set_timer(sandbox, group, 10)  # the reminder at 5 s and the time-out at 10 s fall in the outage
    await choose_setting(sandbox, group, f"s:m:{min(MAX_TIMEOUT_CHOICES)}")  # removed at once: the game ends
    await start_game(sandbox, group)
    await settle()
    board = board_of(await sandbox.messages(group.chat_id))
    record = await game_record(harness, group.chat_id)
    assert record is not None and drawn_version(board) == record.version
    away, back, waits = (len(log_lines(harness, words)) for words in (AWAY, BACK, WAITS))
    tracebacks = len(log_lines(harness, "Traceback"))

    await sandbox.config(bot_api_down=True)
    try:
        await wait_log(harness, AWAY, more_than=away)

        async def over() -> bool:
            now = await game_record(harness, group.chat_id)
            return now is not None and now.phase == "finished"

        await eventually(over, "the game ended by the time-out while Telegram is away")
        await wait_log(harness, WAITS, more_than=waits)  # its board could not be drawn
    finally:
        await sandbox.config(bot_api_down=False)

    # drawn with nobody pressing: the last board (its buttons gone), then the result
    await sandbox.wait_for(group.chat_id, result_of)
    shown = board_of(await sandbox.messages(group.chat_id))
    assert shown["message_id"] == board["message_id"] and shown["edits"] > board["edits"]
    assert finished(shown) and not drawn_version(shown), shown["caption"]
    await wait_log(harness, BACK, more_than=back)
    assert len(log_lines(harness, AWAY)) == away + 1 and len(log_lines(harness, BACK)) == back + 1
    assert len(log_lines(harness, "Traceback")) == tracebacks
