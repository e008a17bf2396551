"""End to end: a whole game of کشورگشا by button presses, to the result."""

from __future__ import annotations

from bot.dev.simulate import buttons, play_to_end, start_game, table
from sandbox.control_client import ControlClient


async def test_two_players_play_a_whole_game_of_conqueror(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t, game="conqueror")
    assert board["photo"] and "آغاز بازی" in board["caption"]
    assert [b["text"] for b in buttons(board)] == ["🏰 ساخت قلعه"]  # the opening: first castles only
    board = await play_to_end(sandbox, t, seed=5, limit=2000)
    assert not buttons(board)
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "کشورگشا" in result and all(p["first_name"] in result for p in t.players)
    assert "برنده" in result or "مساوی" in result
