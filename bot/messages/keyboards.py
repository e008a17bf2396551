"""Inline keyboards and their callback data. All callback data stays within Telegram's 64 bytes.

Callback data forms:
  ``g:<game>:<version>:<code>``  play an action          ``n:<game>:<version>:<prefix>``  open a menu level
  ``h:<chat>[_<topic>]:<version>:<code>`` and ``k:...:<prefix>``  the same from a player's private message
  ``l:<version>:<op>``           lobby join/leave/start/cancel    ``o:<version>:<field>``  toggle an option
  ``new:<game>``                 open a lobby for a game (from /new without a game)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.games import PLAYABLE, PRESENTERS
from bot.messages.menus import menu_items, parent

MAX_CALLBACK = 64
CONFIRM = "✅ تأیید"

# What each handler accepts; anything else (forged, truncated, from an older bot) gets the "stale" alert.
PATTERNS = {
    "action": r"^g:[a-z_]+:\d+:[!-~]+$",
    "menu": r"^n:[a-z_]+:\d+:[!-~]*$",
    "lobby": r"^l:\d+:(join|leave|start|cancel)$",
    "option": r"^o:\d+:[a-z_]+$",
    "pick": r"^new:[a-z_]+$",
    "settings": r"^s:([trml]:\d+|g:[a-z_]+|o:[a-z_]+\.[a-z_]+)$",
    "again": r"^again:\d+$",
    "private_action": r"^h:-?\d+(_\d+)?:\d+:[!-~]+$",
    "private_menu": r"^k:-?\d+(_\d+)?:\d+:[!-~]*$",
    "quit": r"^q:\d+:\d+:[yn]$",
}


def checked_data(text: str) -> str:
    """Callback data, refused here rather than by Telegram when too long."""
    if len(text.encode()) > MAX_CALLBACK:
        raise ValueError(f"callback data over {MAX_CALLBACK} bytes: {text!r}")
    return text


def _rows(buttons: Sequence[InlineKeyboardButton], columns: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + columns]) for i in range(0, len(buttons), columns)]


def game_picker(allowed: Callable[[str], bool] = lambda _: True) -> InlineKeyboardMarkup:
    """A button per playable game that the group allows."""
    buttons = [
        InlineKeyboardButton(f"{PRESENTERS[g.id].emoji} {g.title}", callback_data=checked_data(f"new:{g.id}"))
        for g in PLAYABLE.values()
        if allowed(g.id)
    ]
    return InlineKeyboardMarkup(_rows(buttons, 2))


def lobby(version: int, game_id: str, options: BaseModel, join_link: str) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton("✋ پیوستن", callback_data=checked_data(f"l:{version}:join")),
            InlineKeyboardButton("🚪 بیرون آمدن", callback_data=checked_data(f"l:{version}:leave")),
        ],
        [
            InlineKeyboardButton("▶️ شروع", callback_data=checked_data(f"l:{version}:start")),
            InlineKeyboardButton("✖️ لغو", callback_data=checked_data(f"l:{version}:cancel")),
        ],
    ]
    for toggle in PRESENTERS[game_id].toggles:
        mark = "✅" if getattr(options, toggle.field) else "⬜️"
        rows.append(
            [InlineKeyboardButton(f"{mark} {toggle.label}", callback_data=checked_data(f"o:{version}:{toggle.field}"))]
        )
    rows.append([InlineKeyboardButton("🤖 پیوستن از راه گفتگوی خصوصی با ربات", url=join_link)])
    return InlineKeyboardMarkup(rows)


def game_menu(
    game_id: str,
    version: int,
    codes: Sequence[str],
    prefix: str,
    view: Any,
    route: tuple[str, str] | None = None,
    extra: Sequence[InlineKeyboardButton] = (),
) -> InlineKeyboardMarkup:
    """The choices at menu level ``prefix``, a way back up, and ``extra`` buttons last. For a game that
    confirms moves, the last choice opens a level of its own with the confirm button.

    ``route`` is the (action, menu) callback prefixes: ``g:<game>`` / ``n:<game>`` for the group's board
    (the default), ``h:<chat>`` / ``k:<chat>`` for a player's private message about the game in that chat."""
    presenter = PRESENTERS[game_id]
    act, nav = route or (f"g:{game_id}", f"n:{game_id}")
    buttons = []
    if presenter.confirm_moves and prefix in codes:  # the move is chosen: play it, or go back
        buttons.append(InlineKeyboardButton(CONFIRM, callback_data=checked_data(f"{act}:{version}:{prefix}")))
    for item in menu_items(codes, prefix, presenter.root_depth):
        label = presenter.menu_label(item.key.split("."), view)
        plays = item.is_action and not presenter.confirm_moves
        data = checked_data(f"{act if plays else nav}:{version}:{item.key}")
        buttons.append(InlineKeyboardButton(label, callback_data=data))
    rows = _rows(buttons, presenter.menu_columns(prefix))
    up = parent(prefix, presenter.root_depth)
    if up is not None:
        rows.append([InlineKeyboardButton("↩️ بازگشت", callback_data=checked_data(f"{nav}:{version}:{up}"))])
    rows += [[button] for button in extra]
    return InlineKeyboardMarkup(rows)


def private_route(chat_id: int, thread_id: int | None) -> tuple[str, str]:
    """Callback prefixes of a private message about the game in a chat (topic after ``_``)."""
    where = f"{chat_id}" if thread_id is None else f"{chat_id}_{thread_id}"
    return f"h:{where}", f"k:{where}"


def parse_private(data: str) -> tuple[int, int | None, str, str]:
    """(chat, topic, version, rest) of ``h:``/``k:`` callback data (already matched by PATTERNS)."""
    _, where, version, rest = data.split(":", 3)
    chat, _, thread = where.partition("_")
    return int(chat), (int(thread) if thread else None), version, rest
