"""End to end: statistics after games, the "play again" button, leaving a running game."""

from __future__ import annotations

from bot.dev.simulate import board_of, button, buttons, play_to_end, reply_to, start_game, table
from bot.messages import texts
from sandbox.control_client import ControlClient


async def test_statistics_and_play_again_after_a_whole_game(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await start_game(sandbox, t)
    await play_to_end(sandbox, t, seed=11)
    result = (await sandbox.messages(t.chat_id))[-1]
    assert "تمام شد" in result["text"]

    board = await reply_to(sandbox, t.chat_id, t.players[1]["id"], "/stats")
    assert "عصر سکه‌ها" in board and all(p["first_name"] in board for p in t.players)
    assert board.count("از ۱ بازی") == 2
    await sandbox.send(t.players[0]["id"], t.players[0]["id"], "/mystats")
    await sandbox.idle()
    assert "۱ بازی" in (await sandbox.messages(t.players[0]["id"]))[-1]["text"]

    again = next(b for b in buttons(result) if b["data"].startswith("again:"))
    answer = await sandbox.press(t.chat_id, result["message_id"], t.outsider["id"], again["data"])
    assert answer["text"] == texts.NOT_IN_LAST_GAME
    answer = await sandbox.press(t.chat_id, result["message_id"], t.players[1]["id"], again["data"])
    assert answer["answered"] and not answer["text"]
    # waited for, not a quiet chat: after a whole game the group's budget may hold the lobby back a few seconds
    lobby = await sandbox.wait_for(
        t.chat_id, lambda ms: next((m for m in ms[::-1] if m["from_bot"] and "اتاق انتظار" in (m["text"] or "")), None)
    )
    assert all(p["first_name"] in lobby["text"] for p in t.players)
    answer = await sandbox.press(t.chat_id, lobby["message_id"], t.players[1]["id"], button(lobby, ":start")["data"])
    assert answer["answered"] and not answer["text"]  # the new creator starts it


async def test_leaving_a_two_player_game_asks_first_and_the_opponent_wins(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await start_game(sandbox, t)
    quitter, stayer = t.players
    await sandbox.send(t.chat_id, quitter["id"], "/leave")
    await sandbox.idle()
    confirm = (await sandbox.messages(t.chat_id))[-1]
    assert "مطمئنید" in confirm["text"]
    yes = buttons(confirm)[0]["data"]
    assert yes.endswith(":y")
    answer = await sandbox.press(t.chat_id, confirm["message_id"], stayer["id"], yes)
    assert answer["text"] == texts.NOT_FOR_YOU
    answer = await sandbox.press(t.chat_id, confirm["message_id"], quitter["id"], yes)
    assert answer["answered"]
    await sandbox.idle()
    messages = await sandbox.messages(t.chat_id)
    assert "ترک کرد" in messages[-1]["text"] and stayer["first_name"] in messages[-1]["text"]
    assert not buttons(board_of(messages))


async def test_play_again_does_not_reopen_a_game_the_admins_closed_meanwhile(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    await start_game(sandbox, t)  # عصر سکه‌ها
    admin, quitter = t.players
    await sandbox.send(t.chat_id, quitter["id"], "/leave")
    await sandbox.idle()
    confirm = (await sandbox.messages(t.chat_id))[-1]
    await sandbox.press(t.chat_id, confirm["message_id"], quitter["id"], buttons(confirm)[0]["data"])
    await sandbox.idle()
    result = (await sandbox.messages(t.chat_id))[-1]
    again = next(b for b in buttons(result) if b["data"].startswith("again:"))
    await sandbox.send(t.chat_id, admin["id"], "/settings")
    await sandbox.idle()
    menu = (await sandbox.messages(t.chat_id))[-1]
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], button(menu, "s:g:coin_age")["data"])
    assert answer["text"] == texts.SETTINGS_SAVED

    before = len(await sandbox.messages(t.chat_id))
    answer = await sandbox.press(t.chat_id, result["message_id"], admin["id"], again["data"])
    assert answer["show_alert"] and answer["text"] == texts.GAME_DISABLED
    await sandbox.idle()
    assert len(await sandbox.messages(t.chat_id)) == before  # no lobby
