"""The Mini App's launch data (``Telegram.WebApp.initData``), checked as Telegram documents it.

https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app: the data-check-string is
every received field but ``hash``, sorted by key, ``key=value`` joined by line feeds; the secret key is
HMAC-SHA256 of the bot's token keyed with "WebAppData"; ``hash`` is the hex HMAC-SHA256 of the string with
that key. Only Telegram (and the sandbox, with its own token) can make a hash that checks.

Age: launch data is made once, when the page opens, and a page stays open through a whole game, which can last
hours at a table's pace. Data older than ``MAX_AGE`` (a day) is refused and the page asks to be opened again:
long enough for any game, short enough that a copied launch string stops working. It names one user and can
only act as that user.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

MAX_AGE = 24 * 3600.0
FUTURE_SLACK = 60.0  # clocks differ: data "from the future" by up to this is the clocks' fault


class BadLaunch(Exception):
    """Launch data that is not Telegram's, was changed, or is too old (the reason is for the log)."""


@dataclass(frozen=True, slots=True)
class Launch:
    user_id: int
    first_name: str
    start_param: str  # "" when the page was not opened by a link with ``startapp``
    auth_date: int


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign(fields: dict[str, str], token: str) -> str:
    """The ``hash`` Telegram gives these fields."""
    return hmac.new(secret_key(token), check_string(fields).encode(), hashlib.sha256).hexdigest()


def verify(init_data: str, token: str, now: float | None = None, max_age: float = MAX_AGE) -> Launch:
    """The launch if ``init_data`` is Telegram's, unchanged and fresh; else ``BadLaunch``."""
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise BadLaunch("not a query string") from exc
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise BadLaunch("a field given twice")
    given = fields.get("hash", "")
    if not given or not hmac.compare_digest(given, sign(fields, token)):
        raise BadLaunch("hash does not check")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as exc:
        raise BadLaunch("no user or date") from exc
    age = (time.time() if now is None else now) - auth_date
    if age > max_age or age < -FUTURE_SLACK:
        raise BadLaunch(f"launch data {age:.0f} s old")
    return Launch(user_id, str(user.get("first_name", "")), fields.get("start_param", ""), auth_date)
