"""The board of the قلعه رودخان picture: tiles, meeples, the tile laid last, candidates and the pending
choice, drawn in a frame (the main view) or small (the overview). The spots' letters are drawn on the band's
large tile (``draw_spots``), where they keep a legible size; the board shows where that tile goes.
"""

from __future__ import annotations

import itertools

from PIL import Image, ImageDraw

from rendering.carcassonne.choice import Choice
from rendering.carcassonne.geometry import Point, spot_point
from rendering.carcassonne.labels import candidate_label, spot_label
from rendering.carcassonne.layout import BOX_RADIUS, MIN_FONT, SPREAD_GAP, SPREAD_PASSES, Box, Frame
from rendering.carcassonne.sprites import (
    candidate_sprite,
    chosen_frame_sprite,
    meeple_box,
    meeple_sprite,
    outline_sprite,
    paste_centred,
    spot_tag_box,
    spot_tag_sprite,
    tile_sprite,
)
from rendering.carcassonne.theme import CarcassonneTheme
from rendering.theme import RGB
from rules.carcassonne.model import CarcassonneView, PlacementChoice


def meeple_size(tile: int) -> int:
    """A meeple's height on a tile of ``tile`` px (a farmer lies longer and lower, ``meeple_box``)."""
    return max(14, round(tile * 0.4))


def spot_tag_size(tile: int) -> int:
    """The font size of a spot's label on a tile of ``tile`` px (the band's large tiles)."""
    return max(MIN_FONT, min(32, round(tile * 0.11)))


def spot_centre(frame: Frame, x: int, y: int, letter: str, spot: str, rotation: int) -> tuple[float, float]:
    """The pixel where a meeple on ``spot`` of the tile at (x, y) stands."""
    left, top = frame.corner(x, y)
    px, py = spot_point(letter, spot, rotation)
    return left + px * frame.tile, top + py * frame.tile


def meeple_centre(
    frame: Frame, x: int, y: int, letter: str, spot: str, rotation: int, lying: bool
) -> tuple[float, float]:
    """Where a meeple on ``spot`` of the tile at (x, y) is drawn: on its spot, moved in just enough to keep
    its body on its own tile (a farmer lies long, and fields reach the tile's edge)."""
    cx, cy = spot_centre(frame, x, y, letter, spot, rotation)
    width, height = meeple_box(meeple_size(frame.tile), lying)
    left, top = frame.corner(x, y)
    right, bottom = left + frame.tile, top + frame.tile
    return min(max(cx, left + width / 2), right - width / 2), min(max(cy, top + height / 2), bottom - height / 2)


def draw_board(
    image: Image.Image, frame: Frame, view: CarcassonneView, choice: Choice | None, theme: CarcassonneTheme
) -> None:
    """The main view: every position of ``frame`` that holds a tile, the meeples, the tile laid last
    outlined (until a position is chosen), then the candidates (numbered, until one is chosen) and the
    pending choice: the chosen position in the highlight colour, or the tile laid there with its meeple."""
    tile = frame.tile
    _draw_tiles(image, frame, view, theme)
    letters = {t.index: (t.tile, t.rotation) for t in view.tiles}
    size = meeple_size(tile)
    for meeple in view.meeples:
        if frame.contains(meeple.x, meeple.y):
            letter, rotation = letters[meeple.tile_index]
            lying = meeple.feature == "field"
            sprite = meeple_sprite(theme.seat(meeple.seat), size, lying, theme)
            centre = meeple_centre(frame, meeple.x, meeple.y, letter, meeple.spot, rotation, lying)
            paste_centred(image, sprite, centre)
    last = view.last_tile
    if last is not None and frame.contains(last.x, last.y) and choice is None:  # the choice alone is marked
        _paste_at(image, outline_sprite(tile, theme.last, max(3, tile // 16)), frame.corner(last.x, last.y))
    if view.phase != "tile":
        return
    for candidate in view.candidates:
        if not frame.contains(candidate.x, candidate.y):
            continue
        chosen = choice is not None and candidate.number == choice.candidate.number and choice.placement is None
        if choice is not None and not chosen:
            continue  # once a position is chosen, the others are only noise
        sprite = candidate_sprite(candidate_label(candidate.number), tile, chosen, theme)
        _paste_at(image, sprite, frame.corner(candidate.x, candidate.y))
    if choice is not None and choice.placement is not None:
        _draw_placement(image, frame, view, choice, theme)


def _draw_tiles(image: Image.Image, frame: Frame, view: CarcassonneView, theme: CarcassonneTheme) -> None:
    for placed in view.tiles:
        if frame.contains(placed.x, placed.y):
            image.paste(tile_sprite(placed.tile, placed.rotation, frame.tile, theme), frame.corner(placed.x, placed.y))


def _draw_placement(
    image: Image.Image, frame: Frame, view: CarcassonneView, choice: Choice, theme: CarcassonneTheme
) -> None:
    """The drawn tile laid at the chosen position in the chosen rotation, under a see-through highlight,
    with the chosen meeple once there is one."""
    placement = choice.placement
    assert placement is not None and view.drawn is not None
    x, y = choice.candidate.x, choice.candidate.y
    if not frame.contains(x, y):
        return
    corner = frame.corner(x, y)
    image.paste(tile_sprite(view.drawn, placement.rotation, frame.tile, theme), corner)
    _paste_at(image, chosen_frame_sprite(frame.tile, theme), corner)
    if choice.spot is not None:
        draw_spots(image, frame, x, y, view.drawn, choice, view.turn or 0, theme)


def draw_spots(
    image: Image.Image,
    frame: Frame,
    x: int,
    y: int,
    letter: str,
    choice: Choice,
    seat: int,
    theme: CarcassonneTheme,
) -> None:
    """On the pending tile drawn at (x, y) of ``frame``: the chosen meeple in ``seat``'s colour, or, before a
    spot is chosen, every free spot's label («الف», «ب» …, in the order of the placement's spots), moved
    apart where two would overlap."""
    placement = choice.placement
    assert placement is not None
    if choice.spot is None:
        size = spot_tag_size(frame.tile)
        for index, (centre, _box) in enumerate(spot_tags(frame, x, y, letter, placement)):
            paste_centred(image, spot_tag_sprite(spot_label(index), size, theme), centre)
        return
    feature = choice.spot_feature()
    if feature is not None and choice.spot is not None:
        lying = feature == "field"
        sprite = meeple_sprite(theme.seat(seat), meeple_size(frame.tile), lying, theme)
        paste_centred(image, sprite, meeple_centre(frame, x, y, letter, choice.spot, placement.rotation, lying))


def spot_tags(
    frame: Frame, x: int, y: int, letter: str, placement: PlacementChoice
) -> list[tuple[Point, tuple[int, int]]]:
    """Where ``draw_spots`` puts each free spot's label on the tile at (x, y) of ``frame``, in the order of the
    placement's spots: its centre (on its spot, moved apart from the others, ``spread``) and its width and
    height."""
    size = spot_tag_size(frame.tile)
    boxes = [spot_tag_box(spot_label(index), size) for index in range(len(placement.spots))]
    spots = [spot_centre(frame, x, y, letter, spot.spot, placement.rotation) for spot in placement.spots]
    left, top = frame.corner(x, y)
    tile_box = (left, top, left + frame.tile, top + frame.tile)
    return list(zip(spread(spots, boxes, tile_box), boxes, strict=True))


def spread(centres: list[Point], sizes: list[tuple[int, int]], bounds: Box) -> list[Point]:
    """Labels of ``sizes`` centred at ``centres``, pushed apart where two overlap (each pair along the axis of
    its smaller overlap, a few passes) and kept inside ``bounds``: a tile's eight spots lie close together
    for labels as large as a phone needs."""
    moved = [list(centre) for centre in centres]
    for _ in range(SPREAD_PASSES):
        clash = False
        for i, j in itertools.combinations(range(len(moved)), 2):
            gaps = [(sizes[i][k] + sizes[j][k]) / 2 + SPREAD_GAP - abs(moved[j][k] - moved[i][k]) for k in (0, 1)]
            if min(gaps) <= 0:
                continue
            clash = True
            k = 0 if gaps[0] < gaps[1] else 1
            step = gaps[k] / 2 if moved[j][k] >= moved[i][k] else -gaps[k] / 2
            moved[i][k] -= step
            moved[j][k] += step
        for centre, (width, height) in zip(moved, sizes, strict=True):
            centre[0] = min(max(centre[0], bounds[0] + width / 2), bounds[2] - width / 2)
            centre[1] = min(max(centre[1], bounds[1] + height / 2), bounds[3] - height / 2)
        if not clash:
            break
    return [(cx, cy) for cx, cy in moved]


def draw_overview(
    image: Image.Image,
    box: Box,
    frame: Frame,
    main: Frame,
    view: CarcassonneView,
    choice: Choice | None,
    theme: CarcassonneTheme,
) -> None:
    """The whole board small on its own ground in ``box``: tiles, the tile laid last, the chosen position,
    the candidates outside the closer view ``main`` as light squares (their numbers would not be legible
    there: choosing one moves the closer view to it), and a frame round what ``main`` shows."""
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle(box, BOX_RADIUS, fill=theme.overview)
    _draw_tiles(image, frame, view, theme)
    last = view.last_tile
    if last is not None:
        _outline(pen, frame, last.x, last.y, theme.last)
    if view.phase == "tile" and choice is None:
        for candidate in view.candidates:
            if not main.contains(candidate.x, candidate.y):
                _outline(pen, frame, candidate.x, candidate.y, theme.candidate, fill=True)
    if choice is not None:
        _outline(pen, frame, choice.candidate.x, choice.candidate.y, theme.chosen, fill=True)
    left, top = frame.corner(main.x0, main.y0)
    right, bottom = frame.corner(main.x0 + main.cols, main.y0 + main.rows)
    inner = frame.box
    shown = (max(left, inner[0] - 3), max(top, inner[1] - 3), min(right, inner[2] + 3), min(bottom, inner[3] + 3))
    pen.rectangle(shown, outline=theme.view_frame, width=3)


def _outline(pen: ImageDraw.ImageDraw, frame: Frame, x: int, y: int, colour: RGB, *, fill: bool = False) -> None:
    left, top = frame.corner(x, y)
    box = (left, top, left + frame.tile - 1, top + frame.tile - 1)
    pen.rectangle(box, fill=colour if fill else None, outline=colour, width=max(1, frame.tile // 8))


def _paste_at(image: Image.Image, sprite: Image.Image, corner: tuple[int, int]) -> None:
    image.paste(sprite, corner, sprite)
