"""Every Persian word the رکب pictures use, kept together so wording is reviewed in one place.

The words follow the Persian rulebook (the seed): استان for a province, نشان جنگ / نشان صلح for the tokens,
سوخته‌ها for the discard pile, ارتش for a battle line, پاس for passing. Compound names are one word, joined
with the zero-width non-joiner (ریش‌سفید, طبل‌زن).
"""

from __future__ import annotations

from rules.condottiere.data import KIND_OF_CODE, KINDS

PLAYER = "بازیکن {n}"
# The battle's panel.
BATTLE = "جنگ {n}"
NO_SITE = "محل جنگ در انتخاب"
PEACE = "نشان صلح"
NO_PEACE = "بیرون از نقشه"
TURN = "نوبتِ {name}"
PHASES = {
    "site": "انتخاب محل جنگ",
    "battle": "کارت یا پاس",
    "scarecrow": "برگرداندن سرباز",
    "peace": "جای نشان صلح",
    "discard": "دور انداختن دست؟",
}
SEASON = "فصل:"
NO_SEASON = "بی‌فصل"
DECK = "دسته"
DISCARD = "سوخته‌ها"
GAME_OVER = "پایان بازی"
WINNER = "برنده"
WINNERS = "برندگان"
DRAW = "مساوی"
# Why the game ended, under the winners; {n} the count, the provinces follow on the next lines.
ADJACENT = "{n} استانِ به‌هم‌پیوسته:"
ANYWHERE = "{n} استان:"
END_REASONS = {
    "no_free_province": "استان آزادی نماند؛ بیشترین استان برد",
    "three_battles": "{n} جنگ برده",
    "out_of_cards": "کارت‌ها تمام شد؛ بیشترین جنگِ برده برد",
    "stalemate": "دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین {most} برد",
}
MOST = {"map": "استان", "duel": "جنگِ برده"}
# A player's row.
TO_ACT = "نوبت"
PASSED = "پاس"
WON = "برنده"
WINS_TITLE = "جنگ‌های برده — {n} برد، پیروزی"
# The hand picture.
YOUR_HAND = "دست شما — {n} کارت"
EMPTY_HAND = "دست شما خالی است"
SITE_NOTE = "محل جنگ: {province}"
YOUR_LINE = "قدرت ارتش شما: {n}"
PASSED_NOTE = "پاس داده‌اید"
# Short marks in a card's corner: what the card adds (Drummer, Courtesan, Heroine); the left-to-right mark
# keeps the sign before the number in a right-to-left run.
CORNER = {"dr": "\u200e×۲", "co": "\u200e+۱", "he": "\u200e+۱۰"}
# The cards' names where the rules' data writes a compound as two words.
SPELLING = {"bi": "ریش‌سفید", "dr": "طبل‌زن"}


def card_name(kind: str) -> str:
    """A card kind's Persian name («سرباز ۵», «ریش‌سفید») from its kind code ("5", "bi")."""
    return SPELLING.get(kind, KINDS[KIND_OF_CODE[kind]].name)
