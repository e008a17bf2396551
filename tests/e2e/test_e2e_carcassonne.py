"""End to end: a whole game of قلعه رودخان with farmers by button presses, to the result; and the turn's
menu: the position, then the placement (rotation and meeple) under a picture that follows the choice, the
second press placing the tile, with a way back to the positions."""

from __future__ import annotations

from typing import Any

from bot.dev.simulate import buttons, changed_board, play_to_end, player_to_act, reply_to, start_game, table
from sandbox.control_client import ControlClient


async def _press(sandbox: ControlClient, board: dict[str, Any], player: dict[str, Any], data: str) -> dict[str, Any]:
    answer = await sandbox.press(board["chat_id"], board["message_id"], player["id"], data)
    assert answer["answered"] and not answer["text"], (data, answer)
    return board


async def test_three_players_play_a_whole_game_with_farmers(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="carcassonne", toggles=["farmers"])
    assert board["photo"] and "کاشی‌های مانده: ۷۰" in board["caption"]
    assert all(b["data"].startswith("n:carcassonne:") for b in buttons(board))  # numbered positions first
    board = await play_to_end(sandbox, t, seed=3, limit=2000)
    assert not buttons(board)
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "قلعه رودخان" in result and all(p["first_name"] in result for p in t.players)
    assert "مزرعه" in result and ("برنده" in result or "برد مشترک" in result)


async def test_a_turn_is_chosen_step_by_step_and_can_go_back(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=2)
    board = await start_game(sandbox, t, game="carcassonne")
    player = player_to_act(t, board)
    first = buttons(board)[0]
    assert first["text"] == "۱"  # positions carry the numbers drawn on the board
    positions = [b["text"] for b in buttons(board)]

    async def open_level(data: str) -> dict[str, Any]:
        nonlocal board
        await _press(sandbox, board, player, data)
        board = await changed_board(sandbox, t, board)
        return board

    before = board["photo"]
    board = await open_level(first["data"])
    assert board["photo"] != before  # the picture shows the chosen position: each rotation, or the tile placed
    assert buttons(board)[-1]["text"] == "↩️ بازگشت"
    choices = [b for b in buttons(board) if "بازگشت" not in b["text"]]
    if [b["text"] for b in choices] == ["✅ تأیید"]:  # one rotation, no meeple to place: the placement is confirmed
        last = choices[0]
    else:  # the second press places the tile: a whole placement (several rotations), or the meeple (one)
        last = choices[-1]
        assert "🚫 بدون آدمک" in last["text"] or last["text"].startswith("↻"), last
        assert all(b["data"].startswith("g:carcassonne:") for b in choices)
    board = await open_level(buttons(board)[-1]["data"])  # back to the positions: nothing was played
    assert "کاشی‌های مانده: ۷۰" in board["caption"]
    assert [b["text"] for b in buttons(board)] == positions
    board = await open_level(first["data"])
    stranger = t.players[1] if player is t.players[0] else t.players[0]
    answer = await sandbox.press(t.chat_id, board["message_id"], stranger["id"], last["data"])
    assert answer["show_alert"]  # only the player in turn places the tile
    board = await open_level(last["data"])
    assert "کاشی را گذاشت" in board["caption"] and "کاشی‌های مانده: ۶۹" in board["caption"]
    assert player_to_act(t, board) is not player


async def test_the_game_is_listed_and_opened_under_its_own_emoji(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=2)
    listing = await reply_to(sandbox, t.chat_id, t.players[0]["id"], "/games")
    assert "🏞 قلعه رودخان" in listing and "🏰 کشورگشا" in listing and "🏰 قلعه رودخان" not in listing
    board = await start_game(sandbox, t, game="carcassonne")
    assert board["caption"].startswith("🏞 ")
