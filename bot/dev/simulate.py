"""Scripted users who play the bot through the sandbox's control API only (tests and benchmarks)."""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.messages import texts
from sandbox.control_client import ControlClient

SETTLE_SECONDS = 30.0  # how long a scripted player waits for a decision to be drawn before calling the game stuck

_names = itertools.count(1)


@dataclass
class Table:
    """A group with its players, all of whom have started the bot in private."""

    chat_id: int
    players: list[dict[str, Any]]
    outsider: dict[str, Any]  # a member of the group who is not playing
    newcomer: dict[str, Any]  # a member who never opened a private chat with the bot
    # the game's version is at least this: a private message whose buttons are older is still being redrawn
    known_version: int = 0


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in message.get("buttons") or [] for b in row]


def button(message: dict[str, Any], suffix: str) -> dict[str, Any]:
    for b in buttons(message):
        if b.get("data", "").endswith(suffix):
            return b
    raise AssertionError(f"no button ending in {suffix!r} in {[b.get('data') for b in buttons(message)]}")


def board_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The latest picture the bot sent that is not a private hand: the live board (in a game against computer
    players in a private chat, the person's hand is a picture in the same chat)."""
    board = board_in(messages)
    if board is None:
        raise IndexError("no board among the chat's messages")
    return board


def board_in(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``board_of``, or None when the chat has no board."""
    boards = [
        m
        for m in messages
        if m["from_bot"] and m.get("photo") and not m["deleted"] and f"— {texts.YOUR_HAND}" not in (m["caption"] or "")
    ]
    return boards[-1] if boards else None


async def table(sandbox: ControlClient, players: int = 2) -> Table:
    n = next(_names)
    users = [await sandbox.user(f"بازیکن{n}-{i}", f"p{n}_{i}") for i in range(players)]
    outsider = await sandbox.user(f"تماشاگر{n}")
    newcomer = await sandbox.user(f"تازه‌وارد{n}")
    for user in users:
        await sandbox.send(user["id"], user["id"], "/start")
    members = [u["id"] for u in (*users, outsider, newcomer)]
    group = await sandbox.group(f"گروه {n}", members, [users[0]["id"]])
    await sandbox.idle()
    return Table(group["id"], users, outsider, newcomer)


async def set_timer(sandbox: ControlClient, t: Table, seconds: int) -> None:
    """The group's first player (its admin) sets the turn timer with /settings, as an admin would."""
    admin = t.players[0]
    sent = await sandbox.send(t.chat_id, admin["id"], "/settings")
    menu = await sandbox.wait_for(  # the bot's reply, not a quiet chat: a loaded machine may pause in between
        t.chat_id,
        lambda ms: next((m for m in ms if m["from_bot"] and m["reply_to_message_id"] == sent["message_id"]), None),
        timeout=30,
    )
    assert texts.SETTINGS_TITLE.replace("<b>", "").replace("</b>", "") in menu["text"]
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], button(menu, f"s:t:{seconds}")["data"])
    assert answer["text"] == texts.SETTINGS_SAVED


async def open_lobby(sandbox: ControlClient, t: Table, game: str = "coin_age") -> dict[str, Any]:
    await sandbox.send(t.chat_id, t.players[0]["id"], f"/new {game}")
    await sandbox.idle()
    return (await sandbox.messages(t.chat_id))[-1]


async def start_game(
    sandbox: ControlClient, t: Table, game: str = "coin_age", toggles: Sequence[str] = ()
) -> dict[str, Any]:
    """Open a lobby, switch the ``toggles`` options by button, have everyone join by button, start it;
    return the board message."""
    lobby = await open_lobby(sandbox, t, game)
    for field in toggles:
        toggle = button(lobby, f":{field}")["data"]
        answer = await sandbox.press(t.chat_id, lobby["message_id"], t.players[0]["id"], toggle)
        assert answer["answered"], answer
        lobby = await _redrawn(sandbox, t.chat_id, lobby)
    for player in t.players[1:]:
        answer = await sandbox.press(t.chat_id, lobby["message_id"], player["id"], button(lobby, ":join")["data"])
        assert answer["answered"], answer
        lobby = await _redrawn(sandbox, t.chat_id, lobby)
    answer = await sandbox.press(t.chat_id, lobby["message_id"], t.players[0]["id"], button(lobby, ":start")["data"])
    assert answer["answered"] and not answer["text"], answer
    boards = await sandbox.wait_for(t.chat_id, lambda ms: [m for m in ms if m["from_bot"] and m.get("photo")])
    return dict(boards[-1])


async def reply_to(
    sandbox: ControlClient, chat_id: int, user_id: int, text: str, timeout: float = 30, **extra: Any
) -> str:
    """Send ``text`` (a command; ``extra`` as for ``ControlClient.send``) and return the text of the bot's reply
    to it. Waits for that reply rather than for the chat to go quiet: a group that had many messages this
    minute gets it only when its flood budget allows, seconds later, while the chat looks quiet."""
    sent = await sandbox.send(chat_id, user_id, text, **extra)

    def reply(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in messages if m["from_bot"] and m["reply_to_message_id"] == sent["message_id"]), None)

    found: dict[str, Any] = await sandbox.wait_for(chat_id, reply, timeout=timeout)
    return str(found["text"] or "")


async def _redrawn(sandbox: ControlClient, chat_id: int, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` once the bot has redrawn its buttons (they carry the version, so a change always shows):
    a quiet moment is no sign, as the drawer may still be rendering."""

    def changed(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = next(m for m in messages if m["message_id"] == message["message_id"])
        return now if now["buttons"] != message["buttons"] else None

    result: dict[str, Any] = await sandbox.wait_for(chat_id, changed)
    return result


def player_to_act(t: Table, board: dict[str, Any]) -> dict[str, Any]:
    """The player mentioned after «نوبت» in the caption (the bot links the mention to the user)."""
    caption = board["caption"] or ""
    last = caption.rsplit("👈", 1)[-1]
    for player in t.players:
        if player["first_name"] in last:
            return player
    raise AssertionError(f"nobody to act in: {caption!r}")


def choose(message: dict[str, Any], rng: random.Random) -> str:
    """A random but purposeful player: prefer actions over ending the turn or passing, open menus to find
    them. Works on the group's board (``g:``/``n:``) and on a private hand (``h:``/``k:``)."""
    options: list[str] = [b["data"] for b in buttons(message) if "data" in b]
    finals = [d for d in options if d.startswith(("g:", "h:")) and d.endswith(":x")]
    actions = [d for d in options if d.startswith(("g:", "h:")) and d not in finals]
    menus: list[str] = [
        b["data"] for b in buttons(message) if b.get("data", "").startswith(("n:", "k:")) and "بازگشت" not in b["text"]
    ]
    if actions and (not menus or rng.random() < 0.7) and (not finals or rng.random() < 0.85):
        return rng.choice(actions)
    if menus and (not finals or rng.random() < 0.85):
        return rng.choice(menus)
    return rng.choice(finals or actions or menus)


def _playable(message: dict[str, Any] | None, private: bool) -> bool:
    kinds = ("h:", "k:") if private else ("g:", "n:")
    return message is not None and any(b.get("data", "").startswith(kinds) for b in buttons(message))


def _version(message: dict[str, Any]) -> int:
    """The game version a message's buttons were drawn for (every game button's data carries it third)."""
    data = [b["data"] for b in buttons(message) if b.get("data", "").startswith(("g:", "n:", "h:", "k:"))]
    return max((int(d.split(":")[2]) for d in data), default=0)


def _pressed(t: Table, data: str) -> None:
    """A move was played at the version in ``data``: the game is past it (a menu level changes nothing)."""
    if data.startswith(("g:", "h:")):
        t.known_version = max(t.known_version, int(data.split(":")[2]) + 1)


async def hand_of(sandbox: ControlClient, player: dict[str, Any]) -> dict[str, Any] | None:
    """The player's latest private picture from the bot (their hand), if any."""
    pictures = [m for m in await sandbox.messages(player["id"]) if m["from_bot"] and m.get("photo")]
    return pictures[-1] if pictures else None


async def play_move(sandbox: ControlClient, t: Table, rng: random.Random) -> dict[str, Any]:
    """Press one button as a player who has a decision to make, on the group's board or in their private
    chat, and wait until the bot has redrawn what was pressed; return the group's board then."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        board = board_of(await sandbox.messages(t.chat_id))
        if _playable(board, private=False):
            t.known_version = max(t.known_version, _version(board))
        private = []
        for player in t.players:
            hand = await hand_of(sandbox, player)
            if hand is not None and _playable(hand, private=True) and _version(hand) >= t.known_version:
                private.append((player, hand))
        if _playable(board, private=False) and (not private or rng.random() < 0.7):
            player = player_to_act(t, board)
            data = choose(board, rng)
            answer = await sandbox.press(t.chat_id, board["message_id"], player["id"], data)
            assert answer["answered"] and not answer["text"], (data, answer)
            _pressed(t, data)
            board = await changed_board(sandbox, t, board, data)
            if private:  # private messages are redrawn after the board: let them settle
                await sandbox.idle(quiet=0.1)
            return board
        if private:
            player, hand = rng.choice(private)
            data = choose(hand, rng)
            answer = await sandbox.press(player["id"], hand["message_id"], player["id"], data)
            assert answer["answered"] and not answer["text"], (data, answer)
            _pressed(t, data)
            await sandbox.wait_for(player["id"], functools.partial(_moved_on, message=hand))
            await sandbox.idle(quiet=0.1)
            return board_of(await sandbox.messages(t.chat_id))
        if time.monotonic() > deadline:
            raise AssertionError(f"nobody can act: {board['caption']!r}")
        await sandbox.idle(quiet=0.2)  # the private messages may still be on their way


def _moved_on(messages: list[dict[str, Any]], message: dict[str, Any]) -> bool:
    now = next(m for m in messages if m["message_id"] == message["message_id"])
    newer = any(m["from_bot"] and m.get("photo") and m["message_id"] > message["message_id"] for m in messages)
    return bool(now["edits"] > message["edits"] or newer)


async def changed_board(
    sandbox: ControlClient, t: Table, board: dict[str, Any], pressed: str | None = None
) -> dict[str, Any]:
    """Wait until the bot has edited (or replaced) ``board`` and, if ``pressed`` is the data of a press on it,
    until the board ``shows`` that press; return the board as it is then."""

    def changed(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = board_of(messages)
        moved_on = now["message_id"] != board["message_id"] or now["edits"] > board["edits"]
        return now if moved_on and (pressed is None or shows(now, pressed)) else None

    result: dict[str, Any] = await sandbox.wait_for(t.chat_id, changed)
    return result


def shows(board: dict[str, Any], data: str) -> bool:
    """Whether the group's ``board`` shows what pressing ``data`` did: a move, a newer version (or no choice
    left in the group); a menu level, buttons under the pressed level (or a newer version: the game moved on).
    Any edit is not enough: a repair's redraw, or a level that had to wait for the group's budget, may come
    between a press and what it shows."""
    kind, _, version, pressed = data.split(":", 3)
    if _version(board) > int(version) or not _playable(board, private=False):
        return True
    shown = [b["data"].split(":", 3) for b in buttons(board) if b.get("data", "").startswith(("g:", "n:"))]
    # below the level: its moves and levels; or the level's own move (a confirmation), never the level's button
    return kind == "n" and any(
        code.startswith(pressed + ".") or (what == "g" and code == pressed) for what, _, _, code in shown
    )


async def pressed_until(
    sandbox: ControlClient,
    t: Table,
    board: dict[str, Any],
    ready: Callable[[dict[str, Any]], bool],
    move: Callable[[dict[str, Any]], str],
    tries: int,
) -> dict[str, Any]:
    """The board once ``ready`` holds for it: until then the player in turn presses ``move(board)`` (the data
    of a button on it) and the board is waited for, at most ``tries`` times. For a test that needs a turn
    some deals do not start with."""
    for _ in range(tries):
        if ready(board):
            return board
        data = move(board)
        answer = await sandbox.press(t.chat_id, board["message_id"], player_to_act(t, board)["id"], data)
        assert answer["answered"] and not answer["text"], (data, answer)
        board = await changed_board(sandbox, t, board, data)
    raise AssertionError(f"not ready after {tries} moves: {board['caption']!r}")


def tiles_left(board: dict[str, Any]) -> int:
    """A قلعه رودخان board's count of tiles left to draw, from its caption (``int`` reads Persian digits)."""
    found = re.search(r"کاشی‌های مانده: ([۰-۹]+)", board["caption"] or "")
    assert found, board["caption"]
    return int(found[1])


def finished(board: dict[str, Any]) -> bool:
    return "پایان بازی" in (board["caption"] or "")


async def play_to_end(sandbox: ControlClient, t: Table, seed: int, limit: int = 600) -> dict[str, Any]:
    """Play random moves until the board shows the end and the result message is out; return the board."""
    rng = random.Random(seed)
    for _ in range(limit):
        board = await play_move(sandbox, t, rng)
        if finished(board):
            await sandbox.wait_for(t.chat_id, lambda ms: "تمام شد" in (ms[-1]["text"] or ""))
            return board
    raise AssertionError("the game did not end")


# Paced tables: many at once, every step waited for on screen (the bot may be pacing its messages) ------------


async def until(
    client: ControlClient,
    chat_id: int,
    found: Callable[[list[dict[str, Any]]], Any],
    wait: float = 120.0,
    poll: float = 0.25,
) -> Any:
    """Look at a chat every ``poll`` seconds (gently: many of these run at once) until ``found`` returns
    something; TimeoutError after ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while not (result := found(await client.messages(chat_id))):
        if time.monotonic() > deadline:
            raise TimeoutError(f"chat {chat_id}: not there after {wait:.0f} s")
        await asyncio.sleep(poll)
    return result


async def seat(
    client: ControlClient,
    n: int,
    handle: str,
    names: tuple[str, str, str] = ("بازیکن", "تماشاگر", "گروه"),
    players: int = 2,
) -> Table:
    """``players`` people who started the bot, and a member who does not play, in a new group; ``names`` are
    the players', the onlooker's and the group's name stems, ``handle`` the usernames' stem."""
    player, onlooker, group_name = names
    people = [await client.user(f"{player}{n}-{i}", f"{handle}{n}_{i}") for i in range(players)]
    outsider = await client.user(f"{onlooker}{n}")
    for user in people:
        await client.send(user["id"], user["id"], "/start")
    for user in people:
        await until(client, user["id"], lambda ms: any(m["from_bot"] for m in ms))
    group = await client.group(f"{group_name} {n}", [p["id"] for p in (*people, outsider)], [people[0]["id"]])
    return Table(group["id"], people, outsider, outsider)


async def start_on_screen(client: ControlClient, t: Table, game: str, players: int | None = None) -> dict[str, Any]:
    """Lobby, join (the table's first ``players``, default all) and start by button, each step waited for on
    screen; returns the board."""
    host, *guests = t.players[: players or len(t.players)]
    await client.send(t.chat_id, host["id"], f"/new {game}")

    def lobby_with(name: str | None) -> Callable[[list[dict[str, Any]]], dict[str, Any] | None]:
        def find(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
            lobbies = [
                m for m in messages if m["from_bot"] and any(b.get("data", "").endswith(":join") for b in buttons(m))
            ]
            ready = [m for m in lobbies if name is None or name in (m["text"] or "")]
            return ready[-1] if ready else None

        return find

    lobby = await until(client, t.chat_id, lobby_with(None))
    for guest in guests:
        answer = await client.press(t.chat_id, lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
        assert answer["text"] == texts.JOINED_ALERT, answer
        lobby = await until(client, t.chat_id, lobby_with(guest["first_name"]))
    answer = await client.press(t.chat_id, lobby["message_id"], host["id"], button(lobby, ":start")["data"])
    assert answer["answered"] and not answer["text"], answer
    boards = await until(client, t.chat_id, lambda ms: [m for m in ms if m["from_bot"] and m.get("photo")])
    return dict(boards[-1])


def most_in_a_window(times: list[float], seconds: float) -> int:
    """The most events in any ``seconds``-long window (how Telegram and the sandbox count a limit)."""
    times, most, first = sorted(times), 0, 0
    for last, t in enumerate(times):
        while times[first] <= t - seconds:
            first += 1
        most = max(most, last - first + 1)
    return most


# Computer players ---------------------------------------------------------------------------------------------


async def set_computer_pause(sandbox: ControlClient, t: Table, seconds: int) -> None:
    """The group's admin sets the computer players' pause with /settings, as an admin would."""
    await choose_setting(sandbox, t, f"s:c:{seconds}")


async def choose_setting(sandbox: ControlClient, t: Table, data: str) -> None:
    """The group's admin presses the /settings button with this data (e.g. ``s:x:easy``: a computer player
    replaces a player removed for time-outs)."""
    admin = t.players[0]
    sent = await sandbox.send(t.chat_id, admin["id"], "/settings")
    menu = await sandbox.wait_for(
        t.chat_id,
        lambda ms: next((m for m in ms if m["from_bot"] and m["reply_to_message_id"] == sent["message_id"]), None),
        timeout=30,
    )
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], button(menu, data)["data"])
    assert answer["text"] == texts.SETTINGS_SAVED


def lobby_of(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The latest lobby message (the one with the start button)."""
    lobbies = [m for m in messages if m["from_bot"] and any(b.get("data", "").endswith(":start") for b in buttons(m))]
    return lobbies[-1] if lobbies else None


async def start_in_topic(
    sandbox: ControlClient,
    chat_id: int,
    thread: int,
    host: dict[str, Any],
    guest: dict[str, Any],
    game: str = "coin_age",
) -> None:
    """In a forum topic: the host opens a lobby, the guest joins by button, the host starts it; returns once the
    board is out."""
    await sandbox.send(chat_id, host["id"], f"/new {game}", message_thread_id=thread)
    lobby = await sandbox.wait_for(chat_id, lobby_of)
    await sandbox.press(chat_id, lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    await sandbox.idle()
    lobby = next(m for m in await sandbox.messages(chat_id) if m["message_id"] == lobby["message_id"])
    await sandbox.press(chat_id, lobby["message_id"], host["id"], button(lobby, ":start")["data"])
    await sandbox.wait_for(chat_id, lambda ms: next((m for m in ms if m["from_bot"] and m["photo"]), None))


def lobby_showing(text: str, present: bool = True) -> Callable[[list[dict[str, Any]]], dict[str, Any] | None]:
    """A ``wait_for`` predicate: the latest lobby, once its text shows ``text`` (or, ``present`` False, no
    longer does)."""

    def find(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        lobby = lobby_of(messages)
        return lobby if lobby is not None and (text in (lobby["text"] or "")) == present else None

    return find


async def add_computer(sandbox: ControlClient, chat_id: int, host: dict[str, Any], level: str) -> dict[str, Any]:
    """The lobby's host presses «➕ بازیکن رایانه‌ای», then the level; returns the lobby once it lists one more
    computer player."""
    lobby = await sandbox.wait_for(chat_id, lobby_of)
    before = (lobby["text"] or "").count(texts.COMPUTER_MARK)
    answer = await sandbox.press(chat_id, lobby["message_id"], host["id"], button(lobby, ":add")["data"])
    assert answer["answered"] and not answer["text"], answer

    def levels_shown(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = next(m for m in messages if m["message_id"] == lobby["message_id"])
        return now if any(b.get("data", "").endswith(f":add:{level}") for b in buttons(now)) else None

    menu = await sandbox.wait_for(chat_id, levels_shown)
    answer = await sandbox.press(chat_id, menu["message_id"], host["id"], button(menu, f":add:{level}")["data"])
    assert answer["answered"] and answer["text"], answer

    def one_more(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = lobby_of(messages)
        return now if now is not None and (now["text"] or "").count(texts.COMPUTER_MARK) > before else None

    found: dict[str, Any] = await sandbox.wait_for(chat_id, one_more)
    return found


async def start_with_computers(
    sandbox: ControlClient,
    t: Table,
    game: str,
    levels: Sequence[str],
    private: bool = False,
    lobby_opened: bool = False,
) -> None:
    """Open a lobby (in the group, or in the first player's private chat; unless ``lobby_opened``), have the
    table's other players join (in a group), add a computer player per entry of ``levels`` and start."""
    host = t.players[0]
    chat_id = host["id"] if private else t.chat_id
    if not lobby_opened:
        await sandbox.send(chat_id, host["id"], f"/new {game}")
    lobby = await sandbox.wait_for(chat_id, lobby_of)
    for player in [] if private else t.players[1:]:
        lobby = await sandbox.wait_for(chat_id, lobby_of)
        answer = await sandbox.press(chat_id, lobby["message_id"], player["id"], button(lobby, ":join")["data"])
        assert answer["text"] == texts.JOINED_ALERT, answer
        lobby = await sandbox.wait_for(chat_id, lobby_showing(player["first_name"]))
    for level in levels:
        lobby = await add_computer(sandbox, chat_id, host, level)
    answer = await sandbox.press(chat_id, lobby["message_id"], host["id"], button(lobby, ":start")["data"])
    assert answer["answered"] and not answer["text"], answer
    await sandbox.wait_for(chat_id, lambda ms: [m for m in ms if m["from_bot"] and m.get("photo")])


async def someone_can_act(sandbox: ControlClient, t: Table, timeout: float = 60) -> dict[str, Any]:
    """Wait while computer players move: until a person has a button to press (on the group's board or in a
    hand) or the game is over; return the board then."""
    deadline = time.monotonic() + timeout
    while True:
        board = board_in(await sandbox.messages(t.chat_id))
        if board is not None and (finished(board) or _playable(board, private=False)):
            return board
        for player in t.players:
            if _playable(await hand_of(sandbox, player), private=True):
                assert board is not None
                return board
        if time.monotonic() > deadline:
            raise TimeoutError(f"nobody could act in chat {t.chat_id} within {timeout} s")
        await asyncio.sleep(0.1)
