"""Strength of the battle lines and the victory test: pure functions of the cards and the map."""

from __future__ import annotations

from collections.abc import Sequence

from rules.condottiere.data import BISHOP, COURTESAN, DRUMMER, HEROINE, KIND_OF, SPRING, VALUE, WINTER
from rules.condottiere.model import ADJACENT_TO_WIN, NONE, PROVINCES_TO_WIN

_SPRING_BONUS = 3


def strengths(lines: Sequence[Sequence[int]], season: int) -> tuple[int, ...]:
    """Each line's strength, effects in the seed's order (the Bishop has already removed its cards):
    Winter (every mercenary counts 1), Drummer (x2 for its line, once), Spring (+3 to every mercenary whose
    strength so far is the highest in play, in every line), Courtesan (+1 each), Heroine (+10 each, untouched).
    """
    season_kind = KIND_OF[season] if season != NONE else NONE
    winter = season_kind == WINTER
    mercenaries: list[list[int]] = []
    extras: list[int] = []
    for line in lines:
        kinds = [KIND_OF[c] for c in line]
        factor = 2 if DRUMMER in kinds else 1
        mercenaries.append([(1 if winter else VALUE[k]) * factor for k in kinds if k < BISHOP])
        extras.append(kinds.count(COURTESAN) * VALUE[COURTESAN] + kinds.count(HEROINE) * VALUE[HEROINE])
    if season_kind == SPRING:
        top = max((v for values in mercenaries for v in values), default=0)
        mercenaries = [[v + _SPRING_BONUS if v == top else v for v in values] for values in mercenaries]
    return tuple(sum(values) + extra for values, extra in zip(mercenaries, extras, strict=True))


def courtesans(lines: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(sum(1 for c in line if KIND_OF[c] == COURTESAN) for line in lines)


def victorious(owners: Sequence[int], seat: int, neighbours: Sequence[Sequence[int]]) -> bool:
    """Five provinces anywhere, or three adjacent ones: three connected provinces always include one that
    borders the other two, so it is enough to find a held province with two held neighbours."""
    held = [i for i, owner in enumerate(owners) if owner == seat]
    if len(held) >= PROVINCES_TO_WIN:
        return True
    need = ADJACENT_TO_WIN - 1
    return any(sum(1 for j in neighbours[i] if owners[j] == seat) >= need for i in held)
