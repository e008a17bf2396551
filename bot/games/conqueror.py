"""کشورگشا in Persian words, menus and pictures."""

from __future__ import annotations

from collections.abc import Sequence

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


def marks(view: ConquerorView, prefix: str) -> tuple[set[str], str | None]:
    """The camps the buttons of the menu level ``prefix`` name beyond the level's own (the places offered,
    and both camps of a move or a wall listed whole) and the camp chosen before it (a move's source, a wall's
    camp), from the view's legal codes: what the picture marks while that level is open."""
    own = len(prefix.split(".")) if prefix else 1  # the kind's letter is no camp
    offered = {
        camp for choice in Menu.of(presenter, view.legal).choices(prefix) for camp in choice.key.split(".")[own:]
    }
    parts = prefix.split(".")
    return offered, (parts[1] if len(parts) == 2 else None)


_KIND_MARK = {"c": "🏰", "w": "🧱", "e": "⬆️", "l": "⬇️"}


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
                f"صفحه: {board}. هر منطقه ظرفیتی دارد (۱ تا ۳، در دایرهٔ پایینش) و نامی مثل «ج۴»: حرف کاشی و شمارهٔ"
                " منطقه. منطقه‌هایی که روی تصویر علف دارند «دشت»اند: روی دشت قلعه ساخته نمی‌شود.",
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
                "<b>در ربات:</b> وقتی فهرستی از منطقه‌ها باز است، منطقه‌هایی که می‌توانید انتخاب کنید روی تصویر"
                " حلقهٔ آبی دارند.",
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
        lines = [
            f"{name(names[i])} ({COLOURS[i]}): <b>{num(s)}</b> امتیاز، {num(view.castle_counts[i])} قلعه"
            for i, s in enumerate(view.scores)
        ]
        if len(view.winners) == 2:
            lines.append("🤝 مساوی!")
        else:
            lines.append(f"🏆 برنده: <b>{name(names[view.winners[0]])}</b>")
        return lines

    def root_depth(self, kind: str) -> int:
        return 1

    def menu_flat(self, prefix: str) -> int:
        """A level of few moves lists them whole: the whole turn on the first level (up to 16, two to a row),
        a kind's moves below it (up to 24, three to a row: a wall or a move in one press after its kind).
        Without it most actions took three presses (bench/presses.py)."""
        return 24 if prefix else 16

    def menu_rows_by(self, prefix: str) -> int:
        return 0

    def menu_columns(self, prefix: str) -> int:
        """Kinds (or moves listed whole) in twos, a move's or a wall's list in threes, camps in fours."""
        if not prefix:
            return 2
        return 3 if prefix in ("m", "w") else 4

    def menu_label(self, path: Sequence[str], view: ConquerorView) -> str:
        kind = path[0]
        if len(path) == 1:
            return {
                "c": "🏰 ساخت قلعه",
                "w": "🧱 ساخت دیوار",
                "e": "⬆️ ورود مهره به قلعه",
                "l": "⬇️ خروج از قلعه",
                "m": "➡️ حرکت مهره",
                "x": "⏭ پایان نوبت",
            }[kind]
        camp = camp_label(path[1])
        if len(path) == 2:
            return f"از {camp}" if kind == "m" else f"{_KIND_MARK[kind]} {camp}"
        other = camp_label(path[2])
        return f"به {other}" if kind == "m" else f"🧱 {camp} و {other}"

    def chain_label(self, paths: Sequence[Sequence[str]], view: ConquerorView) -> str:
        """What the button does, whole and short: «➡️ از ب۳ به ب۴», «🏰 قلعه در ب۴», «🧱 دیوار ب۴ و ج۱» …"""
        kind, last = paths[0][0], paths[-1]
        camp = camp_label(last[1])
        if len(last) == 2:
            return {
                "c": f"🏰 قلعه در {camp}",
                "w": f"🧱 دیوار کنار {camp}",
                "e": f"⬆️ ورود به قلعهٔ {camp}",
                "l": f"⬇️ خروج از قلعهٔ {camp}",
                "m": f"➡️ حرکت از {camp}",
            }[kind]
        other = camp_label(last[2])
        whole = len(paths[0]) == 1  # from the first level, where the kind is not said yet
        if kind == "m":
            return f"➡️ از {camp} به {other}" if whole else f"از {camp} به {other}"
        return f"🧱 دیوار {camp} و {other}" if whole else self.menu_label(last, view)

    def picture(self, view: ConquerorView, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        offered, chosen = marks(view, prefix)
        data, extension = to_bytes(render(view, names=names, choices=offered, chosen=chosen))
        return data, f"conqueror.{extension}"


presenter = ConquerorPresenter()
