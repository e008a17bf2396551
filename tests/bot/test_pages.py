"""Every game's Mini App page (bot/games/*_page.py) makes every legal move from taps, and its spots lie on the
pictures they belong to: checked over seeded random games."""

from __future__ import annotations

import io
import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest
from PIL import Image

from bot.games import PAGES, PRESENTERS
from rendering.carcassonne.board import spot_tags
from rendering.carcassonne.layout import spot_tile
from rendering.carcassonne.picture import Pending, layout
from rules import GAMES
from rules.carcassonne.model import CarcassonneView

NAMES = ["لیلا", "سارا", "رضا", "مریم", "امید"]
PLAYERS = {"conqueror": 2}
PICTURED_STATES = 4  # states per game whose pictures are drawn (drawing is the slow part)


def _players(game_id: str) -> int:
    return PLAYERS.get(game_id, min(3, GAMES[game_id].max_players))


def _states(game_id: str, seed: int, count: int = 40) -> list[Any]:
    game = GAMES[game_id]
    players = _players(game_id)
    state = game.setup(players, seed)
    rng = random.Random(seed)
    states = []
    for _ in range(400):
        seats = game.to_act(state)
        if not seats:
            break
        states.append(state)
        seat = rng.choice(seats)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
    step = max(1, len(states) // count)
    return states[::step]


def _key(taps: Any) -> tuple[str, ...]:
    return tuple(sorted(taps.ids)) if taps.unordered else taps.ids


@pytest.mark.parametrize("game_id", sorted(PAGES))
def test_every_move_is_made_of_taps_and_no_two_moves_of_the_same(game_id: str) -> None:
    game, page = GAMES[game_id], PAGES[game_id]
    for seed in (1, 2):
        for state in _states(game_id, seed):
            view = game.view(state, None)
            for seat in game.to_act(state):
                own = game.view(state, seat)
                spots = page.spots(view, own if PRESENTERS[game_id].hands else None)
                codes = [game.encode(a) for a in game.legal_actions(state, seat)]
                made = Counter(_key(page.taps(code, view)) for code in codes)
                assert not [k for k, n in made.items() if n > 1], f"two moves of the same taps in {game_id}"
                for code in codes:
                    taps = page.taps(code, view)
                    assert taps.ids, code
                    for tap in taps.ids:
                        assert page.label(tap, view).strip(), f"{code}: tap {tap} has no words"
                        if tap not in spots:
                            assert not page.turns(tap) or taps.ids.index(tap) > 0, f"{code}: a turn of nothing"


@pytest.mark.parametrize("game_id", sorted(PAGES))
def test_spots_lie_on_their_pictures(game_id: str) -> None:
    game, page, presenter = GAMES[game_id], PAGES[game_id], PRESENTERS[game_id]
    states = _states(game_id, 3, count=PICTURED_STATES)
    for state in states[:PICTURED_STATES]:
        view = game.view(state, None)
        seat = game.to_act(state)[0]
        own = game.view(state, seat) if presenter.hands else None
        names = NAMES[: _players(game_id)]
        sizes = {"board": Image.open(io.BytesIO(presenter.picture(view, names)[0])).size}
        if presenter.hands is not None and own is not None:
            sizes["hand"] = Image.open(io.BytesIO(presenter.hands.picture(own, names)[0])).size
        for tap, spot in page.spots(view, own).items():
            assert spot.picture in sizes, f"{tap} on a picture this game does not draw"
            width, height = sizes[spot.picture]
            left, top, right, bottom = spot.bounds()
            assert 0 <= left < right <= width and 0 <= top < bottom <= height, f"{tap} off its picture: {spot}"


def test_a_meeple_spot_is_round_its_letter_on_the_previews_large_tile() -> None:
    """On a phone the board's tile is too small to tap a spot on: each ``meeple:`` spot is round its letter on
    the large tile the preview of its position and rotation draws in the band, on that tile, a thumb wide,
    no two of a placement overlapping."""
    game, page = GAMES["carcassonne"], PAGES["carcassonne"]
    seen = 0
    for state in _states("carcassonne", 1, count=12):
        view = game.view(state, None)
        assert isinstance(view, CarcassonneView)
        if view.phase != "tile" or view.drawn is None:
            continue
        letter, spots = view.drawn, page.spots(view, None)
        for candidate in view.candidates:
            for placement in candidate.rotations:
                plan = layout(view, Pending(candidate.x, candidate.y, placement.rotation))
                tile = spot_tile(plan.band)
                turn = f"{candidate.x}_{candidate.y}.{placement.rotation}"
                circles = [spots[f"meeple:{turn}.{spot.spot}"] for spot in placement.spots]
                tags = spot_tags(tile, 0, 0, letter, placement)
                left, top, right, bottom = tile.box
                for circle, (centre, _size) in zip(circles, tags, strict=True):
                    assert circle.shape == "circle" and circle.centre() == pytest.approx(centre)
                    x0, y0, x1, y1 = circle.bounds()
                    assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, circle
                    assert circle.points[2] >= 20, circle  # 40 px across: 20 on a phone's 480-px picture
                for a, b in itertools.combinations(circles, 2):
                    assert math.dist(a.points[:2], b.points[:2]) >= a.points[2] + b.points[2] - 1e-9
                seen += len(circles)
    assert seen
