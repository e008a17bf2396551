"""A judgement learned from self-play: a weight per feature of a seat's position, a set per stage of the game.

A game's hand-written standing weighs a few terms with weights chosen by trying; the same terms, and more,
can be weighed as self-play games say they should. Each seat's standing is weights · features, and its share
of the win their softmax (``Knowledge.spread`` 1): a conditional logit, fitted to who won seeded games of a
level against itself by ``bench/value_fit.py``, which writes the weights into ``ai/games/<game>_value.json``.
The file ships with the package and is read once, at import; nothing else is read or written.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class Features:
    """What a game's learned judgement weighs: ``names``, and ``of(state)`` their values per seat in that
    order; ``stages`` weight sets, ``stage(state)`` the one that applies (a game's opening, middle and end
    ask for different weights); ``kept(state)``: whether self-play keeps the position to fit on (one a
    seat's real choice follows, not a forced step)."""

    game_id: str
    names: tuple[str, ...]
    of: Callable[[Any], list[list[float]]]
    stages: int
    stage: Callable[[Any], int]
    kept: Callable[[Any], bool]

    @property
    def file(self) -> str:
        return f"{self.game_id}_value.json"


Weights = tuple[tuple[float, ...], ...]  # per stage, per feature


def stored_weights(features: Features) -> Weights:
    """The fitted weights the package ships for the game, checked against what they were fitted on."""
    stored = json.loads(resources.files("ai.games").joinpath(features.file).read_text(encoding="utf-8"))
    fitted_on = tuple(stored["features"]), len(stored["weights"])
    assert fitted_on == (features.names, features.stages), f"{features.file}: fit again (bench/value_fit.py)"
    return tuple(tuple(float(w) for w in weights) for weights in stored["weights"])


def linear(features: Features, weights: Weights) -> Callable[[Any], tuple[float, ...]]:
    """The standing these weights give: per seat, the stage's weights · its features."""

    def standing(state: Any) -> tuple[float, ...]:
        chosen = weights[features.stage(state)]
        return tuple(sum(w * x for w, x in zip(chosen, row, strict=True)) for row in features.of(state))

    return standing
