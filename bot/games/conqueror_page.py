"""کشورگشا on the Mini App: every action is tapped on the map, one after another until the turn ends.

The taps of each code, each one a spot on the board but «پایان نوبت»:

- ``c.X`` build a castle: ``build:X``, the camp;
- ``e.X`` enter a piece: ``enter:X``, your empty castle; ``l.X`` leave it: ``leave:X``, your castle with the
  piece in its gate (a castle is manned or not, so never both at once);
- ``m.X.Y`` move: ``piece:X``, your pieces' disc in the camp, then ``to:X.Y``, the camp it goes to;
- ``w.X.Y`` wall: ``wall:X.Y``, the side between the two camps, a strip reaching a little into each. A side
  that both its camps let you wall is offered under both names (the same wall): each name is then the half of
  the strip inside its own camp, so that the two names are two taps on the one side;
- ``x`` end the turn: ``end``, a button.

Spots overlap where a camp holds what can be tapped too (your pieces in a camp you may build in, a wall's
strip over pieces beside a castle): they are listed from the largest to what is drawn on top (camps, walls,
castles, pieces), so a page that gives a tap to the last spot holding it gives it to the thing drawn there.
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
BUILD, ENTER, LEAVE, PIECE, TO, WALL, END = "build", "enter", "leave", "piece", "to", "wall", "end"
_ONE_TAP = {"c": BUILD, "e": ENTER, "l": LEAVE, "w": WALL}
_PATHS = {BUILD: "c", ENTER: "e", LEAVE: "l", PIECE: "m", TO: "m", WALL: "w"}  # a tap's menu path's kind


def _camp(plan: BoardPlan, label: str) -> Spot:
    """A camp's ground, as the picture paints it."""
    i = plan.index[label]
    return Spot.poly("board", tuple(lay.inset_hexagon(plan.centre(i), plan.radius, plan.insets[i])))


def _wall(plan: BoardPlan, camp: str, across: str, half: bool) -> Spot:
    """The strip along the side between ``camp`` and ``across`` on both sides of it, or only its half inside
    ``camp``."""
    depth = plan.geometry.offset(lay.WALL_SPOT_DEPTH)
    a, b = plan.index[camp], plan.index[across]
    _la, _ta, qa, ra, _ca, _pa = plan.cells[a]
    _lb, _tb, qb, rb, _cb, _pb = plan.cells[b]
    side = lay.side_towards((qa, ra), (qb, rb))
    mine = lay.side_band(plan.centre(a), plan.radius, side, depth)
    if half:
        return Spot.poly("board", mine)
    theirs = lay.side_band(plan.centre(b), plan.radius, (side + 3) % 6, depth)
    return Spot.poly("board", (mine[0], mine[3], mine[2], mine[1], theirs[3], theirs[2]))


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
        return Taps((f"{_ONE_TAP[kind]}:{'.'.join(camps)}",))

    def spots(self, view: ConquerorView, own: object | None) -> dict[str, Spot]:
        if view.to_act is None or not view.legal:
            return {}
        plan = board_plan(board_key(view))
        legal = set(view.legal)
        camps: dict[str, Spot] = {}
        walls: dict[str, Spot] = {}
        castles: dict[str, Spot] = {}
        pieces: dict[str, Spot] = {}
        for code in view.legal:
            kind, *labels = code.split(".")
            if kind == "c":
                camps[f"{BUILD}:{labels[0]}"] = _camp(plan, labels[0])
            elif kind == "m":
                source, target = labels
                camps[f"{TO}:{source}.{target}"] = _camp(plan, target)
                pieces[f"{PIECE}:{source}"] = _pieces(plan, view, source, view.to_act)
            elif kind == "w":
                camp, across = labels
                half = f"w.{across}.{camp}" in legal
                walls[f"{WALL}:{camp}.{across}"] = _wall(plan, camp, across, half)
            elif kind in ("e", "l"):
                castles[f"{_ONE_TAP[kind]}:{labels[0]}"] = _castle(plan, labels[0])
        return camps | walls | castles | pieces

    def label(self, tap: str, view: ConquerorView) -> str:
        """The bot's button for the same choice: «🏰 قلعه در ب۴», «➡️ از ب۳» then «به ب۴», «🧱 ب۴ و ج۱» …"""
        if tap == END:
            return presenter.menu_label(["x"], view)
        kind, camps = tap.split(":")
        return presenter.menu_label([_PATHS[kind], *camps.split(".")], view)

    def turns(self, tap: str) -> bool:
        return False


page = ConquerorPage()
