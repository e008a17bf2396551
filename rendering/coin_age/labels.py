"""Every Persian word the Coin Age picture uses, kept together so wording is reviewed in one place.

One name for one thing, in the picture and in the bot's captions alike (the presenter takes ``can_do`` from
here): a space of the map is a «منطقه», a group of spaces of one colour a «رنگ», a pile of coins a «ستون»;
placing is «گذاشتن», giving a coin to the opponent «پرداخت».
"""

from __future__ import annotations

from rendering.coin_age.facts import Possible
from rendering.text import persian_digits

TURN = "نوبت {name}"
CAN_DO = "کارهای ممکن:"
PLACE = "گذاشتن {n} سکه"
PAY = "پرداخت ۱ سکه به حریف"
PAY_THEN_PLACE = "پرداخت ۱ سکه به حریف و گذاشتن {n} سکه"
MOVE = "یک جابه‌جایی"
CAPTURE = "یک تصرف"
ONLY_END = "فقط پایان نوبت"
AND = " و "
OR = "، یا "
SCORE = "امتیاز"
LEADS = "اکثریت رنگ‌ها"
DOUBLED = "×۲"
WINNER = "برنده: {name}"
DRAW = "مساوی"
END_REASONS = {"last_coin": "پایان بازی: بازیکنی آخرین سکه‌اش را گذاشت", "board_full": "پایان بازی: همهٔ منطقه‌ها پر شد"}
TIEBREAK = "امتیازها برابر بود؛ ارزش سکه‌های بیرون‌مانده تعیین کرد"


def can_do(possible: Possible) -> str:
    """What can still be done this turn, in words: «گذاشتن ۲ سکه، یا پرداخت ۱ سکه به حریف و گذاشتن ۳ سکه»,
    «گذاشتن ۱ سکه و یک جابه‌جایی», or «فقط پایان نوبت»."""
    if possible.only_end:
        return ONLY_END
    parts = [PLACE.format(n=possible.places)] if possible.places else []
    parts += [MOVE] if possible.move else []
    parts += [CAPTURE] if possible.capture else []
    text = AND.join(parts)
    if possible.can_pay:
        paying = PAY_THEN_PLACE.format(n=possible.places_after_paying) if possible.places_after_paying else PAY
        text = f"{text}{OR}{paying}" if text else paying
    return persian_digits(text)
