"""Every Persian word the کشورگشا picture uses, kept together so wording is reviewed in one place.

The words follow the bot's (``bot/games/conqueror.py``): منطقه for a camp, کار for an action, ذخیره for the
supply. A camp's label is Persian on the picture and on every button (``camp_label``: ``B4`` is «ج۴»); the
engine's action codes keep the Latin labels.
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


TITLE = "کشورگشا"
ROUND = "دور {round} از {rounds} — نوبت {turn} از {turns}"
OPENING = "آغاز بازی — نوبت {turn} از ۲"
TURN = "نوبتِ"
ACTIONS_LEFT = "کارهای مانده: {n}"
OPENING_HINT = "نخستین قلعه: مرکز یک کاشی"
SCORE_OF = "از {target}"
SUPPLY = "ذخیره"
WALLS = "دیوار"
CASTLES = "قلعه"
GAME_OVER = "پایان بازی"
WINNER = "برنده"
DRAW = "مساوی"
END_REASONS = {"target": "رسیدن به {target} امتیاز", "rounds": "دورها تمام شد"}
LEGEND_PLAIN = "دشت: جای قلعه نیست"
LEGEND_OWNED = "رنگ منطقه: امتیاز صاحبش"
LEGEND_CASTLE = "منطقهٔ قلعه امتیاز ندارد"
LEGEND_MANNED = "مهره روی قلعه"
LEGEND_CAPACITY = "ظرفیت منطقه"
