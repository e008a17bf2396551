"""Every picture the bot sends, read on a phone: Telegram shows a picture about 480 px wide in a chat.

For every picture kind of every game (the group's board at every player count and at several moments, each
menu level's preview, every private picture, the finished board), scaled to 480 px wide:
- no text is smaller than 10 px: the cap height of the smallest font drawn (Vazirmatn's "H") times 480 over
  the picture's width;
- the picture is no wider than 1.4 times its height (a wide picture is a short one on a phone).
The names are long ones and computer players', as players have them.
"""

from __future__ import annotations

import functools
import importlib
import io
import pkgutil
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

import rendering
from bot.games import PRESENTERS
from bot.messages import keyboards
from rendering.text import font, sizes_drawn
from rules import GAMES

PHONE_WIDTH = 480
SMALLEST_TEXT = 10.0  # px of cap height at PHONE_WIDTH
WIDEST = 1.4  # width over height
NAMES = ["آرمان دلاوری‌نژاد خراسانی", "رایانه ۲ (متوسط)", "لیلا", "نگار", "نیما"]
MOMENTS = (0.0, 0.5, 1.0)  # how far into a seeded random game a picture is taken (1.0: finished)
MENU_LEVELS = 3  # menu levels previewed at each moment: the first, and the first of the levels under it


@dataclass(frozen=True)
class Shot:
    kind: str  # board, menu:<prefix>, hand <seat>
    players: int
    moment: float
    picture: bytes
    sizes: tuple[float, ...]  # every text size drawn


@functools.cache
def cap_height(size: float) -> int:
    """Vazirmatn's cap height at ``size`` px: the ink height of "H"."""
    box = font(round(size)).getbbox("H")
    return int(box[3] - box[1])


def _clear_caches() -> None:
    """Forget every cached layer, sprite and font of the pictures, so their text is drawn (and seen) again."""
    for info in pkgutil.walk_packages(rendering.__path__, "rendering."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def _positions(game_id: str, players: int) -> Iterator[tuple[float, Any]]:
    """A seeded random game's state at each of ``MOMENTS``."""
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}/{players}")
    state = game.setup(players, seed=players)
    history = [state]
    while seats := game.to_act(state):
        state = game.apply(state, seats[0], rng.choice(game.legal_actions(state, seats[0]))).state
        history.append(state)
    for moment in MOMENTS:
        yield moment, history[min(len(history) - 1, round(moment * (len(history) - 1)))]


def _taken(kind: str, players: int, moment: float, draw: Any) -> Shot:
    _clear_caches()
    with sizes_drawn() as sizes:
        picture = draw()[0]
    return Shot(kind, players, moment, picture, tuple(sizes))


def shots(game_id: str) -> Iterator[Shot]:
    game, presenter = GAMES[game_id], PRESENTERS[game_id]
    for players in range(game.min_players, game.max_players + 1):
        names = NAMES[:players]
        for moment, state in _positions(game_id, players):
            view = game.view(state, None)
            yield _taken("board", players, moment, functools.partial(presenter.picture, view, names))
            seats = game.to_act(state)
            if presenter.previews and seats:
                codes = [game.encode(a) for a in game.legal_actions(state, seats[0])]
                top = keyboards.menu(game_id, codes).top()
                levels = dict.fromkeys([top, *(c.rsplit(".", 1)[0] for c in codes if "." in c)])
                for prefix in list(levels)[:MENU_LEVELS]:
                    draw = functools.partial(presenter.picture, view, names, prefix)
                    yield _taken(f"menu {prefix!r}", players, moment, draw)
            if presenter.hands is not None:
                for seat in range(players):
                    draw = functools.partial(presenter.hands.picture, game.view(state, seat), names)
                    yield _taken(f"hand {seat}", players, moment, draw)


@pytest.mark.parametrize("game_id", sorted(PRESENTERS))
def test_every_picture_is_readable_at_a_phone_s_width(game_id: str) -> None:
    wrong: list[str] = []
    for shot in shots(game_id):
        width, height = Image.open(io.BytesIO(shot.picture)).size
        where = f"{shot.kind}, {shot.players} players, at {shot.moment:.0%}: {width}×{height}"
        if width > WIDEST * height:
            wrong.append(f"{where}: {width / height:.2f} times as wide as high")
        if shot.sizes:
            smallest = min(shot.sizes)
            shown = cap_height(smallest) * PHONE_WIDTH / width
            if shown < SMALLEST_TEXT:
                wrong.append(f"{where}: text of {smallest:g} px shows {shown:.1f} px high at {PHONE_WIDTH} px")
    assert not wrong, "\n".join(dict.fromkeys(wrong))


def test_the_check_sees_small_text() -> None:
    """The measure itself: the sizes of the text a picture draws are seen, and small text on a wide picture
    fails."""
    shot = next(shots("coin_age"))
    assert shot.sizes and min(shot.sizes) > 0
    assert cap_height(20) * PHONE_WIDTH / 1280 < SMALLEST_TEXT <= cap_height(30) * PHONE_WIDTH / 800
