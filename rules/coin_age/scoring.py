"""Scoring, used for the final result and for the running score shown on the board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.coin_age.board import BOARD
from rules.coin_age.model import Coin, side_of, size_of


@dataclass(frozen=True, slots=True)
class Score:
    board: int
    unplaced: int
    tiebreak: int

    @property
    def total(self) -> int:
        return self.board + self.unplaced


@dataclass(frozen=True, slots=True)
class RegionControl:
    controlled: tuple[int, int]
    doubled: int | None


def region_control(stacks: Sequence[Sequence[Coin]]) -> dict[str, RegionControl]:
    """Per region: how many spaces each side controls, and whose points there are doubled."""
    counts: dict[str, list[int]] = {r.id: [0, 0] for r in BOARD.regions}
    for space, stack in zip(BOARD.spaces, stacks, strict=True):
        if stack:
            counts[space.region][side_of(stack[-1])] += 1
    result: dict[str, RegionControl] = {}
    for region, (a, b) in counts.items():
        doubled = 0 if a > b else 1 if b > a else None
        result[region] = RegionControl((a, b), doubled)
    return result


def score(stacks: Sequence[Sequence[Coin]], unplaced: Sequence[Sequence[int]]) -> tuple[Score, Score]:
    """Top coins score their value to the side they show, doubled in a colour the side controls more of;
    +1 per coin not on the board; the tie-break is the value of those coins."""
    control = region_control(stacks)
    board = [0, 0]
    for space, stack in zip(BOARD.spaces, stacks, strict=True):
        if stack:
            top = stack[-1]
            side = side_of(top)
            factor = 2 if control[space.region].doubled == side else 1
            board[side] += (size_of(top) + 1) * factor
    scores = tuple(
        Score(
            board=board[seat],
            unplaced=sum(unplaced[seat]),
            tiebreak=sum(count * (size + 1) for size, count in enumerate(unplaced[seat])),
        )
        for seat in (0, 1)
    )
    return scores[0], scores[1]


def winners(scores: tuple[Score, Score]) -> tuple[int, ...]:
    """Higher total wins; tie: higher value of unplaced coins; still tied: both share the win."""
    a, b = scores
    key_a, key_b = (a.total, a.tiebreak), (b.total, b.tiebreak)
    if key_a > key_b:
        return (0,)
    if key_b > key_a:
        return (1,)
    return (0, 1)
