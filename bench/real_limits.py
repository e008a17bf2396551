"""Ten groups under Telegram's real limits, played by people at a human pace.

Ten groups of four players each, two of each game: رکب, قلعه رودخان and اسپلندور with all four players;
عصر سکه‌ها and کشورگشا, two-player games, with the group's first two (the other two watch). The sandbox keeps
its defaults, Telegram's rules: edits count as messages (20 a minute in a group, one a second in a private
chat, shared with new messages), 429s with escalating waits, callback queries too old after 15 s. The bot
runs as a real process with its own Redis and its default budgets.

Every player is a person: when it is their turn (on the group's board, or in their private chat), they look
for 3 to 10 s (uniform, seeded) and press a random but purposeful button (``simulate.choose``: menus are
opened and gone back from, as people do); when a game ends, its host presses «دوباره بازی کنیم» and starts
again. After ``--minutes`` (10 for the figures) it prints:

- 429s the bot received (target 0);
- callback answer latency (press until the press returned with the bot's answer), p50 / p99 (target p99 ≤ 1 s);
- press → the group's board showing that move (the board's live version, as the bot stored it after the edit,
  reaches the move's), or showing the menu level that was opened, p50 / p95 (target p95 ≤ 5 s);
- games stuck: groups where a press was never shown within 60 s, or nobody could act for 60 s (target 0);
- group messages + edits per minute: the most in any 60 s window, per group (≤ 20);
- turn notices sent (in private chats, and in groups for players the bot cannot write to), and each player's
  private messages + edits per minute;
- per game and for the mix, the calls a press costs by kind (group edit, group send, private edit, private send,
  photo, delete, answer) and the groups one bot token can serve at that cost, a press every 8 s in each
  (``bench/call_kinds.py``); ``--save FILE`` keeps that table, ``--before FILE`` prints a saved one beside it.

``--time-scale`` (for trying, not for the figures) runs Telegram's clock and the players faster alike.

    python bench/real_limits.py [--minutes 10] [--seed 1] [--time-scale 1] [--save FILE] [--before FILE]
                                [--log FILE] [--away SECONDS]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import call_kinds
from live_games import LogWatcher, following, pct

from bot.dev.harness import Harness
from bot.dev.simulate import Table, board_of, button, buttons, choose, hand_of, most_in_a_window, seat, start_on_screen
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

GAMES = ("condottiere", "carcassonne", "splendor", "coin_age", "conqueror") * 2
PLAYERS = {"condottiere": 4, "carcassonne": 4, "splendor": 4, "coin_age": 2, "conqueror": 2}
THINK = (3.0, 10.0)  # seconds a person looks before pressing
STUCK = 60.0  # seconds without being shown, or without anyone able to act, that make a game stuck


@dataclass
class Group:
    """One group's game and what its players saw."""

    table: Table
    game: str
    store: Store
    watcher: LogWatcher
    scale: float
    answers: list[float] = field(default_factory=list)  # seconds from a press to its answer
    shown: list[float] = field(default_factory=list)  # seconds from a press to the board showing it
    unanswered: list[str] = field(default_factory=list)  # the data of presses nobody answered in time
    stale: int = 0
    stuck: list[str] = field(default_factory=list)
    games_finished: int = 0

    @property
    def players(self) -> list[dict[str, Any]]:
        return self.table.players[: PLAYERS[self.game]]


def _mine(board: dict[str, Any], player: dict[str, Any]) -> bool:
    """Whether the board's buttons are ``player``'s: they are named after «نوبت» in the caption."""
    turn = (board.get("caption") or "").rsplit("👈", 1)[-1]
    return player["first_name"] in turn and any(b.get("data", "").startswith(("g:", "n:")) for b in buttons(board))


def _playable_hand(hand: dict[str, Any] | None) -> bool:
    return hand is not None and any(b.get("data", "").startswith(("h:", "k:")) for b in buttons(hand))


async def _my_move(client: ControlClient, group: Group, player: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """Where ``player`` can press now: (the chat, the message), or None."""
    board = board_of(await client.messages(group.table.chat_id))
    if _mine(board, player):
        return group.table.chat_id, board
    hand = await hand_of(client, player)
    if _playable_hand(hand):
        assert hand is not None
        return player["id"], hand
    return None


async def _shown(client: ControlClient, group: Group, data: str, before: dict[str, Any], pressed: float) -> float:
    """Seconds from the press until the group's board showed it: the move's version (as the bot stored it
    after the edit), or the opened menu level's buttons."""
    chat = group.table.chat_id
    deadline = pressed + STUCK * group.scale
    kind, _, version, _ = data.split(":", 3)
    while time.monotonic() < deadline:
        seen = group.watcher.seen([chat])
        if kind in ("g", "h"):
            live = await group.store.live_message(chat, None)
            if live is not None and live.version > int(version):
                return time.monotonic() - pressed
        else:
            board = board_of(await client.messages(chat))
            if board["message_id"] != before["message_id"] or board["buttons"] != before["buttons"]:
                return time.monotonic() - pressed
        await group.watcher.changed_since([chat], seen, timeout=0.5)
    raise TimeoutError


async def _again(client: ControlClient, group: Group, finished: dict[str, Any]) -> None:
    """The host plays again: «دوباره بازی کنیم» under the result, then «شروع» once everyone is back; returns
    when the new game's board is out (``finished`` is the last game's board)."""
    chat, host = group.table.chat_id, group.players[0]
    deadline = time.monotonic() + STUCK * group.scale
    pressed_again = started = False
    while time.monotonic() < deadline:
        seen = group.watcher.seen([chat])
        messages = await client.messages(chat)
        if started and board_of(messages)["message_id"] > finished["message_id"]:
            return
        if not pressed_again:  # the result comes after the last board: it may not be out yet
            again = [(m, b["data"]) for m in messages for b in buttons(m) if b.get("data", "").startswith("again:")]
            if again:
                answer = await client.press(chat, again[-1][0]["message_id"], host["id"], again[-1][1])
                pressed_again = answer["answered"] and not answer["text"]
        elif not started:
            lobby = messages[-1]
            if lobby["from_bot"] and any(b.get("data", "").endswith(":start") for b in buttons(lobby)):
                answer = await client.press(chat, lobby["message_id"], host["id"], button(lobby, ":start")["data"])
                started = answer["answered"] and not answer["text"]
        await group.watcher.changed_since([chat], seen, timeout=1.0)
    group.stuck.append("the next game never started")


def _finished(board: dict[str, Any]) -> bool:
    return "پایان بازی" in (board["caption"] or "")


async def person(client: ControlClient, group: Group, player: dict[str, Any], until: float, seed: int) -> None:
    """One player: waits for their turn, looks 3-10 s, presses; measures what they saw."""
    rng = random.Random(seed)
    chats = [group.table.chat_id, player["id"]]
    nobody_since: float | None = None  # the host watches: since when nobody could act
    while time.monotonic() < until:
        seen = group.watcher.seen(chats)
        move = await _my_move(client, group, player)
        board = board_of(await client.messages(group.table.chat_id))
        if move is None:
            if _finished(board):
                nobody_since = None
                if player is group.players[0]:
                    await _again(client, group, board)
                    group.games_finished += 1
            elif player is group.players[0]:
                if any([await _my_move(client, group, p) for p in group.players]):
                    nobody_since = None
                elif nobody_since is None:
                    nobody_since = time.monotonic()
                elif time.monotonic() - nobody_since > STUCK * group.scale:
                    group.stuck.append(f"nobody could act for {STUCK:.0f} s: {board['caption']!r}")
                    nobody_since = None
            await group.watcher.changed_since(chats, seen, timeout=1.0)
            continue
        nobody_since = None
        await asyncio.sleep(rng.uniform(*THINK) * group.scale)
        move = await _my_move(client, group, player)  # looked again: the board may have moved on meanwhile
        if move is None:
            continue
        chat, message = move
        data = choose(message, rng)
        before = board_of(await client.messages(group.table.chat_id))
        pressed = time.monotonic()
        try:
            answer = await client.press(chat, message["message_id"], player["id"], data, timeout=60)
        except RuntimeError:  # the message changed between the look and the press
            continue
        if not answer["answered"]:
            group.unanswered.append(data)
            continue
        group.answers.append(time.monotonic() - pressed)
        if answer["text"]:  # stale or illegal: nothing to show
            group.stale += 1
            continue
        if data.startswith("k:"):  # a private menu level: the group's board does not change
            continue
        try:
            group.shown.append(await _shown(client, group, data, before, pressed))
        except TimeoutError:
            group.stuck.append(f"{data} was not shown within {STUCK:.0f} s")


async def main(
    minutes: float,
    seed: int,
    scale: float,
    saved: Path | None,
    before: Path | None,
    kept_log: Path | None,
    away: float | None = None,
) -> None:
    env = {} if away is None else {"AWAY_AFTER_SECONDS": repr(away * scale)}  # the bot's seconds are real ones
    with (
        tempfile.TemporaryDirectory() as tmp,
        Harness(Path(tmp), sandbox_process=True, time_scale=scale, bot_env=env) as harness,
    ):
        store = Store.from_url(harness.redis_url, harness.keys)
        async with ControlClient(harness.url, timeout=120) as client:
            config = await client.config()
            tables = [await seat(client, n, "real", players=4) for n in range(len(GAMES))]
            async with following(client) as watcher:
                start = time.monotonic()
                boards = await asyncio.gather(
                    *(start_on_screen(client, t, game, PLAYERS[game]) for t, game in zip(tables, GAMES, strict=True))
                )
                assert all(boards)
                playing = time.monotonic()  # the calls a press are counted from here: set-up is not play
                groups = [Group(t, game, store, watcher, scale) for t, game in zip(tables, GAMES, strict=True)]
                until = time.monotonic() + minutes * 60 * scale
                rng = random.Random(seed)
                await asyncio.gather(
                    *(
                        person(client, group, player, until, rng.randrange(2**32))
                        for group in groups
                        for player in group.players
                    )
                )
                await asyncio.sleep(1.0)  # the watcher reads the log's last page
                elapsed = time.monotonic() - start
            log = (await client.log())["items"]
        await store.close()
        assert harness.bot is not None
        complaints = _complaints(harness.bot.log_path.read_text(errors="replace"))
    report(groups, watcher, log, config, minutes, seed, scale, elapsed)
    rows = calls_a_press(groups, log, playing)
    call_kinds.show(rows, call_kinds.load(before))
    if saved is not None:
        call_kinds.save(rows, saved)
    if kept_log is not None:
        owners = {g.table.chat_id: g.game for g in groups} | {p["id"]: g.game for g in groups for p in g.players}
        call_kinds.save({"owners": owners, "since": playing, "items": log}, kept_log)
    print(f"the bot logged {len(complaints)} warnings and errors")
    for line, count in collections.Counter(complaints).most_common(5):
        print(f"  {count} × {line}")


def calls_a_press(groups: list[Group], log: list[dict[str, Any]], since: float) -> dict[str, dict[str, float]]:
    """The calls a press by kind, per game and for the mix: each group's chat and its players' private chats
    are its game's; a press is a callback query answered."""
    owner = {g.table.chat_id: g.game for g in groups}
    owner |= {p["id"]: g.game for g in groups for p in g.players}
    counts = call_kinds.count(log, owner, since)
    return call_kinds.table(counts, {game: counts.get(game, collections.Counter())["answer"] for game in PLAYERS})


def _complaints(log: str) -> list[str]:
    """The bot's WARNING and ERROR lines, without their time stamps, so that repeats can be counted."""
    found = []
    for line in log.splitlines():
        for level in (" WARNING ", " ERROR "):
            if level in line:
                found.append(level.strip() + " " + line.split(level, 1)[1][:160])
    return found


def report(
    groups: list[Group],
    watcher: LogWatcher,
    log: list[dict[str, Any]],
    config: dict[str, Any],
    minutes: float,
    seed: int,
    scale: float,
    elapsed: float,
) -> None:
    answers = [x for g in groups for x in g.answers]
    shown = [x for g in groups for x in g.shown]
    refused = [i for i in log if i["status"] == 429]
    too_old = [i for i in log if i["method"] == "answerCallbackQuery" and i["status"] == 400]
    minute = 60.0 * scale
    per_group = {
        g.table.chat_id: most_in_a_window(watcher.messages[g.table.chat_id] + watcher.edits[g.table.chat_id], minute)
        for g in groups
    }
    limits = config["rate_limits"]
    print(
        f"{len(groups)} groups ({', '.join(f'{game} {GAMES.count(game)}' for game in dict.fromkeys(GAMES))}), "
        f"{sum(len(g.players) for g in groups)} players pressing after {THINK[0]:.0f}-{THINK[1]:.0f} s, seed {seed}, "
        f"{minutes:g} min of play ({elapsed:.0f} s wall with set-up); sandbox: time scale {scale:g}, group "
        f"{limits['group_per_minute']}/min, private {limits['private_per_second']}/s (burst {limits['private_burst']}),"
        f" global {limits['global_per_second']}/s, edits count as messages: {limits['edits_count_as_messages']}"
    )
    print(
        f"presses: {len(answers)} answered ({sum(g.stale for g in groups)} refused as stale or illegal), "
        f"{sum(len(g.unanswered) for g in groups)} unanswered; games finished and started again: "
        f"{sum(g.games_finished for g in groups)}"
    )
    print(f"429s received by the bot: {len(refused)} (target 0); answers refused as too old: {len(too_old)}")
    print(
        f"callback answer latency: p50 {pct(answers, 50):.0f} ms, p99 {pct(answers, 99):.0f} ms "
        f"(max {max(answers) * 1000:.0f} ms; target p99 ≤ 1000 ms)"
    )
    print(
        f"press → the group's board showing it: p50 {pct(shown, 50):.0f} ms, p95 {pct(shown, 95):.0f} ms "
        f"(p99 {pct(shown, 99):.0f} ms, max {max(shown) * 1000:.0f} ms, {len(shown)} presses; target p95 ≤ 5000 ms)"
    )
    stuck = [g for g in groups if g.stuck]
    print(f"games stuck: {len(stuck)} (target 0)")
    for g in stuck:
        print(f"  group {g.table.chat_id} ({g.game}): {'; '.join(g.stuck[:3])}")
    for g in groups:
        if g.unanswered:
            print(f"  unanswered in group {g.table.chat_id} ({g.game}): {len(g.unanswered)}, e.g. {g.unanswered[:3]}")
    worst = max(per_group.values())
    print(
        f"group messages + edits in any 60 s (scaled: {minute:g} s): max {worst}, mean of each group's most "
        f"{statistics.mean(per_group.values()):.1f} (limit 20: {'within' if worst <= 20 else 'OVER'})"
    )
    by_game: dict[str, list[int]] = {}
    for g in groups:
        by_game.setdefault(g.game, []).append(per_group[g.table.chat_id])
    print("  per game: " + ", ".join(f"{game} {max(counts)}" for game, counts in by_game.items()))
    sent = [i for i in log if i["method"] == "sendMessage" and i["status"] == 200]
    notices = [i for i in sent if "نوبت شماست" in str(i["params"].get("text", ""))]
    in_groups = sum(1 for i in notices if i["chat_id"] < 0)
    deleted = sum(1 for i in log if i["method"] == "deleteMessage" and i["status"] == 200)
    players = [p["id"] for g in groups for p in g.players]
    private = [most_in_a_window(watcher.messages[p] + watcher.edits[p], minute) for p in players]
    print(
        f"turn notices: {len(notices) - in_groups} in private chats, {in_groups} in groups; {deleted} messages deleted"
        f" (old notices and hands); private messages + edits per player in any 60 s: max {max(private)}, mean"
        f" {statistics.mean(private):.1f} (limit: 1 a second)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0, help="minutes of play (10 for the figures)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-scale", type=float, default=1.0, help="faster Telegram clock and players (trying)")
    parser.add_argument("--save", type=Path, help="keep the calls-a-press table in this JSON file")
    parser.add_argument("--before", type=Path, help="a table kept with --save, printed beside this run's")
    parser.add_argument("--log", type=Path, help="keep the sandbox's call log in this JSON file (to look into)")
    parser.add_argument("--away", type=float, help="the bot's AWAY_AFTER_SECONDS, in Telegram seconds (default 20)")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(args.minutes, args.seed, args.time_scale, args.save, args.before, args.log, args.away))
