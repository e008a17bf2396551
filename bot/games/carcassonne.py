"""قلعه رودخان in Persian words, menus and pictures.

A turn is one engine action, chosen in two presses under a picture that follows the choice: the position
(numbered on the board), then the rest. Where the tile fits in one rotation, the tile lies at its place with
its free spots lettered and the meeple's press places it (with no meeple to place, «تأیید» does, under the
same picture). Where it fits in several, the picture draws every rotation with its spots lettered and each
button is a whole placement, «۹۰° · الف: 🏘 شهر»: one press of the group's budget fewer than choosing the
rotation first. Only a position with more than ``FLAT_PLACEMENTS`` placements (farmers on, many rotations)
asks for the rotation and then the meeple. «بازگشت» goes back at every level.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from bot.games.base import OptionToggle
from bot.messages.fa import joined, name, num
from rendering.carcassonne import Pending, render
from rendering.carcassonne.labels import FEATURE_NAMES, SEAT_MARKS, candidate_label, rotation_label, spot_label
from rendering.encode import to_bytes
from rules import Event
from rules.carcassonne.board import board_of
from rules.carcassonne.data import BY_LETTER, MEEPLES, STRIDE
from rules.carcassonne.model import (
    CandidateSpot,
    CarcassonneOptions,
    CarcassonneView,
    FeatureScored,
    MeeplePlaced,
    TileDiscarded,
    TilePlaced,
)
from rules.carcassonne.scoring import group
from rules.places import by_place

# 🏰 is کشورگشا's and 🗺 رکب's provinces: a city here is houses behind walls.
_FEATURE_MARKS = {"city": "🏘", "road": "🛣", "monastery": "⛪️", "field": "🌾"}


FLAT_PLACEMENTS = 16  # a position's placements listed as buttons at most: 8 rows of two on a phone


def _who(seat: int, names: Sequence[str]) -> str:
    return f"{SEAT_MARKS[seat]} {name(names[seat])}"


def _candidate(view: CarcassonneView, position: str) -> CandidateSpot:
    """The candidate of a menu segment «x_y»."""
    x, y = (int(part) for part in position.split("_"))
    return next(c for c in view.candidates if (c.x, c.y) == (x, y))


def pending(view: CarcassonneView, prefix: str) -> Pending | None:
    """The choice made so far, from a menu prefix «t.x_y[.rot[.spot]]»: None on the first level, and for
    anything the view does not offer (the bot only opens menu levels of legal actions)."""
    parts = prefix.split(".")
    if parts[0] != "t" or not 2 <= len(parts) <= 4:
        return None
    candidate = next((c for c in view.candidates if f"{c.x}_{c.y}" == parts[1]), None)
    if candidate is None:
        return None
    if len(parts) == 2:
        return Pending(candidate.x, candidate.y)
    choice = next((r for r in candidate.rotations if str(r.rotation) == parts[2]), None)
    if choice is None:
        return None
    if len(parts) == 3:
        return Pending(candidate.x, candidate.y, choice.rotation)
    if parts[3] != "n" and parts[3] not in {s.spot for s in choice.spots}:
        return None
    return Pending(candidate.x, candidate.y, choice.rotation, parts[3])


# What a laid tile shows and what it joined --------------------------------------------------------------

_EZAFE = {"city": "شهر", "road": "جادهٔ", "monastery": "صومعهٔ"}  # «جادهٔ سارا»
_COUNT = {1: "یک", 2: "دو", 3: "سه", 4: "چهار"}  # a tile reaches four features at most


def tile_words(letter: str) -> str:
    """«کاشی شهر و جاده», «کاشی صومعه», «کاشی شهر سپردار», «کاشی چهارراه»: what a tile type shows, so that a
    reader knows the tile without finding it in the picture."""
    tile = BY_LETTER[letter]
    cities = sum(1 for s in tile.segments if s.kind == "city")
    roads = sum(1 for s in tile.segments if s.kind == "road")
    parts = []
    if tile.monastery:
        parts.append("صومعه")
    if cities:
        parts.append(("دو شهر" if cities > 1 else "شهر") + (" سپردار" if tile.shield else ""))
    if roads:
        parts.append({3: "سه‌راهی", 4: "چهارراه"}.get(roads, "جاده"))
    return "کاشی " + " و ".join(parts or ["مزرعه"])


def _feature_words(feature: str, tiles: int) -> str:
    """«شهر ۴ کاشی‌ای», «جادهٔ ۲ کاشی‌ای», «صومعه»: a completed feature and its size, which its points follow."""
    if feature in ("monastery", "field"):
        return FEATURE_NAMES[feature]
    return f"{_EZAFE[feature]} {num(tiles)} کاشی‌ای"


Held = tuple[str, set[int]]  # a feature's kind and the seats whose meeples stood on it before the move


def _touched(
    view: CarcassonneView, placed: TilePlaced, meeple: MeeplePlaced | None, scored: Sequence[FeatureScored]
) -> tuple[list[Held], list[Held]]:
    """What the tile laid touches on the board after the move: the cities and roads it extends, and the
    monasteries around it that hold a monk, each with whose meeples stood on it before the move (those of a
    feature the move completed are gone from ``view``: its scoring counts them)."""
    last = view.last_tile
    if last is None or (last.x, last.y, last.tile) != (placed.x, placed.y, placed.tile):
        return [], []  # not the view after this tile: say only what the tile is
    board = board_of(tuple((BY_LETTER[t.tile].index, t.x, t.y, t.rotation) for t in view.tiles))
    standing = group(
        board,
        tuple(
            (m.seat, m.tile_index, BY_LETTER[view.tiles[m.tile_index].tile].spot_index[m.spot])
            for m in view.meeples
            if m.tile_index != last.index  # the mover's new meeple, if any, was not there before
        ),
    )
    new = board.find(last.index * STRIDE + BY_LETTER[last.tile].spot_index[meeple.spot]) if meeple else None

    def holders(root: int, kind: str) -> set[int]:
        cells = {board.placed[i][1:3] for i in board.tiles[root]}
        for event in scored:
            if event.feature == kind and set(event.tiles) == cells:
                home = [n - (seat == placed.seat and root == new) for seat, n in enumerate(event.returned)]
                return {seat for seat, n in enumerate(home) if n > 0}
        return {m[0] for m in standing.get(root, ())}

    extended: dict[int, Held] = {}
    for i, segment in enumerate(BY_LETTER[last.tile].segments):
        root = board.find(last.index * STRIDE + i)
        if segment.kind in ("city", "road") and len(board.tiles[root]) > 1 and root not in extended:
            extended[root] = (segment.kind, holders(root, segment.kind))
    beside = [
        ("monastery", holders(t.index * STRIDE + BY_LETTER[t.tile].spot_index["m"], "monastery"))
        for t in view.tiles
        if BY_LETTER[t.tile].monastery and max(abs(t.x - last.x), abs(t.y - last.y)) == 1
    ]
    return list(extended.values()), [monastery for monastery in beside if monastery[1]]


def _features(found: Sequence[Held], mover: int, names: Sequence[str]) -> str:
    """«شهر 🔵 Sara و دو جاده»: held features by their holders, the others counted by kind."""
    parts = [f"{_EZAFE[kind]} {_whose(seats, mover, names)}" for kind, seats in found if seats]
    free = [kind for kind, seats in found if not seats]
    parts += [f"{_COUNT[free.count(kind)]} {FEATURE_NAMES[kind]}" for kind in dict.fromkeys(free)]
    return joined(parts)


def _whose(seats: set[int], mover: int, names: Sequence[str]) -> str:
    """Whose meeples hold a feature: «خودش» for the mover, first, then the other seats' marks and names."""
    mine = ["خودش"] if mover in seats else []
    return joined(mine + [_who(seat, names) for seat in sorted(seats - {mover})])


def _laid(
    view: CarcassonneView,
    placed: TilePlaced,
    meeple: MeeplePlaced | None,
    scored: Sequence[FeatureScored],
    names: Sequence[str],
) -> str:
    """«🧩 لیلا کاشی شهر و جاده را به شهر سارا وصل کرد، با آدمکی روی جاده.»: the tile, what it extends on the
    board (else a held monastery it was laid beside), the meeple put on it. The picture outlines where it lies:
    the words say what that changed for whom."""
    extended, monasteries = _touched(view, placed, meeple, scored)
    line = f"🧩 {_who(placed.seat, names)} {tile_words(placed.tile)} را "
    if extended:
        line += f"به {_features(extended, placed.seat, names)} وصل کرد"
    elif monasteries:
        line += f"کنار {_features(monasteries, placed.seat, names)} گذاشت"
    else:
        line += "گذاشت"
    if meeple is not None:
        line += f"، با آدمکی روی {FEATURE_NAMES[meeple.feature]}"
    return line + "."


def _completed(event: FeatureScored, names: Sequence[str]) -> str:
    """«🏘 شهر ۴ کاشی‌ای کامل شد: سارا ۸ امتیاز گرفت؛ آدمک لیلا بی‌امتیاز برگشت.»: who scored, and whose
    meeples went home with nothing (the picture only shows them gone)."""
    winners = joined([_who(s, names) for s in event.seats])
    points = num(event.points)
    gain = f"هر کدام {points} امتیاز گرفتند" if len(event.seats) > 1 else f"{points} امتیاز گرفت"
    what = _feature_words(event.feature, len(event.tiles))
    line = f"{_FEATURE_MARKS[event.feature]} {what} کامل شد: {winners} {gain}"
    losers = [seat for seat, n in enumerate(event.returned) if n and seat not in event.seats]
    if losers:
        many = sum(event.returned[seat] for seat in losers) > 1
        meeples, went = ("آدمک‌های", "برگشتند") if many else ("آدمک", "برگشت")
        line += f"؛ {meeples} {joined([_who(s, names) for s in losers])} بی‌امتیاز {went}"
    return line + "."


class CarcassonnePresenter:
    game_id = "carcassonne"
    emoji = "🏞"  # قلعه رودخان stands in forest above a river; 🏰 is کشورگشا's, 🗺 رکب's provinces
    summary = "کاشی بگذارید، شهر و جاده و صومعه بسازید و آدمک‌هایتان را به کار بگیرید"
    confirm_moves = True
    previews = True
    toggles = (OptionToggle("farmers", "کشاورزها (آدمک روی مزرعه؛ امتیاز مزرعه‌ها در پایان)", "کشاورزها"),)
    hands = None  # nothing is secret but the order of the pile

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, CarcassonneOptions)
        farmers = (
            "<b>کشاورزها (روشن):</b> آدمکی که روی مزرعه بگذارید کشاورز است و تا پایان بازی همان‌جا می‌ماند؛"
            " در پایان، هر مزرعه به ازای هر شهر کاملی که به آن می‌رسد ۳ امتیاز به بازیکنی می‌دهد که بیشترین"
            " کشاورز را در آن دارد (در تساوی به همه)."
            if options.farmers
            else "کشاورزها در این بازی خاموش‌اند (در اتاق انتظار می‌شود روشنشان کرد)."
        )
        return "\n".join(
            [
                f"{self.emoji} <b>قلعه رودخان</b> — ۲ تا ۵ نفر، ۷۲ کاشی",
                "",
                f"بازی با کاشی آغازین روی زمین شروع می‌شود. هر بازیکن {num(MEEPLES)} آدمک دارد.",
                "",
                "<b>در هر نوبت:</b>",
                "• یک کاشی می‌کشید و آن را کنار کاشی‌های زمین می‌گذارید؛ هر لبه باید با لبهٔ همسایه جور باشد"
                " (شهر به شهر، جاده به جاده، مزرعه به مزرعه). کاشی‌ای که هیچ‌جا جور نشود کنار گذاشته می‌شود"
                " و کاشی دیگری کشیده می‌شود.",
                "• اگر بخواهید، یک آدمک روی جاده، شهر یا صومعهٔ همان کاشی می‌گذارید؛ به شرطی که روی آن جاده"
                " یا شهر، در هیچ کاشی دیگری، آدمکی نباشد.",
                "• در ربات: اول شمارهٔ جای کاشی را می‌زنید (شماره‌ها روی زمینِ تصویرند)، بعد با دکمهٔ دوم چرخش"
                " کاشی و جای آدمک (حرف‌های روی کاشی) یا «بدون آدمک» را انتخاب می‌کنید. پایین تصویر هر چرخشی که جور می‌شود"
                " با جاهای آدمکش کشیده شده است؛ پیش از دکمهٔ دوم، «بازگشت» شما را به شماره‌ها برمی‌گرداند."
                " اگر کاشی فقط یک جور جا شود و آدمکی نتوانید بگذارید، «تأیید» کاشی را می‌گذارد؛ مرحله‌ای که"
                " فقط یک راه دارد پرسیده نمی‌شود.",
                "",
                "<b>امتیاز هنگام کامل شدن</b> (امتیاز را بازیکنی می‌گیرد که بیشترین آدمک را در آن دارد و در"
                " تساوی همه؛ بعد آدمک‌ها برمی‌گردند):",
                "• جاده: هر کاشی ۱ • شهر: هر کاشی ۲ و هر سپر ۲ • صومعه، وقتی هر ۸ کاشی دورش پر شود: ۹",
                "<b>پایان:</b> با آخرین کاشی. جادهٔ ناتمام هر کاشی ۱، شهر ناتمام هر کاشی و هر سپر ۱، صومعهٔ"
                " ناتمام ۱ به‌علاوهٔ هر کاشی دورش. بیشترین امتیاز می‌برد؛ در تساوی، برد مشترک است.",
                farmers,
            ]
        )

    def describe(self, events: Sequence[Event], names: Sequence[str], view: CarcassonneView) -> list[str]:
        """The tile laid (with its meeple, in one line), then each feature it completed and who scored."""
        meeple = next((e for e in events if isinstance(e, MeeplePlaced)), None)
        scored = [e for e in events if isinstance(e, FeatureScored) and not e.final]
        lines: list[str] = []
        for event in events:
            if isinstance(event, TilePlaced):
                lines.append(_laid(view, event, meeple, scored, names))
            elif isinstance(event, TileDiscarded):
                lines.append(f"🗑 {tile_words(event.tile)} هیچ‌جا جور نمی‌شد و کنار گذاشته شد.")
            elif isinstance(event, FeatureScored) and not event.final:
                lines.append(_completed(event, names))
        return lines

    def status(self, view: CarcassonneView, names: Sequence[str]) -> list[str]:
        if view.finished:
            return []
        scores = "، ".join(f"{_who(seat, names)} {num(score)}" for seat, score in enumerate(view.scores))
        return [f"⭐️ {scores}", f"📦 کاشی‌های مانده: {num(view.tiles_left)}"]  # 🧩 is a laid tile

    def result(self, view: CarcassonneView, names: Sequence[str]) -> list[str]:
        """The winners, then every player ranked by score as the finished picture lists them (equal scores
        share a place), each with the points per category."""
        winners = joined([f"<b>{name(names[w])}</b>" for w in view.winners])
        lines = [f"🤝 برد مشترک: {winners}" if len(view.winners) > 1 else f"🏆 برنده: {winners}"]
        for place, seat in by_place(view.scores):
            road, city, monastery, field = view.points[seat]
            parts = [f"جاده {num(road)}", f"شهر {num(city)}", f"صومعه {num(monastery)}"]
            if view.farmers:
                parts.append(f"مزرعه {num(field)}")
            score = num(view.scores[seat])
            lines.append(f"{num(place)}. {_who(seat, names)}: <b>{score}</b> امتیاز ({'، '.join(parts)})")
        if view.discarded:
            lines.append(f"🗑 کاشی‌های کنار گذاشته‌شده: {num(len(view.discarded))}")
        return lines

    def root_depth(self, kind: str) -> int:
        return 2  # «t.x_y»: the position is the first choice

    def menu_flat(self, prefix: str) -> int:
        """A position's level lists its placements whole (its picture draws each rotation's spots)."""
        return FLAT_PLACEMENTS if prefix.count(".") == 1 else 0

    def menu_columns(self, prefix: str) -> int:
        return 5 if not prefix else 2

    def menu_rows_by(self, prefix: str) -> int:
        """A position's placements listed whole: each rotation's on rows of its own."""
        return 3 if prefix.count(".") == 1 else 0

    def menu_label(self, path: Sequence[str], view: CarcassonneView) -> str:
        candidate = _candidate(view, path[1])
        if len(path) == 2:
            return candidate_label(candidate.number)
        if len(path) == 3:
            return f"↻ {rotation_label(int(path[2]))}"
        if path[3] == "n":
            return "🚫 بدون آدمک"
        choice = next(r for r in candidate.rotations if r.rotation == int(path[2]))
        index = next(i for i, s in enumerate(choice.spots) if s.spot == path[3])
        feature = choice.spots[index].feature
        return f"{spot_label(index)}: {_FEATURE_MARKS[feature]} {FEATURE_NAMES[feature]}"

    def chain_label(self, paths: Sequence[Sequence[str]], view: CarcassonneView) -> str:
        """A whole placement listed at its position's level: its rotation and its meeple; any other chain
        names the button's own choice, and the picture of the level it opens shows the rest."""
        first, last = paths[0], paths[-1]
        if len(first) != 3 or len(last) != 4:
            return self.menu_label(first, view)
        rotation = rotation_label(int(first[2]))
        choice = next(r for r in _candidate(view, first[1]).rotations if r.rotation == int(first[2]))
        if not choice.spots:
            return f"↻ {rotation}"  # nowhere for a meeple: the rotation is the whole choice
        return f"{rotation} · {self.menu_label(last, view)}"

    def picture(self, view: CarcassonneView, names: Sequence[str], prefix: str = "") -> tuple[bytes, str]:
        data, extension = to_bytes(render(view, names=names, pending=pending(view, prefix)))
        return data, f"carcassonne.{extension}"


presenter = CarcassonnePresenter()
