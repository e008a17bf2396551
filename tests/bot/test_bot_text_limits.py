"""Every long text the bot sends fits Telegram's limits, checked with the sandbox's copy of Telegram's HTML
parser (what Telegram counts: the text after entity parsing, in UTF-16 units): /rules of every game with
every option, /help, /games, /stats of a busy group, and board captions."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.games import PLAYABLE, PRESENTERS
from bot.handlers.info import games_text
from bot.handlers.stats import LEADERBOARD_SIZE, Line, leaderboard_text
from bot.messages import texts
from bot.messages.split import CAPTION_LIMIT, MESSAGE_LIMIT, shorten, split_html, visible_length
from sandbox.formatting import format_text, utf16_len
from sandbox.methods.messages import MAX_CAPTION, MAX_TEXT


def _parsed(html: str) -> str:
    """The text Telegram keeps of ``html``; raises Telegram's error for anything it would refuse."""
    return format_text(html, "HTML", None, lambda user_id: None).text


def _sendable(html: str, limit: int = MAX_TEXT) -> list[str]:
    """The parts the bot sends for ``html``, each checked as Telegram checks a message."""
    parts = split_html(html, limit)
    for part in parts:
        text = _parsed(part)
        assert text.strip() and utf16_len(text) <= limit, (utf16_len(text), part[:80])
        assert visible_length(part) == utf16_len(text)
    return parts


def _options(game_id: str) -> list[Any]:
    """The game's options with every combination of its lobby toggles."""
    model = PLAYABLE[game_id].options_model
    fields = [t.field for t in PRESENTERS[game_id].toggles]
    return [
        model(**dict(zip(fields, values, strict=True)))
        for values in itertools.product((False, True), repeat=len(fields))
    ]


@pytest.mark.parametrize("game_id", list(PLAYABLE))
def test_every_rules_text_is_telegram_html_within_the_limit(game_id: str) -> None:
    for options in _options(game_id):
        rules = PRESENTERS[game_id].rules_text(options)
        parts = _sendable(rules)
        assert "".join(_parsed(p) for p in parts).replace("\n", "") == _parsed(rules).replace("\n", "")


def test_help_and_games_fit() -> None:
    assert len(_sendable(texts.HELP.format(bot="dorehami_bot"))) == 1
    assert len(_sendable(games_text())) == 1
    assert "/begin" in texts.HELP and all(command != "start" for command, _ in texts.GROUP_COMMANDS)


def test_stats_of_a_busy_group_is_split_at_line_boundaries() -> None:
    # names are kept to 40 characters (bot/handlers/lobby.player_of), but an emoji is two of Telegram's units,
    # and a name may hold what HTML must escape
    long_name = "<بازیکن> & " + "🎲" * 26
    boards = {
        game_id: [Line(i, f"{long_name}{i:03d}", 999, 500) for i in range(LEADERBOARD_SIZE)] for game_id in PLAYABLE
    }
    text = leaderboard_text(boards)
    assert visible_length(text) > MESSAGE_LIMIT  # too long for one message
    parts = _sendable(text)
    assert len(parts) == 2
    lines = [line for part in parts for line in _parsed(part).split("\n") if line]
    assert lines == [line for line in _parsed(text).split("\n") if line]  # nothing lost, no line cut in two
    assert "&lt;بازیکن&gt; &amp;" in parts[0] and "<بازیکن>" in _parsed(parts[1])


def test_a_tag_open_across_a_cut_is_closed_and_opened_again() -> None:
    text = "<b>" + "\n".join("سطر " * 30 for _ in range(80)) + "</b>"
    parts = _sendable(text, 1000)
    assert len(parts) > 1 and all(p.startswith("<b>") and p.endswith("</b>") for p in parts)
    one_line = "<i>" + "واژه " * 300 + "&amp;</i>"  # no line boundary: cut between words
    parts = _sendable(one_line, 500)
    assert len(parts) == 4 and all(_parsed(p).endswith(("واژه ", "&")) for p in parts)


def test_a_caption_too_long_is_shortened_with_an_ellipsis_inside_its_tags() -> None:
    caption = "🎲 <b>بازی</b>\n" + "\n".join(f"<b>بازیکن {i}</b> — " + "امتیاز " * 12 for i in range(30))
    short = shorten(caption, CAPTION_LIMIT)
    text = _parsed(short)
    assert utf16_len(text) <= MAX_CAPTION and text.endswith("…")
    assert text.startswith("🎲 بازی\n") and "امتیاز" in text
    assert shorten("کوتاه <b>است</b>") == "کوتاه <b>است</b>"
