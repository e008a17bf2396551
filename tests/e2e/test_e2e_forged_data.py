"""End to end: forged callback data changes nothing.

Thousands of seeded random and mutated callback data strings (taken from the live keyboards of a lobby, a
running game of each of the five games, رکب's private hands, /settings, /leave and /new's game picker) are
pressed through the sandbox's test-only ``press_forged`` by players and by non-players, in the groups and in
private chats. Every press must be answered with a refusal alert, and afterwards no Redis key is created,
changed or deleted, no message in any chat is new, edited or deleted, the bot made no Bot API call but
answers (and the admin checks of /settings presses), and its log has no error.

The bot runs in a system of its own (its Redis, sandbox and process), so that other tests' games and timers
cannot touch what is compared here. Each draw of the fuzzer has its own ``random.Random(f"{SEED}/{draw}")``;
the keyboards it mutates are of games the bot deals with seeds of its own, so a failure names the exact data,
the place pressed and the draw.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from ai import LEVELS
from bot.config import Settings
from bot.dev.harness import Harness
from bot.dev.simulate import Table, all_of, buttons, leaving_no_task, open_lobby, set_timer, settled, start_game, table
from bot.games import PLAYABLE, PRESENTERS
from bot.handlers.admin import COMPUTER_PAUSE_CHOICES, LOBBY_IDLE_CHOICES, MAX_TIMEOUT_CHOICES, STAND_IN_CHOICES
from bot.messages import board, hands, keyboards, texts
from bot.messages.keyboards import PATTERNS, SHOWN_IN
from bot.plumbing.store import GameRecord, Store
from sandbox.control_client import ControlClient

SEED = 20240612
PRESSES = 2500
CONCURRENCY = 16  # presses in flight at once: the bot handles updates concurrently, as with real users

# Every answer must be one of these, as an alert: the bot says no and why.
REFUSALS = {
    texts.STALE,
    texts.NOT_A_PLAYER,
    texts.NOT_YOUR_TURN,
    texts.NOT_NOW,  # a real hand button pressed out of turn: it stands between turns
    texts.ILLEGAL,
    texts.NOT_ADMIN,
    texts.NOT_ALLOWED,
    texts.NOT_JOINED,
    texts.ALREADY_JOINED,
    texts.NOT_FOR_YOU,
    texts.GAME_EXISTS,
    texts.NOT_IN_LAST_GAME,
    texts.STALE_LOBBY,
    texts.PICK_NOT_YOURS,
}
# While presses are refused the bot only answers them (and asks Telegram whether a /settings presser is an
# admin: getChatMember, and getChatAdministrators when the bot is no admin, bot.handlers.access); it reads its
# updates all along.
QUIET_METHODS = {"getUpdates", "answerCallbackQuery", "getChatMember", "getChatAdministrators"}

# Redis keys the comparison leaves out because time alone changes them: none, in this system. The
# candidates, and why none of them changes here:
#   - the heartbeat is a file (DATA_DIR/heartbeat), not a key;
#   - the flood budgets (<prefix>:pace:*, <prefix>:{<chat>}:pace) and chat tickets (<prefix>:{<chat>}:order*)
#     and lock leases (<prefix>:{<chat>}:lock:*) are kept in Redis only by webhook workers; this bot polls;
#   - the deadline queue (<prefix>:{deadlines}:*) changes only when a deadline is due: the turn timers are off
#     here (/settings, as an admin would) and the lobby closes when idle for 15 minutes;
#   - keys that expire only count down: their time to live is compared too, and must not have grown.
TIME_ONLY_KEYS: tuple[str, ...] = ()

# Who the bot has heard from in a group (bot.handlers.membership: a bot that is not an admin cannot ask
# Telegram who is a member): any press there, forged data or not, shows the presser is in the group, since
# Telegram delivers presses only from people who see the message. These sets are compared apart: they may
# only gain the group's pressers, nothing else.
SEEN_KEY = re.compile(r"[^{]*:\{(-\d+)\}:seen")  # <prefix>:{<chat>}:seen

GAME_IDS = ("coin_age", "conqueror", "condottiere", "splendor", "carcassonne")
HAND_GAME = "condottiere"  # رکب: every player has a private hand
LOBBY_GAME = "carcassonne"  # its lobby has an option button (farmers)


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    with Harness(tmp_path_factory.mktemp("forged")) as running:
        yield running


# What the bot would act on ----------------------------------------------------------------------------------


def _levels(game_id: str, codes: list[str]) -> set[str]:
    """Every menu level the menu of ``codes`` shows ("" opens the first), as the play handler checks it: a
    level skipped because it has one choice, or under a level that lists its moves whole, is refused."""
    menu = keyboards.menu(game_id, codes)
    prefixes = {""} | {".".join(c.split(".")[:k]) for c in codes for k in range(1, c.count(".") + 2)}
    return {p for p in prefixes if menu.shows(p)}


@dataclass
class Group:
    table: Table
    record: GameRecord
    live_id: int | None
    state: Any = None
    to_act: tuple[int, ...] = ()
    hand_ids: dict[int, int] = field(default_factory=dict)  # user -> their private message about this game

    @property
    def chat_id(self) -> int:
        return self.table.chat_id

    @property
    def members(self) -> list[dict[str, Any]]:
        return [*self.table.players, self.table.outsider, self.table.newcomer]


class Oracle:
    """The data that would legitimately do something where it is pressed, worked out from what the bot stores
    and from what its handlers document; the fuzzer never presses those (they are not forgeries: a player
    may press them). Everything else must be refused."""

    def __init__(self, groups: list[Group], switches: set[tuple[int, int, str]] | None = None) -> None:
        self.groups = {g.chat_id: g for g in groups}
        self.switches = switches or set()  # (private chat, message, data): a notice's or /notify's on/off switch
        choices = Settings.model_fields["turn_timer_choices"].default
        self.settings = (
            {f"s:t:{s}" for s in (*choices, 0)}
            | {"s:r:0", "s:r:1"}
            | {f"s:m:{n}" for n in MAX_TIMEOUT_CHOICES}
            | {f"s:l:{s}" for s in LOBBY_IDLE_CHOICES}
            | {f"s:g:{g}" for g in PLAYABLE}
            | {f"s:o:{g}.{t.field}" for g in PLAYABLE for t in PRESENTERS[g].toggles}
            | {f"s:c:{s}" for s in COMPUTER_PAUSE_CHOICES}
            | {f"s:x:{level}" for level in STAND_IN_CHOICES}
        )

    def effective(self, chat_id: int, message_id: int, user_id: int) -> set[str]:
        if chat_id > 0:
            return self._private(message_id, user_id)
        group = self.groups[chat_id]
        record, version = group.record, group.record.version
        out: set[str] = set()
        if user_id == group.table.players[0]["id"]:  # the group's admin may change settings from any message
            out |= self.settings
        if record.phase == "lobby":
            out |= {f"o:{version}:{t.field}" for t in PRESENTERS[record.game_id].toggles}
            if message_id == group.live_id:
                out |= {f"l:{version}:{op}" for op in ("join", "leave", "start", "cancel")}
            if message_id == group.live_id and user_id == record.creator.user_id:  # computer players
                out |= {f"c:{version}:{op}" for op in ("add", "back", *(f"add:{level}" for level in LEVELS))}
                out |= {f"c:{version}:rm:{-p.user_id}" for p in record.players if p.is_computer}
        seat = record.seat_of(user_id)
        if record.phase == "playing" and seat is not None:
            out |= {f"q:{record.seed}:{user_id}:{c}" for c in "yn"}
            if message_id == group.live_id and seat in group.to_act:
                codes = hands.group_codes(record, group.state)[0]
                out |= {f"g:{record.game_id}:{version}:{c}" for c in codes}
                out |= {f"n:{record.game_id}:{version}:{p}" for p in _levels(record.game_id, codes)}
        return out  # no group has ended (again:) or is free for a new game (new:)

    def _private(self, message_id: int, user_id: int) -> set[str]:
        # a player's own turn notices go off or on from any message in their chat that shows the switch
        out = {data for chat, message, data in self.switches if (chat, message) == (user_id, message_id)}
        for group in self.groups.values():
            seat = group.record.seat_of(user_id)
            if group.hand_ids.get(user_id) != message_id or seat is None or seat not in group.to_act:
                continue
            codes = hands.private_codes(group.record, group.state, seat)
            version = group.record.version
            out |= {f"h:{group.chat_id}:{version}:{c}" for c in codes}
            out |= {f"k:{group.chat_id}:{version}:{p}" for p in _levels(group.record.game_id, codes)}
        return out


async def _groups(store: Store, tables: list[Table]) -> list[Group]:
    out = []
    for t in tables:
        record = await store.load(t.chat_id)
        assert record is not None and record.active
        live = await store.live_message(t.chat_id, None)
        group = Group(t, record, live.message_id if live else None)
        if record.phase == "playing":
            group.state = board.load_state(record)
            group.to_act = PLAYABLE[record.game_id].to_act(group.state)
            for player in t.players:
                hand = await store.hand_message(t.chat_id, None, player["id"])
                if hand is not None:
                    group.hand_ids[player["id"]] = hand.message_id
        out.append(group)
    return out


# The fuzzer -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    chat_id: int
    message_id: int
    user_id: int
    data: str | None
    mutation: str
    draw: int  # the fuzzer's random.Random(f"{SEED}/{draw}") made it


NUMBERS = [2**31, 2**52, 2**53 + 1, 10**16, 2**62, 10**18, 2**63, 2**64, 10**19, 10**30, 10**40, 10**63]
ODD_CHARACTERS = ["۱۲", "٣", "１", "\u200c", "\u200f", "\u202e", "\x00", "\t", " ", "\n", "é", "😀", "ي", "：", "‐"]
GAME_NAMES = [*PLAYABLE, "chess", "coin_agex", "COIN_AGE", "coin-age", "coin age", "_", "a" * 40, "é"]
PREFIXES = ["g", "n", "h", "k", "l", "o", "new", "s", "again", "q", "x", "G", "gg", "", "h ", "۱"]
PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
ASCII = [chr(c) for c in range(32, 127)]
# Mutations that keep the data's shape are pressed more often, so that many presses get past the patterns
# to the handlers' own checks (version, live message, seat, turn, rules); the empty ones are few shapes.
NEAR = {
    "wrong version": 3.0,
    "other chat's id": 2.0,
    "another chat's data": 2.0,
    "code": 3.0,
    "spliced": 2.0,
    "real data elsewhere": 3.0,
    "empty string": 0.2,
    "no data": 0.2,
}


def _numeric(fields: list[str]) -> list[int]:
    """Indexes of the fields that hold numbers (versions, chats, topics, seeds, users, seconds)."""
    return [i for i, f in enumerate(fields) if i > 0 and re.fullmatch(r"-?[0-9]+(_[0-9]+)?", f)]


class Fuzzer:
    def __init__(self, pool: list[str], chat_ids: list[int]) -> None:
        self.rng = random.Random(SEED)
        self.pool = pool
        self.chat_ids = chat_ids
        self.mutations: dict[str, Callable[[str], str | None]] = {
            "wrong version": self.wrong_version,
            "huge number": self.huge_number,
            "negative number": self.negative,
            "Persian digits": self.persian_digits,
            "other chat's id": self.other_chat_id,
            "other game": self.other_game,
            "another chat's data": self.anothers,
            "overlong": self.overlong,
            "non-ASCII": self.non_ascii,
            "empty field": self.empty_field,
            "field dropped or added": self.fields_changed,
            "truncated": self.truncated,
            "spaces and case": self.spaces_and_case,
            "separators": self.separators,
            "other kind": self.other_kind,
            "topic": self.topic,
            "code": self.code,
            "spliced": self.spliced,
            "random ASCII": self.random_ascii,
            "random text": self.random_text,
            "empty string": lambda _: "",
            "no data": lambda _: None,
            "real data elsewhere": lambda data: data,
        }

    def mutate(self, data: str) -> tuple[str, str | None]:
        names = list(self.mutations)
        weights = [NEAR.get(n, 1.0) for n in names]
        name = self.rng.choices(names, weights)[0]
        return name, self.mutations[name](data)

    def _number_field(self, data: str, change: Callable[[str], str]) -> str:
        fields = data.split(":")
        numeric = _numeric(fields)
        if not numeric:
            return self.rng.choice([data + ":" + change("1"), change("7") + data])
        i = self.rng.choice(numeric)
        head, sep, tail = fields[i].partition("_")
        if tail and self.rng.random() < 0.5:
            tail = change(tail)
        else:
            head = change(head)
        fields[i] = head + sep + tail
        return ":".join(fields)

    def wrong_version(self, data: str) -> str:
        def change(number: str) -> str:
            value = int(number)
            return self.rng.choice(
                [str(value + self.rng.choice([-3, -2, -1, 1, 2, 3, 100])), "0", "0" + number, "00", str(value * 10)]
            )

        return self._number_field(data, change)

    def huge_number(self, data: str) -> str:
        return self._number_field(data, lambda n: self.rng.choice(["", "-"]) + str(self.rng.choice(NUMBERS)))

    def negative(self, data: str) -> str:
        return self._number_field(data, lambda n: n[1:] if n.startswith("-") else "-" + n)

    def persian_digits(self, data: str) -> str:
        return self._number_field(data, lambda n: n.translate(PERSIAN_DIGITS))

    def other_chat_id(self, data: str) -> str:
        fields = data.split(":")
        other = str(self.rng.choice([*self.chat_ids, 1001, -1, -(10**12), 10**12]))
        fields[1 if len(fields) > 1 else 0] = other
        return ":".join(fields)

    def other_game(self, data: str) -> str:
        fields = data.split(":")
        name = self.rng.choice(GAME_NAMES)
        for i, f in enumerate(fields):
            if f in PLAYABLE:
                fields[i] = name
                return ":".join(fields)
            game, dot, option = f.partition(".")
            if dot and game in PLAYABLE:
                fields[i] = f"{name}.{option}"
                return ":".join(fields)
        fields.insert(1, name)
        return ":".join(fields)

    def anothers(self, data: str) -> str:
        return self.rng.choice(self.pool)

    def overlong(self, data: str) -> str:
        size = self.rng.choice([65, 66, 70, 100, 256, 1000, 4096])
        filler = self.rng.choice(["x", "9", ":", "a.b", "".join(self.rng.choices(ASCII, k=7))])
        return (data + filler * size)[: max(size, len(data) + 1)]

    def non_ascii(self, data: str) -> str:
        where = self.rng.randrange(len(data) + 1)
        odd = self.rng.choice(ODD_CHARACTERS)
        if self.rng.random() < 0.5 and data:
            return data[: max(0, where - 1)] + odd + data[where:]
        return data[:where] + odd + data[where:]

    def empty_field(self, data: str) -> str:
        fields = data.split(":")
        fields[self.rng.randrange(len(fields))] = ""
        return ":".join(fields)

    def fields_changed(self, data: str) -> str:
        fields = data.split(":")
        if len(fields) > 1 and self.rng.random() < 0.5:
            del fields[self.rng.randrange(len(fields))]
        else:
            fields.insert(self.rng.randrange(len(fields) + 1), self.rng.choice(["", "1", "-1", "x", "0"]))
        return ":".join(fields)

    def truncated(self, data: str) -> str:
        return data[: self.rng.randrange(len(data))] if data else ""

    def spaces_and_case(self, data: str) -> str:
        return self.rng.choice(
            [data.upper(), " " + data, data + " ", data + "\n", "\n" + data, data + "\r\n", data.replace(":", ": ")]
        )

    def separators(self, data: str) -> str:
        other = self.rng.choice([";", ",", "::", "", "|", "/", "_", "."])
        if self.rng.random() < 0.5:
            return data.replace(":", other)
        return data.replace(":", other, 1)

    def other_kind(self, data: str) -> str:
        fields = data.split(":")
        fields[0] = self.rng.choice([p for p in PREFIXES if p != fields[0]])
        return ":".join(fields)

    def topic(self, data: str) -> str:
        fields = data.split(":")
        if len(fields) < 2:
            return data + "_1"
        fields[1] += "_" + self.rng.choice(["0", "1", "11", "-1", str(10**12), "", "x", "1_2"])
        return ":".join(fields)

    def code(self, data: str) -> str:
        fields = data.split(":")
        other = self.rng.choice(self.pool).split(":")[-1]
        changed = [
            other,
            fields[-1] + ".0",
            fields[-1][:-1],
            fields[-1] + fields[-1],
            "".join(self.rng.choices([chr(c) for c in range(33, 127)], k=self.rng.randint(1, 45))),
        ]
        fields[-1] = self.rng.choice(changed)
        return ":".join(fields)

    def spliced(self, data: str) -> str:
        mine, theirs = data.split(":"), self.rng.choice(self.pool).split(":")
        cut = self.rng.randint(1, max(1, len(mine)))
        return ":".join(mine[:cut] + theirs[min(cut, len(theirs) - 1) :])

    def random_ascii(self, data: str) -> str:
        return "".join(self.rng.choices(ASCII, k=self.rng.randint(1, 80)))

    def random_text(self, data: str) -> str:
        alphabet = [*ASCII[:40], *"آابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی۰۱۲۳۴۵۶۷۸۹", *ODD_CHARACTERS]
        return "".join(self.rng.choices(alphabet, k=self.rng.randint(1, 70)))


def _reaches_a_handler(p: Press) -> bool:
    """The press passes the bot's first gate (bot/handlers/guards.py) and is refused by a handler's checks."""
    where = "private" if p.chat_id > 0 else "group"
    return p.data is not None and any(
        re.match(PATTERNS[kind], p.data) and SHOWN_IN[kind] in (where, "anywhere") for kind in PATTERNS
    )


# Snapshots ------------------------------------------------------------------------------------------------------


async def _redis_snapshot(client: aioredis.Redis) -> dict[bytes, tuple[bytes, int]]:
    """Every key: its serialized value (DUMP: type, content and encoding) and its time to live in ms."""
    out: dict[bytes, tuple[bytes, int]] = {}
    async for key in client.scan_iter(count=1000):
        if SEEN_KEY.fullmatch(key.decode()) or any(re.fullmatch(pattern, key.decode()) for pattern in TIME_ONLY_KEYS):
            continue
        value, ttl = await client.dump(key), await client.pttl(key)
        if value is not None:
            out[key] = (value, ttl)
    return out


async def _seen(client: aioredis.Redis) -> dict[int, set[int]]:
    """Per group, the users the bot has heard from there."""
    out: dict[int, set[int]] = {}
    async for key in client.scan_iter(match="*:{*}:seen", count=1000):
        if (found := SEEN_KEY.fullmatch(key.decode())) is not None:
            out[int(found.group(1))] = {int(m) for m in await client.smembers(key)}
    return out


async def _chats_snapshot(client: ControlClient) -> dict[int, list[dict[str, Any]]]:
    """Every chat's messages as the sandbox shows them (text, caption, photo, buttons, edits, deleted)."""
    chats = (await client.http.get("/sandbox/chats")).json()
    return {chat["id"]: await client.messages(chat["id"]) for chat in chats}


async def _calls(client: ControlClient, after: int) -> Counter[str]:
    methods: Counter[str] = Counter()
    while True:
        page = await client.log(after=after)
        methods.update(item["method"] for item in page["items"])
        if not page["items"]:
            return methods
        after = page["next"]


def _log_problems(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if re.search(r"\b(ERROR|CRITICAL)\b|Traceback|Exception", line)]


# The test -----------------------------------------------------------------------------------------------------


async def _set_the_tables(client: ControlClient) -> tuple[list[Table], dict[str, Any]]:
    """A lobby, a running game of each of the five games (turn timers off, so that nothing moves by itself),
    a /settings menu, a /leave confirmation and a game picker on screen, and a user who started the bot but
    plays nowhere."""
    tables = []
    lobby = await table(client)
    await set_timer(client, lobby, 0)  # leaves the /settings menu in the group
    await open_lobby(client, lobby, LOBBY_GAME)
    tables.append(lobby)
    for game_id in GAME_IDS:
        t = await table(client)
        await set_timer(client, t, 0)
        await start_game(client, t, game_id)
        tables.append(t)
    leaving = tables[1]
    await client.send(leaving.chat_id, leaving.players[1]["id"], "/leave")
    await client.send(tables[2].chat_id, tables[2].players[1]["id"], "/new")  # the game picker
    onlooker = await client.user("بیننده", "onlooker")
    await client.send(onlooker["id"], onlooker["id"], "/start")
    return tables, onlooker


Place = tuple[int, int, int]  # chat, message, presser


def _places(
    chats: dict[int, list[dict[str, Any]]], oracle: Oracle
) -> tuple[list[Place], dict[tuple[int, int], list[str]]]:
    """Where presses come from: every bot message, in a group by each of its members (players, a member who
    does not play, one who never started the bot), in a private chat by its user; and the data on each."""
    places: list[Place] = []
    data_at: dict[tuple[int, int], list[str]] = {}
    for chat_id, messages in chats.items():
        shown = [m for m in messages if m["from_bot"] and not m["deleted"]]
        group = oracle.groups.get(chat_id)
        users = [u["id"] for u in group.members] if group else [chat_id]
        places += [(chat_id, m["message_id"], user) for m in shown for user in users]
        for m in shown:
            data_at[(chat_id, m["message_id"])] = [b["data"] for b in buttons(m) if "data" in b]
    return places, data_at


def _presses(places: list[Place], data_at: dict[tuple[int, int], list[str]], oracle: Oracle) -> tuple[list[Press], int]:
    """``PRESSES`` forged presses, a third of them in private chats; mostly mutations of data shown at the
    place pressed (or in its chat), the rest of any data on screen. Each draw has its own seeded generator,
    so a draw makes the same choices whatever came before it. Data the presser may really use is left out
    (counted): pressing it is no forgery."""
    pool = sorted({d for found in data_at.values() for d in found})
    fuzzer = Fuzzer(pool, sorted(oracle.groups))
    private = [p for p in places if p[0] > 0]
    group = [p for p in places if p[0] < 0]
    presses: list[Press] = []
    skipped = 0
    for draw in itertools.count():
        if len(presses) == PRESSES:
            return presses, skipped
        rng = fuzzer.rng = random.Random(f"{SEED}/{draw}")
        place = rng.choice(private if rng.random() < 0.35 else group)
        near = data_at.get(place[:2]) or [d for (chat, _), found in data_at.items() if chat == place[0] for d in found]
        mutation, data = fuzzer.mutate(rng.choice(near if near and rng.random() < 0.6 else pool))
        if data is not None and data in oracle.effective(*place):
            skipped += 1
            continue
        presses.append(Press(*place, data, mutation, draw))
    raise AssertionError("unreachable")


async def test_forged_callback_data_is_refused_and_changes_nothing(system: Harness) -> None:
    redis = aioredis.Redis.from_url(system.redis_url)
    store = Store.from_url(system.redis_url, system.keys)
    async with ControlClient(system.url) as client, leaving_no_task():
        try:
            tables, onlooker = await _set_the_tables(client)
            await settled(client, system)  # every board, hand, menu and reply of the set-up is drawn
            chats = await _chats_snapshot(client)
            switches = {
                (chat, m["message_id"], b["data"])
                for chat, messages in chats.items()
                if chat > 0
                for m in messages
                if not m["deleted"]
                for b in buttons(m)
                if b.get("data", "").startswith("u:")
            }
            oracle = Oracle(await _groups(store, tables), switches)
            places, data_at = _places(chats, oracle)
            kinds = {d.split(":", 1)[0] for found in data_at.values() for d in found}
            # the board's and the hands' buttons (plays or menus, as the position has them), the lobby's,
            # /settings', the /leave confirmation's and the game picker's are on screen
            assert {"l", "o", "s", "q", "new"} <= kinds and kinds & {"g", "n"} and kinds & {"h", "k"}, kinds
            hand_group = oracle.groups[tables[1 + GAME_IDS.index(HAND_GAME)].chat_id]
            assert all(hand_group.hand_ids.get(p["id"]) for p in hand_group.table.players)
            assert onlooker["id"] in {chat for chat, _, _ in places}
            presses, skipped = _presses(places, data_at, oracle)

            redis_before = await _redis_snapshot(redis)
            seen_before = await _seen(redis)
            read_before = time.monotonic()
            log_after = (await client.log())["next"]
            limit = asyncio.Semaphore(CONCURRENCY)

            async def press(p: Press) -> dict[str, Any]:
                async with limit:
                    return await client.press_forged(p.chat_id, p.message_id, p.user_id, p.data)

            started = time.monotonic()
            answers = await all_of(*(press(p) for p in presses))
            seconds = time.monotonic() - started
            await settled(client, system)  # anything a press set off has happened by now

            wrong = [
                (p, a)
                for p, a in zip(presses, answers, strict=True)
                if not (a["answered"] and a["show_alert"] and a["text"] in REFUSALS and not a["url"])
            ]
            assert not wrong, f"{len(wrong)} presses not refused with an alert, e.g. {wrong[:5]}"
            read_after = time.monotonic()
            redis_after = await _redis_snapshot(redis)
            created = sorted(set(redis_after) - set(redis_before))
            deleted = sorted(set(redis_before) - set(redis_after))
            changed = sorted(k for k in set(redis_before) & set(redis_after) if redis_before[k][0] != redis_after[k][0])
            assert not (created or deleted or changed), (created, deleted, changed)
            # a time to live only runs down: by at least the time between the two readings (1 s of slack)
            passed = (read_after - read_before) * 1000
            refreshed = [
                k
                for k, (_, ttl) in redis_before.items()
                if (ttl < 0) != (redis_after[k][1] < 0) or (ttl >= 0 and redis_after[k][1] > ttl - passed + 1000)
            ]
            assert not refreshed, refreshed
            pressers = {(p.chat_id, p.user_id) for p in presses if p.chat_id < 0}
            for chat_id, users in (await _seen(redis)).items():
                gained = {(chat_id, user) for user in users - seen_before.get(chat_id, set())}
                assert gained <= pressers and seen_before.get(chat_id, set()) <= users, (chat_id, gained)
            assert await _chats_snapshot(client) == chats  # no message new, edited or deleted, in any chat
            calls = await _calls(client, log_after)
            assert set(calls) <= QUIET_METHODS and calls["answerCallbackQuery"] == len(presses), calls
            assert system.bot is not None
            problems = _log_problems(system.bot.log_path)
            assert not problems, problems[:10]
        finally:
            await store.close()
            await redis.aclose()

    reached = Counter(p.mutation for p in presses if _reaches_a_handler(p))
    print(
        f"\n{len(presses)} forged presses ({skipped} legitimate ones left out) in {seconds:.1f} s,"
        f" {len(presses) / seconds:.0f}/s; {sum(reached.values())} got past the patterns to a handler;"
        f" {len(redis_before)} Redis keys unchanged; mutations: {dict(Counter(p.mutation for p in presses))};"
        f" reached a handler: {dict(reached)}; answers: {dict(Counter(a['text'] for a in answers))}"
    )


async def test_a_game_pick_opens_no_lobby_in_private_and_deletes_only_the_picker(system: Harness) -> None:
    """``new:<game>`` forged into a private chat is stale and opens nothing there; forged onto another message
    of a group (one without that button) it is stale too and opens or deletes nothing; the picker's own press
    opens the lobby, and is refused with an alert while a game is open, and sends nothing."""
    store = Store.from_url(system.redis_url, system.keys)
    async with ControlClient(system.url) as client, leaving_no_task():
        try:
            t = await table(client)
            host, guest = t.players
            private = await client.messages(host["id"])
            welcome = next(m for m in private if m["from_bot"])
            answer = await client.press_forged(host["id"], welcome["message_id"], host["id"], "new:coin_age")
            assert (answer["text"], answer["show_alert"]) == (texts.STALE, True)
            await settled(client, system)
            assert await client.messages(host["id"]) == private and await store.load(host["id"]) is None

            picker = await _reply(client, t.chat_id, host["id"], "/new")
            assert any(b["data"] == "new:conqueror" for b in buttons(picker))
            games = await _reply(client, t.chat_id, host["id"], "/games")
            before = await client.messages(t.chat_id)
            answer = await client.press_forged(t.chat_id, games["message_id"], guest["id"], "new:coin_age")
            assert (answer["text"], answer["show_alert"]) == (texts.STALE, True)
            await settled(client, system)
            assert await client.messages(t.chat_id) == before and await store.load(t.chat_id) is None

            answer = await client.press(t.chat_id, picker["message_id"], host["id"], "new:coin_age")
            assert answer["answered"] and not answer["text"]
            lobby = await client.wait_for(
                t.chat_id, lambda ms: next((m for m in ms if "اتاق انتظار" in (m["text"] or "")), None)
            )
            record = await store.load(t.chat_id)
            assert record is not None and record.phase == "lobby" and record.creator.user_id == host["id"]
            messages = await client.messages(t.chat_id)
            assert not any(m["deleted"] for m in messages if m["message_id"] != picker["message_id"])

            second = await _reply(client, t.chat_id, host["id"], "/new")  # a picker shown while a game is open
            messages = await client.messages(t.chat_id)
            answer = await client.press(t.chat_id, second["message_id"], host["id"], "new:conqueror")
            assert (answer["text"], answer["show_alert"]) == (texts.GAME_EXISTS, True)
            await settled(client, system)
            assert await client.messages(t.chat_id) == messages and lobby in messages
        finally:
            await store.close()


async def _reply(client: ControlClient, chat_id: int, user_id: int, text: str) -> dict[str, Any]:
    """Send a command and return the bot's reply to it."""
    sent = await client.send(chat_id, user_id, text)

    def reply(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in messages if m["reply_to_message_id"] == sent["message_id"]), None)

    found: dict[str, Any] = await client.wait_for(chat_id, reply)
    return found
