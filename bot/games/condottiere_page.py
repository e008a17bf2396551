"""رکب on the Mini App: the hand's cards are tapped on the seat's own picture, the provinces on the map, and
the mercenary a Scarecrow takes back in the seat's battle line.

Taps of each kind of move (a tap id is a spot, or a button when it has none):

- ``p.5`` / ``p.dr``: the card ``card:5`` / ``card:dr`` on the hand picture (a kind's copies, side by side, are
  one spot);
- ``s.3``: the province ``province:3`` on the map, the battle's site; ``pz.3``: the same spot, where the peace
  token goes after a Bishop (the two are never chosen at the same time);
- ``sc.5``: the mercenary ``line:5`` in the seat's battle line on the board;
- ``x`` (pass), ``pz.k`` (the peace token stays), ``sc.n`` (no mercenary back), ``d.y`` / ``d.n`` (discard the
  hand or keep it): buttons.

Every word is the presenter's menu label of the same choice.
"""

from __future__ import annotations

from bot.games.base import Taps
from bot.games.condottiere import presenter
from rendering.condottiere import layout as lay
from rendering.condottiere.picture import hand_boxes, map_key, map_plan
from rendering.condottiere.sprites import is_mercenary, kind_of
from rendering.condottiere.static import province_outline
from rendering.spots import Spot
from rules.condottiere.model import CondottiereView

_SPOTS = {"p": "card", "s": "province", "pz": "province", "sc": "line"}  # the kinds of move made on a spot


class CondottierePage:
    def taps(self, code: str, view: CondottiereView) -> Taps:
        kind, _, arg = code.partition(".")
        if kind in _SPOTS and arg not in ("k", "n"):
            return Taps((f"{_SPOTS[kind]}:{arg}",))
        return Taps((code,))

    def spots(self, view: CondottiereView, own: CondottiereView | None) -> dict[str, Spot]:
        spots: dict[str, Spot] = {}
        plan = map_plan(view)
        if plan is not None:
            for province in range(len(plan.cells)):
                spots[f"province:{province}"] = Spot.poly("board", province_outline(plan, province))
        if own is None or own.seat is None:
            return spots
        for code, (left, top, right, bottom) in hand_boxes(own):  # a kind's copies in its first one's row
            tap = f"card:{kind_of(code)}"
            known = spots.get(tap)
            if known is None:
                spots[tap] = Spot.rect("hand", left, top, right, bottom)
            elif known.bounds()[1] == top:
                x0, y0, x1, y1 = known.bounds()
                spots[tap] = Spot.rect("hand", min(x0, left), y0, max(x1, right), y1)
        # the seat's battle line: each mercenary's value at its last copy, where the next card leaves it seen
        row = lay.frame(len(view.hand_sizes), map_key(view) is None).rows[own.seat]
        line = view.lines[own.seat]
        boxes = lay.line_boxes(row, len(line), tuple(map(len, view.lines)))
        for i, (code, (left, top, right, bottom)) in enumerate(zip(line, boxes, strict=True)):
            if is_mercenary(kind_of(code)):
                seen = max(left, boxes[i + 1][2]) if i + 1 < len(boxes) else left
                spots[f"line:{kind_of(code)}"] = Spot.rect("board", seen, top, right, bottom)
        return spots

    def label(self, tap: str, view: CondottiereView) -> str:
        what, _, which = tap.partition(":")
        if what == "card":
            return presenter.menu_label(("p", which), view)
        if what == "line":
            return presenter.menu_label(("sc", which), view)
        if what == "province":
            return presenter.menu_label(("pz" if view.phase == "peace" else "s", which), view)
        return presenter.menu_label(tap.split("."), view)  # a button: the code it makes

    def turns(self, tap: str) -> bool:
        return False


page = CondottierePage()
