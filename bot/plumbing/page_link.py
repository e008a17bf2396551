"""What a Mini App link says: which chat (and topic) its page shows, signed so that only those who saw the
button can name the chat.

Telegram's ``startapp`` parameter is ``[A-Za-z0-9_-]``, at most 512 characters, and anyone can open a Direct
Link with any parameter: Telegram signs the parameter it was given, not one the bot chose. So the parameter
carries a tag, an HMAC of the chat and topic keyed with a secret derived from the bot's token: a chat id
guessed or changed does not match its tag and the page is refused (bot/webapp_server.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

TAG_BYTES = 9  # 72 bits: 12 characters of the link
_PAYLOAD = re.compile(r"^(-?\d{1,20})(?:_(\d{1,12}))?_([A-Za-z0-9_-]{12})$")


class BadLink(Exception):
    """A parameter the bot did not make."""


def _key(token: str) -> bytes:
    return hmac.new(b"dorehami page link", token.encode(), hashlib.sha256).digest()


def _tag(token: str, chat_id: int, thread_id: int | None) -> str:
    text = f"{chat_id}:{thread_id or 0}".encode()
    digest = hmac.new(_key(token), text, hashlib.sha256).digest()[:TAG_BYTES]
    return base64.urlsafe_b64encode(digest).decode()


def make(token: str, chat_id: int, thread_id: int | None) -> str:
    """``-1001234_55_<tag>`` (``_55`` only in a topic): at most 48 characters."""
    topic = f"_{thread_id}" if thread_id is not None else ""
    return f"{chat_id}{topic}_{_tag(token, chat_id, thread_id)}"


def read(token: str, payload: str) -> tuple[int, int | None]:
    """The chat and topic a parameter names, if the bot made it."""
    match = _PAYLOAD.match(payload)
    if match is None:
        raise BadLink("malformed")
    chat_id = int(match[1])
    thread_id = int(match[2]) if match[2] is not None else None
    if not hmac.compare_digest(match[3], _tag(token, chat_id, thread_id)):
        raise BadLink("tag does not match")
    return chat_id, thread_id
