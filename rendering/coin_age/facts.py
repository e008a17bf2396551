"""What the picture and the bot's captions both state about a view, worked out once from the view alone: what
the player to act can really still do (not merely what the toss allowed), and the players in the result's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.coin_age.model import CoinAgeView
from rules.places import by_place


@dataclass(frozen=True, slots=True)
class Possible:
    """What the player to act can still do this turn, besides ending it.

    ``places`` coins can be placed; with ``can_pay`` the player may instead pay a coin to the opponent, and
    then place ``places_after_paying`` (the two are either/or: paying is what earns the extra placement).
    """

    places: int = 0
    can_pay: bool = False
    places_after_paying: int = 0
    move: bool = False
    capture: bool = False

    @property
    def only_end(self) -> bool:
        return not (self.places or self.can_pay or self.move or self.capture)


def possible(view: CoinAgeView) -> Possible:
    """The allowances of the turn, cut to what the board and the hand let the player do now."""
    turn = view.turn
    if turn is None or view.finished:
        return Possible()
    tops = [space.stack[-1].size if space.stack else None for space in view.spaces]
    favourable = [c.size for c in turn.hand if c.side == turn.seat]
    fitting = [size for size in favourable if any(top is None or top > size for top in tops)]
    places = min(turn.places_left, len(fitting))
    can_pay = turn.can_pay and bool(favourable)
    after = min(turn.places_left + 1, len(favourable) - 1, len(fitting)) if can_pay else 0
    empty = {space.id for space in view.spaces if not space.stack}
    move = turn.moves_left > 0 and any(s.stack and empty.intersection(s.neighbours) for s in view.spaces)
    capture = turn.captures_left > 0 and any(s.stack for s in view.spaces)
    return Possible(places, can_pay, after, move, capture)


def ranking(view: CoinAgeView) -> tuple[tuple[int, int], ...]:
    """(place, seat) from best to worst, tied seats sharing a place: the winners first (a tie-break decides
    between equal totals), then by total."""
    return by_place([(seat in view.winners, s.total, s.tiebreak) for seat, s in enumerate(view.scores)])
