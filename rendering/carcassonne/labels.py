"""Every Persian word and mark the قلعه رودخان picture uses, kept together so wording is reviewed in one place.

The bot builds its buttons and captions with the same functions and names (``candidate_label``,
``rotation_label``, ``spot_label``, ``SEAT_MARKS``, ``SEAT_COLOUR_NAMES``, ``FEATURE_NAMES``), so what a button
says is what the picture shows. The words
follow the Persian rulebook (the seed): کاشی for a tile, آدمک for a meeple, صومعه for the monastery.
"""

from __future__ import annotations

from rendering.text import persian_digits
from rendering.theme import RGB

PLAYER = "بازیکن {n}"  # default display name, n from 1
TURN = "نوبتِ"
TILES_LEFT = "کاشی‌های مانده: {n}"  # as the board's caption says it
DRAWN = "کاشی این نوبت"
# What to press, in the bar, at each step of the menu.
CHOOSE_PLACE = "شمارهٔ جای کاشی را بزنید"
CHOOSE_ROTATION = "چرخش کاشی را بزنید"
CHOOSE_PLACEMENT = "چرخش و جای آدمک را بزنید"
CHOOSE_SPOT = "جای آدمک را بزنید"
CONFIRM = "«تأیید» را بزنید"
NO_SPOT = "جایی برای آدمک نیست"
NO_MEEPLE = "بدون آدمک"
MEEPLE_ON = "آدمک روی {feature}"
GAME_OVER = "پایان بازی"
WINNER = "برنده: {names}"
SHARED_WIN = "برندگان: {names}"
NAME_SEPARATOR = " و "
TOTAL = "جمع"

FEATURE_NAMES = {"city": "شهر", "road": "جاده", "field": "مزرعه", "monastery": "صومعه"}
# Seat order: red, blue, green, yellow, black. The picture's meeples (``CarcassonneTheme.seats``), the names
# and the marks the bot writes in captions and buttons.
SEAT_COLOURS: tuple[RGB, ...] = ((214, 38, 38), (36, 96, 214), (28, 150, 62), (250, 204, 24), (34, 32, 30))
SEAT_COLOUR_NAMES = ("قرمز", "آبی", "سبز", "زرد", "سیاه")
SEAT_MARKS = ("🔴", "🔵", "🟢", "🟡", "⚫️")
SPOT_LETTERS = ("الف", "ب", "پ", "ت", "ث", "ج", "چ", "ح")


def candidate_label(number: int) -> str:
    """A candidate position's number as drawn on the board and on its button: «۱۲»."""
    return persian_digits(number)


def rotation_label(rotation: int) -> str:
    """A rotation (quarter turns clockwise) in degrees: «۹۰°». Left-to-right marks around it keep the degree
    sign after the number inside a right-to-left line (a caption or a button with words)."""
    return f"\u200e{persian_digits(90 * (rotation % 4))}°\u200e"


def spot_label(index: int) -> str:
    """The label of the ``index``-th meeple spot (from 0) of a placement: «الف», «ب», «پ» …"""
    return SPOT_LETTERS[index]
