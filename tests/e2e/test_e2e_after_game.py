"""End to end: statistics after games, the "play again" button, leaving a running game."""

from __future__ import annotations

from typing import Any

from bot.dev.harness import Harness
from bot.dev.simulate import (
    board_of,
    bot_says,
    button,
    buttons,
    changed_board,
    first_from_bot,
    game_record,
    now_of,
    open_lobby,
    play_to_end,
    reply_to,
    start_game,
    table,
)
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
    mine = await reply_to(sandbox, t.players[0]["id"], t.players[0]["id"], "/mystats")
    assert "۱ بازی" in mine

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
    board = await start_game(sandbox, t)
    quitter, stayer = t.players
    confirm = await bot_says(sandbox, t.chat_id, quitter["id"], "/leave")
    assert "مطمئنید" in confirm["text"]
    yes = buttons(confirm)[0]["data"]
    assert yes.endswith(":y")
    answer = await sandbox.press(t.chat_id, confirm["message_id"], stayer["id"], yes)
    assert answer["text"] == texts.NOT_FOR_YOU
    answer = await sandbox.press(t.chat_id, confirm["message_id"], quitter["id"], yes)
    assert answer["answered"]
    result = await sandbox.wait_for(t.chat_id, first_from_bot(confirm, lambda m: "تمام شد" in (m["text"] or "")))
    assert "ترک کرد" in result["text"] and stayer["first_name"] in result["text"]
    assert not buttons(await changed_board(sandbox, t, board))  # the result comes after the last board


async def test_play_again_does_not_reopen_a_game_the_admins_closed_meanwhile(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox)
    await start_game(sandbox, t)  # عصر سکه‌ها
    admin, quitter = t.players
    confirm = await bot_says(sandbox, t.chat_id, quitter["id"], "/leave")
    await sandbox.press(t.chat_id, confirm["message_id"], quitter["id"], buttons(confirm)[0]["data"])
    result = await sandbox.wait_for(t.chat_id, first_from_bot(confirm, lambda m: "تمام شد" in (m["text"] or "")))
    again = next(b for b in buttons(result) if b["data"].startswith("again:"))
    menu = await bot_says(sandbox, t.chat_id, admin["id"], "/settings")
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], button(menu, "s:g:coin_age")["data"])
    assert answer["text"] == texts.SETTINGS_SAVED

    before = await game_record(harness, t.chat_id)
    answer = await sandbox.press(t.chat_id, result["message_id"], admin["id"], again["data"])
    assert answer["show_alert"] and answer["text"] == texts.GAME_DISABLED
    assert await game_record(harness, t.chat_id) == before  # refused before anything was written: no lobby


async def test_cancelling_a_running_game_asks_first_and_every_picture_then_says_so(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t, game="condottiere")
    host, guest = t.players
    assert await reply_to(sandbox, t.chat_id, guest["id"], "/cancel") == texts.NOT_ALLOWED
    question = await bot_says(sandbox, t.chat_id, host["id"], "/cancel")
    assert "لغو شود؟" in question["text"] and host["first_name"] in question["text"]
    answer = await sandbox.press(t.chat_id, question["message_id"], guest["id"], button(question, ":y")["data"])
    assert answer["text"] == texts.NOT_FOR_YOU
    answer = await sandbox.press(t.chat_id, question["message_id"], host["id"], button(question, ":n")["data"])
    assert answer["text"] == texts.LEAVE_KEPT
    await sandbox.wait_for(
        t.chat_id, lambda ms: next((m for m in ms if m["message_id"] == question["message_id"]), {}).get("deleted")
    )
    record = await game_record(harness, t.chat_id)
    assert record is not None and record.phase == "playing"  # «no» changed nothing

    question = await bot_says(sandbox, t.chat_id, host["id"], "/cancel")
    answer = await sandbox.press(t.chat_id, question["message_id"], host["id"], button(question, ":y")["data"])
    assert answer["answered"] and not answer["text"]
    await sandbox.wait_for(t.chat_id, first_from_bot(question, lambda m: m["text"] == texts.CANCELLED))
    board = await sandbox.wait_for(
        t.chat_id, lambda ms: board_of(ms) if texts.CANCELLED in (board_of(ms)["caption"] or "") else None
    )
    assert not buttons(board) and "نوبت" not in board["caption"].rsplit("\n", 1)[-1]

    def hand_cancelled(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        hands = [m for m in messages if m["from_bot"] and m.get("photo") and not m["deleted"]]
        return hands[-1] if hands and texts.CANCELLED in (hands[-1]["caption"] or "") else None

    for player in t.players:  # a hand left with buttons would invite presses that can only be refused
        hand = await sandbox.wait_for(player["id"], hand_cancelled)
        assert not buttons(hand)


async def test_own_commands_in_a_group_point_to_the_private_chat(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    for command in ("/mystats", "/notify"):
        answer = await bot_says(sandbox, t.chat_id, t.players[0]["id"], command)
        assert answer["text"] == texts.PRIVATE_ONLY
        assert [b["url"] for b in buttons(answer)] == ["https://t.me/dorehami_bot"]


async def test_leaving_a_lobby_is_said_in_the_group(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    lobby = await open_lobby(sandbox, t)
    guest = t.players[1]
    await sandbox.press(t.chat_id, lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    await sandbox.wait_for(t.chat_id, lambda ms: guest["first_name"] in now_of(ms, lobby)["text"])
    said = await reply_to(sandbox, t.chat_id, guest["id"], "/leave")
    assert "از اتاق انتظار بیرون آمد" in said and guest["first_name"] in said
    await sandbox.wait_for(t.chat_id, lambda ms: guest["first_name"] not in now_of(ms, lobby)["text"])
