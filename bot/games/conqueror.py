"""کشورگشا in Persian words, menus and pictures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from bot.games.base import OptionToggle
from bot.messages.fa import name, num
from bot.messages.menus import Menu
from rendering.conqueror import render
from rendering.conqueror.labels import camp_label
from rendering.encode import to_bytes
from rules import Event
from rules.conqueror.model import (
    ACTIONS_PER_TURN,
    COLOURS,
    PIECES,
    TARGET,
    TURNS_PER_ROUND,
    WALLS,
    Captured,
    CastleBuilt,
    ConquerorOptions,
    ConquerorView,
    Entered,
    GameEnded,
    Left,
    Moved,
    Scored,
    WallBuilt,
)
from rules.places import by_place


@dataclass(frozen=True, slots=True)
class Marks:
    """What the picture marks while a menu level is open: the camps offered (ringed), the camp chosen before
    (a move's source: ringed dark) and the walls offered, as (camp, across) pairs (around their camp)."""

    camps: frozenset[str] = frozenset()
    chosen: str | None = None
    sides: tuple[tuple[str, str], ...] = ()


def marks(view: ConquerorView, prefix: str) -> Marks:
    """The marks of the menu level ``prefix`` ("" the level the menu opens on), from the view's legal codes.
    The first level (kinds, pieces and camps for walls) marks nothing: the board is read as it is; a kind's
    level rings its camps, a piece's level its targets, a wall camp's level draws its sides."""
    menu = Menu.of(presenter, view.legal)
    level = prefix or menu.top()
    if not level:
        return Marks()
    codes = [choice.key.split(".") for choice in menu.choices(level)]
    kind = level.split(".")[0]
    if kind == "w":
        return Marks(sides=tuple((code[1], code[2]) for code in codes))
    if kind == "m":
        return Marks(frozenset(code[2] for code in codes), level.split(".")[1])
    return Marks(frozenset(code[1] for code in codes))


_MEDALS = {1: "🥇", 2: "🥈"}
_KINDS = {
    "c": "🏰 ساخت قلعه",
    "e": "⬆️ ورود مهره به قلعه",
    "l": "⬇️ خروج از قلعه",
    "x": "⏭ پایان نوبت",
}


def _whole(path: Sequence[str]) -> str:
    """A whole action's button: «🏰 قلعه در ب۴», «🧱 ب۴ و ج۱», «➡️ از ب۳ به ب۴» …"""
    kind, *camps = path
    if kind == "x":
        return _KINDS["x"]
    camp = camp_label(camps[0])
    if kind == "m":
        return f"➡️ از {camp} به {camp_label(camps[1])}"
    if kind == "w":
        return f"🧱 {camp} و {camp_label(camps[1])}"
    return {"c": f"🏰 قلعه در {camp}", "e": f"⬆️ ورود به قلعهٔ {camp}", "l": f"⬇️ خروج از قلعهٔ {camp}"}[kind]


class ConquerorPresenter:
    game_id = "conqueror"
    emoji = "🏰"
    confirm_moves = False
    previews = True  # a menu of camps rings them on the board
    summary = "قلعه بسازید، دیوار بکشید، منطقه‌ها را از آنِ خود کنید"
    toggles = (OptionToggle("random_board", "صفحهٔ تصادفی (کاشی‌ها به شکل تازه چیده می‌شوند)", "صفحهٔ تصادفی"),)

    hands = None  # nothing is secret: everything is played in the group

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, ConquerorOptions)
        board = (
            "تصادفی، با همان قاعده‌های چیدمان"
            if options.random_board
            else "ثابت: ۷ کاشی و ۴۹ منطقه، قرینه برای دو بازیکن"
        )
        return "\n".join(
            [
                "🏰 <b>کشورگشا</b> — دو نفره",
                "",
                f"صفحه: {board}. هر کاشی ۷ منطقه دارد و نام هر منطقه حرف کاشی و شمارهٔ منطقه در آن است: «ج۴»"
                " منطقهٔ ۴ از کاشی «ج» است؛ ۰ مرکز کاشی است و ۱ تا ۶ دور آن، از سمت راست و خلاف جهت عقربه‌های"
                " ساعت. هر منطقه ظرفیتی دارد (۱ تا ۳ مهره): شمار نقطه‌های پایینش. منطقه‌هایی که روی تصویر علف"
                " دارند «دشت»اند: روی دشت قلعه ساخته نمی‌شود.",
                f"هر بازیکن {num(PIECES)} مهره و {num(WALLS)} دیوار دارد؛ قلعه‌ها از بانک می‌آیند."
                f" {COLOURS[0]} بازی را شروع می‌کند.",
                "",
                "<b>آغاز:</b> هر بازیکن نخستین قلعه‌اش را در مرکز یک کاشی می‌سازد (۶ امتیاز).",
                f"<b>نوبت‌ها:</b> {num(options.rounds)} دور، هر دور {num(TURNS_PER_ROUND)} نوبت؛ نوبت‌های فرد با"
                f" {COLOURS[0]} و زوج با {COLOURS[1]}؛ در هر نوبت تا {num(ACTIONS_PER_TURN)} کار می‌کنید، یا"
                " نوبت را زودتر تمام می‌کنید.",
                "",
                "<b>کارها:</b>",
                "• ساخت قلعه: در منطقه‌ای که دشت نیست، بی‌قلعه و بی‌مهرهٔ حریف است؛ نه کنار قلعهٔ دیگر؛ به فاصلهٔ یک"
                " منطقه از یکی از قلعه‌های حریف.",
                "• ساخت دیوار: روی ضلع منطقه‌ای که قلعهٔ شما در آن است یا مال شماست؛ دیوار راه و اتصال را می‌بُرد.",
                "• ورود مهره: از ذخیره به قلعهٔ خالیِ خودتان که محاصره نباشد.",
                "• خروج از قلعه: مهرهٔ روی قلعه به منطقهٔ همان قلعه می‌رود.",
                "• حرکت: یک مهره به منطقهٔ همسایه، بی‌عبور از دیوار، تا ظرفیت منطقه؛ منطقه‌ای که مهرهٔ هر دو رنگ در آن"
                " است محدودیتی ندارد.",
                "",
                "<b>تصرف:</b> هر که در منطقهٔ یک قلعه از صاحبش مهرهٔ بیشتری داشته باشد (مهرهٔ روی قلعه هم شمرده"
                " می‌شود) قلعه را می‌گیرد و مهره‌های صاحب قبلی به ذخیره‌اش برمی‌گردند. در برابری، صاحب قلعه"
                " نمی‌تواند مهره‌هایش را از آن منطقه بیرون ببرد.",
                "<b>مالکیت:</b> منطقه‌ای که به یک قلعه وصل است از آنِ صاحب آن قلعه است؛ به دو قلعهٔ هم‌رنگ: همان"
                " رنگ؛ به سه قلعه: رنگی که دو قلعه دارد؛ به دو قلعهٔ ناهم‌رنگ: هیچ‌کس. منطقهٔ خودِ قلعه امتیاز ندارد.",
                f"<b>امتیاز و پایان:</b> امتیاز هر بازیکن شمار منطقه‌های اوست. رسیدن به {num(TARGET)} امتیاز بازی را"
                " همان‌جا می‌بَرد؛ وگرنه پس از دور آخر امتیاز بیشتر می‌برد و برابری مساوی است.",
                "",
                "<b>روی تصویر:</b> منطقه‌ای که به رنگ قرمز یا زرد کم‌رنگ است از آنِ همان بازیکن است و امتیاز دارد؛"
                " زمینهٔ منطقهٔ قلعه آبی‌خاکستری است. دایرهٔ رنگی با عدد، شمار مهره‌های ایستاده در منطقه است و مهرهٔ"
                " روی قلعه در دروازهٔ قلعه دیده می‌شود. کارت بازیکنی که نوبت اوست قابی به رنگ او دارد؛ هر کارت"
                " امتیاز بازیکن و شمار مهره‌های ذخیره، دیوارهای مانده و قلعه‌هایش را نشان می‌دهد.",
                "<b>در ربات:</b> هر کار یک یا دو دکمه است. برای حرکت، اول مهره («➡️ از ص۶») و بعد مقصد («به ص۵»)؛"
                " برای دیوار، اول منطقه («🧱 ب۴») و بعد همسایه‌ای که دیوار میان آن دو ساخته می‌شود («🧱 ب۴ و ب۵»)."
                " منطقه‌هایی که می‌توانید انتخاب کنید روی تصویر حلقهٔ آبی دارند و دیوارهای ممکن آبی کم‌رنگ کشیده"
                " می‌شوند.",
            ]
        )

    def describe(self, events: Sequence[Event], names: Sequence[str], view: ConquerorView) -> list[str]:
        lines: list[str] = []
        for event in events:
            line = self._line(event, names)
            if line:
                lines.append(line)
        return lines

    def _line(self, event: Event, names: Sequence[str]) -> str | None:
        if isinstance(event, CastleBuilt):
            return f"🏰 {name(names[event.seat])} در {camp_label(event.camp)} قلعه ساخت."
        if isinstance(event, WallBuilt):
            return (
                f"🧱 {name(names[event.seat])} میان {camp_label(event.camp)} و {camp_label(event.across)} دیوار کشید."
            )
        if isinstance(event, Entered):
            return f"⬆️ {name(names[event.seat])} مهره‌ای به قلعهٔ {camp_label(event.camp)} آورد."
        if isinstance(event, Left):
            return f"⬇️ {name(names[event.seat])} مهرهٔ قلعهٔ {camp_label(event.camp)} را به منطقه برد."
        if isinstance(event, Moved):
            return (
                f"➡️ {name(names[event.seat])} مهره‌ای از {camp_label(event.source)} به {camp_label(event.target)} برد."
            )
        if isinstance(event, Captured):
            back = f"؛ {num(event.returned)} مهرهٔ حریف به ذخیره برگشت" if event.returned else ""
            return f"⚔️ {name(names[event.seat])} قلعهٔ {camp_label(event.camp)} را تصرف کرد{back}."
        if isinstance(event, Scored):
            return None  # the caption's status line shows the scores, once
        if isinstance(event, GameEnded):
            if event.reason == "target":
                return f"🏁 {name(names[event.winners[0]])} به {num(TARGET)} امتیاز رسید."
            return "🏁 دورها تمام شد."
        return None

    def status(self, view: ConquerorView, names: Sequence[str]) -> list[str]:
        if view.to_act is None:
            return []
        scores = "، ".join(
            f"{name(names[i])} ({COLOURS[i]}): {num(s)} از {num(view.target)}" for i, s in enumerate(view.scores)
        )
        if view.opening:
            return ["آغاز بازی: نخستین قلعه را در مرکز یک کاشی بسازید.", f"امتیاز: {scores}"]
        return [
            f"دور {num(view.round)} از {num(view.rounds)}، نوبت {num(view.turn)} از {num(view.turns_per_round)}،"
            f" کارهای مانده: {num(view.actions_left)}",
            f"امتیاز: {scores}",
        ]

    def result(self, view: ConquerorView, names: Sequence[str]) -> list[str]:
        """The players by score, the best first, equal scores in the same place; then the winner."""
        lines = [
            f"{_MEDALS.get(place, '▫️')} {name(names[i])} ({COLOURS[i]}): <b>{num(view.scores[i])}</b> امتیاز،"
            f" {num(view.castle_counts[i])} قلعه"
            for place, i in by_place(view.scores)
        ]
        if len(view.winners) == 2:
            lines.append("🤝 مساوی!")
        else:
            lines.append(f"🏆 برنده: <b>{name(names[view.winners[0]])}</b>")
        return lines

    def root_depth(self, kind: str) -> int:
        """A piece to move and a camp to wall are first-level buttons of their own: a move is its piece, then
        its target; a wall its camp, then its side. Castles, enters and leaves open a level of camps."""
        return 2 if kind in ("m", "w") else 1

    def menu_flat(self, prefix: str) -> int:
        """Never: below the first level every button already plays an action."""
        return 0

    def menu_rows_by(self, prefix: str) -> int:
        """The first level keeps each kind of action on rows of its own."""
        return 0 if prefix else 1

    def menu_columns(self, prefix: str) -> int:
        """Pieces and camps in fours on the first level, a level's camps in threes."""
        return 3 if prefix else 4

    def menu_label(self, path: Sequence[str], view: ConquerorView) -> str:
        kind = path[0]
        if len(path) == 1:
            return _KINDS[kind]
        if kind == "m":
            return f"➡️ از {camp_label(path[1])}" if len(path) == 2 else f"به {camp_label(path[2])}"
        if kind == "w" and len(path) == 2:
            return f"🧱 {camp_label(path[1])}"
        return _whole(path)

    def chain_label(self, paths: Sequence[Sequence[str]], view: ConquerorView) -> str:
        """What the button does, whole and short: «➡️ از ب۳ به ب۴», «🏰 قلعه در ب۴», «🧱 ب۴ و ج۱» …"""
        return _whole(paths[-1])

    def picture(self, view: ConquerorView, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        shown = marks(view, prefix)
        image = render(view, names=names, choices=shown.camps, chosen=shown.chosen, sides=shown.sides)
        data, extension = to_bytes(image)
        return data, f"conqueror.{extension}"


presenter = ConquerorPresenter()
