"""The قلعه رودخان picture, made from the public view alone: ``render(view, names=…, pending=…)``.

Made for a phone (``layout``): the bar (whose turn, what to press), the board across the whole width, and the
band (what the turn needs). The landscape is drawn from the tile data (``geometry``), one cached sprite per
tile type, rotation and size, with the meeples in their seats' colours on their segments' spots. The board is
shown whole when it fits at a readable size, else as a closer view around the action with the whole board
small beside it. The current decision is marked so that the bot's buttons can name it: candidate positions
carry their numbers, the chosen position's legal rotations are drawn in the band with their degrees and their
free spots' letters, and a chosen placement lies on the board and, large, in the band with its spots'
letters; the bot's buttons use the same functions (``labels``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from rendering.carcassonne import labels
from rendering.carcassonne import layout as lay
from rendering.carcassonne.board import draw_board, draw_overview
from rendering.carcassonne.choice import Choice, Pending, resolve
from rendering.carcassonne.panel import draw_band, draw_bar
from rendering.carcassonne.theme import DEFAULT_THEME, CarcassonneTheme
from rendering.text import drawable, persian_digits
from rules.carcassonne.model import CarcassonneView

__all__ = ["DEFAULT_THEME", "CarcassonneTheme", "Pending", "layout", "render", "seat_names"]


def seat_names(players: int, names: Sequence[str] | None) -> tuple[str, ...]:
    """Display names, drawable; «بازیکن ۱» … for a seat without one."""
    given = list(names or ())
    out = []
    for seat in range(players):
        name = drawable(given[seat]) if seat < len(given) else ""
        out.append(name or persian_digits(labels.PLAYER.format(n=seat + 1)))
    return tuple(out)


def layout(view: CarcassonneView, pending: Pending | None = None) -> lay.Plan:
    """Where the picture of ``view`` puts the bar, the board, the overview and the band (for callers and tests
    that need a position's pixels: ``layout(view).board.centre(x, y)``)."""
    return _plan(view, resolve(view, pending))


def _plan(view: CarcassonneView, choice: Choice | None) -> lay.Plan:
    cells = [(t.x, t.y) for t in view.tiles]
    candidates = [(c.x, c.y) for c in view.candidates] if view.phase == "tile" else []
    if view.finished:
        stage = "finished"
    elif choice is not None:
        stage = "rotation" if choice.placement is None else "spot"
    elif view.phase == "tile" and candidates:
        stage = "place"
    else:
        stage = "turn"
    if choice is not None:
        focus = (choice.candidate.x, choice.candidate.y)
    elif view.last_tile is not None:
        focus = (view.last_tile.x, view.last_tile.y)
    else:
        focus = (0, 0)
    return lay.plan(
        cells + candidates,
        players=view.players,
        focus=focus,
        candidates=candidates if stage == "place" else [],
        stage=stage,
    )


def render(
    view: CarcassonneView,
    *,
    names: Sequence[str] | None = None,
    pending: Pending | None = None,
    theme: CarcassonneTheme = DEFAULT_THEME,
) -> Image.Image:
    """The bar, the board and the band as an RGB picture 960 px wide (about 750–1220 px tall). ``names`` are
    the seats' display names; ``pending`` is the current player's choice so far (ValueError if the view does
    not offer it)."""
    choice = resolve(view, pending)
    plan = _plan(view, choice)
    shown = seat_names(view.players, names)
    image = Image.new("RGB", (plan.width, plan.height), theme.table)
    draw_board(image, plan.board, view, choice, theme)
    if plan.overview is not None and plan.overview_box is not None:
        draw_overview(image, plan.overview_box, plan.overview, plan.board, view, choice, theme)
    draw_bar(image, plan, view, shown, choice, theme)
    draw_band(image, plan, view, shown, choice, theme)
    return image
