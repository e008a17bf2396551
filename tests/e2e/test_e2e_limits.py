"""End to end under Telegram's flood rules (the sandbox's defaults, its clock ten times as fast but for the
presses that must be answered at once, which run on Telegram's own): a group that presses faster than its
budget gets every answer at once and no 429, its board catches up with the newest menu, and a press answered
too late still has its move drawn."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    Table,
    board_of,
    buttons,
    changed_board,
    most_in_a_window,
    player_to_act,
    pressed_until,
    seat,
    start_game,
    start_on_screen,
    table,
)
from bot.plumbing.pacing import Kind, kind_of
from bot.plumbing.stop_points import STOP_AT
from sandbox.control_client import ControlClient

PRESSES = 30  # menu levels opened in a row: more than the group's 20 edits a minute


async def _a_board_with_a_menu(sandbox: ControlClient, t: Table, board: dict[str, Any]) -> dict[str, Any]:
    """The board once the player in turn has a menu level to open: a toss with no favourable coin (1 in 16)
    leaves only «end the turn», which the player presses."""

    def has_menu(b: dict[str, Any]) -> bool:
        return any(button.get("data", "").startswith("n:") for button in buttons(b))

    def end(b: dict[str, Any]) -> str:
        return next(button["data"] for button in buttons(b) if button.get("data", "").endswith(":x"))

    return await pressed_until(sandbox, t, board, has_menu, end, tries=10)


async def test_presses_faster_than_the_budget_are_answered_at_once_and_meet_no_429(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    """On Telegram's own clock: a press answered only once the group's budget has room (up to a minute) would
    miss the 15 s Telegram waits for an answer, as it does at this scale, and no busy machine makes the bot's
    own work last that long."""
    session_scale = harness.time_scale
    harness.set_time_scale(1.0)
    try:
        await _press_faster_than_the_budget(sandbox, settle, harness)
    finally:
        harness.set_time_scale(session_scale)


async def _press_faster_than_the_budget(sandbox: ControlClient, settle: Settle, harness: Harness) -> None:
    t = await table(sandbox)
    board = await _a_board_with_a_menu(sandbox, t, await start_game(sandbox, t))
    mover = player_to_act(t, board)
    menu = next(b["data"] for b in buttons(board) if b.get("data", "").startswith("n:"))
    start = (await sandbox.log())["next"]
    answers: list[dict[str, Any]] = []
    while len(answers) < PRESSES:  # open the menu and go back, as fast as the answers come, on what is shown
        board = board_of(await sandbox.messages(t.chat_id))
        shown = [b for b in buttons(board) if b.get("data")]
        back = [b["data"] for b in shown if "بازگشت" in b["text"]]
        data = menu if any(b["data"] == menu for b in shown) else back[0]
        try:
            answers.append(await sandbox.press(t.chat_id, board["message_id"], mover["id"], data))
        except RuntimeError as error:  # the deferred edit came between the look and the press
            assert "has no button" in str(error)
    assert all(a["answered"] and not a["text"] for a in answers), answers

    def showing(messages: list[dict[str, Any]]) -> bool:  # the level the last press opened
        data = [b.get("data", "") for b in buttons(board_of(messages))]
        return (menu in data) == (data_pressed_last != menu)

    data_pressed_last = data
    await sandbox.wait_for(t.chat_id, showing)
    await settle()
    assert showing(await sandbox.messages(t.chat_id))
    items = (await sandbox.log(after=start))["items"]
    assert not [i for i in items if i["status"] == 429]
    edits = [i["t"] for i in items if i["chat_id"] == t.chat_id and kind_of(i["method"]) is not Kind.OTHER]
    assert most_in_a_window(edits, 60.0 * harness.time_scale) <= 20


async def test_a_press_answered_too_late_still_has_its_move_drawn(sandbox: ControlClient, harness: Harness) -> None:
    t = await table(sandbox)
    board = await start_game(sandbox, t)
    mover = player_to_act(t, board)
    move = next(b["data"] for b in buttons(board) if b.get("data", "").startswith("g:"))
    harness.restart_bot(kill=False, env={STOP_AT: "move-saved"})
    await sandbox.config(answer_window=2.0)  # Telegram's 15 s, shortened: the test need not wait that long
    try:
        press = asyncio.create_task(sandbox.press(t.chat_id, board["message_id"], mover["id"], move))
        await asyncio.to_thread(harness.bot.wait_stopped)  # the move is saved, the answer not yet sent
        answer = await press  # the press gives up when the query is too old to be answered
        assert answer["answered"] is False
        start = (await sandbox.log())["next"]
        assert harness.bot.process is not None
        harness.bot.process.send_signal(signal.SIGCONT)
        redrawn = await changed_board(sandbox, t, board)
        assert redrawn["caption"] != board["caption"]  # the saved move is on the board
        refused = [i for i in (await sandbox.log(after=start))["items"] if i["method"] == "answerCallbackQuery"]
        assert refused and refused[0]["status"] == 400  # Telegram refused the late answer
    finally:
        await sandbox.config(answer_window=15.0)
        harness.restart_bot(kill=False, env={STOP_AT: None})


async def test_a_game_of_four_starts_although_its_lobby_used_the_burst(
    sandbox: ControlClient, harness: Harness
) -> None:
    """A lobby, three joins and the start are more than a group's five at once: the start's edit of the
    lobby text must wait, so the board is posted as a new message when the budget has room, without
    retrying (and paying for) an edit of the lobby's text into a picture that can never work."""
    t = await seat(sandbox, 1, "four", players=4)
    start = (await sandbox.log())["next"]
    board = await start_on_screen(sandbox, t, "carcassonne")  # it starts: the board comes, however late
    assert buttons(board)
    items = (await sandbox.log(after=start))["items"]
    assert not [i for i in items if i["status"] == 429]
    failed = [i for i in items if i["method"] == "editMessageMedia" and i["status"] == 400]
    assert len(failed) <= 1, failed  # the lobby's text is tried once at most
