"""عصر سکه‌ها in Persian words, menus and pictures."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from bot.games.base import OptionToggle
from bot.messages.fa import name, num
from rendering.coin_age import labels, render
from rendering.coin_age.facts import possible, ranking
from rendering.encode import to_bytes
from rules import Event
from rules.coin_age.board import BOARD
from rules.coin_age.model import (
    SIZES,
    Captured,
    CoinAgeOptions,
    CoinAgeView,
    GameEnded,
    Moved,
    Paid,
    Placed,
    Tossed,
    TurnEnded,
)

SPACE_NAMES = {s.id: s.name for s in BOARD.spaces}
TWO_FAVOURABLE = OptionToggle("two_favourable_place_two", "با ۲ سکهٔ موافق، ۲ سکه بگذارید (نه ۱)", "۲ سکه با ۲ موافق")


def coin_name(size: int) -> str:
    return f"سکهٔ {num(size + 1)}"


def favourable(count: int) -> str:
    """«۲ سکهٔ موافق», or «هیچ سکهٔ موافقی نیامد» rather than a bare zero."""
    return f"{num(count)} سکهٔ موافق" if count else "هیچ سکهٔ موافقی نیامد"


def _space(space_id: str) -> str:
    return f"«{SPACE_NAMES[space_id]}»"


def _moved(event: Moved, view: CoinAgeView) -> str:
    """What a move carried: «ستون ۳ سکه‌ای» for a stack, «سکهٔ ۲» for one coin (read off the view after the
    move, where it stands now), «سکهٔ» when the view no longer shows it."""
    if event.coins > 1:
        return f"ستون {num(event.coins)} سکه‌ای"
    stack = next((s.stack for s in view.spaces if s.id == event.target), ())
    return coin_name(stack[0].size) if len(stack) == 1 else "سکهٔ"


class CoinAgePresenter:
    game_id = "coin_age"
    emoji = "🪙"
    confirm_moves = False
    previews = False
    summary = "سکه‌ها را بیندازید، منطقه‌ها را بگیرید"
    toggles = (TWO_FAVOURABLE,)

    hands = None  # nothing is secret: everything is played in the group

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, CoinAgeOptions)
        two = "۲ سکه" if options.two_favourable_place_two else "۱ سکه"
        source = (
            f"ℹ️ «۲ سکه با ۲ موافق» قانون راهنمای رسمی انگلیسی است که با گزینهٔ «{TWO_FAVOURABLE.label}» روشن"
            " شده؛ در راهنمای فارسی بازی ۱ سکه است."
            if options.two_favourable_place_two
            else "ℹ️ «۱ سکه با ۲ موافق» قانون راهنمای فارسی بازی است؛ در راهنمای رسمی انگلیسی ۲ سکه است. برای"
            f" بازی با قانون انگلیسی، گزینهٔ «{TWO_FAVOURABLE.label}» را در اتاق انتظار روشن کنید."
        )
        return "\n".join(
            [
                "🪙 <b>عصر سکه‌ها</b> — دو نفره",
                "",
                "نقشه ۱۰ منطقه دارد در ۴ رنگ. هر بازیکن ۴ سکهٔ ۱، ۳ سکهٔ ۲، ۲ سکهٔ ۳ و ۱ سکهٔ ۴ دارد"
                " (عدد هر سکه ارزش آن است). هر سکه دو رو دارد: رویی به رنگ بازیکن اول (طلایی) و رویی به رنگ"
                " بازیکن دوم (آبی).",
                "در آغاز هر نوبت، ربات از هر اندازه‌ای که در ذخیرهٔ شما مانده یک سکه برمی‌دارد و می‌اندازد؛"
                " سکه‌هایی که روی رنگ شما می‌افتند «موافق»اند.",
                "",
                "<b>کارهای هر نوبت</b> (همه اختیاری و به هر ترتیب):",
                "• ۴ موافق: ۲ سکه بگذارید؛ یا ۱ سکه به حریف بپردازید و ۳ سکه بگذارید",
                "• ۳ موافق: ۲ سکه بگذارید",
                f"• ۲ موافق: {two} بگذارید",
                "• ۱ موافق: ۱ سکه بگذارید و یک جابه‌جایی کنید",
                "• بدون موافق: یک جابه‌جایی و یک تصرف",
                source,
                "",
                "<b>گذاشتن:</b> یک سکهٔ موافق، رو به رنگ شما، در منطقه‌ای خالی یا روی سکه‌ای بزرگ‌تر.",
                "<b>جابه‌جایی:</b> ستون سکه‌های یک منطقه (یا تک‌سکهٔ آن)، به همان ترتیب، به منطقهٔ خالیِ همسایه.",
                "<b>پرداخت:</b> یک سکهٔ موافق به ذخیرهٔ حریف.",
                "<b>تصرف:</b> سکهٔ تنها یا بالاترین سکهٔ ستون یک منطقه (از هر رنگ) به ذخیرهٔ شما می‌آید.",
                "سکه‌های استفاده‌نشده به ذخیره برمی‌گردند.",
                "",
                "<b>پایان:</b> وقتی بازیکنی آخرین سکه‌اش را بگذارد یا آخرین منطقهٔ خالی پر شود.",
                "<b>امتیاز:</b> بالاترین سکهٔ هر منطقه به اندازهٔ ارزشش به بازیکنِ رنگِ رویش امتیاز می‌دهد؛"
                " هر کس در رنگی منطقه‌های بیشتری داشته باشد امتیازش در آن رنگ دو برابر می‌شود"
                " (در تصویر: «×۲»)؛ هر سکهٔ بیرون‌مانده ۱ امتیاز. در تساوی، ارزش سکه‌های بیرون‌مانده تعیین"
                " می‌کند.",
            ]
        )

    def describe(self, events: Sequence[Event], names: Sequence[str], view: CoinAgeView) -> list[str]:
        lines: list[str] = []
        previous: Event | None = None
        for event in events:
            line = self._line(event, previous, names, view)
            if line:
                lines.append(line)
            previous = event
        return lines

    def _line(self, event: Event, previous: Event | None, names: Sequence[str], view: CoinAgeView) -> str | None:
        if isinstance(event, Tossed):
            return f"🎲 {name(names[event.seat])} {num(len(event.coins))} سکه انداخت: {favourable(event.favourable)}."
        if isinstance(event, Placed):
            return f"🪙 {name(names[event.seat])} {coin_name(event.size)} را در {_space(event.space)} گذاشت."
        if isinstance(event, Moved):
            what = _moved(event, view)
            return f"↔️ {name(names[event.seat])} {what} را از {_space(event.source)} به {_space(event.target)} برد."
        if isinstance(event, Paid):
            return f"💰 {name(names[event.seat])} یک {coin_name(event.size)} به حریف پرداخت."
        if isinstance(event, Captured):
            who, where = name(names[event.seat]), _space(event.space)
            if event.side == event.seat:
                return f"⚔️ {who} {coin_name(event.size)} خودش را از {where} پس گرفت."
            return f"⚔️ {who} {coin_name(event.size)} حریف را از {where} گرفت."
        if isinstance(event, TurnEnded) and event.automatic and isinstance(previous, Tossed):
            return f"⏭ {name(names[event.seat])} کاری نمی‌توانست بکند؛ نوبت گذشت."
        if isinstance(event, GameEnded):
            if event.reason == "board_full":
                return "🏁 آخرین منطقهٔ خالی پر شد."
            return "🏁 یک بازیکن آخرین سکه‌اش را گذاشت."
        return None

    def status(self, view: CoinAgeView, names: Sequence[str]) -> list[str]:
        """The toss, what can really still be done (the picture's words), and the scores."""
        turn = view.turn
        if turn is None:
            return []
        scores = " — ".join(f"{name(names[i])}: {num(s.total)}" for i, s in enumerate(view.scores))
        return [
            f"نوبت {num(turn.number)}: {favourable(turn.favourable)} (از {num(len(turn.toss))} سکهٔ انداخته)",
            f"{labels.CAN_DO} {labels.can_do(possible(view))}",
            f"امتیاز فعلی: {scores}",
        ]

    def result(self, view: CoinAgeView, names: Sequence[str]) -> list[str]:
        """Every player's score with its parts, best first (tied players share a place), then the winner or
        the draw, and how equal totals were decided."""
        lines = []
        for place, seat in ranking(view):
            s = view.scores[seat]
            lines.append(
                f"{num(place)}. {name(names[seat])}: <b>{num(s.total)}</b>"
                f" = {num(s.board)} از نقشه + {num(s.unplaced)} سکهٔ بیرون‌مانده"
            )
        a, b = view.scores
        if len(view.winners) == 2:
            lines.append("🤝 مساوی! امتیاز و ارزش سکه‌های بیرون‌مانده برابر است.")
        else:
            winner = view.winners[0]
            if a.total == b.total:
                lines.append(
                    f"امتیازها برابر بود؛ ارزش سکه‌های بیرون‌مانده"
                    f" ({num(view.scores[winner].tiebreak)} در برابر {num(view.scores[1 - winner].tiebreak)})"
                    " تعیین کرد."
                )
            lines.append(f"🏆 برنده: <b>{name(names[winner])}</b>")
        return lines

    def root_depth(self, kind: str) -> int:
        return 2 if kind in ("p", "y") else 1

    def menu_flat(self, prefix: str) -> int:
        """A move's level lists the moves whole («از … به …», one press after «جابه‌جایی»); the first level
        keeps its kinds and coins."""
        return 20 if prefix else 0

    def menu_rows_by(self, prefix: str) -> int:
        return 0

    def menu_columns(self, prefix: str) -> int:
        return 2

    def menu_label(self, path: Sequence[str], view: CoinAgeView) -> str:
        kind = path[0]
        if len(path) == 1:
            return {"m": "↔️ جابه‌جایی", "c": "⚔️ تصرف", "x": "⏭ پایان نوبت"}[kind]
        if kind == "p" and len(path) == 2:
            return f"🪙 گذاشتن {coin_name(SIZES.index(path[1]))}"
        if kind == "y":
            return f"💰 پرداخت {coin_name(SIZES.index(path[1]))} به حریف"
        space = path[-1]
        label = SPACE_NAMES[space]
        if kind == "m":
            return f"از {label}" if len(path) == 2 else f"به {label}"
        if kind == "c":
            stack = next(s.stack for s in view.spaces if s.id == space)
            top = stack[-1]
            whose = "شما" if view.turn is not None and top.side == view.turn.seat else "حریف"
            return f"{label} — {coin_name(top.size)} {whose}"
        return label

    def chain_label(self, paths: Sequence[Sequence[str]], view: CoinAgeView) -> str:
        """«🪙 گذاشتن سکهٔ ۳ در …», «↔️ جابه‌جایی از … به …», «⚔️ تصرف … — …»."""
        if paths[0][0] == "p":
            return f"{self.menu_label(paths[0], view)} در {SPACE_NAMES[paths[-1][-1]]}"
        return " ".join(self.menu_label(path, view) for path in paths)

    def picture(self, view: CoinAgeView, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        data, extension = to_bytes(render(view, names=names))
        return data, f"coin_age.{extension}"


presenter = CoinAgePresenter()
