"""The current player's choice so far (from the bot's menu), checked against the view's candidates.

The bot asks for a turn by position, then rotation and meeple spot (in one press where the panel can draw
every rotation with its spots, else one after the other), and redraws the picture after each press;
``Pending`` is what it knows so far and ``resolve`` finds it in ``view.candidates`` (or says what is wrong).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.carcassonne.model import CandidateSpot, CarcassonneView, PlacementChoice


@dataclass(frozen=True, slots=True)
class Pending:
    """The current player's choice so far, from the bot's menu: a position, then a rotation, then a spot."""

    x: int
    y: int
    rotation: int | None = None
    spot: str | None = None  # "n" = no meeple


NO_MEEPLE = "n"


@dataclass(frozen=True, slots=True)
class Choice:
    """A pending choice found in the view: the candidate position, the placement once a rotation is chosen,
    and the spot once chosen (``NO_MEEPLE`` for none)."""

    candidate: CandidateSpot
    placement: PlacementChoice | None = None
    spot: str | None = None

    @property
    def stage(self) -> str:
        """ "rotation" (position chosen), "spot" (rotation chosen) or "confirm" (spot chosen)."""
        if self.placement is None:
            return "rotation"
        return "spot" if self.spot is None else "confirm"

    def spot_feature(self) -> str | None:
        """The kind of feature the chosen spot is on (None for no meeple or no spot yet)."""
        if self.placement is None:
            return None
        return next((s.feature for s in self.placement.spots if s.spot == self.spot), None)


def resolve(view: CarcassonneView, pending: Pending | None) -> Choice | None:
    """``pending`` as found in ``view``; None when there is none. Raises ValueError for a choice the view does
    not offer (not the seat's tile step, not a candidate, an illegal rotation or spot)."""
    if pending is None:
        return None
    if view.phase != "tile" or view.drawn is None:
        raise ValueError("a pending choice needs a tile to place")
    candidate = next((c for c in view.candidates if (c.x, c.y) == (pending.x, pending.y)), None)
    if candidate is None:
        raise ValueError(f"({pending.x}, {pending.y}) is not a candidate position")
    if pending.rotation is None:
        if pending.spot is not None:
            raise ValueError("a spot needs a rotation")
        return Choice(candidate)
    placement = next((p for p in candidate.rotations if p.rotation == pending.rotation), None)
    if placement is None:
        raise ValueError(f"rotation {pending.rotation} does not fit at ({pending.x}, {pending.y})")
    if pending.spot is not None and pending.spot != NO_MEEPLE and pending.spot not in {s.spot for s in placement.spots}:
        raise ValueError(f"spot {pending.spot!r} is not free on this placement")
    return Choice(candidate, placement, pending.spot)
