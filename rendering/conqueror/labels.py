"""Every Persian word the کشورگشا picture uses, kept together so wording is reviewed in one place.

The words follow the bot's (``bot/games/conqueror.py``): منطقه for a camp, کار for an action. A camp's label
is Persian on the picture and on every button (``camp_label``: ``B4`` is «ج۴»); the engine's action codes
keep the Latin labels. The picture has few words: numbers and the board's own marks say the rest.
"""

from __future__ import annotations

from rendering.text import persian_digits
from rules.conqueror.board import TILE_LETTERS

# One Persian letter per tile, in alphabetical order, each with a skeleton of its own: letters told apart only
# by their dots (ب پ ت ث, ج چ ح خ) blur on a phone; ا, آ, ه and و read like the digits ۱, ۵ and ۹ beside a
# digit, and ر is a mere stroke, so those are skipped.
TILE_NAMES = "بجدسصطعفکلمن"
if len(TILE_NAMES) != len(TILE_LETTERS):
    raise ValueError("every tile letter needs a Persian letter")
_TILE_NAME = dict(zip(TILE_LETTERS, TILE_NAMES, strict=True))


def camp_label(label: str) -> str:
    """The Persian label of a camp: its tile's letter and its number, «ج۴» for the engine's ``B4``."""
    return _TILE_NAME[label[0]] + persian_digits(label[1:])


ROUND = "دور {round} از {rounds}، نوبت {turn} از {turns}"
OPENING = "آغاز بازی: نخستین قلعه در مرکز یک کاشی"
ACTIONS_LEFT = "کارهای مانده"
SCORE_OF = "از {target}"
PLACES = {1: "نفر اول", 2: "نفر دوم"}
GAME_OVER = "پایان بازی"
WINNER = "برنده: {name}"
DRAW = "مساوی"
END_REASONS = {"target": "به {target} امتیاز رسید", "rounds": "دورها تمام شد"}
