"""Presses and group edits per action: scripted players who know the move they want press the menus to it.

For each game and each player count it allows (``--players`` to choose), ``--games`` games (30 for the
figures) are played to the end through the sandbox, which keeps Telegram's rules (edits count as messages,
20 a minute in a group, 429s, queries too old after 15 s) on a faster clock (``--time-scale``, 0.05: a
group's minute lasts 3 s, the bot's budgets scaled alike); turn timers are off. The bot runs as a real
process with its own Redis.

Game ``n`` of a game and player count is dealt with seed ``n`` (the bot's own deal is replaced in Redis
before the first press, and a press on the old board has the bot redraw everything, as after a crash), and
its players choose with ``random.Random(f"{game}/{players}/{n}")``: the same games and the same moves in
every run, whatever the menus look like. At each turn the player to act picks one of their legal actions
(uniformly, as the engine lists them for the game the bot stored) and presses through the menus to it the
shortest way: on the group's board, or in their private chat for a private choice, at each level the one
button on the way (a confirmation's, where the game asks for one), never «بازگشت». For every action:

- presses: the buttons pressed for it;
- group edits: the bot's edits in the group, from before its first press until the group's board showed
  it: every menu level opened and the board's redraw;
- new group messages, which count against the same budget: a game's result, a board sent anew.

Printed per game and player count: actions, presses per action (median, p90, max, mean) and group edits per
action (mean, median, p90, max) against issue 14's targets; for کشورگشا also per turn (a player's actions
in a row, «پایان نوبت» included).

``--page``: the same games with every action made on the Mini App instead (the bot's page on, each player's
launch data from the board's «صفحهٔ بازی» link as Telegram opens it, the move sent as the page sends it once
confirmed): presses are then the page's taps and the confirm, and group edits per action should be 1.00 (issue
25: the board's redraw, no menu levels).

    python bench/presses.py [--games 30] [--game conqueror ...] [--players 2,3] [--time-scale 0.05] [--at-once 6]
                            [--page]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from live_games import LogWatcher, following

from bot.dev.harness import Harness, mini_app_env
from bot.dev.simulate import Table, board_of, buttons, hand_of, seat, start_on_screen
from bot.games import PAGES, PRESENTERS
from bot.messages import board, hands
from bot.messages.lobby_message import options_of
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.store import Store
from rules import GAMES
from sandbox.control_client import ControlClient

ORDER = ("coin_age", "conqueror", "splendor", "carcassonne", "condottiere")
# Median and most presses per action (issue 14); group edits per action: ≤ 2 on average, 1 for one press.
TARGETS = {"coin_age": (2, 3), "conqueror": (2, 3), "splendor": (2, 3), "carcassonne": (3, 4), "condottiere": (1, 2)}
PER_TURN = {"conqueror"}
WAIT = 120.0  # real seconds a step may take before the table counts as stuck


class Stuck(Exception):
    """A table that did not get where it should within ``WAIT``."""


@dataclass(frozen=True)
class Action:
    presses: int
    edits: int
    sent: int  # new messages in the group
    turn: int  # the turn it belongs to: a player's actions in a row


@dataclass
class Played:
    """One game's actions, and presses whose answer came too late for Telegram (the press still acted)."""

    actions: list[Action] = field(default_factory=list)
    unanswered: int = 0
    stuck: str = ""  # what the table waited for in vain (its game counts up to there)


def shown_in(messages: list[dict[str, Any]]) -> tuple[int, int]:
    """What the bot has sent to a chat: its messages, and their edits."""
    mine = [m for m in messages if m["from_bot"]]
    return len(mine), sum(m["edits"] for m in mine)


async def until(watcher: LogWatcher, chats: list[int], found: Callable[[], Awaitable[Any]], what: str) -> Any:
    """Look again whenever the bot sends or edits something in ``chats`` (at least every half second) until
    ``found`` returns something; Stuck after ``WAIT`` seconds."""
    deadline = time.monotonic() + WAIT
    while True:
        seen = watcher.seen(chats)
        result = await found()
        if result:
            return result
        if time.monotonic() > deadline:
            raise Stuck(what)
        await watcher.changed_since(chats, seen, timeout=0.5)


async def board_drawn(client: ControlClient, store: Store, t: Table, after: int) -> bool:
    """Whether the group's board shows a version newer than ``after`` (what the bot stored is drawn), or the
    game is over and its result is out."""
    record = await store.load(t.chat_id)
    if record is None or record.version <= after:
        return False
    if record.phase == "finished":
        messages = await client.messages(t.chat_id)
        return any(b.get("data", "").startswith("again:") for m in messages for b in buttons(m))
    live = await store.live_message(t.chat_id, None)
    return live is not None and live.version == record.version


def _on_the_way(button: dict[str, Any], code: str, version: int, private: bool) -> str | None:
    """ "play" if pressing ``button`` plays ``code``, "open" if it opens a level on the way to it, else None."""
    data = button.get("data", "")
    act, nav = ("h", "k") if private else ("g", "n")
    kind, _, shown_version, key = [*data.split(":", 3), "", "", ""][:4]
    if shown_version != str(version) or "بازگشت" in button["text"]:
        return None
    if kind == act and key == code:
        return "play"
    if kind == nav and (key == code or code.startswith(key + ".")):
        return "open"
    return None


async def press_to(
    client: ControlClient, watcher: LogWatcher, t: Table, player: dict[str, Any], code: str, version: int, private: bool
) -> tuple[int, int]:
    """Press the menus to ``code`` the shortest way, on the board or in ``player``'s private chat; returns the
    presses and how many of them were answered too late."""
    chat = player["id"] if private else t.chat_id
    presses = unanswered = 0
    last: Any = None  # the buttons of the level just left: the next one must differ

    async def level() -> tuple[dict[str, Any], dict[str, Any], str] | None:
        message = await hand_of(client, player) if private else board_of(await client.messages(chat))
        if message is None or message["buttons"] == last:
            return None
        for button in buttons(message):
            step = _on_the_way(button, code, version, private)
            if step:
                return message, button, step
        return None

    while True:
        message, button, step = await until(watcher, [chat], level, f"{code} in chat {chat}")
        try:
            answer = await client.press(chat, message["message_id"], player["id"], button["data"])
        except RuntimeError:  # the message changed between the look and the press
            continue
        presses += 1
        if answer["text"]:
            raise Stuck(f"{button['data']} refused: {answer['text']}")
        unanswered += not answer["answered"]
        if step == "play":
            return presses, unanswered
        last = message["buttons"]


@dataclass(frozen=True)
class PageSeats:
    """How a table's players reach the Mini App: the move's address, the chat's parameter, each one's launch."""

    move: str
    payload: str
    launches: dict[int, str]


async def page_seats(client: ControlClient, t: Table) -> PageSeats:
    """Each player opens the board's «صفحهٔ بازی» link, as Telegram opens it."""
    link = next(
        b["url"] for b in buttons(board_of(await client.messages(t.chat_id))) if "startapp=" in b.get("url", "")
    )
    launches, address = {}, ""
    for player in t.players:
        address, _, fragment = (await client.open_link(player["id"], t.chat_id, link)).partition("#")
        launches[player["id"]] = parse_qs(fragment)["tgWebAppData"][0]
    move = address.partition("?")[0] + "api/move"
    return PageSeats(move, parse_qs(urlsplit(link).query)["startapp"][0], launches)


async def tap_to(seats: PageSeats, player: dict[str, Any], code: str, version: int, taps: int) -> tuple[int, int]:
    """Make ``code`` on the page: its ``taps`` and the confirm, whose request is the move; returns the presses
    (taps and confirm) and none answered late (a page's request is no callback query)."""
    headers = {"X-Telegram-Init-Data": seats.launches[player["id"]]}
    async with httpx.AsyncClient(timeout=WAIT) as http:
        body = {"version": version, "code": code}
        answer = await http.post(seats.move, params={"p": seats.payload}, json=body, headers=headers)
    if answer.status_code != 200:
        raise Stuck(f"{code} refused on the page: {answer.status_code} {answer.text}")
    return taps + 1, 0


async def deal(client: ControlClient, watcher: LogWatcher, store: Store, t: Table, seed: int) -> None:
    """Replace the bot's deal with game ``seed`` (before anyone pressed), and press the old board (or a hand)
    so that the bot redraws the board and every hand; returns once the new board is drawn."""
    record = await store.load(t.chat_id)
    assert record is not None and record.phase == "playing"
    old = record.version
    chats = [t.chat_id, *(p["id"] for p in t.players)]

    async def dealt() -> bool:  # the bot's deal is drawn: the board, and every hand in a game with hands
        live = await store.live_message(t.chat_id, None)
        shown = [await store.hand_message(t.chat_id, None, p["id"]) for p in t.players]
        hands_drawn = PRESENTERS[record.game_id].hands is None or all(h and h.version == old for h in shown)
        return live is not None and live.version == old and hands_drawn

    await until(watcher, chats, dealt, "the bot's own deal")
    record.seed = seed
    record.state = GAMES[record.game_id].setup(len(record.players), seed, options_of(record)).model_dump(mode="json")
    await store.save(record, expected=old)
    places = [(t.chat_id, t.players[0], board_of(await client.messages(t.chat_id)))]
    places += [(p["id"], p, hand) for p in t.players if (hand := await hand_of(client, p)) is not None]
    where, presser, stale, data = next(  # the board, or a hand when the first choices are made in private
        (where, presser, message, b["data"])
        for where, presser, message in places
        for b in buttons(message)
        if f":{old}:" in b.get("data", "")
    )
    answer = await client.press(where, stale["message_id"], presser["id"], data)
    assert answer["text"], answer  # stale: the bot heals the chat
    await until(watcher, [t.chat_id], functools.partial(board_drawn, client, store, t, old), "the new deal's board")


async def play_game(
    client: ControlClient,
    watcher: LogWatcher,
    store: Store,
    t: Table,
    game_id: str,
    n: int,
    played: Played,
    seats: PageSeats | None = None,
) -> None:
    """Game ``n`` at table ``t`` to its end: every action pressed the shortest way (or made on the page, with
    ``seats``), counted in ``played``."""
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}/{len(t.players)}/{n}")
    turn, last_seat = 0, None
    while True:
        record = await store.load(t.chat_id)
        assert record is not None
        if record.phase != "playing":
            return
        state = board.load_state(record)
        seat_to_act = game.to_act(state)[0]
        codes = [game.encode(a) for a in game.legal_actions(state, seat_to_act)]
        code = rng.choice(codes)
        private = code in hands.private_codes(record, state, seat_to_act)
        player = next(p for p in t.players if p["id"] == record.players[seat_to_act].user_id)
        sent, edited = shown_in(await client.messages(t.chat_id))
        if seats is not None:
            taps = len(PAGES[game_id].taps(code, game.view(state, None)).ids)
            presses, late = await tap_to(seats, player, code, record.version, taps)
        else:
            presses, late = await press_to(client, watcher, t, player, code, record.version, private)
        chats = [t.chat_id, player["id"]]
        await until(watcher, chats, functools.partial(board_drawn, client, store, t, record.version), f"{code} drawn")
        sent_after, edited_after = shown_in(await client.messages(t.chat_id))
        turn += seat_to_act != last_seat
        last_seat = seat_to_act
        played.actions.append(Action(presses, edited_after - edited, sent_after - sent, turn))
        played.unanswered += late


async def one_table(
    client: ControlClient,
    watcher: LogWatcher,
    store: Store,
    game_id: str,
    players: int,
    n: int,
    index: int,
    page: bool,
) -> Played:
    t = await seat(client, index, "press", players=players)
    await store.set_group_settings(t.chat_id, GroupSettings(turn_seconds=0))  # no timer: nobody is hurried
    await start_on_screen(client, t, game_id)
    played = Played()
    try:
        await deal(client, watcher, store, t, n)
        seats = await page_seats(client, t) if page else None
        await play_game(client, watcher, store, t, game_id, n, played, seats)
    except Stuck as exc:
        played.stuck = str(exc)
    return played


def quantile(values: list[int], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else float(values[0])


def spread(values: list[int]) -> str:
    return (
        f"median {statistics.median(values):g}, p90 {quantile(values, 90):g}, max {max(values)}, "
        f"mean {statistics.mean(values):.2f}"
    )


def report(game_id: str, players: int, games: list[Played], seconds: float, page: bool) -> None:
    actions = [a for g in games for a in g.actions]
    presses = [a.presses for a in actions]
    edits = [a.edits for a in actions]
    median_target, most_target = TARGETS[game_id]
    met = statistics.median(presses) <= median_target and max(presses) <= most_target
    one = [a.edits for a in actions if a.presses == 1]
    stuck = [g.stuck for g in games if g.stuck]
    print(
        f"{GAMES[game_id].title} ({game_id}), {players} players: {len(games)} games, {len(actions)} actions, "
        f"{seconds:.0f} s; {sum(g.unanswered for g in games)} presses answered too late; {len(stuck)} stuck"
        + (f" ({stuck[0]})" if stuck else "")
    )
    verdict = "met" if met else "MISSED"
    if page:
        print(f"  page: taps and confirm per action: {spread(presses)}")
        print(f"  page: group edits per action:      {spread(edits)}  (target 1.00)")
    else:
        print(
            f"  presses per action:     {spread(presses)}  (target median ≤ {median_target}, max ≤ {most_target}:"
            f" {verdict})"
        )
        after_one = f"; after a single press: mean {statistics.mean(one):.2f} (target 1)" if one else ""
        print(f"  group edits per action: {spread(edits)}  (target mean ≤ 2){after_one}")
    print(f"  new group messages:     {sum(a.sent for a in actions)} (a game's result, a board sent anew)")
    if game_id in PER_TURN:
        turns: dict[tuple[int, int], list[Action]] = {}
        for g, game in enumerate(games):
            for a in game.actions:
                turns.setdefault((g, a.turn), []).append(a)
        print(f"  presses per turn:       {spread([sum(a.presses for a in t) for t in turns.values()])}")
        print(f"  group edits per turn:   {spread([sum(a.edits for a in t) for t in turns.values()])}")
    sys.stdout.flush()


async def batch(
    game_id: str, players: int, games: range, scale: float, page: bool
) -> tuple[list[Played], dict[str, Any]]:
    """Games ``games`` of a game and player count, all at once, in a system of their own (the sandbox keeps
    every picture it was sent, so a fresh one for each batch keeps its memory bounded); returns them and the
    sandbox's rate limits."""
    env = mini_app_env() if page else None
    with (
        tempfile.TemporaryDirectory() as tmp,
        Harness(Path(tmp), sandbox_process=True, time_scale=scale, bot_env=env) as harness,
    ):
        store = Store.from_url(harness.redis_url, harness.keys)
        try:
            async with ControlClient(harness.url, timeout=120) as client, following(client) as watcher:
                limits = (await client.config())["rate_limits"]
                tables = [one_table(client, watcher, store, game_id, players, n, i, page) for i, n in enumerate(games)]
                return list(await asyncio.gather(*tables)), limits
        finally:
            await store.close()


async def main(
    games: int, game_ids: list[str], counts: list[int] | None, scale: float, at_once: int, page: bool
) -> None:
    print(f"{games} games per game and player count, {at_once} at a time; sandbox time scale {scale:g}")
    told = False
    for game_id in game_ids:
        game = GAMES[game_id]
        for players in range(game.min_players, game.max_players + 1):
            if counts and players not in counts:
                continue
            started = time.monotonic()
            played: list[Played] = []
            for first in range(0, games, at_once):
                chosen = range(first, min(games, first + at_once))
                results, limits = await batch(game_id, players, chosen, scale, page)
                played += results
                if not told:
                    told = True
                    group, edits = limits["group_per_minute"], limits["edits_count_as_messages"]
                    print(f"sandbox limits: group {group}/min, edits count as messages: {edits}")
            report(game_id, players, played, time.monotonic() - started, page)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="games per game and player count (30 for the figures)")
    parser.add_argument("--game", action="append", choices=ORDER, help="only this game (again for more)")
    parser.add_argument("--players", help="only these player counts, e.g. 2,3,4")
    parser.add_argument("--time-scale", type=float, default=0.05, help="the sandbox's Telegram clock")
    parser.add_argument(
        "--at-once", type=int, default=6, help="games played at the same time, in a system of their own"
    )
    parser.add_argument("--page", action="store_true", help="every action made on the Mini App (issue 25)")
    args = parser.parse_args()
    chosen = [g for g in ORDER if not args.game or g in args.game]
    counts = [int(c) for c in args.players.split(",")] if args.players else None
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(args.games, chosen, counts, args.time_scale, args.at_once, args.page))
