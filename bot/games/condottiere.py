"""رکب in Persian words, menus and pictures; each player's hand goes to their private chat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from bot.games.base import OptionToggle
from bot.messages.fa import joined, name, num
from rendering.condottiere import render, render_hand
from rendering.encode import to_bytes
from rules import Event
from rules.condottiere.data import BOARDS, KIND_OF_CODE, KINDS
from rules.condottiere.model import (
    ADJACENT_TO_WIN,
    DEAL,
    DUEL_HAND,
    DUEL_WINS,
    PROVINCES_TO_WIN,
    QUIET_BATTLES,
    BattleEnded,
    BishopDiscarded,
    CardPlayed,
    CondottiereOptions,
    CondottiereView,
    Dealt,
    GameEnded,
    HandDiscarded,
    NextChooser,
    Passed,
    PeaceTokenPlaced,
    ScarecrowReturned,
    SeasonDiscarded,
    SiteChosen,
)


def kind_name(code: str) -> str:
    """«سرباز ۵», «ریش سفید» from a card code (``5#03``) or a kind code (``5``)."""
    return KINDS[KIND_OF_CODE[code.split("#", 1)[0]]].name


def province(view_map: str | None, index: int | None) -> str:
    if view_map is None or index is None:
        return "—"
    return f"«{BOARDS[view_map].provinces[index].name}»"


class CondottiereHands:
    """The hand is secret: playing a card, passing, the Scarecrow's choice and discarding happen in private."""

    def is_private(self, code: str) -> bool:
        return code.split(".", 1)[0] in ("p", "x", "sc", "d")

    def picture(self, view: CondottiereView, names: Sequence[str]) -> tuple[bytes, str]:
        data, extension = to_bytes(render_hand(view))
        return data, f"hand.{extension}"

    def lines(self, view: CondottiereView, names: Sequence[str]) -> list[str]:
        assert view.seat is not None
        cards = "، ".join(kind_name(code) for code in view.hand) or "بدون کارت"
        lines = [f"🃏 {num(len(view.hand))} کارت: {cards}"]
        if view.phase in ("battle", "scarecrow", "peace") and view.variant == "map":
            lines.append(f"⚔️ جنگ {num(view.battle)} در {province(view.map, view.battle_site)}")
        if view.phase != "site":
            lines.append(f"💪 قدرت صف شما: {num(view.strengths[view.seat])}")
        if view.phase == "discard" and view.seat in view.to_act:
            lines.append("سربازی در دستتان نمانده: می‌توانید دستتان را دور بیندازید یا نگه دارید.")
        elif view.phase == "discard":
            deciding = joined([name(names[s]) for s in view.to_act])
            lines.append(f"⏳ منتظر بمانید: {deciding} تصمیم می‌گیرد که دستش را دور بیندازد یا نه.")
        if view.phase == "peace" and view.turn == view.seat:
            lines.append("🕊 ریش سفید بازی شد: نشان صلح را با دکمه‌های زیر صفحهٔ بازی در گروه جابه‌جا کنید.")
        return lines


def _how_won(view: CondottiereView) -> str:
    """The winning line, naming the provinces: «۳ استانِ به‌هم‌پیوسته: …», «۵ استان: …», or why the game
    ended without a conquest."""
    if view.end_reason == "three_battles":
        return f"⚔️ {num(DUEL_WINS)} جنگ برده"
    if view.end_reason == "out_of_cards":
        return "🃏 کارت‌ها تمام شد؛ بیشترین جنگِ برده"
    if view.end_reason == "no_free_province":
        return "🗺 استان آزادی نماند؛ بیشترین استان"
    if view.end_reason == "stalemate":
        return "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین " + ("جنگِ برده" if view.variant == "duel" else "استان")
    if view.map is None or not view.winners:
        return ""
    board = BOARDS[view.map]
    seat = view.winners[0]
    held = [i for i, owner in enumerate(view.owners) if owner == seat]
    if len(held) >= PROVINCES_TO_WIN:
        names = [board.provinces[i].name for i in held]
        return f"🗺 {num(len(held))} استان: {joined(names)}"
    group = _connected(held, board.neighbours)
    return f"🗺 {num(len(group))} استانِ به‌هم‌پیوسته: {joined([board.provinces[i].name for i in group])}"


def _connected(held: list[int], neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The largest group of held provinces joined by borders, in map order."""
    left, best = set(held), list[int]()
    while left:
        group, frontier = set(), [left.pop()]
        while frontier:
            here = frontier.pop()
            group.add(here)
            found = [j for j in neighbours[here] if j in left]
            left.difference_update(found)
            frontier += found
        best = max(best, sorted(group), key=len)
    return best


class CondottierePresenter:
    game_id = "condottiere"
    emoji = "⚔️"
    confirm_moves = False
    previews = False
    summary = "با سربازان و کارت‌های ویژه استان‌ها را تصرف کنید"
    toggles = (OptionToggle("classic_map", "نقشهٔ کلاسیک ایتالیا (۱۷ منطقه)", "نقشهٔ ایتالیا"),)
    hands = CondottiereHands()

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, CondottiereOptions)
        board = "نقشهٔ کلاسیک ایتالیا با ۱۷ منطقه" if options.classic_map else "نقشهٔ ۱۴ استانیِ رکب"
        return "\n".join(
            [
                "⚔️ <b>رکب</b> — ۳ تا ۶ نفر روی نقشه؛ با ۲ نفر، نسخهٔ دو نفره",
                "",
                f"<b>نقشه:</b> {board}. هر بازیکن {num(DEAL)} کارت می‌گیرد؛ دست هر کس فقط در گفتگوی خصوصی"
                " خودش دیده می‌شود و کارت‌ها را از همان‌جا بازی می‌کند.",
                "<b>جنگ:</b> کسی که حق انتخاب دارد یک استان آزاد (بی‌نشان و بی‌نشان صلح) را برمی‌گزیند و جنگ را"
                " آغاز می‌کند. به نوبت، ساعت‌گرد، هر بازیکن یک کارت بازی می‌کند یا پاس می‌دهد؛ پاس تا پایان آن جنگ"
                " قطعی است. وقتی همه پاس دهند (یا پرچمدار بیاید) جنگ تمام می‌شود و بیشترین قدرت استان را می‌گیرد؛"
                " در برابری کسی نمی‌گیرد.",
                "",
                "<b>کارت‌های ویژه</b> به این ترتیب اثر می‌کنند:",
                "• ریش سفید: همهٔ سربازانِ بالاترین عددِ رو شده (در همهٔ صف‌ها) می‌سوزند؛ سپس نشان صلح را روی استانی"
                " آزاد می‌گذارید.",
                "• زمستان: هر سرباز ۱ حساب می‌شود · طبل زن: قدرت سربازانِ صف خودتان دو برابر (یک بار)",
                "• بهار: ۳+ برای هر سربازِ بالاترین عدد، در همهٔ صف‌ها · شیرزن: ۱+ · شیردخت: ۱۰+ (هیچ کارتی بر آن اثر"
                " ندارد)",
                "• مترسک: یکی از سربازان صف خودتان را به دست برگردانید · پرچمدار: جنگ همان‌جا تمام می‌شود",
                "زمستان و بهار در جایگاه فصل می‌مانند تا جنگ تمام شود و هر کدام دیگری را کنار می‌زند.",
                "",
                "<b>جنگ بعدی:</b> بیشترین شیرزن محل را انتخاب می‌کند؛ در برابری شیرزن‌ها برنده؛ در جنگ مساوی آخرین"
                " کسی که پاس داده. بازیکنی که سربازی در دست ندارد می‌تواند دستش را دور بیندازد؛ آخرین دارندهٔ کارت"
                f" باید دور بیندازد. وقتی همهٔ دست‌ها خالی شد، {num(DEAL)} کارت به اضافهٔ یکی برای هر استانِ در"
                " دست پخش می‌شود.",
                f"<b>پیروزی:</b> {num(ADJACENT_TO_WIN)} استانِ به‌هم‌پیوسته یا {num(PROVINCES_TO_WIN)} استان؛ اگر استان"
                " آزادی نماند، بیشترین استان می‌برد. اگر دو جنگ پشت سر هم بی آن‌که کسی کارتی بازی کند بگذرد،"
                " بازی تمام می‌شود و بیشترین استان (در دو نفره: بیشترین جنگِ برده) می‌برد.",
                "",
                f"<b>دو نفره:</b> هر کس دستهٔ ۲۳ کارتیِ یکسان، دست {num(DUEL_HAND)} کارتی؛ کارت‌های بازی‌شده از بازی"
                f" بیرون می‌روند و دست‌ها دوباره به {num(DUEL_HAND)} می‌رسند؛ برندهٔ {num(DUEL_WINS)} جنگ می‌برد.",
            ]
        )

    def describe(self, events: Sequence[Event], names: Sequence[str], view: CondottiereView) -> list[str]:
        return [line for event in events if (line := self._line(event, names, view.map))]

    def _line(self, event: Event, names: Sequence[str], board: str | None) -> str | None:
        def who(seat: int) -> str:
            return name(names[seat])

        if isinstance(event, Dealt):
            shuffled = "دسته بُر خورد و " if event.reshuffled else ""
            return f"🃏 {shuffled}کارت‌ها پخش شد: {joined([num(n) for n in event.sizes])}."
        if isinstance(event, SiteChosen):
            return f"📍 {who(event.seat)} جنگ را در {province(board, event.province)} آغاز کرد."
        if isinstance(event, CardPlayed):
            return f"🗡 {who(event.seat)} {kind_name(event.card)} را بازی کرد."
        if isinstance(event, SeasonDiscarded):
            return f"🍂 {kind_name(event.card)} از جایگاه فصل کنار رفت."
        if isinstance(event, BishopDiscarded):
            if not event.cards:
                return f"🧓 ریش سفیدِ {who(event.seat)}: هیچ سربازی نسوخت."
            if len(event.owners) != len(event.cards):  # an event written before owners were kept
                return f"🧓 ریش سفیدِ {who(event.seat)}: {joined([kind_name(c) for c in event.cards])} سوخت."
            counts = Counter(event.owners)  # one kind only: the highest mercenary in play
            whose = joined([f"{'یکی' if n == 1 else f'{num(n)} تا'} از {who(o)}" for o, n in sorted(counts.items())])
            return f"🧓 ریش سفیدِ {who(event.seat)}: {kind_name(event.cards[0])} سوخت — {whose}."
        if isinstance(event, PeaceTokenPlaced):
            if event.province is None:
                return f"🕊 {who(event.seat)} نشان صلح را جابه‌جا نکرد."
            return f"🕊 {who(event.seat)} نشان صلح را روی {province(board, event.province)} گذاشت."
        if isinstance(event, ScarecrowReturned):
            if event.card is None:
                return f"🌾 {who(event.seat)} با مترسک سربازی برنگرداند."
            return f"🌾 {who(event.seat)} با مترسک {kind_name(event.card)} را به دست برگرداند."
        if isinstance(event, Passed):
            return f"✋ {who(event.seat)} پاس داد{' (کارتی نداشت)' if event.automatic else ''}."
        if isinstance(event, BattleEnded):
            how = " با پرچمدار" if event.reason == "surrender" else ""
            if event.winner is None:
                return f"🤝 جنگ {num(event.battle)}{how} مساوی شد؛ کسی استان را نگرفت."
            return (
                f"🏆 {who(event.winner)} جنگ {num(event.battle)} را{how} برد"
                f" (قدرت {num(event.strengths[event.winner])})."
            )
        if isinstance(event, NextChooser):
            why = {
                "courtesans": "بیشترین شیرزن",
                "winner": "برندهٔ جنگ",
                "last_pass": "آخرین پاس",
                "surrender": "پرچمدار",
            }[event.reason]
            if not event.site:
                return f"⚔️ جنگ بعدی را {who(event.seat)} شروع می‌کند ({why})."
            return f"🧭 محل جنگ بعدی را {who(event.seat)} انتخاب می‌کند ({why})."
        if isinstance(event, HandDiscarded):
            forced = " (ناچار، تنها دارندهٔ کارت)" if event.forced else ""
            return f"🗑 {who(event.seat)} {num(len(event.cards))} کارت دستش را دور انداخت{forced}."
        if isinstance(event, GameEnded):
            reason = {
                "victory": "پیروزی",
                "no_free_province": "استان آزادی نماند",
                "three_battles": f"{num(DUEL_WINS)} جنگ برده شد",
                "out_of_cards": "کارت‌ها تمام شد",
                "stalemate": "دو جنگ پیاپی بی آن‌که کارتی بازی شود گذشت",
            }[event.reason]
            return f"🏁 پایان بازی: {reason}."
        return None

    def status(self, view: CondottiereView, names: Sequence[str]) -> list[str]:
        if view.finished:
            return []
        lines = []
        if view.phase == "site":
            lines.append(f"🧭 {name(names[view.chooser])} محل جنگ {num(view.battle)} را انتخاب می‌کند.")
        else:
            where = f" در {province(view.map, view.battle_site)}" if view.variant == "map" else ""
            season = kind_name(view.season) if view.season else "—"
            lines.append(f"⚔️ جنگ {num(view.battle)}{where}، فصل: {season}")
            lines.append(
                "💪 "
                + "، ".join(
                    f"{name(names[i])} {num(s)}{' ✋' if view.passed[i] else ''}" for i, s in enumerate(view.strengths)
                )
            )
        if view.quiet == QUIET_BATTLES - 1 and not any(view.lines) and view.season is None:  # nothing played yet
            lines.append("⚠️ جنگ پیش بی‌کارت گذشت؛ اگر این جنگ هم بی آن‌که کسی کارتی بازی کند تمام شود، بازی تمام است.")
        held = view.provinces_held if view.variant == "map" else view.wins
        label = "استان" if view.variant == "map" else "جنگ برده"
        lines.append(f"🏳️ {label}: " + "، ".join(f"{name(names[i])} {num(n)}" for i, n in enumerate(held)))
        return lines

    def result(self, view: CondottiereView, names: Sequence[str]) -> list[str]:
        """How the game was won, then everyone ranked, the winners first."""
        held = view.provinces_held if view.variant == "map" else view.wins
        label = "استان" if view.variant == "map" else "جنگ برده"
        draw = len(view.winners) == len(names) > 1
        lines = ["🤝 مساوی!"] if draw else [f"🏆 برنده: {joined([f'<b>{name(names[w])}</b>' for w in view.winners])}"]
        if not draw and (how := _how_won(view)):
            lines.append(how)
        order = sorted(range(len(names)), key=lambda s: (s not in view.winners, -held[s], s))
        lines += [f"{num(rank)}. {name(names[s])}: <b>{num(held[s])}</b> {label}" for rank, s in enumerate(order, 1)]
        return lines

    def root_depth(self, kind: str) -> int:
        return 1 if kind == "x" else 2

    def menu_flat(self, prefix: str) -> int:
        return 0

    def menu_rows_by(self, prefix: str) -> int:
        return 0

    def menu_columns(self, prefix: str) -> int:
        return 3

    def menu_label(self, path: Sequence[str], view: CondottiereView) -> str:
        kind = path[0]
        arg = path[1] if len(path) > 1 else ""
        if kind == "x":
            return "✋ پاس"
        if kind == "p":
            return kind_name(arg)
        if kind == "s":
            return f"📍 {province(view.map, int(arg))}"
        if kind == "sc":
            return "هیچ" if arg == "n" else f"🌾 {kind_name(arg)}"
        if kind == "pz":
            return "🕊 همان‌جا بماند" if arg == "k" else f"🕊 {province(view.map, int(arg))}"
        if kind == "d":
            return "🗑 دور انداختن دست" if arg == "y" else "✋ نگه داشتن دست"
        return ".".join(path)

    def chain_label(self, paths: Sequence[Sequence[str]], view: CondottiereView) -> str:
        """Never needed today (every code is one first-level button), but whole if it comes to that."""
        return " ".join(self.menu_label(path, view) for path in paths)

    def picture(self, view: CondottiereView, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        data, extension = to_bytes(render(view, names=names))
        return data, f"condottiere.{extension}"


presenter = CondottierePresenter()
