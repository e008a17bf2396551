"""Scripted users who play the bot through the sandbox's control API only (tests and benchmarks)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from bot.dev.harness import Harness
from bot.messages import texts
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.store import GameRecord, Store
from rules import GAMES
from sandbox.control_client import WAIT_SECONDS, ControlClient

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


def now_of(messages: list[dict[str, Any]], message: dict[str, Any]) -> dict[str, Any]:
    """``message`` as it is now, among a chat's ``messages``."""
    return next(m for m in messages if m["message_id"] == message["message_id"])


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
        sent = await sandbox.send(user["id"], user["id"], "/start")
        await sandbox.wait_for(user["id"], first_from_bot(after=sent))  # the welcome: the bot can write to them
    members = [u["id"] for u in (*users, outsider, newcomer)]
    group = await sandbox.group(f"گروه {n}", members, [users[0]["id"]])
    return Table(group["id"], users, outsider, newcomer)


T = TypeVar("T")


async def eventually(look: Callable[[], Awaitable[T | None]], what: str, timeout: float = WAIT_SECONDS) -> T:
    """``look``'s first truthy answer, asked again and again: for a state no sandbox change announces (a bot
    process stopped at a stop point, a record in Redis). ``timeout`` only bounds a wait that never ends."""
    deadline = time.monotonic() + timeout
    while not (found := await look()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.05)
    return found


async def all_of(*coroutines: Awaitable[T]) -> list[T]:
    """The coroutines run at once, their results in order. If one fails, the others are cancelled and awaited
    (asyncio.gather would leave them running into whatever comes next: a test that failed would leave its
    requests to surface, their sockets closed with the client, as errors of the test after it)."""
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(_awaited(c)) for c in coroutines]
    return [task.result() for task in tasks]


async def _awaited(awaitable: Awaitable[T]) -> T:
    return await awaitable


@contextlib.asynccontextmanager
async def leaving_no_task() -> AsyncIterator[None]:
    """Tasks started in the block that still run when it ends (a test failed, or timed out, while they ran) are
    cancelled and awaited there, before the client they use is closed: left running, they would fail later,
    their sockets unclosed, as errors of whatever test came next."""
    before = asyncio.all_tasks()
    try:
        yield
    finally:
        left = asyncio.all_tasks() - before - {asyncio.current_task()}
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)


async def let_time_pass(harness: Harness, telegram_seconds: float) -> None:
    """Let ``telegram_seconds`` of Telegram's (scaled) clock pass: a step of a scenario that needs time itself
    (a flood budget filling again), never a wait for something the bot does."""
    await asyncio.sleep(telegram_seconds * harness.time_scale)


Settle = Callable[[], Awaitable[None]]  # ``settled`` bound to a sandbox and a harness (the e2e tests' ``settle``)


async def settled(sandbox: ControlClient, harness: Harness, timeout: float = WAIT_SECONDS) -> None:
    """Until the system has nothing left to do: the sandbox holds no update the bot has not taken in and no Bot
    API call is in flight, and no bot process has anything in hand (bot/plumbing/activity.py). The sandbox is
    read before and after the bots: had anything happened in between, its change counter moved and the look
    starts again. A slow machine makes this wait longer, never end early. A deadline that comes due later (a
    turn timer) is not waited for: a test that needs one waits for what it does."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        while True:
            before = await sandbox.state()
            if not before["updates_pending"] and not before["calls_in_flight"]:
                busy = [await bot.in_hand(http) for bot in harness.bots]
                if not any(busy) and (await sandbox.state())["version"] == before["version"]:
                    return
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the bot still had work in hand after {timeout} s")
            # the next look when the sandbox sees something happen, or soon: the bot may be busy without a call
            await sandbox.changes(after=before["version"], wait=min(left, 0.2))


async def game_record(harness: Harness, chat_id: int, thread_id: int | None = None) -> GameRecord | None:
    """The chat's game as the bot last wrote it: a look into Redis, where every change is written before it is
    drawn or answered (so a refused press that changed nothing leaves it as it was)."""
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        return await store.load(chat_id, thread_id)
    finally:
        await store.close()


async def rewrite_game(harness: Harness, chat_id: int, change: Callable[[Any], Any]) -> int:
    """Write the chat's game into Redis as ``change`` makes its state (the state in, the new state out), as if the
    game had gone so behind the bot's back: a move written before a crash, a position hard to reach by presses.
    Returns the record's new version."""
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        record = await store.load(chat_id)
        assert record is not None
        state = GAMES[record.game_id].state_model.model_validate(record.state)
        record.state = change(state).model_dump(mode="json")
        return (await store.save(record, expected=record.version)).version
    finally:
        await store.close()


def first_from_bot(
    after: dict[str, Any], match: Callable[[dict[str, Any]], object] = lambda m: True
) -> Callable[[list[dict[str, Any]]], dict[str, Any] | None]:
    """A ``wait_for`` predicate: the first message the bot sent after the message ``after`` (a user's
    command) that ``match``es."""

    def find(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in messages if m["from_bot"] and m["message_id"] > after["message_id"] and match(m)), None)

    return find


async def bot_says(
    sandbox: ControlClient,
    chat_id: int,
    user_id: int,
    text: str,
    match: Callable[[dict[str, Any]], object] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Send ``text`` (``extra`` as for ``ControlClient.send``) and return the bot's answer: its first message
    after it that ``match``es; by default, in a group, the one that quotes it (other messages may come
    between), in a private chat the next (the bot quotes nothing there). Waited for, never a quiet moment: a
    group's answer may wait seconds for its flood budget."""
    sent = await sandbox.send(chat_id, user_id, text, **extra)
    if match is None:
        match = (lambda m: m["reply_to_message_id"] == sent["message_id"]) if chat_id < 0 else (lambda m: True)
    found: dict[str, Any] = await sandbox.wait_for(chat_id, first_from_bot(sent, match))
    return found


async def set_timer(sandbox: ControlClient, t: Table, seconds: int) -> None:
    """The group's first player (its admin) sets the turn timer with /settings, as an admin would."""
    admin = t.players[0]
    menu = await bot_says(sandbox, t.chat_id, admin["id"], "/settings")
    assert texts.SETTINGS_TITLE.replace("<b>", "").replace("</b>", "") in menu["text"]
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], button(menu, f"s:t:{seconds}")["data"])
    assert answer["text"] == texts.SETTINGS_SAVED


async def open_lobby(sandbox: ControlClient, t: Table, game: str = "coin_age") -> dict[str, Any]:
    """The table's first player opens a lobby with ``/new <game>``; returns the lobby message."""
    return await bot_says(sandbox, t.chat_id, t.players[0]["id"], f"/new {game}", is_lobby)


def is_lobby(message: dict[str, Any]) -> bool:
    return any(b.get("data", "").endswith(":start") for b in buttons(message))


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


async def reply_to(sandbox: ControlClient, chat_id: int, user_id: int, text: str, **extra: Any) -> str:
    """The text of the bot's answer to ``text`` (``bot_says``)."""
    return str((await bot_says(sandbox, chat_id, user_id, text, **extra))["text"] or "")


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
    named = players_to_act(t, board)
    assert named, f"nobody to act in: {board['caption']!r}"
    return named[0]


def players_to_act(t: Table, board: dict[str, Any]) -> list[dict[str, Any]]:
    """Every player mentioned after «نوبت» in the caption: several while they decide at once."""
    caption = board["caption"] or ""
    if "👈" not in caption:
        return []
    last = caption.rsplit("👈", 1)[-1]
    return [player for player in t.players if player["first_name"] in last]


async def hands_to_press(sandbox: ControlClient, t: Table, board: dict[str, Any]) -> list[tuple[dict[str, Any], Any]]:
    """The hands with buttons of the players the board names to act: a hand's buttons stand between turns
    (bot/messages/hands.py), so only the board says whose may be pressed now."""
    found = []
    for player in players_to_act(t, board):
        hand = await hand_of(sandbox, player)
        if hand is not None and _playable(hand, private=True):
            found.append((player, hand))
    return found


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


def drawn_version(message: dict[str, Any]) -> int:
    """The game version a message's buttons were drawn for (every game button's data carries it third)."""
    data = [b["data"] for b in buttons(message) if b.get("data", "").startswith(("g:", "n:", "h:", "k:"))]
    return max((int(d.split(":")[2]) for d in data), default=0)


def _pressed(t: Table, data: str) -> None:
    """A move was played from the board at the version in ``data``: the game is past it (a menu level changes
    nothing; a hand's data carry the hand's version, not the game's)."""
    if data.startswith("g:"):
        t.known_version = max(t.known_version, int(data.split(":")[2]) + 1)


async def hand_of(sandbox: ControlClient, player: dict[str, Any]) -> dict[str, Any] | None:
    """The player's latest private picture from the bot (their hand), if any."""
    pictures = [m for m in await sandbox.messages(player["id"]) if m["from_bot"] and m.get("photo")]
    return pictures[-1] if pictures else None


async def play_move(sandbox: ControlClient, t: Table, rng: random.Random) -> dict[str, Any]:
    """Press one button as a player who has a decision to make, on the group's board or in their private
    chat, and wait until the bot has redrawn what was pressed; return the group's board then."""
    deadline = time.monotonic() + WAIT_SECONDS
    seen = await sandbox.changes()
    while True:
        board = board_of(await sandbox.messages(t.chat_id))
        if finished(board):
            return board
        on_board = _playable(board, private=False) and drawn_version(board) >= t.known_version
        if on_board:
            t.known_version = drawn_version(board)
        current = on_board or not _playable(board, private=False)  # a board with no buttons shows no version
        private = await hands_to_press(sandbox, t, board) if current else []
        if on_board and (not private or rng.random() < 0.7):
            player = player_to_act(t, board)
            data = choose(board, rng)
            answer = await sandbox.press(t.chat_id, board["message_id"], player["id"], data)
            assert answer["answered"] and not answer["text"], (data, answer)
            _pressed(t, data)
            return await changed_board(sandbox, t, board, data)
        if private:
            player, hand = rng.choice(private)
            data = choose(hand, rng)
            try:
                answer = await sandbox.press(player["id"], hand["message_id"], player["id"], data)
            except RuntimeError as exc:  # redrawn between the look and the press (the sandbox refuses, as a
                if "has no button" not in str(exc):  # phone would: the button is gone): look again
                    raise
                continue
            assert answer["answered"], (data, answer)
            if answer["text"] == texts.STALE:  # its codes changed with this move: the drawer is redrawing it
                await sandbox.wait_for(player["id"], functools.partial(_moved_on, message=hand))
                continue
            if answer["text"] == texts.NOT_NOW:  # a standing button: the choice now is on the board
                continue
            assert not answer["text"], (data, answer)
            if data.startswith("h:"):  # a move: the board shows it (the hand may show the same as before)
                return await changed_board(sandbox, t, board)
            await sandbox.wait_for(player["id"], functools.partial(_moved_on, message=hand))  # a menu level
            return board_of(await sandbox.messages(t.chat_id))
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"nobody can act: {board['caption']!r}")
        seen = await sandbox.changes(after=seen, wait=min(left, 5.0))  # a board or a hand is on its way


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


async def board_past(sandbox: ControlClient, t: Table, version: int) -> dict[str, Any]:
    """Wait until the group's board is drawn for a version after ``version`` (a move, a time-out): a repair's
    redraw of the same version, after a restart say, is not what is awaited."""

    def past(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        now = board_of(messages)
        return now if drawn_version(now) > version else None

    result: dict[str, Any] = await sandbox.wait_for(t.chat_id, past)
    return result


def shows(board: dict[str, Any], data: str) -> bool:
    """Whether the group's ``board`` shows what pressing ``data`` did: a move, a newer version (or no choice
    left in the group); a menu level, buttons under the pressed level (or a newer version: the game moved on).
    Any edit is not enough: a repair's redraw, or a level that had to wait for the group's budget, may come
    between a press and what it shows."""
    kind, _, version, pressed = data.split(":", 3)
    if drawn_version(board) > int(version) or not _playable(board, private=False):
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


async def press_a_move(sandbox: ControlClient, t: Table, rng: random.Random) -> None:
    """Press an action (no menu) for whoever has one, on the board or in a hand, and wait only for its answer
    (for a test or benchmark that stops the bot before it has redrawn everything)."""
    board = board_of(await sandbox.messages(t.chat_id))
    places = (
        [(t.chat_id, board, player_to_act(t, board))]
        if any(b.get("data", "").startswith("g:") for b in buttons(board))
        else []
    )
    for player, hand in await hands_to_press(sandbox, t, board):
        if any(b.get("data", "").startswith("h:") for b in buttons(hand)):
            places.append((player["id"], hand, player))
    chat_id, message, player = rng.choice(places)
    actions = [b["data"] for b in buttons(message) if b.get("data", "").startswith(("g:", "h:"))]
    answer = await sandbox.press(chat_id, message["message_id"], player["id"], rng.choice(actions))
    assert answer["answered"] and not answer["text"], answer


HAND_CALLS = {"sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"}


async def hands_redrawn(
    sandbox: ControlClient, harness: Harness, t: Table, after: int, timeout: float = WAIT_SECONDS
) -> float:
    """Wait until the bot has brought every player's private message up to the game's version since log entry
    ``after``: drawn again (a call to their chat), or found showing what it would show anyway (their stored hand
    is at the game's version with no call: the move changed nothing they see). Return when the last of those
    calls ended (``time.monotonic``; when none was needed, when that was found). Waiting for a quiet chat would
    not do: a drawer waiting for the group's flood budget makes no call for seconds before it draws."""
    players = {p["id"] for p in t.players}
    seen: dict[int, float] = {}
    deadline = time.monotonic() + timeout
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        while True:
            record = await store.load(t.chat_id)
            assert record is not None
            for user_id in players - set(seen):
                hand = await store.hand_message(t.chat_id, None, user_id)
                if hand is not None and hand.version == record.version:
                    seen[user_id] = time.monotonic()
            if set(seen) == players:
                return max(seen.values())
            assert time.monotonic() < deadline, f"hands drawn again only for {sorted(seen)} of {sorted(players)}"
            page = await sandbox.log(after=after, wait=0.5)
            after = page["next"]
            for item in page["items"]:
                if item["method"] in HAND_CALLS and item["chat_id"] in players:
                    seen[item["chat_id"]] = max(seen.get(item["chat_id"], 0.0), item["t"] + item["duration"])
    finally:
        await store.close()


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
            lobbies = [m for m in messages if m["from_bot"] and is_lobby(m)]  # a full one offers no «پیوستن»
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
    menu = await bot_says(sandbox, t.chat_id, admin["id"], "/settings")
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
    lobby = await _redrawn(sandbox, chat_id, lobby)
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


async def someone_can_act(sandbox: ControlClient, t: Table, timeout: float = WAIT_SECONDS) -> dict[str, Any]:
    """Wait while computer players move: until a person has a button to press (on the group's board or in a
    hand) or the game is over; return the board then."""
    deadline = time.monotonic() + timeout
    seen = await sandbox.changes()
    while True:
        board = board_in(await sandbox.messages(t.chat_id))
        if board is not None and (finished(board) or _playable(board, private=False)):
            return board
        for player in t.players:
            if _playable(await hand_of(sandbox, player), private=True):
                assert board is not None
                return board
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"nobody could act in chat {t.chat_id} within {timeout} s")
        seen = await sandbox.changes(after=seen, wait=min(left, 5.0))


# The bot's own log and settings, for what no message shows -------------------------------------------------


def log_lines(harness: Harness, pattern: str) -> list[str]:
    """The lines of the (first) bot's log matching ``pattern``."""
    assert harness.bot is not None
    return [line for line in harness.bot.log_path.read_text().splitlines() if re.search(pattern, line)]


async def wait_log(harness: Harness, pattern: str, more_than: int = 0) -> None:
    """Until the bot's log has more than ``more_than`` lines matching ``pattern``."""

    async def logged() -> bool:
        return len(log_lines(harness, pattern)) > more_than

    await eventually(logged, f"a log line matching {pattern!r}")


async def no_pause_in_private(harness: Harness, user_id: int) -> None:
    """A private chat has no /settings: its computer players' pause is taken away in the store."""
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        await store.set_group_settings(user_id, GroupSettings(computer_pause_seconds=0))
    finally:
        await store.close()
