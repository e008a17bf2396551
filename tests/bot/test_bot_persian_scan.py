"""Every word the five presenters can put before a player is Persian: over seeded random games of each game (at
every player count and with every lobby option), the events, the caption's status, the private hands, the
result, every button of every menu level the legal actions open, the rules text, the summary and the option
labels carry no Latin letter and no ASCII digit. Player names are the one exception (they are the players'
own), so the games are played by players with Latin names and digits, which are removed before the scan.
HTML tags and entities are markup, not words. The bot's own texts too (bot/messages/texts.py, /games, /rules'
buttons, /settings' text and buttons, the lobby's and the game picker's buttons), where commands (``/new``,
``<code>/rules coin_age</code>``) are the one exception: Telegram's commands are Latin."""

from __future__ import annotations

import html
import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from telegram import InlineKeyboardMarkup

from bot.games import PLAYABLE, PRESENTERS, Presenter
from bot.handlers.admin import settings_keyboard, settings_text
from bot.handlers.info import games_text, rules_picker
from bot.handlers.notify import switch_button
from bot.messages import keyboards, texts
from bot.plumbing.group_settings import GroupSettings
from rules import GAMES

LATIN = re.compile(r"[A-Za-z0-9]")
TAG = re.compile(r"<[^>]*>")
COMMAND = re.compile(r"<code>.*?</code>|/[a-z_]+(?:@\{bot\})?|\{[a-z_]+\}")  # commands, and str.format's fields
NAMES = ["Sara1", "Ali22", "Maryam3", "Reza44", "Nima5", "Leila66"]
GAMES_PER_SETTING = 3
STEPS = 400  # actions per game at most: every phase of every game comes up in the seeds below


def words(text: str) -> str:
    """What a player reads of ``text``: no markup, entities resolved, names removed."""
    text = html.unescape(TAG.sub("", text))
    for name in NAMES:
        text = text.replace(name, "")
    return text


def _option_sets(game_id: str) -> list[Any]:
    """The default options and each combination of the presenter's yes/no toggles."""
    model = GAMES[game_id].options_model
    fields = [t.field for t in PRESENTERS[game_id].toggles]
    return [
        model(**dict(zip(fields, values, strict=True)))
        for values in itertools.product((False, True), repeat=len(fields))
    ]


def _menu_labels(presenter: Presenter, codes: list[str], view: Any) -> Iterator[tuple[str, str]]:
    """Every (key, label) of every menu level the codes open, as the bot labels them (levels with one
    choice skipped, chains of them labelled whole)."""
    menu = keyboards.menu(presenter.game_id, codes)
    levels, seen = [menu.top()], {menu.top()}
    while levels:
        for choice in menu.choices(levels.pop()):
            yield choice.key, keyboards.button_label(presenter.game_id, choice, view)
            if not choice.plays and choice.key not in seen:
                seen.add(choice.key)
                levels.append(choice.key)


def _texts(game_id: str) -> Iterator[tuple[str, str]]:
    """(where, text) for everything the game's presenter says over its seeded random games."""
    game, presenter = GAMES[game_id], PRESENTERS[game_id]
    yield "summary", presenter.summary
    for toggle in presenter.toggles:
        yield "toggle", toggle.label
    for options in _option_sets(game_id):
        yield "rules", presenter.rules_text(options)
        for players, seed in itertools.product(range(game.min_players, game.max_players + 1), range(GAMES_PER_SETTING)):
            names = NAMES[:players]
            rng = random.Random(seed)
            state = game.setup(players, seed, options)
            for _ in range(STEPS):
                seats = game.to_act(state)
                if not seats:
                    break
                public = game.view(state, None)
                yield from (("status", line) for line in presenter.status(public, names))
                for seat in seats:
                    own = game.view(state, seat)
                    if presenter.hands is not None:
                        yield from (("hand", line) for line in presenter.hands.lines(own, names))
                    codes = [game.encode(a) for a in game.legal_actions(state, seat)]
                    private = [c for c in codes if presenter.hands is not None and presenter.hands.is_private(c)]
                    group = [c for c in codes if c not in private]
                    for key, label in _menu_labels(presenter, group, public):
                        yield f"button {key}", label
                    for key, label in _menu_labels(presenter, private, own):
                        yield f"private button {key}", label
                seat = rng.choice(seats)
                step = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                state = step.state
                yield from (("event", line) for line in presenter.describe(step.events, names, game.view(state, None)))
            if game.outcome(state) is not None:
                yield from (("result", line) for line in presenter.result(game.view(state, None), names))


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_every_text_button_and_line_is_persian(game_id: str) -> None:
    found: dict[str, str] = {}
    kinds: set[str] = set()
    for where, text in _texts(game_id):
        kinds.add(where.split(" ")[0] if not where.startswith("private") else "private")
        if LATIN.search(words(text)):
            found.setdefault(where, text)
    assert not found, found
    assert {"summary", "rules", "status", "button", "event", "result"} <= kinds, kinds


def test_names_are_the_only_exception() -> None:
    """The scan would see Latin in anything but a name: it is not blind."""
    assert LATIN.search(words("<b>Sara1</b> کارت B4 را خرید"))
    assert not LATIN.search(words('<a href="tg://user?id=12">Sara1</a> &amp; <b>۴</b>'))


def _bot_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for the texts of the bot's own, beyond the games' presenters."""
    for key, value in vars(texts).items():
        if key.isupper() and isinstance(value, str):
            yield key, value
        elif key.isupper() and isinstance(value, dict):
            yield from ((f"{key}[{k}]", v) for k, v in value.items())
        elif key.endswith("_COMMANDS"):
            yield from ((f"{key}[{c}]", d) for c, d in value)
    yield "/games", games_text()
    for settings in (
        GroupSettings(),
        GroupSettings(turn_seconds=0, reminder=False, lobby_idle_seconds=0, disabled_games=["coin_age"]),
    ):
        yield "/settings", settings_text(settings)
        for row in settings_keyboard(settings, (30, 120, 3600)).inline_keyboard:
            yield from (("/settings button", b.text) for b in row)
    markups = [rules_picker(), keyboards.game_picker()]
    markups += [keyboards.lobby(1, g, PLAYABLE[g].options_model(), "https://t.me/x") for g in PLAYABLE]
    markups += [InlineKeyboardMarkup([[switch_button(on)]]) for on in (True, False)]
    for markup in markups:
        for row in markup.inline_keyboard:
            yield from (("button", b.text) for b in row)
    yield "button", keyboards.CONFIRM


def test_the_bots_own_texts_and_buttons_are_persian() -> None:
    found = {where: text for where, text in _bot_texts() if LATIN.search(words(COMMAND.sub("", text)))}
    assert not found, found
    assert LATIN.search(words(COMMAND.sub("", "برای <b>new</b>")))  # only commands are let through
