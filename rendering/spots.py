"""Places on a picture a player may tap (the Mini App, bot/webapp): drawn from the same layout as the picture.

A spot is in the picture's own pixels, so the page scales it with the picture. A game's spots come from the
functions that say where its picture draws each thing (``rendering/<game>/layout.py``), never from numbers
written a second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Picture = Literal["board", "hand"]  # the group's board picture, or the seat's own private picture


@dataclass(frozen=True, slots=True)
class Spot:
    """``rect``: x, y, width, height; ``circle``: centre x, centre y, radius; ``poly``: x0, y0, x1, y1, …"""

    picture: Picture
    shape: Literal["rect", "circle", "poly"]
    points: tuple[float, ...]

    @staticmethod
    def rect(picture: Picture, left: float, top: float, right: float, bottom: float) -> Spot:
        return Spot(picture, "rect", (left, top, right - left, bottom - top))

    @staticmethod
    def circle(picture: Picture, x: float, y: float, radius: float) -> Spot:
        return Spot(picture, "circle", (x, y, radius))

    @staticmethod
    def poly(picture: Picture, corners: tuple[tuple[float, float], ...]) -> Spot:
        return Spot(picture, "poly", tuple(v for corner in corners for v in corner))

    def bounds(self) -> tuple[float, float, float, float]:
        """left, top, right, bottom."""
        if self.shape == "rect":
            x, y, w, h = self.points
            return x, y, x + w, y + h
        if self.shape == "circle":
            x, y, r = self.points
            return x - r, y - r, x + r, y + r
        xs, ys = self.points[0::2], self.points[1::2]
        return min(xs), min(ys), max(xs), max(ys)

    def centre(self) -> tuple[float, float]:
        left, top, right, bottom = self.bounds()
        return (left + right) / 2, (top + bottom) / 2
