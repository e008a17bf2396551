"""Named colours for the کشورگشا picture, so a palette change is one object and never a hunt through code."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.theme import RGB


@dataclass(frozen=True, slots=True)
class ConquerorTheme:
    """All colours of the board picture; frozen (hashable) so cached layers and sprites can be keyed on it."""

    background: RGB = (236, 228, 210)
    card: RGB = (250, 246, 236)
    card_border: RGB = (196, 182, 154)
    ink: RGB = (43, 33, 24)
    muted: RGB = (104, 92, 76)
    # The board: dark bands between camps (thicker between tiles), camp grounds.
    border: RGB = (66, 52, 40)
    camp: RGB = (218, 212, 196)
    plain: RGB = (170, 204, 112)
    grass: RGB = (70, 118, 40)  # the tufts that mark a plain, whatever its ground
    castle_ground: RGB = (184, 196, 210)  # a castle's camp, cool stone: owned by nobody, never scores
    label: RGB = (43, 33, 24)  # dark on every ground, the castle's too
    pip: RGB = (43, 33, 24)  # the capacity's dots
    outline: RGB = (30, 22, 16)  # around pieces, castles and walls
    halo: RGB = (255, 255, 255)
    # Players: seat 0 red, seat 1 yellow (the seed's colours); tints mark the camps each one owns.
    side0: RGB = (206, 40, 40)
    side0_ink: RGB = (255, 255, 255)
    side0_tint: RGB = (240, 150, 140)
    side1: RGB = (250, 196, 20)
    side1_ink: RGB = (56, 36, 0)
    side1_tint: RGB = (250, 226, 120)
    track: RGB = (226, 218, 200)  # the empty part of the score bar
    # While a menu of camps is open: the camps that can be chosen are ringed, the others faded (the labels
    # still read); a wall's sides to choose are drawn as pale walls.
    choice_ring: RGB = (24, 96, 200)
    chosen_ring: RGB = (30, 22, 16)  # the camp chosen first (a move's source, a wall's camp)
    veil: RGB = (246, 242, 232)
    veil_opacity: int = 150  # of 255
    ghost_opacity: int = 170  # of 255: a wall that may be built
    first: RGB = (214, 160, 20)  # the outline of a finished game's first place
    draw_banner: RGB = (110, 100, 88)
    on_banner: RGB = (255, 255, 255)

    def side_fill(self, seat: int) -> RGB:
        return self.side1 if seat else self.side0

    def side_ink(self, seat: int) -> RGB:
        """Digit colour on a disc of this seat's colour."""
        return self.side1_ink if seat else self.side0_ink

    def side_tint(self, seat: int) -> RGB:
        """Ground of a camp this seat owns."""
        return self.side1_tint if seat else self.side0_tint

    def ground(self, *, plain: bool, owner: int | None = None, castle: bool = False) -> RGB:
        """What a camp is painted with: castle ground, owner's tint, or the plain or camp colour."""
        if castle:
            return self.castle_ground
        if owner is not None:
            return self.side_tint(owner)
        return self.plain if plain else self.camp


DEFAULT_THEME = ConquerorTheme()
