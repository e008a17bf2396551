"""End to end: players out of a game of three or more. A player leaves (with confirmation) and the game goes
on with the bot's default moves for their seat; an admin kicks another and the last one left wins; players
who keep timing out are taken out one by one; statistics count the winner."""

from __future__ import annotations

import random
from typing import Any

from bot.dev.simulate import (
    Table,
    board_of,
    bot_says,
    button,
    buttons,
    play_move,
    player_to_act,
    reply_to,
    set_timer,
    start_game,
    table,
    tiles_left,
)
from bot.messages import texts
from sandbox.control_client import ControlClient


async def _last_text(sandbox: ControlClient, chat_id: int) -> str:
    return str((await sandbox.messages(chat_id))[-1]["text"] or "")


async def _leave(sandbox: ControlClient, t: Table, player: dict[str, Any]) -> dict[str, Any]:
    """The player leaves (and confirms it); returns the board once it says so."""
    question = await bot_says(sandbox, t.chat_id, player["id"], "/leave")
    assert texts.LEAVE_PLAYS_ON in question["text"]
    answer = await sandbox.press(t.chat_id, question["message_id"], player["id"], button(question, ":y")["data"])
    assert answer["answered"] and not answer["show_alert"]
    board: dict[str, Any] = await sandbox.wait_for(
        t.chat_id, lambda ms: board_of(ms) if "ترک کرد" in (board_of(ms)["caption"] or "") else None
    )
    return board


async def test_a_player_leaves_the_game_goes_on_then_a_kick_leaves_one_winner(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="carcassonne")
    quitter, kicked, winner = t.players[2], t.players[1], t.players[0]
    board = await _leave(sandbox, t, quitter)
    assert "ربات به جای" in board["caption"]

    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(24):  # six turns of the two players still in, by their buttons
        board = await play_move(sandbox, t, rng)
        seen.add(player_to_act(t, board)["first_name"])
    assert seen == {winner["first_name"], kicked["first_name"]}  # the bot moved for the one who left
    assert tiles_left(board) < 70 - 6  # the seat out of the game laid its tiles too

    assert await reply_to(sandbox, t.chat_id, kicked["id"], "/kick " + winner["first_name"]) == texts.NOT_ADMIN
    said = await sandbox.send(t.chat_id, kicked["id"], "دارم می‌روم")
    question = await bot_says(sandbox, t.chat_id, winner["id"], "/kick", reply_to_message_id=said["message_id"])
    assert kicked["first_name"] in question["text"] and texts.KICK_WINS in question["text"]  # asked first
    yes = button(question, ":y")["data"]
    answer = await sandbox.press(t.chat_id, question["message_id"], kicked["id"], yes)
    assert (answer["text"], answer["show_alert"]) == (texts.NOT_FOR_YOU, True)  # the admin who asked answers
    answer = await sandbox.press(t.chat_id, question["message_id"], winner["id"], yes)
    assert answer["answered"] and not answer["show_alert"]
    await sandbox.wait_for(t.chat_id, lambda ms: "تمام شد" in (ms[-1]["text"] or ""))
    result = await _last_text(sandbox, t.chat_id)
    assert (
        "مدیر گروه" in result
        and "ترک کرد" in result
        and f"برنده: {winner['first_name']}" in result.replace("\u2068", "").replace("\u2069", "")
    )
    assert not buttons(board_of(await sandbox.messages(t.chat_id)))

    stats = await reply_to(sandbox, t.chat_id, winner["id"], "/stats")
    assert winner["first_name"] in stats and quitter["first_name"] in stats


async def test_players_timing_out_are_taken_out_one_by_one(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=3)
    await set_timer(sandbox, t, 2)
    await start_game(sandbox, t, game="carcassonne")
    messages = await sandbox.wait_for(t.chat_id, lambda ms: ms if "تمام شد" in (ms[-1]["text"] or "") else None)
    result = str(messages[-1]["text"])
    assert result.count("پس از ۲ بار پیاپی تمام شدن زمانش") == 2  # seats 0 and 1 out after two time-outs each
    assert t.players[2]["first_name"] in result.split("برنده")[1]
