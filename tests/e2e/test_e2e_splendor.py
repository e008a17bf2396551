"""End to end: a whole three-player game of اسپلندور by button presses, reserved cards bought in private, and a
move that changes nothing a player sees costing nothing in their private chat."""

from __future__ import annotations

from typing import Any

from bot.dev.simulate import (
    Settle,
    Table,
    buttons,
    changed_board,
    hand_of,
    play_to_end,
    player_to_act,
    start_game,
    table,
)
from sandbox.control_client import ControlClient


async def test_three_players_play_a_whole_game_of_splendor(sandbox: ControlClient) -> None:
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="splendor")
    assert board["photo"] and buttons(board)
    board = await play_to_end(sandbox, t, seed=2, limit=5000)
    assert not [b for b in buttons(board) if "data" in b]
    result = (await sandbox.messages(t.chat_id))[-1]["text"]
    assert "اسپلندور" in result and all(p["first_name"] in result for p in t.players)


async def test_three_gems_are_one_press_and_a_level_lists_its_cards_in_the_picture_s_order(
    sandbox: ControlClient,
) -> None:
    t = await table(sandbox, players=2)
    board = await start_game(sandbox, t, game="splendor")
    player = player_to_act(t, board)
    takes = [b for b in buttons(board) if b["data"].startswith("g:splendor:") and len(b["text"]) <= 6]
    assert len(takes) == 10 and all(set(b["text"]) <= set("⚪🔵🟢🔴⚫\ufe0f") for b in takes)  # every set of three
    levels = [b for b in buttons(board) if b["text"].startswith("📌 رزرو سطح")]
    assert [b["text"] for b in levels] == ["📌 رزرو سطح ۱", "📌 رزرو سطح ۲", "📌 رزرو سطح ۳"]
    board = await _press(sandbox, t, board, player, levels[1]["data"])
    cards = [b["text"] for b in buttons(board) if "بازگشت" not in b["text"]]
    assert [c.split(" · ")[0] for c in cards] == ["کارت ۵", "کارت ۶", "کارت ۷", "کارت ۸", "🂠 دستهٔ ۲، پنهان"]
    assert all(len(row) == 1 for row in board["buttons"])  # one card a row: its whole label, numbered top down
    board = await _press(sandbox, t, board, player, buttons(board)[-1]["data"])  # back to the first level
    take = next(b for b in buttons(board) if b["text"] == takes[0]["text"])
    board = await _press(sandbox, t, board, player, take["data"])  # one press: the three gems are taken
    assert "برداشت" in board["caption"] and player_to_act(t, board) is not player


async def _press(
    sandbox: ControlClient, t: Table, board: dict[str, Any], player: dict[str, Any], data: str
) -> dict[str, Any]:
    answer = await sandbox.press(t.chat_id, board["message_id"], player["id"], data)
    assert answer["answered"] and not answer["text"], answer
    return await changed_board(sandbox, t, board)


async def test_a_move_that_changes_nothing_a_player_sees_makes_no_call_to_their_chat(
    sandbox: ControlClient, settle: Settle
) -> None:
    """The first player takes three gems: their own hand (their gems) is edited, while the third player's view
    changed (the board did) but not what their hand shows, so their private chat gets no call at all."""
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="splendor")
    await settle()
    player = player_to_act(t, board)
    others = [p for p in t.players if p is not player]
    hands = {p["id"]: await hand_of(sandbox, p) for p in t.players}
    assert all(hands.values())
    after = (await sandbox.log())["next"]
    take = next(b for b in buttons(board) if b["data"].startswith("g:splendor:") and len(b["text"]) <= 6)
    board = await _press(sandbox, t, board, player, take["data"])
    following = player_to_act(t, board)
    third = next(p for p in others if p is not following)
    await settle()
    calls = await _calls(sandbox, after)
    mine = [c["method"] for c in calls if c["chat_id"] == player["id"] and c["status"] == 200]
    assert "editMessageMedia" in mine  # their gems, in the caption and the picture
    assert not [c for c in calls if c["chat_id"] == third["id"]]
    assert [m["edits"] for m in await sandbox.messages(third["id"]) if m["from_bot"] and m.get("photo")] == [0]


async def _calls(sandbox: ControlClient, after: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while (page := await sandbox.log(after=after))["items"]:
        items += page["items"]
        after = page["next"]
    return items
