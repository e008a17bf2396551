"""End to end: a whole three-player game of اسپلندور by button presses, reserved cards bought in private, a
move that changes nothing a player sees costing nothing in their private chat, and a stalled game ended."""

from __future__ import annotations

from typing import Any

from bot.dev.harness import Harness
from bot.dev.simulate import (
    HAND_CALLS,
    Settle,
    Table,
    buttons,
    changed_board,
    hand_of,
    play_to_end,
    player_to_act,
    rewrite_game,
    start_game,
    table,
)
from bot.messages import texts
from rules.splendor.model import STALL_ROUNDS
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
    takes = _takes(board)
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


def _result(messages: list[dict[str, Any]]) -> str | None:
    """The result, once the bot has sent it after the final board."""
    last = messages[-1]["text"] or ""
    return last if "اسپلندور" in last else None


def _takes(board: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons that take gems at once (three colours, or fewer), their text the gems alone."""
    return [b for b in buttons(board) if b["data"].startswith("g:splendor:") and len(b["text"]) <= 6]


async def _press(
    sandbox: ControlClient, t: Table, board: dict[str, Any], player: dict[str, Any], data: str
) -> dict[str, Any]:
    answer = await sandbox.press(t.chat_id, board["message_id"], player["id"], data)
    assert answer["answered"] and not answer["text"], answer
    return await changed_board(sandbox, t, board)


async def test_a_move_that_changes_nothing_a_player_sees_makes_no_call_to_their_chat(
    sandbox: ControlClient, settle: Settle
) -> None:
    """The first player takes three gems: the board shows their gems, and their hand shows only their reserve,
    which did not change, so no hand is touched; the third player's chat gets no call at all, and the next
    player's hand stays as it was when their turn comes (at most a turn notice beside it)."""
    t = await table(sandbox, players=3)
    board = await start_game(sandbox, t, game="splendor")
    await settle()
    player = player_to_act(t, board)
    others = [p for p in t.players if p is not player]
    hands = {p["id"]: await hand_of(sandbox, p) for p in t.players}
    assert all(hands.values())
    after = (await sandbox.log())["next"]
    board = await _press(sandbox, t, board, player, _takes(board)[0]["data"])
    following = player_to_act(t, board)
    third = next(p for p in others if p is not following)
    await settle()
    calls = await _calls(sandbox, after)
    assert not [c for c in calls if c["method"] in HAND_CALLS and c["chat_id"] in hands]
    assert not [c for c in calls if c["chat_id"] == third["id"]]
    for p in t.players:
        assert [m["edits"] for m in await sandbox.messages(p["id"]) if m["from_bot"] and m.get("photo")] == [0]


async def _calls(sandbox: ControlClient, after: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while (page := await sandbox.log(after=after))["items"]:
        items += page["items"]
        after = page["next"]
    return items


async def test_a_game_where_nobody_buys_or_reserves_for_ten_rounds_ends_and_says_why(
    sandbox: ControlClient, harness: Harness
) -> None:
    """Ours (rules/splendor/README.md): the board warns from the seventh quiet round, and the tenth ends the game."""
    t = await table(sandbox, players=2)
    board = await start_game(sandbox, t, game="splendor")
    quiet = {"quiet_turns": 2 * STALL_ROUNDS - 2}  # nine rounds without a card bought or reserved, this one to come
    await rewrite_game(harness, t.chat_id, lambda state: state.model_copy(update=quiet))
    mover = player_to_act(t, board)
    answer = await sandbox.press(t.chat_id, board["message_id"], mover["id"], _takes(board)[0]["data"])
    assert answer["text"] == texts.STALE  # the board was drawn before; it is drawn again as the game now stands
    board = await changed_board(sandbox, t, board)
    assert "⚠️ ۹ دور است هیچ‌کس کارتی نخریده یا رزرو نکرده" in board["caption"]
    for _ in range(2):  # both players take gems: the tenth quiet round ends
        board = await _press(sandbox, t, board, player_to_act(t, board), _takes(board)[0]["data"])
    assert not [b for b in buttons(board) if "data" in b]
    result = await sandbox.wait_for(t.chat_id, _result)  # the last message: all the game's words are in
    assert "🤝 برد مشترک همه!" in result and all(p["first_name"] in result for p in t.players)  # 0 points to 0
    said = " ".join(m["text"] or m["caption"] or "" for m in await sandbox.messages(t.chat_id))
    assert "🏁 ۱۰ دور پیاپی هیچ‌کس کارتی نخرید یا رزرو نکرد؛ بازی شمرده شد." in said
