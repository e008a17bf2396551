"""Named colours for the اسپلندور pictures, so a palette change is one object and never a hunt through code."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.theme import RGB, mix

GEM_COUNT = 5  # white, blue, green, red, black; gold is index 5 (the last) of a six-count token tuple


@dataclass(frozen=True, slots=True)
class SplendorTheme:
    """All colours of the pictures; frozen (hashable) so cached layers and sprites can be keyed on it."""

    background: RGB = (232, 226, 214)
    card: RGB = (250, 247, 240)  # the panels' boxes
    card_border: RGB = (192, 180, 158)
    ink: RGB = (36, 30, 26)
    muted: RGB = (118, 106, 92)
    outline: RGB = (34, 30, 28)  # around gems, cards and tiles
    # The six token colours, in the order of the view's counts: white, blue, green, red, black, gold.
    gems: tuple[RGB, ...] = (
        (248, 248, 244),
        (36, 104, 206),
        (30, 146, 78),
        (214, 44, 44),
        (52, 46, 46),
        (244, 190, 30),
    )
    # Ink on each colour (digits on a token or cost dot).
    gem_inks: tuple[RGB, ...] = (
        (36, 30, 26),
        (255, 255, 255),
        (255, 255, 255),
        (255, 255, 255),
        (255, 255, 255),
        (56, 36, 0),
    )
    # The chip's edge marks: a contrasting pattern, so white and black read on any ground.
    gem_marks: tuple[RGB, ...] = (
        (150, 146, 140),
        (200, 224, 255),
        (196, 240, 206),
        (255, 206, 200),
        (232, 228, 222),
        (255, 244, 196),
    )
    card_face_tint: float = 0.82  # a card's face: its bonus colour this far towards white
    # Card backs per level (1, 2, 3), away from the gem colours.
    backs: tuple[RGB, ...] = ((120, 96, 72), (196, 124, 44), (84, 72, 146))
    back_pattern: RGB = (255, 255, 255)
    noble: RGB = (240, 226, 196)  # a noble's tile
    noble_band: RGB = (136, 60, 96)
    on_noble_band: RGB = (255, 255, 255)
    crown: RGB = (244, 190, 30)
    label: RGB = (84, 70, 56)  # a card's label on the cloth above it: dark ink in no circle, never a cost
    label_line: RGB = (196, 184, 164)  # the short rules either side of a label
    empty_slot: RGB = (214, 206, 190)
    active: RGB = (255, 240, 206)  # the panel of the player in turn
    active_border: RGB = (214, 120, 20)
    final_round: RGB = (196, 40, 40)
    on_final_round: RGB = (255, 255, 255)
    win_banner: RGB = (34, 120, 64)
    draw_banner: RGB = (110, 100, 88)
    on_banner: RGB = (255, 255, 255)
    affordable: RGB = (30, 130, 64)
    short: RGB = (176, 52, 40)
    over_limit: RGB = (196, 40, 40)  # more than ten tokens held
    # The places at the end: first, second, third; the rest plain.
    places: tuple[RGB, ...] = ((232, 178, 24), (170, 176, 186), (196, 124, 64))
    place_plain: RGB = (214, 206, 190)

    def gem(self, colour: int) -> RGB:
        return self.gems[colour]

    def gem_ink(self, colour: int) -> RGB:
        return self.gem_inks[colour]

    def gem_mark(self, colour: int) -> RGB:
        return self.gem_marks[colour]

    def card_face(self, bonus: int) -> RGB:
        """The face of a card of this bonus colour: a pale tint, so costs stand out on it."""
        if bonus == 0:
            return (236, 234, 228)  # white's pale tint would vanish on white: a light grey instead
        return mix(self.gems[bonus], (255, 255, 255), self.card_face_tint)

    def back(self, level: int) -> RGB:
        return self.backs[level - 1]

    def place(self, place: int) -> RGB:
        """The badge of a place (1 first) at the end of the game."""
        return self.places[place - 1] if place <= len(self.places) else self.place_plain


DEFAULT_THEME = SplendorTheme()
