"""End to end: the turn timer moves a silent player on, removes them after repeated time-outs, survives a
restart, and admins control it."""

from __future__ import annotations

import asyncio

from bot.dev.harness import Harness
from bot.dev.simulate import board_of, button, changed_board, player_to_act, reply_to, set_timer, start_game, table
from bot.messages import texts
from sandbox.control_client import ControlClient


async def test_only_admins_change_settings(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await sandbox.send(t.chat_id, t.players[1]["id"], "/settings")
    await sandbox.idle()
    assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.NOT_ADMIN
    await sandbox.send(t.chat_id, t.players[0]["id"], "/settings")
    await sandbox.idle()
    menu = (await sandbox.messages(t.chat_id))[-1]
    answer = await sandbox.press(t.chat_id, menu["message_id"], t.players[1]["id"], button(menu, "s:t:3")["data"])
    assert answer["text"] == texts.NOT_ADMIN and answer["show_alert"]


async def test_a_silent_player_is_moved_on_reminded_and_removed_after_two_time_outs(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 2)
    board = await start_game(sandbox, t)
    silent = player_to_act(t, board)
    board = await changed_board(sandbox, t, board)  # first time-out: the default move (end the turn)
    assert "زمان" in board["caption"] and "تمام شد" in board["caption"]
    texts_seen = [m["text"] or "" for m in await sandbox.messages(silent["id"])]
    assert any("از زمان نوبت شما مانده" in text for text in texts_seen)  # the half-time reminder, in private

    def removed(messages: list[dict[str, object]]) -> bool:
        return any("کنار گذاشته شد" in str(m["text"] or "") for m in messages)

    messages = await sandbox.wait_for(t.chat_id, lambda ms: ms if removed(ms) else None, timeout=20)
    assert "برنده" in str(messages[-1]["text"])
    final = board_of(messages)
    assert not [b for row in final["buttons"] or [] for b in row]


async def test_acting_in_time_resets_the_count(sandbox: ControlClient) -> None:
    """One time-out, then a move in time, then one more time-out: nobody is removed."""
    t = await table(sandbox)
    await set_timer(sandbox, t, 3)
    board = await start_game(sandbox, t)
    board = await changed_board(sandbox, t, board)  # a time-out passes the turn
    caption = board["caption"]
    mover = next(p for p in t.players if p["first_name"] in caption.rsplit("👈", 1)[-1])
    await sandbox.press(t.chat_id, board["message_id"], mover["id"], button(board, ":x")["data"])
    await asyncio.sleep(7)
    messages = await sandbox.messages(t.chat_id)
    assert not any("کنار گذاشته شد" in (m["text"] or "") for m in messages[:-1])


async def test_a_pending_time_out_survives_a_restart_and_fires_once(sandbox: ControlClient, harness: Harness) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 3)
    board = await start_game(sandbox, t)
    harness.restart_bot(kill=True)
    board = await changed_board(sandbox, t, board)
    await asyncio.sleep(0.5)
    assert board_of(await sandbox.messages(t.chat_id))["edits"] == board["edits"]  # fired once, not twice
    assert board["caption"].count("تمام شد") == 1


async def test_pause_stops_the_timer_and_resume_restarts_it(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await set_timer(sandbox, t, 2)
    await start_game(sandbox, t)
    assert await reply_to(sandbox, t.chat_id, t.players[0]["id"], "/pause") == texts.PAUSED
    # the board follows through the chat's drawer, when the group's flood budget allows: wait for it
    paused = await sandbox.wait_for(
        t.chat_id, lambda ms: board_of(ms) if "متوقف" in (board_of(ms)["caption"] or "") else None
    )
    await asyncio.sleep(3)
    assert board_of(await sandbox.messages(t.chat_id))["edits"] == paused["edits"]
    await sandbox.send(t.chat_id, t.players[0]["id"], "/resume")
    resumed = await changed_board(sandbox, t, paused)
    later = await changed_board(sandbox, t, resumed)
    assert "تمام شد" in later["caption"]
