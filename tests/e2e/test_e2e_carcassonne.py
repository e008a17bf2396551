"""End to end: a whole game of قلعه رودخان with farmers by button presses, to the result; and the turn's
menu: the position, then the placement (rotation and meeple) under a picture that follows the choice, the
second press placing the tile, with a way back to the positions."""

from __future__ import annotations

import re
from typing import Any

from bot.dev.simulate import (
    Table,
    buttons,
    changed_board,
    play_to_end,
    player_to_act,
    pressed_until,
    reply_to,
    start_game,
    table,
    tiles_left,
)
from sandbox.control_client import ControlClient


async def _press(sandbox: ControlClient, board: dict[str, Any], player: dict[str, Any], data: str) -> dict[str, Any]:
    answer = await sandbox.press(board["chat_id"], board["message_id"], player["id"], data)
    assert answer["answered"] and not answer["text"], (data, answer)
    return board


def _top(board: dict[str, Any]) -> tuple[list[str], set[str]]:
    """The action codes of the board's buttons (the top of the turn's menu) and the positions they are at."""
    codes = [b["data"].split(":", 3)[3] for b in buttons(board)]
    return codes, {code.split(".")[1] for code in codes}


async def _a_turn_with_several_positions(sandbox: ControlClient, t: Table, board: dict[str, Any]) -> dict[str, Any]:
    """The board once a tile fits in more than one place: a tile that fits in one (on the first turn a monastery
    fits only below the start tile, the city on all four sides only above it) is placed, by its first
    placement (the only position's placements are listed whole), and the next player draws."""
    return await pressed_until(
        sandbox, t, board, lambda b: len(_top(b)[1]) > 1, lambda b: str(buttons(b)[0]["data"]), tries=5
    )


async def test_three_players_play_a_whole_game_with_farmers(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="carcassonne", toggles=["farmers"])
    assert board["photo"] and "کاشی‌های مانده: ۷۰" in board["caption"]
    codes, positions = _top(board)
    if len(positions) > 1:  # numbered positions first
        assert all(b["data"].startswith("n:carcassonne:") for b in buttons(board))
        assert len(positions) == len(codes)
    else:  # a tile that fits in one place only: the menu opens on that place's placements, played by one press
        assert all(b["data"].startswith("g:carcassonne:") for b in buttons(board))
    board = await play_to_end(sandbox, t, seed=3, limit=2000)
    assert not buttons(board)
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "قلعه رودخان" in result and all(p["first_name"] in result for p in t.players)
    assert "مزرعه" in result and ("برنده" in result or "برد مشترک" in result)


async def test_a_turn_is_chosen_step_by_step_and_can_go_back(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=2)
    board = await _a_turn_with_several_positions(sandbox, t, await start_game(sandbox, t, game="carcassonne"))
    player = player_to_act(t, board)
    first = buttons(board)[0]
    assert first["text"] == "۱"  # positions carry the numbers drawn on the board
    positions = [b["text"] for b in buttons(board)]
    left = tiles_left(board)

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
    assert tiles_left(board) == left
    assert [b["text"] for b in buttons(board)] == positions
    board = await open_level(first["data"])
    stranger = t.players[1] if player is t.players[0] else t.players[0]
    answer = await sandbox.press(t.chat_id, board["message_id"], stranger["id"], last["data"])
    assert answer["show_alert"]  # only the player in turn places the tile
    board = await open_level(last["data"])
    # one tile fewer, or more when the next tile drawn fits nowhere and is put aside
    # «🧩 … کاشی جاده را به جادهٔ … وصل کرد.», «🧩 … کاشی صومعه را گذاشت، با آدمکی روی صومعه.»: what and where
    assert re.search(r"^🧩 .+ کاشی .+ را .*(گذاشت|وصل کرد)[،.]", board["caption"], re.MULTILINE), board["caption"]
    assert tiles_left(board) < left
    assert player_to_act(t, board) is not player


async def test_the_game_is_listed_and_opened_under_its_own_emoji(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=2)
    listing = await reply_to(sandbox, t.chat_id, t.players[0]["id"], "/games")
    assert "🏞 قلعه رودخان" in listing and "🏰 کشورگشا" in listing and "🏰 قلعه رودخان" not in listing
    board = await start_game(sandbox, t, game="carcassonne")
    assert board["caption"].startswith("🏞 ")
