"""Small helpers for Persian text in messages: digits, names isolated for bidi, HTML mentions."""

from __future__ import annotations

import html

from telegram.helpers import mention_html

_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate: a Latin name inside Persian text keeps its own order


def num(value: int | str) -> str:
    """Persian digits for any number a player reads."""
    return str(value).translate(_DIGITS)


def isolate(text: str) -> str:
    return f"{FSI}{text}{PDI}"


def name(text: str) -> str:
    """A user-supplied name, escaped for HTML and isolated for bidi."""
    return isolate(html.escape(text))


def mention(user_id: int, display: str) -> str:
    """A clickable mention that notifies the user, even without a username; the name isolated for bidi."""
    return mention_html(user_id, isolate(display))


def joined(items: list[str]) -> str:
    """Persian list: «الف، ب و ج»."""
    if len(items) <= 1:
        return "".join(items)
    return "، ".join(items[:-1]) + " و " + items[-1]


def duration(seconds: int) -> str:
    """«۲ دقیقه», «۳۰ ثانیه», «۱ ساعت»: the largest whole unit."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{num(seconds // 3600)} ساعت"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{num(seconds // 60)} دقیقه"
    return f"{num(seconds)} ثانیه"
