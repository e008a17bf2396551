"""Named colours for the Coin Age picture, so a palette change is one object and never a hunt through code."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.theme import RGB


@dataclass(frozen=True, slots=True)
class CoinAgeTheme:
    """All colours of the board picture; frozen (hashable) so cached layers can be keyed on it."""

    background: RGB = (236, 228, 210)
    card: RGB = (250, 246, 236)
    card_border: RGB = (196, 182, 154)
    ink: RGB = (43, 33, 24)
    muted: RGB = (128, 116, 100)
    hex_border: RGB = (74, 58, 42)
    # Regions: copper mountains, deep forest, young plains, silver city.
    mountains: RGB = (184, 112, 62)
    forest: RGB = (46, 104, 62)
    plains: RGB = (196, 214, 112)
    city: RGB = (178, 184, 194)
    on_mountains: RGB = (255, 248, 236)
    on_forest: RGB = (255, 255, 255)
    on_plains: RGB = (43, 33, 24)
    on_city: RGB = (30, 34, 44)
    # Player sides: the first player's coins are gold, the second's deep blue.
    side0: RGB = (245, 196, 48)
    side0_rim: RGB = (150, 104, 14)
    side0_ink: RGB = (60, 36, 0)
    side1: RGB = (34, 72, 168)
    side1_rim: RGB = (12, 28, 84)
    side1_ink: RGB = (255, 255, 255)
    unfavourable: RGB = (170, 166, 160)  # a tossed coin that fell on the other side: nobody's colour
    unfavourable_rim: RGB = (110, 106, 100)
    unfavourable_ink: RGB = (60, 56, 52)
    last_move: RGB = (255, 255, 255)  # the band inside the spaces the last move changed
    last_move_edge: RGB = (24, 18, 12)
    coin_outline: RGB = (24, 18, 12)
    top_halo: RGB = (255, 255, 255)
    draw_banner: RGB = (110, 100, 88)
    on_banner: RGB = (255, 255, 255)
    open_pip: RGB = (255, 255, 255)  # a space of a colour that nobody holds, in the row under the map

    def region_fill(self, region: str) -> RGB:
        """Fill colour of a region by its map id (M, F, P, T)."""
        return {"M": self.mountains, "F": self.forest, "P": self.plains, "T": self.city}[region]

    def region_ink(self, region: str) -> RGB:
        """Text colour that stays readable on ``region_fill(region)``."""
        return {"M": self.on_mountains, "F": self.on_forest, "P": self.on_plains, "T": self.on_city}[region]

    def side_fill(self, side: int) -> RGB:
        return self.side1 if side else self.side0

    def side_rim(self, side: int) -> RGB:
        return self.side1_rim if side else self.side0_rim

    def side_ink(self, side: int) -> RGB:
        """Digit colour on a coin of this side."""
        return self.side1_ink if side else self.side0_ink


DEFAULT_THEME = CoinAgeTheme()
