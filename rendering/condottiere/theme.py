"""Named colours for the رکب pictures, so a palette change is one object and never a hunt through code."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.theme import RGB


@dataclass(frozen=True, slots=True)
class CondottiereTheme:
    """All colours of the group and hand pictures; frozen (hashable) so cached layers and sprites can be keyed
    on it."""

    background: RGB = (236, 228, 210)
    card: RGB = (250, 246, 236)
    card_border: RGB = (196, 182, 154)
    ink: RGB = (43, 33, 24)
    muted: RGB = (120, 108, 92)
    # The map: sea around, parchment land, dark borders (thicker along the coast).
    sea: RGB = (150, 192, 214)
    shallows: RGB = (188, 216, 228)
    lake: RGB = (150, 192, 214)
    land: RGB = (238, 224, 188)  # a province nobody holds
    border: RGB = (82, 64, 46)
    coast: RGB = (52, 66, 88)
    site_outline: RGB = (200, 30, 30)  # around the province fought over
    peace_outline: RGB = (84, 130, 40)  # around the province under the peace token
    winner_outline: RGB = (255, 196, 0)  # around the provinces that won the game
    label: RGB = (43, 33, 24)
    # Players (Okabe–Ito, told apart with colour-blindness too): fill, and the ink that reads on it.
    seat_colours: tuple[RGB, ...] = (
        (213, 94, 0),  # vermilion
        (0, 114, 178),  # blue
        (0, 158, 115),  # bluish green
        (240, 228, 66),  # yellow
        (204, 121, 167),  # reddish purple
        (84, 84, 96),  # slate (the sea is the blue one)
    )
    seat_inks: tuple[RGB, ...] = (
        (255, 255, 255),
        (255, 255, 255),
        (255, 255, 255),
        (43, 33, 24),
        (43, 33, 24),
        (255, 255, 255),
    )
    outline: RGB = (30, 22, 16)
    # Cards: yellow rim for mercenaries, purple for specials (as printed), faces by kind.
    card_face: RGB = (255, 251, 240)
    mercenary_rim: RGB = (222, 170, 30)
    mercenary_face: RGB = (255, 244, 200)
    special_rim: RGB = (112, 64, 150)
    special_face: RGB = (244, 236, 250)
    winter_face: RGB = (220, 236, 250)
    spring_face: RGB = (226, 244, 214)
    card_ink: RGB = (43, 33, 24)
    card_back: RGB = (96, 58, 40)
    card_back_pattern: RGB = (150, 100, 66)
    slot: RGB = (214, 204, 182)  # an empty place for a card (the season slot)
    # The cards' pictures that are not plain shapes: the Bishop's elder, the Courtesan's heart.
    elder_skin: RGB = (236, 196, 150)
    elder_beard: RGB = (255, 255, 255)
    elder_robe: RGB = (92, 60, 120)
    elder_turban: RGB = (40, 110, 120)
    elder_rim: RGB = (60, 44, 40)
    courtesan: RGB = (210, 50, 80)
    # Tokens: the black battle token, the white peace token.
    battle_token: RGB = (30, 26, 24)
    battle_mark: RGB = (236, 236, 236)
    peace_token: RGB = (255, 255, 255)
    olive: RGB = (84, 130, 40)
    # Rows of the players.
    active: RGB = (255, 250, 226)
    passed_row: RGB = (226, 220, 208)
    passed_badge: RGB = (120, 108, 92)
    passed_ink: RGB = (92, 84, 74)  # a passed player's name and counts
    on_badge: RGB = (255, 255, 255)
    strength_box: RGB = (60, 46, 34)
    on_strength: RGB = (255, 255, 255)
    win_slot: RGB = (226, 218, 200)
    win_banner: RGB = (38, 120, 64)
    draw_banner: RGB = (110, 100, 88)
    on_banner: RGB = (255, 255, 255)

    def seat_fill(self, seat: int) -> RGB:
        return self.seat_colours[seat % len(self.seat_colours)]

    def seat_ink(self, seat: int) -> RGB:
        """Text colour that stays readable on ``seat_fill(seat)``."""
        return self.seat_inks[seat % len(self.seat_inks)]


DEFAULT_THEME = CondottiereTheme()
