"""Telegram's text formatting: HTML parse mode to plain text plus entities, and command detection.

Telegram counts entity offsets and text limits in UTF-16 code units, so everything here does too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from sandbox.errors import ApiError, bad_request

UserLookup = Callable[[int], dict[str, Any] | None]

_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_MENTION_URL = re.compile(r"^tg://user\?id=(\d+)$")
_COMMAND = re.compile(r"(?:^|(?<=\s))/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's offsets and limits."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class FormattedText:
    """A text or caption as Telegram stores it: plain text, entities and (ours) the source HTML."""

    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)
    html: str | None = None

    def same_content(self, other: FormattedText | None) -> bool:
        """Telegram compares what users see, not the markup that produced it."""
        return other is not None and self.text == other.text and self.entities == other.entities


def format_text(raw: str, parse_mode: str | None, entities: list[Any] | None, lookup_user: UserLookup) -> FormattedText:
    """Turn a method's text (or caption) parameters into the stored form."""
    if entities is not None:
        return FormattedText(raw, _checked_entities(entities), None)
    if not parse_mode:
        return FormattedText(raw, [], None)
    if parse_mode.upper() != "HTML":
        raise bad_request(f"unsupported parse_mode {parse_mode!r}: the sandbox understands only HTML")
    parser = _HtmlToEntities(raw, lookup_user)
    parser.run()
    return FormattedText("".join(parser.parts), parser.sorted_entities(), raw)


def command_entities(text: str) -> list[dict[str, Any]]:
    """The bot_command entities Telegram attaches to a user's message."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group())}
        for m in _COMMAND.finditer(text)
    ]


def _checked_entities(entities: list[Any]) -> list[dict[str, Any]]:
    """Explicit entities are kept as given once their basic shape is right."""
    checked: list[dict[str, Any]] = []
    for entity in entities:
        if not isinstance(entity, dict) or not isinstance(entity.get("type"), str):
            raise bad_request("can't parse entities: entity type is not specified")
        try:
            offset, length = int(entity["offset"]), int(entity["length"])
        except (KeyError, TypeError, ValueError):
            raise bad_request("can't parse entities: entity offset or length is invalid") from None
        if length > 0:
            checked.append({**entity, "offset": offset, "length": length})
    return sorted(checked, key=lambda e: (e["offset"], -e["length"]))


@dataclass
class _OpenTag:
    tag: str
    offset: int
    entity: dict[str, Any] | None


class _HtmlToEntities(HTMLParser):
    """Parses the HTML subset Telegram accepts, with its error wording for the rest."""

    def __init__(self, source: str, lookup_user: UserLookup) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.lookup_user = lookup_user
        self.parts: list[str] = []
        self.position = 0
        self.stack: list[_OpenTag] = []
        self.entities: list[dict[str, Any]] = []

    def run(self) -> None:
        self.feed(self.source)
        self.close()
        if self.stack:
            tag = self.stack[-1].tag
            message = f'Can\'t find end tag corresponding to start tag "{tag}"'
            raise bad_request(f"can't parse entities: {message}")

    def sorted_entities(self) -> list[dict[str, Any]]:
        return sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))

    def _byte_offset(self) -> int:
        line, column = self.getpos()
        lines = self.source.split("\n")
        chars = sum(len(text) + 1 for text in lines[: line - 1]) + column
        return len(self.source[:chars].encode())

    def _fail(self, message: str) -> ApiError:
        return bad_request(f"can't parse entities: {message} at byte offset {self._byte_offset()}")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.position += utf16_len(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(_OpenTag(tag, self.position, self._entity_for(tag, dict(attrs))))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise self._fail(f'Unsupported start tag "{tag}"')

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            raise self._fail(f'Unexpected end tag "{tag}"')
        if self.stack[-1].tag != tag:
            raise self._fail(f'Unmatched end tag "{tag}", expected "</{self.stack[-1].tag}>"')
        opened = self.stack.pop()
        length = self.position - opened.offset
        if opened.entity is not None and length > 0:
            self.entities.append({**opened.entity, "offset": opened.offset, "length": length})

    def _entity_for(self, tag: str, attrs: dict[str, str | None]) -> dict[str, Any] | None:
        if tag == "code" and self.stack and self.stack[-1].tag == "pre" and self.stack[-1].entity is not None:
            language = (attrs.get("class") or "").removeprefix("language-")
            if language:
                self.stack[-1].entity["language"] = language
            return None
        if tag in _SIMPLE_TAGS:
            return {"type": _SIMPLE_TAGS[tag]}
        if tag == "span" and attrs.get("class") == "tg-spoiler":
            return {"type": "spoiler"}
        if tag == "blockquote":
            return {"type": "expandable_blockquote" if "expandable" in attrs else "blockquote"}
        if tag == "tg-emoji" and attrs.get("emoji-id"):
            return {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}
        if tag == "a":
            return self._link_entity(attrs.get("href") or "")
        raise self._fail(f'Unsupported start tag "{tag}"')

    def _link_entity(self, href: str) -> dict[str, Any]:
        mention = _MENTION_URL.match(href)
        if mention:
            user = self.lookup_user(int(mention.group(1)))
            if user is not None:
                return {"type": "text_mention", "user": user}
        return {"type": "text_link", "url": href}
