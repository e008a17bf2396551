"""Named colours for the قلعه رودخان picture, so a palette change is one object and never a hunt through code."""

from __future__ import annotations

from dataclasses import dataclass

from rendering.carcassonne.labels import SEAT_COLOURS
from rendering.theme import RGB


@dataclass(frozen=True, slots=True)
class CarcassonneTheme:
    """All colours of the picture; frozen (hashable) so cached sprites can be keyed on it."""

    table: RGB = (46, 54, 60)  # around the tiles
    panel: RGB = (246, 240, 226)
    panel_border: RGB = (196, 182, 154)
    ink: RGB = (40, 32, 24)
    muted: RGB = (118, 106, 92)
    # The landscape.
    field: RGB = (118, 168, 72)
    grass: RGB = (96, 146, 56)  # tufts on the fields
    city: RGB = (178, 162, 142)  # the stone streets between a city's houses
    roof: RGB = (200, 66, 42)  # the houses' red roofs, what tells a city at a glance
    house: RGB = (236, 204, 146)  # the houses' fronts under their roofs, warmer than a road
    wall: RGB = (92, 88, 86)  # the grey stone wall where a city meets a field, battlements outwards
    wall_top: RGB = (150, 146, 140)  # the light along the wall's top
    road: RGB = (242, 234, 208)
    road_edge: RGB = (150, 128, 96)
    village: RGB = (196, 120, 80)  # the square where three or four roads meet
    village_edge: RGB = (96, 64, 44)
    monastery: RGB = (246, 238, 220)
    monastery_roof: RGB = (170, 56, 46)
    monastery_edge: RGB = (70, 52, 40)
    shield: RGB = (36, 76, 168)
    shield_mark: RGB = (250, 246, 236)
    seam: RGB = (30, 36, 30)  # the thin line between tiles
    # Players, in seat order: red, blue, green, yellow, black (the bot's marks 🔴🔵🟢🟡⚫️).
    seats: tuple[RGB, ...] = SEAT_COLOURS
    meeple_outline: RGB = (24, 20, 16)
    halo: RGB = (255, 255, 255)
    # Marks of the current decision.
    candidate: RGB = (250, 244, 222)  # an empty position the drawn tile may take, with its number
    candidate_ink: RGB = (40, 32, 24)
    chosen: RGB = (255, 196, 40)  # the chosen position and the tile laid there for confirmation
    last: RGB = (255, 255, 255)  # the outline of the tile laid last
    spot: RGB = (255, 255, 255)  # a meeple spot's label
    spot_ink: RGB = (40, 32, 24)
    spot_ring: RGB = (200, 40, 30)
    overview: RGB = (64, 74, 82)  # the ground of the whole board drawn small beside a closer view
    view_frame: RGB = (255, 196, 40)  # on the overview: the part of the board shown large
    active: RGB = (255, 238, 196)  # the row of the player in turn
    active_border: RGB = (214, 130, 20)  # and the bar's hint: what to press
    used: RGB = (214, 204, 186)  # a meeple on the board, among a player's seven
    win_banner: RGB = (34, 120, 64)
    draw_banner: RGB = (110, 100, 88)
    on_banner: RGB = (255, 255, 255)

    def seat(self, seat: int) -> RGB:
        return self.seats[seat % len(self.seats)]


DEFAULT_THEME = CarcassonneTheme()
