"""Callback data: every button the bot makes reaches its own handler, in the chats where it is shown, and
nothing else reaches any handler (malformed, overlong, non-ASCII, huge or negative numbers, unknown games)."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from telegram import CallbackQuery, Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatType

from bot.app import BUTTONS
from bot.games import PLAYABLE
from bot.handlers.admin import settings_keyboard
from bot.handlers.guards import CHAT_TYPES, ButtonHandler, pressed_where_shown
from bot.handlers.info import rules_picker
from bot.handlers.notify import switch_button
from bot.messages import keyboards
from bot.messages.keyboards import MAX_CALLBACK, PATTERNS, SHOWN_IN, game_menu, game_picker, lobby, parse_private
from bot.plumbing.group_settings import GroupSettings
from rules import GAMES

BIGGEST_CHAT = -(2**52)  # Telegram: ids have at most 52 significant bits
BIGGEST_TOPIC = 2**31 - 1
BIGGEST_SEED = 2**62 - 1  # secrets.randbits(62) in bot/handlers/lobby.py
BIGGEST_VERSION = 10**17  # far beyond any game's (one INCR a change)


def kinds_matching(data: str) -> list[str]:
    return [kind for kind, pattern in PATTERNS.items() if re.match(pattern, data)]


def _menu_data(game_id: str, version: int, codes: list[str], view: object, route: tuple[str, str] | None) -> set[str]:
    """The data of every button at every level of one position's menu."""
    found: set[str] = set()
    pending, seen = [""], set()
    while pending:
        prefix = pending.pop()
        if prefix in seen:
            continue
        seen.add(prefix)
        for row in game_menu(game_id, version, codes, prefix, view, route=route).inline_keyboard:
            for button in row:
                data = str(button.callback_data)
                found.add(data)
                kind, _, _, key = data.split(":", 3)
                if kind in ("n", "k"):
                    pending.append(key)
    return found


def _game_data(game_id: str) -> set[str]:
    """Menus of seeded random positions, on the group's board and in a private message (with a topic too)."""
    game = GAMES[game_id]
    found: set[str] = set()
    routes = [None, keyboards.private_route(-1001000000042, None), keyboards.private_route(BIGGEST_CHAT, BIGGEST_TOPIC)]
    for seed in range(2):
        state = game.setup(game.max_players, seed)
        rng = random.Random(seed)
        for step in range(300):
            seats = game.to_act(state)
            if not seats:
                break
            if step % 9 == 0:
                codes = [game.encode(a) for a in game.legal_actions(state, seats[0])]
                for route in routes:
                    view = game.view(state, seats[0])
                    found |= _menu_data(game_id, rng.choice([1, 97, BIGGEST_VERSION]), codes, view, route)
            state = game.apply(state, seats[0], rng.choice(game.legal_actions(state, seats[0]))).state
    return found


def _made() -> dict[str, set[str]]:
    """Every kind of data the bot makes (the builders in bot/messages and bot/handlers), by kind."""
    made: dict[str, set[str]] = {kind: set() for kind in PATTERNS}
    everything: set[str] = set()
    for game_id in PLAYABLE:
        options = PLAYABLE[game_id].options_model()
        for version in (1, 23, BIGGEST_VERSION):
            keyboard = lobby(version, game_id, options, "https://t.me/bot?start=x").inline_keyboard
            everything |= {str(b.callback_data) for row in keyboard for b in row if b.callback_data}
            # with computer players (their remove buttons), in a private chat, and their levels' menu
            computers = [(n, f"رایانه {n}") for n in (1, 2, 99)]
            keyboard = lobby(version, game_id, options, "", computers=computers, private=True).inline_keyboard
            keyboard += keyboards.computer_levels(version).inline_keyboard
            everything |= {str(b.callback_data) for row in keyboard for b in row if b.callback_data}
        everything |= _game_data(game_id)
    everything |= {str(b.callback_data) for row in game_picker().inline_keyboard for b in row}
    for settings in (
        GroupSettings(),
        GroupSettings(turn_seconds=0, reminder=False, lobby_idle_seconds=0, disabled_games=["coin_age"]),
    ):
        keyboard = settings_keyboard(settings, (30, 60, 120, 300, 3600, 86400, 10**8)).inline_keyboard
        everything |= {str(b.callback_data) for row in keyboard for b in row if b.callback_data}
    # the result's button (bot/messages/board.py) and the /leave confirmation (bot/handlers/lobby.py)
    everything |= {f"again:{v}" for v in (1, BIGGEST_VERSION)}
    everything |= {f"q:{seed}:{user}:{c}" for seed in (0, BIGGEST_SEED) for user in (1, 2**52) for c in "yn"}
    # the /cancel and /kick confirmations (bot/handlers/lobby.py, admin.py)
    for what in ("cancel", "kick0", "kick5"):
        for seed, user in ((0, 1), (BIGGEST_SEED, 2**52), (7, 0)):  # 0: any admin (an anonymous one asked)
            keyboard = keyboards.confirm(what, seed, user, "بله", "نه").inline_keyboard
            everything |= {str(b.callback_data) for row in keyboard for b in row}
    # a turn notice's switch, and /notify's (bot/handlers/notify.py)
    everything |= {str(switch_button(on).callback_data) for on in (True, False)}
    everything |= {str(b.callback_data) for row in rules_picker().inline_keyboard for b in row}  # /rules
    for data in everything:
        kinds = kinds_matching(data)
        assert len(kinds) == 1, (data, kinds)
        made[kinds[0]].add(data)
    return made


MADE = _made()


def test_every_kind_has_one_handler_and_one_place() -> None:
    assert set(BUTTONS) == set(PATTERNS) == set(SHOWN_IN)


def test_the_bot_s_own_data_reaches_exactly_its_handler() -> None:
    for kind, found in MADE.items():
        assert found, f"no data of kind {kind} was made"
        for data in found:
            assert data.isascii() and len(data) <= MAX_CALLBACK, data
    assert {d.split(":", 1)[0] for d in MADE["action"] | MADE["menu"]} == {"g", "n"}
    assert {d.split(":", 1)[0] for d in MADE["private_action"] | MADE["private_menu"]} == {"h", "k"}


def test_the_game_ids_in_data_are_games_that_exist() -> None:
    for game_id in PLAYABLE:
        assert kinds_matching(f"new:{game_id}") == ["pick"]
        assert kinds_matching(f"g:{game_id}:3:x") == ["action"]
    for unknown in ("chess", "coin_agex", "COIN_AGE", "coin", "coin_age_", "_", ""):
        assert not kinds_matching(f"new:{unknown}")
        assert not kinds_matching(f"g:{unknown}:3:x")
        assert not kinds_matching(f"s:g:{unknown}")


FORGED = [
    "",
    ":",
    "g",
    "g:",
    "g::1:x",
    "g:coin_age::x",
    "g:coin_age:1:",
    "g:coin_age:12",
    "g:coin_age:x:p",
    "g:coin_age:-1:x",
    "g:coin_age:01:x",  # a second spelling of version 1
    "g:coin_age:۱۲:x",  # Persian digits: \d would take them and int() reads them
    f"g:coin_age:{10**30}:x",
    f"g:coin_age:{10**18}:x",
    "g:coin_age:1:x\n",  # $ would match before a trailing newline
    "g:coin_age:1:x ",
    " g:coin_age:1:x",
    "g:coin_age:1:" + "x" * 41,  # longer than any action code (rules/contract.py: ≤ 40 bytes)
    "g:coin_age:1:کد",
    "G:coin_age:1:x",
    "g;coin_age;1;x",
    "n:coin_age:1",
    "n:coin_age:1:\n",
    "n:chess:1:",
    "h:1001:1:x",  # a private message is about a group: negative
    "h:-0:1:x",
    "h:-01:1:x",
    f"h:-{10**16}:1:x",
    f"h:-{10**30}:1:x",
    "h:-100:1:",
    "h::1:x",
    "h:-100_:1:x",
    "h:-100_0:1:x",
    "h:-100_-5:1:x",
    f"h:-100_{10**10}:1:x",
    "h:-100_1_2:1:x",
    "h:-100:-1:x",
    "k:-100:1",
    "k:-100_:1:",
    f"k:-100:{10**30}:",
    "l:1:explode",
    "l:1:join ",
    "l:1:JOIN",
    "l::join",
    "l:-1:join",
    f"l:{10**30}:join",
    "o:12:",
    "o:12:bogus_option",
    "o:01:farmers",
    "new:",
    "new:coin_age:1",
    "new:coin_age\n",
    "s:",
    "s:t:",
    "s:t:-30",
    "s:t:030",
    "s:t:۳۰",
    f"s:t:{10**30}",
    "s:t:" + "9" * 5000,  # int() refuses strings of over 4300 digits
    "s:r:2",
    "s:m:0",
    "s:m:100",
    "s:x:1",
    "s:x:expert",
    "s:x:",
    "s:c:01",
    "s:c:100",
    "s:c:-1",
    "c:1:add:expert",
    "c:1:add:",
    "c:1:add:easy:1",
    "c:1:rm:0",
    "c:1:rm:100",
    "c:1:rm:",
    "c:1:rm:-1",
    "c:01:add",
    "c:-1:add",
    "c:1:back:",
    "c::add",
    "s:g:",
    "s:o:coin_age",
    "s:o:coin_age.farmers",
    "s:o:carcassonne.farmers.x",
    "again:",
    "again:-1",
    f"again:{10**30}",
    "again:1:2",
    "q:1:2:",
    "q:1:2:x",
    "q::2:y",
    "q:1::y",
    "q:1:-2:y",
    "q:1:0:y",
    f"q:{10**19}:2:y",
    f"q:1:{10**16}:y",
    "q:1:2:y\n",
]


@pytest.mark.parametrize("data", FORGED)
def test_malformed_data_reaches_no_handler(data: str) -> None:
    assert not kinds_matching(data)


def _mutations(rng: random.Random, data: str) -> str:
    fields = data.split(":")
    i = rng.randrange(len(fields))
    match rng.randrange(6):
        case 0:
            fields[i] = str(rng.choice([0, 1, -1, 10**15, -(10**15), 10**17, 2**63, 10**30, -(10**30)]))
        case 1:
            fields[i] = fields[i] + rng.choice(["0", "_", "-", "9" * rng.randrange(1, 25), "۱", "."])
        case 2:
            fields[i] = ""
        case 3:
            fields.insert(i, rng.choice(["", "1", "-1", "x"]))
        case 4:
            fields[i] = fields[i][: rng.randrange(len(fields[i]) + 1)]
        case _:
            fields[i] = "".join(rng.choice("0123456789-_.:") for _ in range(rng.randrange(1, 20)))
    return ":".join(fields)


def test_private_data_that_matches_always_parses_into_bounded_numbers() -> None:
    rng = random.Random(12)
    private = sorted(MADE["private_action"] | MADE["private_menu"])
    matched = 0
    for _ in range(20000):
        data = _mutations(rng, rng.choice(private))
        if not (kinds_matching(data) and data[0] in "hk"):
            with pytest.raises(ValueError):
                parse_private(data)
            continue
        matched += 1
        chat, topic, version, rest = parse_private(data)
        assert -(10**16) < chat < 0 and (topic is None or 0 < topic < 10**10)
        assert version.isdigit() and len(version) <= 18 and len(rest) <= 40
    for data in private:
        chat, topic, version, rest = parse_private(data)
        assert data == f"{data[0]}:{chat}{'' if topic is None else f'_{topic}'}:{version}:{rest}"
    assert matched > 1000  # the mutations also hit the patterns


def test_mutated_data_matches_at_most_one_pattern_and_stays_small() -> None:
    rng = random.Random(7)
    every = sorted(set().union(*MADE.values()))
    for _ in range(20000):
        data = _mutations(rng, rng.choice(every))
        kinds = kinds_matching(data)
        assert len(kinds) <= 1, (data, kinds)
        if kinds:
            assert data.isascii()
            assert all(-(2**63) < n < 2**63 for n in _numbers(kinds[0], data)), data


def _numbers(kind: str, data: str) -> list[int]:
    """The numeric fields of matched data (not the action codes, which are the game's)."""
    fields = data.split(":")
    if kind in ("private_action", "private_menu"):
        chat, topic, version, _ = parse_private(data)
        return [chat, int(version)] + ([topic] if topic is not None else [])
    if kind in ("action", "menu"):
        return [int(fields[2])]
    if kind == "pick":
        return []
    if kind == "settings":
        return [int(fields[2])] if fields[1] in "trml" else []
    if kind == "confirm":
        return [int(fields[2]), int(fields[3])]  # the seed, the user
    return [int(f) for f in fields[1:3] if f.isdigit()]  # lobby, option, again: the version; quit: seed, user


# The chat-type guard, on real Update objects ---------------------------------------------------------------

_WHEN = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)


def _press(data: str | None, chat_type: str | None, shown: str | None = "") -> Update:
    """A press of ``data`` on a message whose one button carries ``shown`` (by default ``data`` itself)."""
    chat = Chat(id=-1001000000001 if chat_type != ChatType.PRIVATE else 42, type=chat_type or ChatType.PRIVATE)
    on = data if shown == "" else shown
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data=on)]]) if on else None
    message = Message(message_id=5, date=_WHEN, chat=chat, reply_markup=markup) if chat_type is not None else None
    query = CallbackQuery(
        id="1",
        from_user=User(id=42, first_name="x", is_bot=False),
        chat_instance="c",
        data=data,
        message=message,
        inline_message_id=None if message is not None else "inline",
    )
    return Update(update_id=1, callback_query=query)


@pytest.mark.parametrize("kind", sorted(PATTERNS))
def test_each_kind_is_taken_only_in_the_chats_where_it_is_shown(kind: str) -> None:
    handler = ButtonHandler(kind, BUTTONS[kind])
    data = sorted(MADE[kind])[0]
    shown = CHAT_TYPES[SHOWN_IN[kind]]  # "group", "private", or "anywhere" a person chats with the bot
    assert shown <= {ChatType.GROUP, ChatType.SUPERGROUP, ChatType.PRIVATE}
    for chat_type in (ChatType.GROUP, ChatType.SUPERGROUP, ChatType.PRIVATE, ChatType.CHANNEL, ChatType.SENDER):
        assert bool(handler.check_update(_press(data, chat_type))) == (chat_type in shown), (data, chat_type)
        assert pressed_where_shown(_press(data, chat_type), kind) == (chat_type in shown)
    assert not handler.check_update(_press(data, None))  # an inline message: no chat, never ours


@pytest.mark.parametrize("kind", sorted(PATTERNS))
def test_empty_overlong_and_non_ascii_data_is_no_handler_s(kind: str) -> None:
    handler = ButtonHandler(kind, BUTTONS[kind])
    where = ChatType.PRIVATE if SHOWN_IN[kind] == "private" else ChatType.SUPERGROUP
    data = sorted(MADE[kind])[0]
    for bad in (None, "", data + "x" * 70, data + "\u200c", data + "\ud800", "۱" + data, " " + data):
        assert not handler.check_update(_press(bad, where)), bad


@pytest.mark.parametrize("kind", sorted(PATTERNS))
def test_data_that_is_not_on_the_pressed_message_is_no_handler_s(kind: str) -> None:
    """Valid data pressed on another message (one without that button, or with none) reaches no handler: no
    handler then acts on, edits or deletes a message its button was never on."""
    handler = ButtonHandler(kind, BUTTONS[kind])
    where = ChatType.PRIVATE if SHOWN_IN[kind] == "private" else ChatType.SUPERGROUP
    data, *others = sorted(MADE[kind])
    assert handler.check_update(_press(data, where))
    assert not handler.check_update(_press(data, where, shown=None))
    assert not handler.check_update(_press(data, where, shown=others[0] if others else "x:other"))


def test_has_button_tells_whether_the_pressed_message_shows_the_data() -> None:
    picker = game_picker()
    assert keyboards.has_button(picker, "new:coin_age")
    assert not keyboards.has_button(picker, "new:chess") and not keyboards.has_button(None, "new:coin_age")
