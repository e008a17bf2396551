"""قلعه رودخان on the Mini App: a turn is made by tapping the board.

A code ``t.X_Y.R.F`` is tapped as ``place:X_Y`` (the candidate position, its cell on the board), ``turn:X_Y.R``
(the rotation: no spot, offered one at a time with «↻», the first chosen by itself) and ``meeple:X_Y.R.F`` (the
meeple's spot on the tile as the preview draws it at that place and rotation); ``t.X_Y.R.n``, no meeple, is
the place and the rotation alone, confirmed as they are. Each tap's words are the bot's button for the same
choice (``presenter.menu_label``).

The picture moves the board when it previews a choice: a position chosen on a board too large to show whole
brings a closer view of it, its tiles larger (``rendering.carcassonne.layout.STAGES``). So each spot is where
the picture in which it is tapped draws it: a position on the picture of the codes before any is chosen (the
first level; the chosen one's, when the tile fits in one position only), a meeple's spot on the preview of
its position and rotation, which every rotation of a position shares. A position outside a closer view is
its square on the overview, the whole board small at the left.
"""

from __future__ import annotations

import math

from bot.games.base import Taps
from bot.games.carcassonne import presenter
from rendering.carcassonne.board import meeple_centre, meeple_size
from rendering.carcassonne.layout import Frame
from rendering.carcassonne.picture import Pending, layout
from rendering.spots import Spot
from rules.carcassonne.model import CandidateSpot, CarcassonneView, PlacementChoice

PLACE, TURN, MEEPLE = "place", "turn", "meeple"


def _place(candidate: CandidateSpot) -> str:
    return f"{candidate.x}_{candidate.y}"


def _cell(frame: Frame, x: int, y: int) -> Spot:
    left, top = frame.corner(x, y)
    return Spot.rect("board", left, top, left + frame.tile, top + frame.tile)


class CarcassonnePage:
    def taps(self, code: str, view: CarcassonneView) -> Taps:
        _t, place, rotation, spot = code.split(".")
        turn = f"{place}.{rotation}"
        ids = (f"{PLACE}:{place}", f"{TURN}:{turn}")
        return Taps(ids if spot == "n" else (*ids, f"{MEEPLE}:{turn}.{spot}"))

    def spots(self, view: CarcassonneView, own: object | None) -> dict[str, Spot]:
        if view.phase != "tile" or view.drawn is None or not view.candidates:
            return {}
        out = self._places(view)
        for candidate in view.candidates:
            for placement in candidate.rotations:
                out.update(self._meeples(view, candidate, placement))
        return out

    def _places(self, view: CarcassonneView) -> dict[str, Spot]:
        """The candidates' cells on the first level's picture (one candidate alone: its level's, where the
        menu opens); those outside a closer view, their squares on the overview."""
        only = view.candidates[0] if len(view.candidates) == 1 else None
        plan = layout(view, Pending(only.x, only.y) if only is not None else None)
        out = {}
        for candidate in view.candidates:
            x, y = candidate.x, candidate.y
            frame = plan.board if plan.board.contains(x, y) or plan.overview is None else plan.overview
            out[f"{PLACE}:{_place(candidate)}"] = _cell(frame, x, y)
        return out

    def _meeples(self, view: CarcassonneView, candidate: CandidateSpot, placement: PlacementChoice) -> dict[str, Spot]:
        """Where a meeple on each free spot would stand, on the preview of this placement: circles the size
        of the meeple, smaller where two spots lie closer than that (no two overlap) or near the tile's edge
        (each stays on its tile)."""
        if not placement.spots or view.drawn is None:
            return {}
        x, y, rotation = candidate.x, candidate.y, placement.rotation
        frame = layout(view, Pending(x, y, rotation)).board
        centres = [
            meeple_centre(frame, x, y, view.drawn, spot.spot, rotation, spot.feature == "field")
            for spot in placement.spots
        ]
        size = meeple_size(frame.tile) / 2
        left, top = frame.corner(x, y)
        out = {}
        for k, (spot, centre) in enumerate(zip(placement.spots, centres, strict=True)):
            nearest = min((math.dist(centre, other) for j, other in enumerate(centres) if j != k), default=math.inf)
            cx, cy = centre
            edge = min(cx - left, cy - top, left + frame.tile - cx, top + frame.tile - cy)
            radius = min(size, nearest / 2, edge)
            out[f"{MEEPLE}:{_place(candidate)}.{rotation}.{spot.spot}"] = Spot.circle("board", *centre, radius)
        return out

    def label(self, tap: str, view: CarcassonneView) -> str:
        """The bot's button for the same choice: the position's number «۱۲», «↻ ۹۰°», «الف: 🏘 شهر»."""
        _kind, path = tap.split(":")
        return presenter.menu_label(["t", *path.split(".")], view)

    def turns(self, tap: str) -> bool:
        return tap.startswith(f"{TURN}:")


page = CarcassonnePage()
