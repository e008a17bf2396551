"""End to end: a whole game of کشورگشا by button presses, to the result."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.dev.simulate import buttons, changed_board, play_move, play_to_end, player_to_act, start_game, table
from sandbox.control_client import ControlClient


async def test_two_players_play_a_whole_game_of_conqueror(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t, game="conqueror")
    assert board["photo"] and "آغاز بازی" in board["caption"]
    centres = [b["text"] for b in buttons(board)]  # the opening: first castles only, one press each
    assert len(centres) == 7 and all(re.fullmatch(r"🏰 قلعه در [بجدسصطع]۰", text) for text in centres), centres
    board = await play_to_end(sandbox, t, seed=5, limit=2000)
    assert not buttons(board)
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "کشورگشا" in result and all(p["first_name"] in result for p in t.players)
    assert "برنده" in result or "مساوی" in result


async def test_a_menu_of_camps_names_them_in_persian_and_rings_them_on_the_board(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t, game="conqueror")
    rng = random.Random(7)

    def levels(board: dict[str, Any]) -> list[dict[str, Any]]:
        return [b for b in buttons(board) if b["data"].startswith("n:") and "بازگشت" not in b["text"]]

    for _ in range(40):  # past the opening, until a kind of action offers more places than are listed whole
        if levels(board):
            break
        board = await play_move(sandbox, t, rng)
    player = player_to_act(t, board)
    first = [b["text"] for b in buttons(board)]
    kind = levels(board)[0]
    before = board["photo"]
    answer = await sandbox.press(t.chat_id, board["message_id"], player["id"], kind["data"])
    assert answer["answered"] and not answer["text"]
    board = await changed_board(sandbox, t, board)
    assert board["photo"] != before  # one edit: the picture rings the places, the buttons name them
    places = [b["text"] for b in buttons(board) if "بازگشت" not in b["text"]]
    assert len(places) > 1 and all(re.search(r"[بجدسصطع][۰-۶]", text) for text in places), places
    caption = board["caption"]
    for p in t.players:
        caption = caption.replace(p["first_name"], "")
    assert not re.search(r"[A-Za-z0-9]", caption)
    back = buttons(board)[-1]
    assert back["text"] == "↩️ بازگشت"
    await sandbox.press(t.chat_id, board["message_id"], player["id"], back["data"])
    board = await changed_board(sandbox, t, board)
    assert [b["text"] for b in buttons(board)] == first
