"""Frozen: each game's knowledge (``ai/games/*.py``) as it was on 3 December 2026, issue 28's baseline, in one
module (the comments that explained each figure stay with the live modules' history)."""

from __future__ import annotations

from collections.abc import Mapping

from ai.frozen.knowledge import Knowledge
from rules.carcassonne.board import board_of
from rules.carcassonne.model import CarcassonneState
from rules.carcassonne.scoring import final
from rules.coin_age.model import CoinAgeState
from rules.coin_age.scoring import score
from rules.condottiere.model import CondottiereState
from rules.condottiere.scoring import strengths
from rules.conqueror.model import ConquerorState
from rules.splendor.model import SplendorState


def _carcassonne(state: CarcassonneState) -> tuple[float, ...]:
    totals = [float(sum(p)) for p in state.points]
    for scored in final(board_of(state.placed), state.meeples, state.players, state.options.farmers):
        for seat in scored.seats:
            totals[seat] += 0.8 * scored.points
    return tuple(totals)


def _coin_age(state: CoinAgeState) -> tuple[float, float]:
    a, b = score(state.stacks, state.supply)
    return float(a.total), float(b.total)


def _condottiere(state: CondottiereState) -> tuple[float, ...]:
    seats = range(state.players)
    power = strengths(state.lines, state.season)
    best = max(power) if power else 0
    leading = [0.5 if best and power[s] == best else 0.0 for s in seats]
    if state.players == 2:
        return tuple(2.0 * state.wins[s] + leading[s] + 0.05 * len(state.hands[s]) for s in seats)
    return tuple(2.0 * state.owners.count(s) + leading[s] + 0.05 * len(state.hands[s]) for s in seats)


def _conqueror(state: ConquerorState) -> tuple[float, ...]:
    castles = [state.castles.count(seat) for seat in (0, 1)]
    on_board = [sum(state.pieces[seat]) for seat in (0, 1)]
    return tuple(state.scores[s] + 0.5 * castles[s] + 0.1 * on_board[s] for s in (0, 1))


def _splendor(state: SplendorState) -> tuple[float, ...]:
    return tuple(
        state.points[s] + 0.6 * sum(state.bonuses[s]) + 0.15 * sum(state.tokens[s]) + 0.2 * len(state.reserved[s])
        for s in range(len(state.points))
    )


KNOWLEDGE: Mapping[str, Knowledge] = {
    "coin_age": Knowledge(standing=_coin_age, spread=4.0, playout_depth=8),
    "conqueror": Knowledge(standing=_conqueror, spread=2.0, playout_depth=30, budget=0.42),
    "condottiere": Knowledge(standing=_condottiere, spread=1.5, playout_depth=30, budget=0.9, crowd=0.2),
    "splendor": Knowledge(standing=_splendor, spread=3.0, playout_depth=16),
    "carcassonne": Knowledge(standing=_carcassonne, spread=6.0, playout_depth=4, budget=0.25, candidates=6),
}
