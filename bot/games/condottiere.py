"""رکب in Persian words, menus and pictures; each player's hand goes to their private chat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from bot.games.base import OptionToggle
from bot.messages.fa import joined, name, num
from rendering.condottiere import card_name, conquest, render, render_hand
from rendering.encode import to_bytes
from rules import GAMES, Event
from rules.condottiere.data import BOARDS
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
    CondottiereState,
    CondottiereView,
    Dealt,
    HandDiscarded,
    NextChooser,
    Passed,
    PeaceTokenPlaced,
    ScarecrowReturned,
    SeasonDiscarded,
    SiteChosen,
)
from rules.places import by_place


def kind_name(code: str) -> str:
    """«سرباز ۵», «ریش‌سفید» from a card code (``5#03``) or a kind code (``5``), as the pictures write them."""
    return card_name(code.split("#", 1)[0])


SEASON_MARKS = {"wi": "❄️", "sp": "🌸"}


def province(view_map: str | None, index: int | None) -> str:
    if view_map is None or index is None:
        return "—"
    return f"«{BOARDS[view_map].provinces[index].name}»"


class CondottiereHands:
    """The hand is secret: playing a card, passing, the Scarecrow's choice and discarding happen in private. The
    private chat shows the cards and their buttons; the battle (its site, each line's strength) is on the board,
    so another player's card changes nothing there."""

    def is_private(self, code: str) -> bool:
        return code.split(".", 1)[0] in ("p", "x", "sc", "d")

    def picture(self, view: CondottiereView, names: Sequence[str]) -> tuple[bytes, str]:
        data, extension = to_bytes(render_hand(view))
        return data, f"hand.{extension}"

    def chat_picture(self, view: CondottiereView, names: Sequence[str]) -> tuple[bytes, str]:
        data, extension = to_bytes(render_hand(view, reminder=False))
        return data, f"hand.{extension}"

    def standing(self, state: CondottiereState, seat: int) -> list[str]:
        """A card of the hand or a pass, while a battle is fought or about to be, for a seat that has cards and
        has not passed in it: what its turn in the battle offers."""
        fighting = state.phase in ("battle", "scarecrow", "peace") and not state.passed[seat]
        if not state.hands[seat] or not (fighting or state.phase == "site"):
            return []
        game = GAMES["condottiere"]
        turn = state.model_copy(update={"phase": "battle", "turn": seat, "passed": (False,) * state.players})
        return [game.encode(action) for action in game.legal_actions(turn, seat)]

    def lines(self, view: CondottiereView, names: Sequence[str]) -> list[str]:
        assert view.seat is not None
        if view.hand:
            lines = [f"🃏 {num(len(view.hand))} کارت: {'، '.join(kind_name(code) for code in view.hand)}"]
        else:
            lines = ["🃏 دست شما خالی است."]
        if view.phase in ("battle", "scarecrow", "peace") and view.passed[view.seat]:
            lines.append("✋ در این جنگ پاس داده‌اید.")
        if view.phase == "discard" and view.seat in view.to_act:
            lines.append("سربازی در دستتان نمانده: می‌توانید دستتان را دور بیندازید یا نگه دارید.")
        elif view.phase == "discard":
            deciding = joined([name(names[s]) for s in view.to_act])
            lines.append(f"⏳ منتظر بمانید: {deciding} تصمیم می‌گیرد که دستش را دور بیندازد یا نه.")
        if view.phase == "peace" and view.turn == view.seat:
            lines.append("🕊 ریش‌سفید بازی شد: نشان صلح را با دکمه‌های زیر صفحهٔ بازی در گروه جابه‌جا کنید.")
        return lines


def _how_won(view: CondottiereView) -> str:
    """Why the game ended, naming the provinces of a conquest: «۳ استانِ به‌هم‌پیوسته: …», «۵ استان: …»; or what
    decided it."""
    if view.end_reason == "three_battles":
        return f"⚔️ {num(DUEL_WINS)} جنگِ برده"
    if view.end_reason == "out_of_cards":
        return "🃏 کارت‌ها تمام شد؛ بیشترین جنگِ برده"
    if view.end_reason == "no_free_province":
        return "🗺 استان آزادی نماند؛ بیشترین استان"
    if view.end_reason == "stalemate":
        return "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین " + ("جنگِ برده" if view.variant == "duel" else "استان")
    won = conquest(view)
    if view.map is None or not won:
        return ""
    names = [BOARDS[view.map].provinces[i].name for i in won]
    held = sum(1 for owner in view.owners if owner in view.winners)
    if len(won) == held >= PROVINCES_TO_WIN:
        return f"🗺 {num(len(won))} استان: {joined(names)}"
    return f"🗺 {num(len(won))} استانِ به‌هم‌پیوسته: {joined(names)}"


class CondottierePresenter:
    game_id = "condottiere"
    emoji = "⚔️"
    confirm_moves = False
    previews = False
    summary = "با سربازان و کارت‌های ویژه استان‌ها را تصرف کنید"
    toggles = (OptionToggle("classic_map", "نقشهٔ کلاسیک ایتالیا (۱۷ استان)", "نقشهٔ ایتالیا"),)
    hands = CondottiereHands()

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, CondottiereOptions)
        board = "نقشهٔ کلاسیک ایتالیا با ۱۷ استان" if options.classic_map else "نقشهٔ ۱۴ استانیِ رکب"
        return "\n".join(
            [
                "⚔️ <b>رکب</b> — ۳ تا ۶ نفر روی نقشه؛ با ۲ نفر، نسخهٔ دو نفره",
                "",
                f"<b>نقشه:</b> {board}. هر بازیکن {num(DEAL)} کارت می‌گیرد؛ دست هر کس فقط در گفتگوی خصوصی"
                " خودش دیده می‌شود و کارت‌ها را از همان‌جا بازی می‌کند.",
                "<b>جنگ:</b> هر جنگ با انتخاب محل شروع می‌شود: یک استان آزاد (بی‌نشان و بی‌نشان صلح). محل جنگ اول را"
                " بازیکن اول (سازندهٔ بازی) انتخاب می‌کند و خودش آن را آغاز می‌کند. از آن پس برندهٔ جنگ قبل جنگ بعدی"
                " را آغاز می‌کند،"
                " حتی اگر محل را کس دیگری انتخاب کرده باشد؛ پس از جنگ مساوی، کسی که محل را انتخاب کرده. به نوبت،"
                " ساعت‌گرد، هر بازیکن یک کارت بازی می‌کند یا پاس می‌دهد؛ پاس تا پایان آن جنگ قطعی است، ولی ارتشِ"
                " بازیکن در جنگ می‌ماند. وقتی همه پاس دهند (یا پرچمدار بیاید) جنگ تمام می‌شود و بیشترین قدرت"
                " استان را می‌گیرد؛ در برابری کسی آن را نمی‌گیرد.",
                "",
                "<b>کارت‌های ویژه</b> به این ترتیب اثر می‌کنند:",
                "• ریش‌سفید: همهٔ سربازانِ بالاترین عددِ روشده (در همهٔ صف‌ها) می‌سوزند؛ سپس نشان صلح را روی استانی"
                " آزاد می‌گذارید یا همان‌جا که هست نگه می‌دارید؛ تا ریش‌سفید بعدی آن‌جا جنگی نمی‌شود.",
                "• زمستان: هر سرباز ۱ حساب می‌شود · طبل‌زن: قدرت سربازانِ صف خودتان دو برابر (یک بار)",
                "• بهار: ۳+ برای هر سربازِ بالاترین عدد، در همهٔ صف‌ها · شیرزن: ۱+ · شیردخت: ۱۰+ (هیچ کارتی بر آن"
                " اثر ندارد)",
                "• مترسک: یکی از سربازان صف خودتان را به دست برگردانید · پرچمدار: جنگ همان‌جا تمام می‌شود",
                "زمستان و بهار در جایگاه فصل می‌مانند تا جنگ تمام شود و هر کدام دیگری را کنار می‌زند.",
                "",
                "<b>محل جنگ بعدی</b> را کسی انتخاب می‌کند که بیشترین شیرزن را در صفش دارد؛ در برابری شیرزن‌ها برندهٔ"
                " جنگ؛ در جنگ مساوی آخرین کسی که پاس داده (پاسِ کسی که کارتی نداشت هم حساب است)؛ و اگر جنگ مساوی"
                " با پرچمدار تمام شود و هنوز کسی پاس نداده باشد، کسی که پرچمدار را بازی کرده.",
                "<b>پس از هر جنگ:</b> بازیکنی که سربازی در دست ندارد می‌تواند دستش را دور بیندازد؛ اگر تنها یک نفر"
                " کارت داشته باشد، باید دستش را دور بیندازد. وقتی همهٔ دست‌ها خالی شد، دسته و سوخته‌ها بُر می‌خورند"
                f" و هر کس {num(DEAL)} کارت به اضافهٔ یکی برای هر استانش می‌گیرد.",
                f"<b>پیروزی:</b> {num(ADJACENT_TO_WIN)} استانِ به‌هم‌پیوسته یا {num(PROVINCES_TO_WIN)} استان؛ اگر"
                " چند نفر با هم به آن برسند، با هم برنده‌اند. اگر استان آزادی نماند، بیشترین استان می‌برد.",
                f"<b>{num(QUIET_BATTLES)} جنگ بی‌کارت:</b> اگر {num(QUIET_BATTLES)} جنگ پشت سر هم بی آن‌که کسی کارتی"
                " بازی کند تمام شود (فصل‌ها، مترسک و پرچمدار هم کارت حساب می‌شوند)، بازی تمام می‌شود: بیشترین استان"
                " (در دو نفره: بیشترین جنگِ برده) می‌برد و بازیکنانِ برابر با هم برنده‌اند. یک جنگِ بی‌کارت به‌تنهایی"
                " فقط مساوی است و بازی ادامه دارد.",
                "",
                f"<b>دو نفره:</b> نقشه و نشان صلح در کار نیست (ریش‌سفید فقط می‌سوزاند). هر کس دستهٔ ۲۳ کارتیِ یکسانی"
                f" دارد و دستی {num(DUEL_HAND)} کارتی؛ کارت‌های بازی‌شده از بازی بیرون می‌روند و پس از هر جنگ"
                f" دست‌ها دوباره تا {num(DUEL_HAND)} کارت پر می‌شوند. برندهٔ {num(DUEL_WINS)} جنگ می‌برد؛ اگر کارت"
                " هر دو تمام شود، بیشترین جنگِ برده می‌برد و برابری مساوی است.",
            ]
        )

    def describe(self, events: Sequence[Event], names: Sequence[str], view: CondottiereView) -> list[str]:
        lines = []
        for i, event in enumerate(events):
            if isinstance(event, CardPlayed) and event.card.startswith("su#") and _battle_ends(events[i + 1 :]):
                continue  # the battle's end names who played the Surrender
            surrendered = _surrenderer(events[:i]) if isinstance(event, BattleEnded) else None
            if line := self._line(event, names, view.map, surrendered):
                lines.append(line)
        return lines

    def _line(self, event: Event, names: Sequence[str], board: str | None, surrendered: int | None) -> str | None:
        def who(seat: int) -> str:
            return name(names[seat])

        if isinstance(event, Dealt):
            dealt = [f"{who(seat)} {num(n)}" for seat, n in enumerate(event.sizes) if n]
            if not dealt:
                return None
            shuffled = "دسته بُر خورد و " if event.reshuffled else ""
            return f"🃏 {shuffled}کارت پخش شد: {joined(dealt)} کارت."
        if isinstance(event, SiteChosen):
            return f"📍 {who(event.seat)} جنگ را در {province(board, event.province)} آغاز کرد."
        if isinstance(event, CardPlayed):
            return f"🗡 {who(event.seat)} {kind_name(event.card)} را بازی کرد."
        if isinstance(event, SeasonDiscarded):
            mark = SEASON_MARKS.get(event.card.split("#", 1)[0], "🗓")
            return f"{mark} {kind_name(event.card)} از جایگاه فصل کنار رفت."
        if isinstance(event, BishopDiscarded):
            if not event.cards:
                return f"🧓 ریش‌سفیدِ {who(event.seat)}: هیچ سربازی نسوخت."
            if len(event.owners) != len(event.cards):  # an event written before owners were kept
                return f"🧓 ریش‌سفیدِ {who(event.seat)}: {joined([kind_name(c) for c in event.cards])} سوخت."
            counts = Counter(event.owners)  # one kind only: the highest mercenary in play
            whose = joined([f"{'یکی' if n == 1 else f'{num(n)} تا'} از {who(o)}" for o, n in sorted(counts.items())])
            return f"🧓 ریش‌سفیدِ {who(event.seat)}: {kind_name(event.cards[0])} سوخت — {whose}."
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
            return _battle_line(event, board, who, surrendered)
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
            forced = " (ناچار؛ فقط او کارت داشت)" if event.forced else ""
            return f"🗑 {who(event.seat)} {num(len(event.cards))} کارت دستش را دور انداخت{forced}."
        return None  # GameEnded: the board's caption and the result say how the game ended, once

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
        leading = sorted(range(len(held)), key=lambda i: (-held[i], i))  # the standings, the most first
        lines.append(f"🏳️ {label}: " + "، ".join(f"{name(names[i])} {num(held[i])}" for i in leading))
        return lines

    def result(self, view: CondottiereView, names: Sequence[str]) -> list[str]:
        """Who won and how, then everyone ranked by the result (winners first; equals share a place)."""
        held = view.provinces_held if view.variant == "map" else view.wins
        label = "استان" if view.variant == "map" else "جنگ برده"
        draw = len(view.winners) == len(names) > 1
        won = joined([f"<b>{name(names[w])}</b>" for w in view.winners])
        lines = ["🤝 مساوی!"] if draw else [f"🏆 {'برنده' if len(view.winners) == 1 else 'برندگان'}: {won}"]
        if how := _how_won(view):
            lines.append(how)
        scores = [(s in view.winners, held[s]) for s in range(len(names))]
        lines += [f"{num(place)}. {name(names[s])}: <b>{num(held[s])}</b> {label}" for place, s in by_place(scores)]
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


def _battle_ends(events: Sequence[Event]) -> bool:
    return any(isinstance(event, BattleEnded) for event in events)


def _surrenderer(before: Sequence[Event]) -> int | None:
    """Who played the Surrender that ended the battle: the last one played among the events before its end."""
    played = [e.seat for e in before if isinstance(e, CardPlayed) and e.card.startswith("su#")]
    return played[-1] if played else None


def _battle_line(event: BattleEnded, board: str | None, who: Callable[[int], str], surrendered: int | None) -> str:
    """The battle's end: who won it and the province they took (or a tie), and who ended it with a Surrender."""
    where = province(board, event.province) if board is not None and event.province is not None else ""
    battle = f"جنگ {num(event.battle)}"
    if event.winner is None:
        mark, ended = "🤝", f"{battle} مساوی شد" + (f" و کسی {where} را نگرفت" if where else "")
    else:
        took = f" و {where} را گرفت" if where else ""
        strength = num(event.strengths[event.winner])
        mark, ended = "🏆", f"{who(event.winner)} {battle} را برد{took} (قدرت {strength})"
    if event.reason == "surrender" and surrendered is not None:
        return f"🏳️ {who(surrendered)} با پرچمدار جنگ را تمام کرد: {ended}."
    return f"{mark} {ended}."
