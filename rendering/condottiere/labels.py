"""Every Persian word the رکب pictures use, kept together so wording is reviewed in one place.

The words follow the Persian rulebook (the seed): استان for a province, نشان جنگ / نشان صلح for the tokens,
سوخته‌ها for the discard pile, ارتش for a battle line, پاس for passing.
"""

from __future__ import annotations

TITLE = "رکب"
PLAYER = "بازیکن {n}"
BATTLE = "جنگ {n}"
SITE = "محل جنگ: {province}"
NO_SITE = "محل جنگ هنوز انتخاب نشده"
PEACE = "نشان صلح: {province}"
NO_PEACE = "نشان صلح: بیرون از نقشه"
TURN = "نوبتِ {name}"
PHASES = {
    "site": "انتخاب محل جنگ",
    "battle": "کارت یا پاس",
    "scarecrow": "مترسک: کدام سرباز برگردد؟",
    "peace": "ریش سفید: جای نشان صلح",
    "discard": "سوزاندن دست بی‌سرباز؟",
}
DISCARD_WAIT = "منتظر تصمیم: {names}"
GAME_OVER = "پایان بازی"
WINNER = "برنده: {names}"
DRAW = "مساوی: {names}"
END_REASONS = {
    "victory": "سه استان مجاور یا پنج استان",
    "no_free_province": "استان آزادی نماند",
    "three_battles": "سه جنگ برده",
    "out_of_cards": "کارت‌ها تمام شد",
    "stalemate": "دو جنگ پیاپی بی‌کارت",
}
STRENGTH = "قدرت"
HAND = "دست {n}"
PROVINCES = "استان {n}"
WINS = "برد {n}"
COURTESANS = "شیرزن {n}"
PASSED = "پاس"
TO_ACT = "نوبت"
SEASON = "فصل"
NO_SEASON = "بی‌فصل"
DECK = "دسته"
DECKS = "دسته‌ها"
DISCARD = "سوخته‌ها"
OUT_OF_GAME = "بیرون از بازی"
CARDS = "{n} کارت"
WINS_TITLE = "جنگ‌های برده — سه برد، پیروزی"
YOUR_HAND = "دست شما — {n} کارت"
EMPTY_HAND = "دست شما خالی است"
YOUR_LINE = "قدرت ارتش شما: {n}"
PASSED_NOTE = "پاس داده‌اید"
# Short marks in a card's corner: what the card adds (Drummer, Courtesan, Heroine); the left-to-right mark
# keeps the sign before the number in a right-to-left run.
CORNER = {"dr": "\u200e×۲", "co": "\u200e+۱", "he": "\u200e+۱۰"}
