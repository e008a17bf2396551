"""Every Persian word the اسپلندور pictures and buttons use, kept together so wording is reviewed in one place."""

from __future__ import annotations

from rendering.text import persian_digits
from rules.splendor.data import NOBLE_REQUIRES
from rules.splendor.model import ROW_SIZE, CardView

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
BONUSES = "کارت"  # the row of bonuses (bought cards per colour)
TOKENS = "ژتون"
TOKENS_HELD = "ژتون: {n} از {limit}"  # a player's tokens, out of the ten a turn may end with
TOKEN_TOTAL = "{n} از {limit}"
GAME_OVER = "پایان بازی"
WINNER = "برنده: {names}"
SHARED_WIN = "برندگان: {names}"
NAME_SEPARATOR = " و "
END_REASONS = {"points": "رسیدن به ۱۵ امتیاز", "no_moves": "حرکتی نماند", "stalled": "ده دور بی‌خرید و بی‌رزرو"}
DECK = "دستهٔ {level}"  # a deck's label
CARD_BUTTON = "کارت {label}"  # the button of a face-up card, by its label
RESERVED_BUTTON = "رزروشدهٔ {label}"  # the button of a reserved card, by the label over it
CARD_POINTS = "{n} امتیاز"
GOLD_SPENT = "با {n} طلا"  # a buy that gold completes
FREE = "رایگان"  # a card paid with bonuses alone
# The private picture.
MY_RESERVED = "کارت‌های رزروشدهٔ شما"
NO_RESERVED = "کارت رزروشده‌ای ندارید"
CAN_BUY = "می‌توانید بخرید"
SHORT_BY = "کم دارید: {n}"
CANNOT_BUY = "هنوز نمی‌توانید"  # the private chat's picture: what is short is on the board
FROM_DECK = "پنهان از دیگران"  # a card reserved from a deck

# The labels on the pictures that the buttons repeat -------------------------------------------------------


def card_label(level: int, slot: int) -> str:
    """The label of a face-up card: the twelve are numbered from level 1 up, each row from the slot next to
    its deck: ``۱`` to ``۴`` on level 1, ``۷`` for level 2, slot 2 (``b.2.2``, ``r.2.2``). One number says
    which card without a range-like ``۲-۳``."""
    return persian_digits((level - 1) * ROW_SIZE + slot + 1)


def deck_label(level: int) -> str:
    """The label of a deck (``r.<level>.d``): ``دستهٔ ۲``."""
    return persian_digits(DECK.format(level=level))


def reserved_label(index: int) -> str:
    """The label of a player's reserved card, counted from 1 (``b.h.<index>``): ``۱`` for index 0."""
    return persian_digits(index + 1)


def card_button(label: str, card: CardView | None, gold: int = 0) -> str:
    """A card's button: the label the picture puts on it, then its colour and points as the picture shows
    them, «کارت ۵ · قرمز · ۲ امتیاز» (no points: «کارت ۵ · قرمز»), and the gold a buy spends when the gems
    fall short, «… · با ۱ طلا», so that a buy says it pays with gold by itself. ``label`` is the whole first
    part (``CARD_BUTTON`` or ``RESERVED_BUTTON``); a card hidden from the viewer has only that."""
    if card is None:
        return label
    parts = [label, COLOUR_NAMES[card.bonus]]
    if card.points:
        parts.append(persian_digits(CARD_POINTS.format(n=card.points)))
    if gold:
        parts.append(persian_digits(GOLD_SPENT.format(n=gold)))
    return " · ".join(parts)


def noble_button(number: int) -> str:
    """Noble ``number``'s button (``n.3``): the bonuses it asks for, as its tile shows them, «۴ سبز، ۴ قرمز»."""
    needs = [f"{persian_digits(n)} {COLOUR_NAMES[c]}" for c, n in enumerate(NOBLE_REQUIRES[number]) if n]
    return "، ".join(needs)
