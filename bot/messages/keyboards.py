"""Inline keyboards and their callback data. All callback data stays within Telegram's 64 bytes.

Callback data forms:
  ``g:<game>:<version>:<code>``  play an action          ``n:<game>:<version>:<prefix>``  open a menu level
  ``h:<chat>[_<topic>]:<version>:<code>`` and ``k:...:<prefix>``  the same from a player's private message
  ``l:<version>:<op>``           lobby join/leave/start/cancel    ``o:<version>:<field>``  toggle an option
  ``new:<game>``                 open a lobby for a game (from /new without a game)
  ``s:<setting>:<value>``        change a setting (/settings, bot/handlers/admin.py)
  ``again:<version>``            play again after the result    ``q:<seed>:<user>:y|n``  confirm /leave
  ``f:cancel:<seed>:<user>:y|n`` and ``f:kick<seat>:...``  confirm /cancel or /kick of a running game
  ``u:on`` / ``u:off``           one's own turn notices, in the private chat (bot/handlers/notify.py)
  ``r:<game>``                   that game's rules, under /rules (bot/handlers/info.py), in any chat
  ``c:<version>:add[:<level>]``, ``c:<version>:back``, ``c:<version>:rm:<n>``  computer players in a lobby
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import InlineKeyboardButtonLimit

from ai import LEVELS
from bot.games import PLAYABLE, PRESENTERS
from bot.messages import texts
from bot.messages.menus import Choice, Menu

MAX_CALLBACK = int(InlineKeyboardButtonLimit.MAX_CALLBACK_DATA)
RULES_DATA = "r:"  # + a game's id: its rules (bot/handlers/info.py)
CONFIRM = "✅ تأیید"


def _one_of(words: Iterable[str]) -> str:
    """A regex group matching exactly one of ``words`` (and nothing when there are none)."""
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return f"(?:{'|'.join(re.escape(w) for w in ordered)})" if ordered else "(?!)"


# The fields of callback data. Only ASCII digits (``\d`` would take ``۱۲`` too, and ``int`` reads it), no
# leading zeros (one spelling per value), and bounded so that every number fits the range it stands for.
_GAME = _one_of(PLAYABLE)  # a game the bot can run
_VERSION = "(?:0|[1-9][0-9]{0,17})"  # a record's version: Redis INCR's int64, never near 10**18
_GROUP = "-[1-9][0-9]{0,15}"  # a group's id: negative, at most 52 significant bits (Telegram's Bot API)
_TOPIC = "[1-9][0-9]{0,9}"  # a forum topic's id: the message id that opened it (32 bits)
_USER = "[1-9][0-9]{0,15}"  # a user's id: positive, at most 52 significant bits
_SEED = "(?:0|[1-9][0-9]{0,17}|[1-4][0-9]{18})"  # a game's seed: secrets.randbits(62) < 4.7 * 10**18 < 2**63
_SECONDS = "(?:0|[1-9][0-9]{0,8})"  # a turn time or lobby idle time in /settings, 0 for none
_CODE = "[!-~]{1,40}"  # an action code: short printable ASCII, at most 40 bytes (rules/contract.py)
_PREFIX = "[!-~]{0,40}"  # a menu level: a code's beginning, "" for the top
_TOGGLE = _one_of(t.field for p in PRESENTERS.values() for t in p.toggles)
_GAME_TOGGLE = _one_of(f"{g}.{t.field}" for g in PLAYABLE for t in PRESENTERS[g].toggles)
_LEVEL = _one_of(LEVELS)  # a computer player's level
_COMPUTER = "[1-9][0-9]?"  # a computer player's number in its game (a game has at most a few seats)
# the group (and topic) a private message is about, and the version: named for parse_private
_PRIVATE = rf"(?P<chat>{_GROUP})(?:_(?P<topic>{_TOPIC}))?:(?P<version>{_VERSION})"

# What each handler accepts, in full (``\Z``: not even a trailing newline). Anything else (forged,
# truncated, from an older bot, another chat's) falls through to the "stale" alert (bot/app.py).
PATTERNS = {
    "action": rf"^g:{_GAME}:{_VERSION}:{_CODE}\Z",
    "menu": rf"^n:{_GAME}:{_VERSION}:{_PREFIX}\Z",
    "lobby": rf"^l:{_VERSION}:(?:join|leave|start|cancel)\Z",
    "option": rf"^o:{_VERSION}:{_TOGGLE}\Z",
    "pick": rf"^new:{_GAME}\Z",
    "settings": (
        rf"^s:(?:t:{_SECONDS}|r:[01]|m:[1-9][0-9]?|l:{_SECONDS}|g:{_GAME}|o:{_GAME_TOGGLE}"
        rf"|c:(?:0|[1-9][0-9]?)|x:(?:off|{_LEVEL}))\Z"
    ),
    "again": rf"^again:{_VERSION}\Z",
    "private_action": rf"^h:{_PRIVATE}:(?P<rest>{_CODE})\Z",
    "private_menu": rf"^k:{_PRIVATE}:(?P<rest>{_PREFIX})\Z",
    "quit": rf"^q:{_SEED}:{_USER}:[yn]\Z",
    "confirm": rf"^f:(?:cancel|kick[0-9]):{_SEED}:(?:0|{_USER}):[yn]\Z",  # 0: any admin (an anonymous one asked)
    "notices": r"^u:(?:on|off)\Z",
    "rules": rf"^r:{_GAME}\Z",
    "computer": rf"^c:{_VERSION}:(?:add(?::{_LEVEL})?|back|rm:{_COMPUTER})\Z",
}

# Where each kind of button is ever shown, so where a press of it may come from: /settings and the /leave
# confirmation are group messages; a player's hand and their turn notices are private messages
# (bot/messages/hands.py, notices.py); the board, the lobby (with its computer players), the game picker (/new)
# and the result's "play again" are in a group or, for a game against computer players, in a person's private
# chat. Checked by bot/handlers/guards.py.
SHOWN_IN: dict[str, Literal["group", "private", "anywhere"]] = {
    "action": "anywhere",
    "menu": "anywhere",
    "lobby": "anywhere",
    "option": "anywhere",
    "pick": "anywhere",
    "settings": "group",
    "again": "anywhere",
    "private_action": "private",
    "private_menu": "private",
    "quit": "group",
    "confirm": "anywhere",
    "notices": "private",
    "rules": "anywhere",
    "computer": "anywhere",
}


def checked_data(text: str) -> str:
    """Callback data, refused here rather than by Telegram when too long."""
    if len(text.encode()) > MAX_CALLBACK:
        raise ValueError(f"callback data over {MAX_CALLBACK} bytes: {text!r}")
    return text


def has_button(markup: InlineKeyboardMarkup | None, data: str) -> bool:
    """True if ``markup`` has a button with this callback data: the pressed message really shows it."""
    return markup is not None and any(b.callback_data == data for row in markup.inline_keyboard for b in row)


def _rows(buttons: Sequence[InlineKeyboardButton], columns: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + columns]) for i in range(0, len(buttons), columns)]


def _grouped_rows(
    buttons: Sequence[tuple[str, InlineKeyboardButton]], columns: int, by: int
) -> list[list[InlineKeyboardButton]]:
    """Rows of ``columns``, each run of buttons whose keys share their first ``by`` segments starting a row
    of its own (``by`` 0: one run)."""
    rows: list[list[InlineKeyboardButton]] = []
    run: list[InlineKeyboardButton] = []
    group = None
    for key, button in buttons:
        here = key.split(".")[:by] if by else None
        if run and here != group:
            rows += _rows(run, columns)
            run = []
        run.append(button)
        group = here
    return rows + _rows(run, columns)


def confirm(what: str, seed: int, asker: int, yes: str, no: str) -> InlineKeyboardMarkup:
    """Yes or no to ``what`` (``cancel``, ``kick<seat>``) in the game of ``seed``, for ``asker`` alone (0: for
    any admin, when an anonymous admin asked)."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(yes, callback_data=checked_data(f"f:{what}:{seed}:{asker}:y")),
                InlineKeyboardButton(no, callback_data=checked_data(f"f:{what}:{seed}:{asker}:n")),
            ]
        ]
    )


def game_picker(allowed: Callable[[str], bool] = lambda _: True) -> InlineKeyboardMarkup:
    """A button per playable game that the group allows."""
    buttons = [
        InlineKeyboardButton(f"{PRESENTERS[g.id].emoji} {g.title}", callback_data=checked_data(f"new:{g.id}"))
        for g in PLAYABLE.values()
        if allowed(g.id)
    ]
    return InlineKeyboardMarkup(_rows(buttons, 2))


def lobby(
    version: int,
    game_id: str,
    options: BaseModel,
    join_link: str,
    computers: Sequence[tuple[int, str]] = (),
    private: bool = False,
    *,
    joinable: bool = True,
    room_for_computers: bool = True,
) -> InlineKeyboardMarkup:
    """The lobby's buttons; ``computers`` are its computer players (number, name), each with a button that
    takes it out. A lobby in a private chat has no joining: one person plays there, against computers. A full
    lobby offers no joining (``joinable``), and no computer player where none may be added."""
    join = [InlineKeyboardButton("✋ پیوستن", callback_data=checked_data(f"l:{version}:join"))] if joinable else []
    rows = [
        [*join, InlineKeyboardButton("🚪 بیرون آمدن", callback_data=checked_data(f"l:{version}:leave"))],
        [
            InlineKeyboardButton("▶️ شروع", callback_data=checked_data(f"l:{version}:start")),
            InlineKeyboardButton("✖️ لغو", callback_data=checked_data(f"l:{version}:cancel")),
        ],
    ][1 if private else 0 :]
    if room_for_computers:
        rows.append([InlineKeyboardButton(texts.ADD_COMPUTER, callback_data=checked_data(f"c:{version}:add"))])
    removes = [
        InlineKeyboardButton(
            texts.REMOVE_COMPUTER.format(name=label), callback_data=checked_data(f"c:{version}:rm:{n}")
        )
        for n, label in computers
    ]
    rows += _rows(removes, 2)
    for toggle in PRESENTERS[game_id].toggles:
        mark = "✅" if getattr(options, toggle.field) else "⬜️"
        rows.append(
            [InlineKeyboardButton(f"{mark} {toggle.label}", callback_data=checked_data(f"o:{version}:{toggle.field}"))]
        )
    if not private and joinable:
        rows.append([InlineKeyboardButton("🤖 پیوستن از راه گفتگوی خصوصی با ربات", url=join_link)])
    return InlineKeyboardMarkup(rows)


def menu(game_id: str, codes: Sequence[str]) -> Menu:
    """The menu of a seat's legal action codes in a game (bot/messages/menus.py)."""
    return Menu.of(PRESENTERS[game_id], codes)


def button_label(game_id: str, choice: Choice, view: Any) -> str:
    """A menu button's text: its node's label, or the whole chain's when it skips levels."""
    presenter = PRESENTERS[game_id]
    paths = [item.key.split(".") for item in choice.chain]
    return presenter.menu_label(paths[0], view) if len(paths) == 1 else presenter.chain_label(paths, view)


def computer_levels(version: int) -> InlineKeyboardMarkup:
    """The lobby's second level after «➕ بازیکن رایانه‌ای»: one button per level, and the way back."""
    levels = [
        InlineKeyboardButton(
            texts.PICK_LEVEL.format(level=level.title), callback_data=checked_data(f"c:{version}:add:{key}")
        )
        for key, level in LEVELS.items()
    ]
    back = InlineKeyboardButton(texts.BACK, callback_data=checked_data(f"c:{version}:back"))
    return InlineKeyboardMarkup([levels, [back]])


def game_menu(
    game_id: str,
    version: int,
    codes: Sequence[str],
    prefix: str,
    view: Any,
    route: tuple[str, str] | None = None,
    extra: Sequence[InlineKeyboardButton] = (),
) -> InlineKeyboardMarkup:
    """The choices at menu level ``prefix`` ("" for the level the menu opens on), a way back to the level
    the player came from, and ``extra`` buttons last. Levels with one choice are skipped, and in a game that
    confirms moves a move reached through them opens a level of its own with the confirm button
    (bot/messages/menus.py).

    ``route`` is the (action, menu) callback prefixes: ``g:<game>`` / ``n:<game>`` for the group's board
    (the default), ``h:<chat>`` / ``k:<chat>`` for a player's private message about the game in that chat."""
    presenter = PRESENTERS[game_id]
    act, nav = route or (f"g:{game_id}", f"n:{game_id}")
    levels = menu(game_id, codes)
    prefix = prefix or levels.top()
    buttons = []
    if presenter.confirm_moves and prefix in codes:  # the move is chosen: play it, or go back
        buttons.append((prefix, InlineKeyboardButton(CONFIRM, callback_data=checked_data(f"{act}:{version}:{prefix}"))))
    for choice in levels.choices(prefix):
        data = checked_data(f"{act if choice.plays else nav}:{version}:{choice.key}")
        buttons.append((choice.key, InlineKeyboardButton(button_label(game_id, choice, view), callback_data=data)))
    rows = _grouped_rows(buttons, presenter.menu_columns(prefix), presenter.menu_rows_by(prefix))
    up = levels.back(prefix)
    if up is not None:
        rows.append([InlineKeyboardButton("↩️ بازگشت", callback_data=checked_data(f"{nav}:{version}:{up}"))])
    rows += [[button] for button in extra]
    return InlineKeyboardMarkup(rows)


def private_route(chat_id: int, thread_id: int | None) -> tuple[str, str]:
    """Callback prefixes of a private message about the game in a chat (topic after ``_``)."""
    where = f"{chat_id}" if thread_id is None else f"{chat_id}_{thread_id}"
    return f"h:{where}", f"k:{where}"


def parse_private(data: str) -> tuple[int, int | None, str, str]:
    """(chat, topic, version, rest) of ``h:``/``k:`` callback data. Data matched by PATTERNS always parses,
    into numbers bounded by its fields; anything else raises ValueError."""
    match = re.match(PATTERNS["private_action"], data) or re.match(PATTERNS["private_menu"], data)
    if match is None:
        raise ValueError(f"not a private message's callback data: {data[:80]!r}")
    topic = match["topic"]
    return int(match["chat"]), (int(topic) if topic else None), match["version"], match["rest"]
