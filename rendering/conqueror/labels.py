"""Every Persian word the کشورگشا picture uses, kept together so wording is reviewed in one place.

The words follow the bot's (``bot/games/conqueror.py``): منطقه for a camp, کار for an action, ذخیره for the
supply. Camp labels (B4…) stay Latin, as on the buttons.
"""

from __future__ import annotations

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
