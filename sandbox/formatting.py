"""Telegram's text formatting: HTML parse mode to plain text plus entities, and command detection.

Telegram counts entity offsets and text limits in UTF-16 code units, so everything here does too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
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
COMMAND = re.compile(r"(?:^|(?<=\s))/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])")


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
    text = parser.run()
    return FormattedText(text, _without_code_languages(parser.sorted_entities()), raw)


def _without_code_languages(entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """tdlib keeps a language only on pre entities: <code class="language-x"> alone is plain code."""
    return [{k: v for k, v in e.items() if not (e["type"] == "code" and k == "language")} for e in entities]


def command_entities(text: str) -> list[dict[str, Any]]:
    """The bot_command entities Telegram attaches to a user's message."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group())}
        for m in COMMAND.finditer(text)
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
    argument: str
    offset: int  # UTF-16 offset in the text so far
    begin: int  # byte offset in the text so far (for a link without href)


def _space(byte: int) -> bool:
    return byte in b" \t\n\v\f\r"


def _decode_entity(data: bytes, pos: int) -> tuple[int, int]:
    """tdlib's decode_html_entity: the code point of ``&...;`` at ``pos`` (0 if none) and where it ends.
    Only ``&lt; &gt; &amp; &quot;`` and numeric references count; anything else stays as typed."""
    at = data[pos + 1 : pos + 2]
    end = pos + 1
    code = 0
    if at == b"#":
        end += 1
        hexadecimal = data[pos + 2 : pos + 3] == b"x"
        if hexadecimal:
            end += 1
        digits = b"0123456789abcdefABCDEF" if hexadecimal else b"0123456789"
        while end < len(data) and data[end] in digits:
            code = code * (16 if hexadecimal else 10) + int(chr(data[end]), 16)
            end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while end < len(data) and chr(data[end]).isascii() and chr(data[end]).isalpha():
            end += 1
        code = _NAMED.get(data[pos + 1 : end], 0)
        if not code:
            return 0, pos
    if data[end : end + 1] == b";":
        end += 1
    return code, end


_NAME_TOKEN = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_NAMED = {b"lt": ord("<"), b"gt": ord(">"), b"amp": ord("&"), b"quot": ord('"')}
_TAGS = {*_SIMPLE_TAGS, "a", "span", "tg-emoji", "blockquote"}


class _HtmlToEntities:
    """Telegram's HTML parser (tdlib's parse_html, MessageEntity.cpp) byte for byte: the same tags, entities,
    attributes and error wording, with byte offsets into the UTF-8 source."""

    def __init__(self, source: str, lookup_user: UserLookup) -> None:
        self.data = source.encode("utf-8")
        self.lookup_user = lookup_user
        self.out = bytearray()
        self.utf16 = 0
        self.stack: list[_OpenTag] = []
        self.entities: list[dict[str, Any]] = []

    def _at(self, i: int) -> int:
        return self.data[i] if i < len(self.data) else 0

    def run(self) -> str:
        i = 0
        while i < len(self.data):
            byte = self.data[i]
            if byte == ord("&"):
                code, end = _decode_entity(self.data, i)
                if code:
                    self.out += chr(code).encode("utf-8", "surrogatepass")
                    self.utf16 += 1 + (code > 0xFFFF)
                    i = end
                    continue
            if byte != ord("<"):
                if byte & 0xC0 != 0x80:  # the first byte of a character; four-byte ones are two UTF-16 units
                    self.utf16 += 1 + (byte >= 0xF0)
                self.out.append(byte)
                i += 1
            elif self._at(i + 1) == ord("/"):
                i = self._end_tag(i)
            else:
                i = self._start_tag(i)
        if self.stack:
            raise _fail(f'Can\'t find end tag corresponding to start tag "{self.stack[-1].tag}"')
        try:
            return self.out.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail(
                "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched "
                "surrogate code units"
            ) from None

    def sorted_entities(self) -> list[dict[str, Any]]:
        return sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))

    def _start_tag(self, begin: int) -> int:
        i = begin + 1
        while i < len(self.data) and not _space(self.data[i]) and self.data[i] != ord(">"):
            i += 1
        if i >= len(self.data):
            raise _fail(f"Unclosed start tag at byte offset {begin}")
        tag = self.data[begin + 1 : i].decode("utf-8", "replace").lower()
        if tag not in _TAGS:
            raise _fail(f'Unsupported start tag "{tag}" at byte offset {begin}')
        argument = ""
        while self._at(i) != ord(">"):
            while i < len(self.data) and _space(self.data[i]):
                i += 1
            if self._at(i) == ord(">"):
                break
            name_begin = i
            while i < len(self.data) and not _space(self.data[i]) and self.data[i] not in b"=>":
                i += 1
            name = self.data[name_begin:i].decode("utf-8", "replace")
            if not name:
                raise _fail(f'Empty attribute name in the tag "{tag}" at byte offset {begin}')
            while i < len(self.data) and _space(self.data[i]):
                i += 1
            if tag == "blockquote" and name == "expandable" and self._at(i) != ord("="):
                argument = "expandable"
                continue
            if self._at(i) != ord("="):
                raise _fail(
                    f'Expected equal sign in declaration of an attribute of the tag "{tag}" at byte offset {begin}'
                )
            i += 1
            while i < len(self.data) and _space(self.data[i]):
                i += 1
            if i >= len(self.data):
                raise _fail(f'Unclosed start tag "{tag}" at byte offset {begin}')
            value, i = self._attribute_value(i)
            if i >= len(self.data):
                raise _fail(f"Unclosed start tag at byte offset {begin}")
            if tag == "a" and name == "href":
                argument = value
            elif tag == "code" and name == "class" and value.startswith("language-"):
                argument = value.removeprefix("language-")
            elif tag == "span" and name == "class" and value.startswith("tg-"):
                argument = value.removeprefix("tg-")
            elif tag == "tg-emoji" and name == "emoji-id":
                argument = value
        if tag == "span" and argument != "spoiler":
            raise _fail(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
        self.stack.append(_OpenTag(tag, argument, self.utf16, len(self.out)))
        return i + 1

    def _attribute_value(self, i: int) -> tuple[str, int]:
        """A quoted string (entities decoded) or a name token (letters, digits, ``.``, ``-``; lower-cased)."""
        quote = self.data[i]
        if quote not in b"'\"":
            token_begin = i
            while i < len(self.data) and self.data[i] in _NAME_TOKEN:
                i += 1
            if i < len(self.data) and not _space(self.data[i]) and self.data[i] != ord(">"):
                raise _fail(f"Unexpected end of name token at byte offset {token_begin}")
            return self.data[token_begin:i].decode("utf-8", "replace").lower(), i
        i += 1
        value = bytearray()
        while i < len(self.data) and self.data[i] != quote:
            if self.data[i] == ord("&"):
                code, end = _decode_entity(self.data, i)
                if code:
                    value += chr(code).encode("utf-8", "surrogatepass")
                    i = end
                    continue
            value.append(self.data[i])
            i += 1
        if i < len(self.data):
            i += 1
        return value.decode("utf-8", "replace"), i

    def _end_tag(self, begin: int) -> int:
        if not self.stack:
            raise _fail(f"Unexpected end tag at byte offset {begin}")
        i = begin + 2
        while i < len(self.data) and not _space(self.data[i]) and self.data[i] != ord(">"):
            i += 1
        name = self.data[begin + 2 : i].decode("utf-8", "replace").lower()
        while i < len(self.data) and _space(self.data[i]):
            i += 1
        if self._at(i) != ord(">"):
            raise _fail(f"Unclosed end tag at byte offset {begin}")
        opened = self.stack[-1]
        if name and name != opened.tag:
            raise _fail(f'Unmatched end tag at byte offset {begin}, expected "</{opened.tag}>", found "</{name}>"')
        self.stack.pop()
        length = self.utf16 - opened.offset
        if length > 0:
            self._add_entity(opened, length)
        return i + 1

    def _add_entity(self, opened: _OpenTag, length: int) -> None:
        entity: dict[str, Any] | None
        last = self.entities[-1] if self.entities else None
        same_span = last is not None and last["offset"] == opened.offset and last["length"] == length
        if opened.tag == "code" and same_span and last is not None and last["type"] == "pre" and opened.argument:
            last["language"] = opened.argument  # <pre><code class="language-x">: one pre entity with a language
            return
        if opened.tag == "pre" and same_span and last is not None and last["type"] == "code" and "language" in last:
            last["type"] = "pre"
            return
        if opened.tag == "code":
            entity = {"type": "code", **({"language": opened.argument} if opened.argument else {})}
        elif opened.tag in _SIMPLE_TAGS:
            entity = {"type": _SIMPLE_TAGS[opened.tag]}
        elif opened.tag == "span":
            entity = {"type": "spoiler"}
        elif opened.tag == "blockquote":
            entity = {"type": "expandable_blockquote" if opened.argument else "blockquote"}
        elif opened.tag == "tg-emoji":
            if not opened.argument.isdigit() or int(opened.argument) == 0:
                raise _fail("Invalid custom emoji identifier specified")
            entity = {"type": "custom_emoji", "custom_emoji_id": opened.argument}
        else:
            entity = self._link_entity(opened)
        if entity is not None:
            self.entities.append({**entity, "offset": opened.offset, "length": length})

    def _link_entity(self, opened: _OpenTag) -> dict[str, Any] | None:
        href = opened.argument or self.out[opened.begin :].decode("utf-8", "replace")
        mention = _MENTION_URL.match(href)
        if mention:
            user = self.lookup_user(int(mention.group(1)))
            if user is not None:
                return {"type": "text_mention", "user": user}
        return {"type": "text_link", "url": href} if href else None


def _fail(message: str) -> ApiError:
    return bad_request(f"can't parse entities: {message}")
