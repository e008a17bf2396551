"""Text-action helpers shared by the games' scenario tests: play a sequence, list what is legal."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from rules import Event, Game, Step

S = TypeVar("S", bound=BaseModel)


def play_texts(game: Game[S, Any, Any], state: S, *texts: str) -> Step[S]:
    """Apply text actions in order, each for the one seat awaited (seat 0 once the game is over, to see it
    refused); the final state and all the events."""
    assert texts
    events: list[Event] = []
    for text in texts:
        awaited = game.to_act(state)
        assert len(awaited) <= 1, awaited
        seat = awaited[0] if awaited else 0
        step = game.apply(state, seat, game.decode(text))
        state = step.state
        events.extend(step.events)
    return Step(state, tuple(events))


def legal_texts(game: Game[S, Any, Any], state: S, seat: int | None = None) -> set[str]:
    """The legal actions of ``seat`` (default: the one seat awaited; none when the game is over) in text form."""
    if seat is None:
        awaited = game.to_act(state)
        if not awaited:
            return set()
        (seat,) = awaited
    return {game.encode(a) for a in game.legal_actions(state, seat)}
