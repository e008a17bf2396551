"""Texts that fit Telegram's limits: 4096 characters for a message, 1024 for a caption, counted as Telegram
counts them, after entity parsing (the text without its tags, ``&lt;`` as one character) in UTF-16 units.

A long message is split into several at line boundaries (at a space only for a line longer than a whole
message), never inside a tag or an entity; a tag open across a cut is closed at the end of one part and
opened again at the start of the next, so every part is valid HTML on its own. A caption that is still too
long after its owner dropped what it can spare is cut the same way and ends in «…».
"""

from __future__ import annotations

import html
import re

from telegram.constants import MessageLimit

MESSAGE_LIMIT = int(MessageLimit.MAX_TEXT_LENGTH)
CAPTION_LIMIT = int(MessageLimit.CAPTION_LENGTH)
ELLIPSIS = "…"

_TOKEN = re.compile(r"<[^>]+>|&#?[A-Za-z0-9]+;|.", re.DOTALL)
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _width(token: str) -> int:
    """How much of Telegram's limit a token takes: a tag nothing, an entity its one character."""
    if token.startswith("<") and len(token) > 1:
        return 0
    if token.startswith("&") and len(token) > 1:
        return _units(html.unescape(token))
    return _units(token)


def visible_length(text: str) -> int:
    """The length Telegram checks against its limits, for HTML the bot wrote (well-formed, escaped)."""
    return sum(_width(token) for token in _TOKEN.findall(text))


def _opened(stack: list[str], token: str) -> None:
    """Follow the open tags through one token."""
    if token.startswith("</"):
        stack.pop()
    elif token.startswith("<") and len(token) > 1:
        stack.append(token)


def _closing(stack: list[str]) -> str:
    """The end tags of the open ``stack``, innermost first."""
    names = (match.group(1) if (match := _TAG_NAME.match(tag)) else "" for tag in reversed(stack))
    return "".join(f"</{name}>" for name in names)


def _cut(opening: list[str], body: list[str]) -> tuple[int, list[str], int]:
    """Where to cut ``body`` (tokens after the ``opening`` tags): after its last newline, else after its last
    space, else at its end. Returns the index, the tags open there and the width before it."""
    stack, width = list(opening), 0
    best: dict[str, tuple[int, list[str], int]] = {}
    for index, token in enumerate(body, 1):
        _opened(stack, token)
        width += _width(token)
        if token in ("\n", " "):
            best[token] = (index, list(stack), width)
    return best.get("\n") or best.get(" ") or (len(body), stack, width)


def split_html(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` as parts of at most ``limit`` visible characters each (one part if it fits)."""
    parts: list[str] = []
    opening: list[str] = []  # tags open where the current part begins
    body: list[str] = []
    width = 0
    for token in _TOKEN.findall(text):
        token_width = _width(token)
        while body and width + token_width > limit:
            index, stack, used = _cut(opening, body)
            parts.append("".join(opening) + "".join(body[:index]) + _closing(stack))
            opening, body, width = stack, body[index:], width - used
        body.append(token)
        width += token_width
    parts.append("".join(opening) + "".join(body))
    return [part for part in parts if visible_text(part).strip()]


def visible_text(text: str) -> str:
    return "".join(html.unescape(t) if t.startswith("&") else t for t in _TOKEN.findall(text) if not _is_tag(t))


def _is_tag(token: str) -> bool:
    return token.startswith("<") and len(token) > 1


def shorten(text: str, limit: int = CAPTION_LIMIT) -> str:
    """``text`` if it fits, else its beginning up to a line (or word) boundary, ending in «…»."""
    if visible_length(text) <= limit:
        return text
    head = split_html(text, limit - len(ELLIPSIS))[0]
    return head.rstrip("\n ") + ELLIPSIS
