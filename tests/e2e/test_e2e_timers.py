"""End to end: the turn timer moves a silent player on, removes them after repeated time-outs, survives a
restart, and admins control it."""

from __future__ import annotations

from typing import Any

import httpx

from bot.dev.harness import Harness, moved
from bot.dev.simulate import (
    Settle,
    board_of,
    board_past,
    button,
    buttons,
    changed_board,
    drawn_version,
    game_record,
    player_to_act,
    reply_to,
    set_timer,
    start_game,
    table,
)
from bot.messages import texts
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient


async def test_only_admins_change_settings(sandbox: ControlClient, settle: Settle) -> None:
    t = await table(sandbox)
    await sandbox.send(t.chat_id, t.players[1]["id"], "/settings")
    await settle()
    assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.NOT_ADMIN
    await sandbox.send(t.chat_id, t.players[0]["id"], "/settings")
    await settle()
    menu = (await sandbox.messages(t.chat_id))[-1]
    answer = await sandbox.press(t.chat_id, menu["message_id"], t.players[1]["id"], button(menu, "s:t:3")["data"])
    assert answer["text"] == texts.NOT_ADMIN and answer["show_alert"]


async def test_a_silent_player_is_moved_on_reminded_and_removed_after_two_time_outs(
    sandbox: ControlClient, harness: Harness
) -> None:
    assert harness.bot is not None
    async with httpx.AsyncClient(trust_env=False) as http:
        before = await harness.bot.figures(http)
    t = await table(sandbox)
    await set_timer(sandbox, t, 2)
    board = await start_game(sandbox, t)
    silent = player_to_act(t, board)
    board = await changed_board(sandbox, t, board)  # first time-out: the default move (end the turn)
    assert "زمان" in board["caption"] and "تمام شد" in board["caption"]
    async with httpx.AsyncClient(trust_env=False) as http:
        after = await harness.bot.figures(http)  # on /metrics: the default move, the deadlines' lateness
    assert moved(before, after, "dorehami_moves_total", game="coin_age", by="timeout") >= 1
    for kind in ("remind", "timeout"):
        assert moved(before, after, "dorehami_deadline_lateness_seconds_count", kind=kind) >= 1
    texts_seen = [m["text"] or "" for m in await sandbox.messages(silent["id"])]
    assert any("از زمان نوبت شما مانده" in text for text in texts_seen)  # the half-time reminder, in private

    def removed(messages: list[dict[str, object]]) -> bool:
        return any("کنار گذاشته شد" in str(m["text"] or "") for m in messages)

    messages = await sandbox.wait_for(t.chat_id, lambda ms: ms if removed(ms) else None)
    assert "برنده" in str(messages[-1]["text"])
    final = board_of(messages)
    assert not [b for row in final["buttons"] or [] for b in row]


async def test_acting_in_time_resets_the_count(sandbox: ControlClient) -> None:
    """A player times out, then moves in time, then times out once more: two time-outs, but not in a row, so
    they stay in the game (removal takes two in a row). Ten seconds a turn: room to press in time even on a
    slow machine. The others end their turns in time meanwhile; a turn whose toss leaves nothing to do ends by
    itself, so whose turn comes next is read from the board, never assumed."""
    t = await table(sandbox)
    await set_timer(sandbox, t, 10)
    board = await start_game(sandbox, t)
    slow = player_to_act(t, board)

    async def end_turn(board: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
        assert player_to_act(t, board) is expected
        data = button(board, ":x")["data"]
        answer = await sandbox.press(t.chat_id, board["message_id"], expected["id"], data)
        assert answer["answered"] and not answer["text"], answer
        return await changed_board(sandbox, t, board, data)

    async def others_in_time(board: dict[str, Any]) -> dict[str, Any]:
        while player_to_act(t, board) is not slow:
            board = await end_turn(board, player_to_act(t, board))
        return board

    board = await board_past(sandbox, t, drawn_version(board))  # the slow player's first time-out
    assert board["caption"].count("تمام شد") == 1
    board = await end_turn(await others_in_time(board), slow)  # in time: the run of time-outs is over
    board = await others_in_time(board)
    board = await board_past(sandbox, t, drawn_version(board))  # the slow player's second time-out, not in a row
    assert "تمام شد" in board["caption"] and "کنار گذاشته شد" not in board["caption"]
    assert buttons(board)  # the game goes on, with both


async def test_a_pending_time_out_survives_a_restart_and_fires_once(sandbox: ControlClient, harness: Harness) -> None:
    """The turn's time-out is armed, the bot killed and started again: it fires once, for that turn (each firing
    is a write, so once means the game moved one version; ten seconds a turn, so the next turn's time-out
    comes long after)."""
    t = await table(sandbox)
    await set_timer(sandbox, t, 10)
    board = await start_game(sandbox, t)
    version = drawn_version(board)
    harness.restart_bot(kill=True)
    board = await board_past(sandbox, t, version)  # the repair may redraw the same version first
    assert drawn_version(board) == version + 1 and board["caption"].count("تمام شد") == 1
    record = await game_record(harness, t.chat_id)
    assert record is not None and record.version == version + 1


async def _armed(harness: Harness, chat_id: int) -> dict[str, float]:
    """The chat's deadlines waiting in Redis (bot/plumbing/deadlines.py)."""
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        return await Deadlines(store.redis, store.keys).pending(str(chat_id))
    finally:
        await store.close()


async def test_pause_stops_the_timer_and_resume_restarts_it(sandbox: ControlClient, harness: Harness) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 2)
    await start_game(sandbox, t)
    assert await reply_to(sandbox, t.chat_id, t.players[0]["id"], "/pause") == texts.PAUSED
    # the board follows through the chat's drawer, when the group's flood budget allows: wait for it
    paused = await sandbox.wait_for(
        t.chat_id, lambda ms: board_of(ms) if "متوقف" in (board_of(ms)["caption"] or "") else None
    )
    assert not await _armed(harness, t.chat_id)  # nothing can time out while the timer is stopped
    await sandbox.send(t.chat_id, t.players[0]["id"], "/resume")
    resumed = await changed_board(sandbox, t, paused)
    later = await changed_board(sandbox, t, resumed)
    assert "تمام شد" in later["caption"]
