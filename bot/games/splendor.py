"""اسپلندور in Persian words, menus and pictures; cards reserved from a deck are bought in private."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from bot.games.base import OptionToggle
from bot.messages.fa import joined, name, num
from rendering.encode import to_bytes
from rendering.splendor import gold_needed, render, render_reserved, standings
from rendering.splendor.labels import (
    CARD_BUTTON,
    COLOUR_NAMES,
    FREE,
    RESERVED_BUTTON,
    card_button,
    card_label,
    deck_label,
    noble_button,
    reserved_label,
)
from rules import GAMES, Event
from rules.splendor.data import BONUS, CARD_KEY, POINTS
from rules.splendor.model import (
    GEMS_BY_PLAYERS,
    GOLD_TOKENS,
    LETTERS,
    RESERVE_LIMIT,
    STALL_ROUNDS,
    TAKE_TWO_MIN,
    TOKEN_LIMIT,
    WINNING_POINTS,
    CardBought,
    CardReserved,
    CardView,
    FinalRound,
    GameEnded,
    NobleVisited,
    Passed,
    SplendorState,
    SplendorView,
    TokensReturned,
    TokensTaken,
)

GEM_MARKS = ("⚪️", "🔵", "🟢", "🔴", "⚫️", "🟡")


def tokens(counts: Sequence[int]) -> str:
    """«۲ سفید و ۱ آبی» from six counts."""
    parts = [f"{num(n)} {COLOUR_NAMES[i]}" for i, n in enumerate(counts) if n]
    return joined(parts) or "هیچ"


def letter_name(letter: str) -> str:
    index = LETTERS.index(letter)
    return f"{GEM_MARKS[index]} {COLOUR_NAMES[index]}"


def marks(letters: Sequence[str]) -> str:
    """«⚪️🔵🟢» for the token letters of a take or a return: one button for the whole choice."""
    return "".join(GEM_MARKS[LETTERS.index(c)] for c in letters)


# How many segments of a code make a first-level button: a take or a return of any tokens is one button (all
# the legal sets, so the order of choosing does not matter); reserving and buying open the level's cards. A
# buy spends gold by itself for what the gems lack (``b``; its card's button says how much). Paying with gold
# in place of gems one holds (``bg.<level|h>-<slot>.<gems>``) is a choice that matters to few: one button of the
# first level for all of them, whose level lists the payments whole when they are few, else the cards of every
# level, each opening its payments.
_ROOT_DEPTH = {"t": 4, "g": 4, "n": 2, "r": 2, "b": 2, "bg": 1}
_GOLD_FLAT = 8  # payments listed whole under the gold button
_GOLD_INSTEAD = "طلا به جای ژتون‌هایتان"
_KINDS = {"t2": "💎💎 دوتایی", "p": "✋ پاس", "bg": f"🟡 خرید با {_GOLD_INSTEAD}"}
_LEVEL_MENUS = {"r": "📌 رزرو سطح {n}", "b": "🛒 خرید سطح {n}"}
_CHAIN_VERBS = {"b": "🛒 خرید", "r": "📌 رزرو", "bg": "🟡 خرید"}
_CARD_DEPTH = {"b": 3, "r": 3, "bg": 2}  # segments of a code up to its card
_RESERVE_MENUS = {"b": "🛒 رزروشده‌ها"}
_CARD_INDEX = {key: i for i, key in enumerate(CARD_KEY) if key}
_MEDALS = ("🥇", "🥈", "🥉")
_STALL_WARNING = 3  # rounds before STALL_ROUNDS from which the status warns that a stalled game will end
_ENDED = {
    "no_moves": "🏁 همه پاس دادند؛ بازی شمرده شد.",
    "stalled": f"🏁 {num(STALL_ROUNDS)} دور پیاپی هیچ‌کس کارتی نخرید یا رزرو نکرد؛ بازی شمرده شد.",
}


def _gold(kind: str, card: CardView | None, view: SplendorView) -> int:
    """The gold a plain buy of ``card`` spends for the player in turn (for its button); 0 for anything else,
    or for a card the player cannot afford (it has no button)."""
    if kind != "b" or card is None:
        return 0
    player = view.players[view.turn]
    needed = gold_needed(card, player)
    return needed if needed <= player.tokens[-1] else 0


class SplendorHands:
    """A card reserved from the top of a deck is seen by its owner alone: reserved cards are bought in private,
    where the picture shows them face up. The private chat shows only that (and which of them the player can
    buy): their gems, bonuses and points are on the board, so a move changes the chat only when it changes the
    reserve or what of it is within reach."""

    def is_private(self, code: str) -> bool:
        return code.startswith(("b.h.", "bg.h-"))

    def picture(self, view: SplendorView, names: Sequence[str]) -> tuple[bytes, str]:
        data, extension = to_bytes(render_reserved(view))
        return data, f"reserved.{extension}"

    def chat_picture(self, view: SplendorView, names: Sequence[str]) -> tuple[bytes, str]:
        data, extension = to_bytes(render_reserved(view, holdings=False))
        return data, f"reserved.{extension}"

    def standing(self, state: SplendorState, seat: int) -> list[str]:
        """The reserved cards the seat can buy: nobody else's move changes its gems, bonuses or reserve, so
        these are exactly its buys from the reserve when its turn comes."""
        if state.finished:
            return []
        game = GAMES["splendor"]
        turn = state.model_copy(update={"turn": seat, "phase": "act"})
        return [code for code in map(game.encode, game.legal_actions(turn, seat)) if self.is_private(code)]

    def lines(self, view: SplendorView, names: Sequence[str]) -> list[str]:
        assert view.seat is not None
        me = view.players[view.seat]
        return [f"📌 کارت‌های رزروشده: {num(len(me.reserved))} از {num(RESERVE_LIMIT)}"]


class SplendorPresenter:
    game_id = "splendor"
    emoji = "💎"
    confirm_moves = False
    previews = False
    summary = "جواهر جمع کنید، کارت بخرید، اشراف‌زادگان را به خانه بیاورید"
    toggles: tuple[OptionToggle, ...] = ()
    hands = SplendorHands()

    def rules_text(self, options: BaseModel) -> str:
        gems = "، ".join(f"{num(n)} برای {num(p)} نفر" for p, n in sorted(GEMS_BY_PLAYERS.items()))
        return "\n".join(
            [
                "💎 <b>اسپلندور</b> — ۲ تا ۴ نفر",
                "",
                f"ژتون جواهر از هر رنگ: {gems}؛ {num(GOLD_TOKENS)} طلا. اشراف‌زادگان: یکی بیش از شمار بازیکنان."
                " سه ردیف کارت (سطح ۱ تا ۳)، هر ردیف ۴ کارت رو.",
                "",
                "<b>در هر نوبت یکی از این کارها:</b>",
                "• سه ژتون از سه رنگ متفاوت (اگر کمتر از سه رنگ مانده، از هر رنگِ مانده یکی)",
                f"• دو ژتون از یک رنگ، فقط اگر دست‌کم {num(TAKE_TWO_MIN)} ژتون از آن رنگ در بانک باشد",
                f"• رزرو یک کارت رو یا کارت بالای یک دسته (حداکثر {num(RESERVE_LIMIT)} کارت) و گرفتن یک طلا اگر"
                " مانده باشد؛ کارتی که از دسته رزرو شود را فقط خودتان در گفتگوی خصوصی می‌بینید و همان‌جا می‌خرید",
                "• خرید یک کارت رو یا رزروشده: هر کارتِ خریده یک تخفیف از رنگ خودش می‌دهد و طلا جای هر رنگی را می‌گیرد",
                "",
                f"<b>پایان نوبت:</b> بیش از {num(TOKEN_LIMIT)} ژتون را خودتان برمی‌گردانید. اگر تخفیف‌هایتان به"
                " خواستهٔ اشراف‌زاده‌ای برسد به دیدارتان می‌آید (۳ امتیاز، در هر نوبت یکی، با انتخاب شما).",
                f"<b>پایان بازی:</b> وقتی کسی به {num(WINNING_POINTS)} امتیاز برسد، دور تا آخرین بازیکن تمام می‌شود."
                " بیشترین امتیاز می‌برد؛ در برابری، کارت خریدهٔ کمتر؛ باز هم برابر: برد مشترک.",
                "اگر بازیکنی هیچ کاری نتواند بکند پاس می‌دهد؛ اگر همه در یک دور پاس دهند بازی همان‌جا شمرده می‌شود."
                f" اگر {num(STALL_ROUNDS)} دور پیاپی هیچ‌کس کارتی نخرد یا رزرو نکند، بازی در پایان همان دور"
                " شمرده می‌شود.",
                "",
                "<b>در ربات:</b> هر دسته ژتونی که می‌توانید بردارید یا پس بدهید یک دکمه است (مثلاً ⚪️🔵🟢)."
                " برای رزرو و خرید، اول سطح را بزنید و بعد کارت را. شمارهٔ هر کارت رو بالای آن روی تصویر است"
                " (سطح ۱ از ۱ تا ۴، سطح ۲ از ۵ تا ۸، سطح ۳ از ۹ تا ۱۲) و دکمه‌ها همین شماره را با رنگ و امتیاز کارت"
                " می‌گویند؛ کارت‌های رزروشدهٔ شما در گفتگوی خصوصی «رزروشدهٔ ۱» تا «رزروشدهٔ ۳» اند.",
                "در خرید، طلا خودبه‌خود خرج می‌شود، فقط به جای ژتون‌هایی که کم دارید، و دکمهٔ کارت می‌گوید چند"
                " طلا (مثلاً «کارت ۵ · قرمز · با ۱ طلا»). اگر بخواهید طلا را به جای ژتون‌هایی بدهید که دارید،"
                f" «{_KINDS['bg']}» را بزنید.",
            ]
        )

    def describe(self, events: Sequence[Event], names: Sequence[str], view: SplendorView) -> list[str]:
        return [line for event in events if (line := self._line(event, names))]

    def _line(self, event: Event, names: Sequence[str]) -> str | None:
        def who(seat: int) -> str:
            return name(names[seat])

        if isinstance(event, TokensTaken):
            return f"💎 {who(event.seat)} برداشت: {tokens(event.tokens)}."
        if isinstance(event, TokensReturned):
            return f"↩️ {who(event.seat)} پس داد: {tokens(event.tokens)}."
        if isinstance(event, CardReserved):
            where = "از بالای دستهٔ" if event.slot is None else "از ردیف"
            gold = " و یک طلا گرفت" if event.gold else ""
            return f"📌 {who(event.seat)} یک کارت {where} سطح {num(event.level)} رزرو کرد{gold}."
        if isinstance(event, CardBought):
            card = _CARD_INDEX[event.card]
            points = f"، {num(POINTS[card])} امتیاز" if POINTS[card] else ""
            source = "رزروشده‌اش" if event.slot is None else f"سطح {num(event.level)}"
            paid = tokens(event.paid) if any(event.paid) else FREE
            return f"🛒 {who(event.seat)} کارت {COLOUR_NAMES[BONUS[card]]} {source} را خرید ({paid}{points})."
        if isinstance(event, NobleVisited):
            return f"👑 اشراف‌زاده‌ای به دیدار {who(event.seat)} آمد (۳ امتیاز)."
        if isinstance(event, Passed):
            return f"✋ {who(event.seat)} کاری نمی‌توانست بکند و پاس داد."
        if isinstance(event, FinalRound):
            return f"⏳ {who(event.seat)} به {num(event.points)} امتیاز رسید؛ این دور، دور آخر است!"
        if isinstance(event, GameEnded):
            return _ENDED.get(event.reason)
        return None

    def status(self, view: SplendorView, names: Sequence[str]) -> list[str]:
        if view.finished:
            return []
        seat = view.turn
        lines = ["⭐️ " + "، ".join(f"{name(names[p.seat])} {num(p.points)}" for p in view.players)]
        if view.phase == "return":
            lines.append(f"↩️ {name(names[seat])} باید {num(view.to_return)} ژتون پس بدهد.")
        elif view.phase == "noble":
            lines.append(f"👑 {name(names[seat])} اشراف‌زادهٔ میهمانش را انتخاب می‌کند.")
        if view.final_round:
            lines.append("⏳ دور آخر")
        elif view.quiet_rounds >= STALL_ROUNDS - _STALL_WARNING:
            lines.append(
                f"⚠️ {num(view.quiet_rounds)} دور است هیچ‌کس کارتی نخریده یا رزرو نکرده؛"
                f" اگر به {num(STALL_ROUNDS)} دور برسد، بازی شمرده می‌شود."
            )
        return lines

    def result(self, view: SplendorView, names: Sequence[str]) -> list[str]:
        """The players by place, as the picture lists them (equal players share one), then the winners."""
        lines = []
        for place, p in standings(view):
            mark = _MEDALS[place - 1] if place <= len(_MEDALS) else f"{num(place)}."
            lines.append(f"{mark} {name(names[p.seat])}: <b>{num(p.points)}</b> امتیاز، {num(len(p.cards))} کارت")
        if len(view.winners) == len(view.players) > 1:
            lines.append("🤝 برد مشترک همه!")
        else:
            lines.append("🏆 برنده: " + "، ".join(f"<b>{name(names[w])}</b>" for w in view.winners))
        return lines

    def root_depth(self, kind: str) -> int:
        return _ROOT_DEPTH.get(kind, 1)

    def menu_flat(self, prefix: str) -> int:
        """The gold button's level lists a few payments whole (card and gems on each button)."""
        return _GOLD_FLAT if prefix == "bg" else 0

    def menu_rows_by(self, prefix: str) -> int:
        """On the first level each kind of move starts a row: takes, doubles, reserves, buys, gold."""
        return 0 if prefix else 1

    def menu_columns(self, prefix: str) -> int:
        """Sets of tokens and the first level in threes; a level of cards one per row, numbered top down as
        the picture numbers them, each label whole; a card's payments with gold in twos."""
        if prefix.startswith("bg."):
            return 2
        return 1 if prefix else 3

    def menu_label(self, path: Sequence[str], view: SplendorView) -> str:
        kind, rest = path[0], path[1:]
        if kind in ("t", "g"):
            return marks(rest)
        if kind == "n":
            return f"👑 {noble_button(int(rest[0]))}"
        if not rest:
            return _KINDS[kind]
        if kind == "t2":
            return GEM_MARKS[LETTERS.index(rest[0])] + letter_name(rest[0])  # «⚪️⚪️ سفید»
        if kind == "bg":  # the card (level-slot), then the gems gold stands in for
            if len(rest) == 1:
                level, _, slot = rest[0].partition("-")
                return self._card(kind, level, slot, view)
            return "طلا به جای " + tokens([rest[1].count(letter) for letter in LETTERS])
        level = rest[0]
        if len(rest) == 1:  # a level of cards, or the reserve
            return _RESERVE_MENUS[kind] if level == "h" else num(_LEVEL_MENUS[kind].format(n=level))
        if rest[1] == "d":
            return f"🂠 {deck_label(int(level))}، پنهان"
        return self._card(kind, level, rest[1], view)

    @staticmethod
    def _card(kind: str, level: str, slot: str, view: SplendorView) -> str:
        """A card's, or a reserved card's, button: as labelled on the picture, with what a buy spends of gold."""
        if level == "h":
            mine = view.players[view.seat].reserved if view.seat is not None else ()
            card = mine[int(slot)].card if int(slot) < len(mine) else None
            label = RESERVED_BUTTON.format(label=reserved_label(int(slot)))
        else:
            card = view.rows[int(level) - 1][int(slot)]
            label = CARD_BUTTON.format(label=card_label(int(level), int(slot)))
        return card_button(label, card, _gold(kind, card, view))

    def chain_label(self, paths: Sequence[Sequence[str]], view: SplendorView) -> str:
        """The one card a level offers, with what is done with it when the button stands on the first level:
        «🛒 خرید کارت ۵ · قرمز · ۲ امتیاز»; a payment with gold after its card: «… — طلا به جای ۱ سفید», or
        «… — طلا به جای ژتون‌هایتان» when its payments follow; the one colour of a double take as its own
        button says it."""
        first, last = paths[0], paths[-1]
        kind = first[0]
        if kind not in _CHAIN_VERBS:
            return self.menu_label(last, view)
        text = self.menu_label(next(p for p in paths if len(p) == _CARD_DEPTH[kind]), view)
        if len(first) == self.root_depth(kind):
            text = f"{_CHAIN_VERBS[kind]} {text}"
        if kind == "bg":
            text += " — " + (self.menu_label(last, view) if len(last) > _CARD_DEPTH[kind] else _GOLD_INSTEAD)
        return text

    def picture(self, view: SplendorView, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        data, extension = to_bytes(render(view, names=names))
        return data, f"splendor.{extension}"


presenter = SplendorPresenter()
