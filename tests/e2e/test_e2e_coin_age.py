"""End to end: real users' presses through the sandbox, the real bot process, a real Redis."""

from __future__ import annotations

import random
from typing import Any

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    all_of,
    board_of,
    bot_says,
    button,
    buttons,
    changed_board,
    finished,
    open_lobby,
    play_move,
    play_to_end,
    player_to_act,
    rewrite_game,
    start_game,
    table,
)
from bot.messages import texts
from rules import GAMES
from rules.coin_age.engine import END as END_TURN
from sandbox.control_client import ControlClient


async def test_two_players_play_a_whole_game_to_the_result(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    assert board["photo"] and buttons(board), board
    first_picture = board["photo"]
    board = await play_to_end(sandbox, t, seed=1)
    assert board["photo"] != first_picture  # redrawn after moves
    assert not buttons(board)  # no buttons on a finished board
    messages = await sandbox.messages(t.chat_id)
    result = messages[-1]
    assert "تمام شد" in result["text"]
    for player in t.players:
        assert player["first_name"] in result["text"]
    assert "برنده" in result["text"] or "مساوی" in result["text"]
    assert result["text"].count("=") == 2  # both scores with their breakdown


async def test_presses_by_outsiders_out_of_turn_and_on_stale_buttons_change_nothing(
    sandbox: ControlClient, settle: Settle
) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    data = buttons(board)[0]["data"]
    mover = player_to_act(t, board)
    other = next(p for p in t.players if p is not mover)

    answer = await sandbox.press(t.chat_id, board["message_id"], t.outsider["id"], data)
    assert answer == {**answer, "text": texts.NOT_A_PLAYER, "show_alert": True}
    answer = await sandbox.press(t.chat_id, board["message_id"], other["id"], data)
    assert answer["text"] == texts.NOT_YOUR_TURN and answer["show_alert"]
    await settle()
    assert board_of(await sandbox.messages(t.chat_id))["edits"] == board["edits"]

    # play one real action; the old keyboard's data is then stale
    end_turn = button(board, ":x")["data"]
    answer = await sandbox.press(t.chat_id, board["message_id"], mover["id"], end_turn)
    assert answer["answered"] and not answer["text"]
    after = await changed_board(sandbox, t, board)
    await settle()
    assert board_of(await sandbox.messages(t.chat_id))["edits"] == board["edits"] + 1  # one edit, nothing more
    # the sandbox only lets users press buttons that are on the message, so replay the stale data through
    # a button that still carries it: re-sending the board keeps the version, but the old message is dead.
    await sandbox.send(t.chat_id, t.players[0]["id"], "/board")
    fresh = await changed_board(sandbox, t, after)
    assert fresh["message_id"] != after["message_id"] and buttons(fresh)
    # the old board loses its buttons (when the group's budget has room: a press on them is stale meanwhile)
    await sandbox.wait_for(
        t.chat_id, lambda ms: not buttons(next(m for m in ms if m["message_id"] == after["message_id"]))
    )


async def test_a_stale_version_is_refused(sandbox: ControlClient, settle: Settle) -> None:
    """Two presses of the same first-level menu: the second, after a move, carries an old version."""
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    mover = player_to_act(t, board)
    end_turn = button(board, ":x")["data"]
    first, second = await all_of(
        sandbox.press(t.chat_id, board["message_id"], mover["id"], end_turn),
        sandbox.press(t.chat_id, board["message_id"], mover["id"], end_turn),
    )
    answers = sorted([first["text"] or "", second["text"] or ""])
    assert answers == ["", texts.STALE], answers  # exactly one press applied
    await settle()
    after = board_of(await sandbox.messages(t.chat_id))
    assert after["edits"] == board["edits"] + 1
    assert "نوبت ۱:" in board["caption"] and "نوبت ۱:" not in after["caption"]  # the turn ended once


async def test_a_user_who_never_started_the_bot_gets_the_deep_link_and_joins_after_start(
    sandbox: ControlClient,
    settle: Settle,
) -> None:
    t = await table(sandbox, players=1)
    newcomer = t.newcomer
    lobby = await open_lobby(sandbox, t)
    answer = await sandbox.press(t.chat_id, lobby["message_id"], newcomer["id"], button(lobby, ":join")["data"])
    assert answer["url"] and "start=" in answer["url"], answer
    assert any(b.get("url") == answer["url"] for b in buttons(lobby))
    payload = answer["url"].split("start=", 1)[1]
    joined = await bot_says(sandbox, newcomer["id"], newcomer["id"], f"/start {payload}")
    assert "پیوستید" in joined["text"]
    back = [b["url"] for b in buttons(joined)]  # one press back to the lobby they joined
    assert back == [f"https://t.me/c/{-t.chat_id - 10**12}/{lobby['message_id']}"]
    await settle()
    lobby = next(m for m in await sandbox.messages(t.chat_id) if m["message_id"] == lobby["message_id"])
    assert newcomer["first_name"] in lobby["text"]


async def test_the_bot_killed_mid_game_continues_after_restart(sandbox: ControlClient, harness: Harness) -> None:
    t = await table(sandbox)
    await start_game(sandbox, t)
    rng = random.Random(7)
    for _ in range(6):
        board = await play_move(sandbox, t, rng)
    before = board["caption"]
    harness.restart_bot(kill=True)
    board = board_of(await sandbox.messages(t.chat_id))
    assert board["caption"] == before
    board = await play_to_end(sandbox, t, seed=8)
    assert finished(board)


async def test_wrong_chat_and_permissions(sandbox: ControlClient, settle: Settle) -> None:
    t = await table(sandbox)
    host, guest = t.players
    await sandbox.send(host["id"], host["id"], "/join")  # /new works there too: a game against computers
    await settle()
    assert (await sandbox.messages(host["id"]))[-1]["text"] == texts.GROUP_ONLY
    await open_lobby(sandbox, t)
    await sandbox.send(t.chat_id, guest["id"], "/new coin_age")
    await settle()
    assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.GAME_EXISTS
    await sandbox.send(t.chat_id, t.outsider["id"], "/cancel")
    await settle()
    assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.NOT_ALLOWED
    await sandbox.send(t.chat_id, host["id"], "/cancel")
    await settle()
    assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.CANCELLED


async def test_information_commands_answer_in_persian(sandbox: ControlClient, settle: Settle) -> None:
    t = await table(sandbox)
    for command, expected in (("/games", "عصر سکه‌ها"), ("/rules coin_age", "پایان"), ("/help", "راهنما")):
        await sandbox.send(t.chat_id, t.players[0]["id"], command)
        await settle()
        assert expected in (await sandbox.messages(t.chat_id))[-1]["text"], command
    await sandbox.send(t.chat_id, t.players[1]["id"], "/rules")  # no game running: a button per game
    picker = await sandbox.wait_for(
        t.chat_id, lambda ms: next((m for m in ms if m["from_bot"] and m["text"] == texts.PICK_RULES), None)
    )
    assert len(buttons(picker)) == len(GAMES) and all(b["data"].startswith("r:") for b in buttons(picker))
    answer = await sandbox.press(
        t.chat_id, picker["message_id"], t.outsider["id"], button(picker, "r:splendor")["data"]
    )
    assert answer["answered"] and not answer["text"]
    rules = await sandbox.wait_for(
        t.chat_id, lambda ms: next((m for m in ms if m["message_id"] == picker["message_id"] and m["edits"]), None)
    )
    assert "اسپلندور" in rules["text"] and len(buttons(rules)) == len(GAMES)  # another game's rules: one press


def _next_move(state: Any) -> Any:
    """The next move, written to Redis as the bot does before it draws: what a crash in between leaves."""
    game = GAMES["coin_age"]
    return game.apply(state, game.to_act(state)[0], END_TURN).state


async def test_a_crash_between_write_and_redraw_is_repaired_at_start_up(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    version = await rewrite_game(harness, t.chat_id, _next_move)
    harness.restart_bot(kill=True)
    repaired = await changed_board(sandbox, t, board)
    assert all(f":{version}:" in b["data"] for b in buttons(repaired) if "data" in b)
    assert "نوبت ۱:" not in repaired["caption"]


async def test_a_stale_press_after_a_crash_redraws_the_board(sandbox: ControlClient, harness: Harness) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    version = await rewrite_game(harness, t.chat_id, _next_move)
    mover = player_to_act(t, board)
    answer = await sandbox.press(t.chat_id, board["message_id"], mover["id"], button(board, ":x")["data"])
    assert answer["text"] == texts.STALE
    repaired = await changed_board(sandbox, t, board)
    assert all(f":{version}:" in b["data"] for b in buttons(repaired) if "data" in b)


async def test_the_board_names_players_not_sides_and_says_which_tosses_were_favourable(sandbox: ControlClient) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    rng = random.Random(4)
    for _ in range(12):  # both players act; every caption on the way names players and never a side
        caption = board["caption"]
        assert "شیر" not in caption and "خط" not in caption and "سمت" not in caption, caption
        assert "سکهٔ موافق" in caption or "هیچ سکهٔ موافقی نیامد" in caption
        captures = [b["text"] for b in buttons(board) if "—" in b["text"]]
        assert all(text.endswith(("شما", "حریف")) for text in captures), captures
        board = await play_move(sandbox, t, rng)
        if finished(board):
            break
