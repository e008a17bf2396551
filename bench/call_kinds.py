"""The Bot API calls a press costs, by kind, per game and for a mix of games, from the sandbox's call log; and
the number of active groups one bot token can serve at that cost.

Telegram lets one bot make about 30 calls a second in all (sends and edits, every chat together; sandbox/README.md,
"Flood limits"), so the calls a press costs, at one press every ``MOVE_SECONDS`` per group, set how many groups
one token serves: ``30 / (calls a press / MOVE_SECONDS)``. Deletes are counted against that budget too (no source
says Telegram leaves them out), and the ceiling is printed without them beside it. Answers to callback queries are
not limited (tdlib/telegram-bot-api#648) and are shown, not counted.

Imported by ``real_limits.py``; ``--before FILE`` there prints a run saved with ``--save FILE`` beside this one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

KINDS = ("group edit", "group send", "private edit", "private send", "photo", "delete", "answer")
COUNTED = ("group edit", "group send", "private edit", "private send", "photo")  # against every budget
GLOBAL_PER_SECOND = 30.0
MOVE_SECONDS = 8.0  # one press every 8 s in each group


def kind(item: Mapping[str, Any]) -> str | None:
    """The kind of a logged call: where it went and what it did (None: a call the table leaves out)."""
    method, chat = item["method"], item["chat_id"]
    if chat is None:
        return None
    if method == "answerCallbackQuery":
        return "answer"
    if method in ("deleteMessage", "deleteMessages"):
        return "delete"
    where = "group" if chat < 0 else "private"
    if method.startswith("edit"):
        return f"{where} edit"
    if method == "sendPhoto" and where == "private":
        return "photo"  # a private chat's photo: a hand sent anew
    if method.startswith("send") and method != "sendChatAction":
        return f"{where} send"
    return None


def count(log: Iterable[Mapping[str, Any]], owner: Mapping[int, str], since: float) -> dict[str, Counter[str]]:
    """Successful calls since ``since`` by kind, per game (``owner``: each chat's game, players' private chats
    included); 429s and other refusals took nothing from a budget and are left out."""
    found: dict[str, Counter[str]] = {}
    for item in log:
        if item["t"] < since or item["status"] != 200:
            continue
        game, what = owner.get(item["chat_id"] or 0), kind(item)
        if game is None or what is None:
            continue
        found.setdefault(game, Counter())[what] += 1
    return found


def rates(counts: Counter[str], presses: int) -> dict[str, float]:
    """Calls a press by kind, with the counted total (``counted``) and the total with deletes (``with deletes``)."""
    per = {k: counts[k] / presses if presses else 0.0 for k in KINDS}
    per["counted"] = sum(per[k] for k in COUNTED)
    per["with deletes"] = per["counted"] + per["delete"]
    return per


def ceiling(calls_a_press: float) -> float:
    """Active groups one token serves at one press every ``MOVE_SECONDS`` in each."""
    return GLOBAL_PER_SECOND * MOVE_SECONDS / calls_a_press if calls_a_press else float("inf")


def table(counts: dict[str, Counter[str]], presses: Mapping[str, int]) -> dict[str, dict[str, float]]:
    """Per game and for the whole mix (``mix``): calls a press by kind, and the presses they were counted over."""
    rows = {game: rates(counts.get(game, Counter()), presses[game]) for game in presses}
    everything: Counter[str] = sum(counts.values(), Counter())
    rows["mix"] = rates(everything, sum(presses.values()))
    for game, row in rows.items():
        row["presses"] = float(sum(presses.values()) if game == "mix" else presses[game])
    return rows


def show(rows: dict[str, dict[str, float]], before: dict[str, dict[str, float]] | None) -> None:
    """Print the table; ``before``, if given, on the line under each row."""
    head = " ".join(f"{k:>12}" for k in (*KINDS, "counted", "with deletes"))
    print(f"calls a press by kind (successful calls ÷ answered presses), one press every {MOVE_SECONDS:g} s a group:")
    print(f"  {'game':<12} {'presses':>8} {head}")
    for game, row in rows.items():
        print(
            f"  {game:<12} {row['presses']:>8.0f} "
            + " ".join(f"{row[k]:>12.2f}" for k in (*KINDS, "counted", "with deletes"))
        )
        old = (before or {}).get(game)
        if old is not None:
            print(
                f"  {'  before':<12} {old['presses']:>8.0f} "
                + " ".join(f"{old[k]:>12.2f}" for k in (*KINDS, "counted", "with deletes"))
            )
    mix = rows["mix"]
    line = (
        f"groups a token serves (30 calls/s, a press every {MOVE_SECONDS:g} s): "
        f"{ceiling(mix['with deletes']):.0f} with deletes counted, {ceiling(mix['counted']):.0f} without"
    )
    if before is not None and "mix" in before:
        old = before["mix"]
        line += f" (before: {ceiling(old['with deletes']):.0f} and {ceiling(old['counted']):.0f})"
    print(line)


def save(data: object, path: Path) -> None:
    """A table (or a call log) kept as JSON."""
    path.write_text(json.dumps(data, indent=1))


def load(path: Path | None) -> dict[str, dict[str, float]] | None:
    return json.loads(path.read_text()) if path is not None else None
