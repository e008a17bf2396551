"""کشورگشا on the Mini App: every action is tapped on the map, one after another until the turn ends.

The taps of each code, each one a spot on the board but «پایان نوبت»:

- ``c.X`` build a castle: ``camp:X``, the camp;
- ``e.X`` enter a piece: ``enter:X``, your empty castle; ``l.X`` leave it: ``leave:X``, your castle with the
  piece in its gate (a castle is manned or not, so never both at once);
- ``m.X.Y`` move: ``piece:X``, your pieces' disc in the camp, then ``to:X.Y``, the camp it goes to;
- ``w.X.Y`` wall: ``camp:X``, then ``side:X.Y``, the camp across the side: a wall is tapped as the two camps it
  stands between, both as large as a thumb (a strip along the side would be a few pixels wide on a phone). A
  camp where you may build a castle and wall a side is one tap, confirmed as the castle or followed by the
  camp across for the wall;
- ``x`` end the turn: ``end``, a button.

Spots overlap where a camp holds what can be tapped too (your pieces in a camp you may build in): they are
listed from the largest to what is drawn on top (camps, castles, pieces), so a page that gives a tap to the
last spot holding it gives it to the thing drawn there.
Each tap's words are the bot's button for the same choice (``presenter.menu_label``).
"""

from __future__ import annotations

from bot.games.base import Taps
from bot.games.conqueror import presenter
from rendering.conqueror import layout as lay
from rendering.conqueror.picture import board_key
from rendering.conqueror.static import BoardPlan, board_plan
from rendering.spots import Spot
from rules.conqueror.model import ConquerorView

# A code's kind and the taps it is made of; a move is two taps, every other action one.
CAMP, SIDE, ENTER, LEAVE, PIECE, TO, END = "camp", "side", "enter", "leave", "piece", "to", "end"
_ONE_TAP = {"c": CAMP, "e": ENTER, "l": LEAVE}
_PATHS = {ENTER: "e", LEAVE: "l", PIECE: "m", TO: "m", SIDE: "w"}  # a tap's menu path's kind


def _camp(plan: BoardPlan, label: str) -> Spot:
    """A camp's ground, as the picture paints it."""
    i = plan.index[label]
    return Spot.poly("board", tuple(lay.inset_hexagon(plan.centre(i), plan.radius, plan.insets[i])))


def _castle(plan: BoardPlan, label: str) -> Spot:
    (x, y), (width, height) = plan.geometry.castle(plan.centre(plan.index[label]))
    return Spot.rect("board", x - width / 2, y - height / 2, x + width / 2, y + height / 2)


def _pieces(plan: BoardPlan, view: ConquerorView, label: str, seat: int) -> Spot:
    """The disc of ``seat``'s pieces standing in the camp."""
    i = plan.index[label]
    both = bool(view.pieces[0][i] and view.pieces[1][i])
    radius, discs = plan.geometry.pieces(plan.centre(i), view.castles[i] is not None, both)
    return Spot.circle("board", *discs[seat], radius)


class ConquerorPage:
    def taps(self, code: str, view: ConquerorView) -> Taps:
        kind, *camps = code.split(".")
        if kind == "x":
            return Taps((END,))
        if kind == "m":
            source, target = camps
            return Taps((f"{PIECE}:{source}", f"{TO}:{source}.{target}"))
        if kind == "w":
            camp, across = camps
            return Taps((f"{CAMP}:{camp}", f"{SIDE}:{camp}.{across}"))
        return Taps((f"{_ONE_TAP[kind]}:{'.'.join(camps)}",))

    def spots(self, view: ConquerorView, own: object | None) -> dict[str, Spot]:
        if view.to_act is None or not view.legal:
            return {}
        plan = board_plan(board_key(view))
        camps: dict[str, Spot] = {}
        castles: dict[str, Spot] = {}
        pieces: dict[str, Spot] = {}
        for code in view.legal:
            kind, *labels = code.split(".")
            if kind == "c":
                camps[f"{CAMP}:{labels[0]}"] = _camp(plan, labels[0])
            elif kind == "m":
                source, target = labels
                camps[f"{TO}:{source}.{target}"] = _camp(plan, target)
                pieces[f"{PIECE}:{source}"] = _pieces(plan, view, source, view.to_act)
            elif kind == "w":
                camp, across = labels
                camps[f"{CAMP}:{camp}"] = _camp(plan, camp)
                camps[f"{SIDE}:{camp}.{across}"] = _camp(plan, across)
            elif kind in ("e", "l"):
                castles[f"{_ONE_TAP[kind]}:{labels[0]}"] = _castle(plan, labels[0])
        return camps | castles | pieces

    def label(self, tap: str, view: ConquerorView) -> str:
        """The bot's button for the same choice: «🏰 قلعه در ب۴», «➡️ از ب۳» then «به ب۴», «🧱 ب۴ و ج۱» …; a
        camp, the castle it can take, or else the wall it starts («🧱 ب۴»)."""
        if tap == END:
            return presenter.menu_label(["x"], view)
        kind, camps = tap.split(":")
        if kind == CAMP:
            return presenter.menu_label(["c" if f"c.{camps}" in view.legal else "w", camps], view)
        return presenter.menu_label([_PATHS[kind], *camps.split(".")], view)

    def turns(self, tap: str) -> bool:
        return False


page = ConquerorPage()
