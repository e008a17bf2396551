"""Every Persian word the اسپلندور pictures use, kept together so wording is reviewed in one place.

Slot labels on cards (``1.0`` … ``3.3``, ``1.d``, ``h.0``, ``n.3``) stay Latin: they are the tails of the
action codes the bot's buttons use (``b.1.0``, ``r.2.d``, ``b.h.0``, ``n.3``), see ``rules/splendor/README.md``.
"""

from __future__ import annotations

TITLE = "اسپلندور"
COLOUR_NAMES = ("سفید", "آبی", "سبز", "قرمز", "سیاه", "طلا")  # in the order of the view's token counts
PLAYER = "بازیکن {n}"  # default display name, n from 1
ROUND = "دور {n}"
TURN = "نوبتِ"
FINAL_ROUND = "دور آخر"
RETURN_TOKENS = "باید {n} ژتون پس بدهد"
CHOOSE_NOBLE = "انتخاب اشراف‌زاده"
POINTS = "امتیاز"
BANK = "بانک"
NOBLES = "اشراف‌زادگان"
BONUSES = "کارت"  # the row of bonuses (bought cards per colour)
TOKENS = "ژتون"
TOKEN_TOTAL = "{n} از {limit}"
RESERVED = "رزرو"
GAME_OVER = "پایان بازی"
WINNER = "برنده: {names}"
SHARED_WIN = "برندگان: {names}"
NAME_SEPARATOR = " و "
END_REASONS = {"points": "رسیدن به ۱۵ امتیاز", "no_moves": "حرکتی نماند"}
LEGEND_TITLE = "برچسب‌ها (همان‌ها که روی دکمه‌ها می‌آیند)"
LEGEND_ROWS = (
    ("1.0", "کارت سطح ۱ در جای ۰"),
    ("1.d", "دستهٔ سطح ۱: رزرو بدون دیدن کارت"),
    ("h.0", "کارت رزروشدهٔ شمارهٔ ۰ بازیکن"),
    ("n.3", "اشراف‌زادهٔ شمارهٔ ۳"),
)
# The private picture.
MY_RESERVED = "کارت‌های رزروشدهٔ شما"
NO_RESERVED = "کارت رزروشده‌ای ندارید"
MY_TOKENS = "ژتون‌ها و کارت‌های شما"
CAN_BUY = "می‌توانید بخرید"
SHORT_BY = "کم دارید: {n}"
BUY_HINT = "خرید با دکمهٔ {code}"
FROM_DECK = "از دسته، پنهان از دیگران"
