"""قلعه رودخان on the Mini App: a turn is made by tapping the board.

A code ``t.X_Y.R.F`` is tapped as ``place:X_Y`` (the candidate position, its cell on the board), ``turn:X_Y.R``
(the rotation: no spot, offered one at a time with «↻», the first chosen by itself) and ``meeple:X_Y.R.F`` (the
meeple's spot: its letter on the drawn tile that the preview of that place and rotation draws large under the
board); ``t.X_Y.R.n``, no meeple, is the place and the rotation alone, confirmed as they are. Each tap's words
are the bot's button for the same choice (``presenter.menu_label``).

The picture moves the board when it previews a choice: a position chosen on a board too large to show whole
brings a closer view of it, its tiles larger (``rendering.carcassonne.layout.STAGES``). So each spot is where
the picture in which it is tapped draws it: a position on the picture of the codes before any is chosen (the
first level; the chosen one's, when the tile fits in one position only), a meeple's spot round its letter on
the large tile of the preview of its position and rotation (a thumb's size: on the board a tile's spots lie a
few pixels apart on a phone). A position outside a closer view is its square on the overview, the whole
board small at the left.
"""

from __future__ import annotations

import math

from bot.games.base import Taps
from bot.games.carcassonne import presenter
from rendering.carcassonne.board import spot_tags
from rendering.carcassonne.layout import Frame, spot_tile
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
        first = view.candidates[0]
        # The band, and the large tile in it, lie where they are on every placement's preview: the board
        # above it is as high for each (its size follows the whole board, not the chosen position).
        tile = spot_tile(layout(view, Pending(first.x, first.y, first.rotations[0].rotation)).band)
        for candidate in view.candidates:
            for placement in candidate.rotations:
                out.update(self._meeples(view.drawn, tile, candidate, placement))
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

    def _meeples(
        self, letter: str, tile: Frame, candidate: CandidateSpot, placement: PlacementChoice
    ) -> dict[str, Spot]:
        """Each free spot on the preview's large tile (``tile``, the band's), round the spot's label: a circle
        as large as the labels' spacing allows (no two overlap) that stays on the tile."""
        tags = [centre for centre, _box in spot_tags(tile, 0, 0, letter, placement)]
        left, top, right, bottom = tile.box
        out = {}
        for k, (spot, centre) in enumerate(zip(placement.spots, tags, strict=True)):
            nearest = min((math.dist(centre, other) for j, other in enumerate(tags) if j != k), default=math.inf)
            cx, cy = centre
            radius = min(nearest / 2, cx - left, cy - top, right - cx, bottom - cy)
            out[f"{MEEPLE}:{_place(candidate)}.{placement.rotation}.{spot.spot}"] = Spot.circle("board", cx, cy, radius)
        return out

    def label(self, tap: str, view: CarcassonneView) -> str:
        """The bot's button for the same choice: the position's number «۱۲», «↻ ۹۰°», «الف: 🏘 شهر»."""
        _kind, path = tap.split(":")
        return presenter.menu_label(["t", *path.split(".")], view)

    def turns(self, tap: str) -> bool:
        return tap.startswith(f"{TURN}:")


page = CarcassonnePage()
