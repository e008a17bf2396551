"""End to end: a whole three-player game of اسپلندور by button presses, reserved cards bought in private."""

from __future__ import annotations

from bot.dev.simulate import buttons, play_to_end, start_game, table
from sandbox.control_client import ControlClient


async def test_three_players_play_a_whole_game_of_splendor(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="splendor")
    assert board["photo"] and buttons(board)
    board = await play_to_end(sandbox, t, seed=2, limit=5000)
    assert not [b for b in buttons(board) if "data" in b]
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "اسپلندور" in result and all(p["first_name"] in result for p in t.players)
