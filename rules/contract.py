"""The engine contract every game implements, so the bot, tests and benchmarks treat all games alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

State = TypeVar("State", bound=BaseModel)
Action = TypeVar("Action")
Options = TypeVar("Options", bound=BaseModel)


class Event(BaseModel):
    """Something that happened in a game, as data; the bot puts it into words.

    ``audience`` is None for an event everyone may see, or the single seat allowed to see it; an event that
    reveals a secret to one seat comes with a public twin for the others.
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    audience: int | None = None


class Outcome(BaseModel):
    """Final scores per seat and the winning seats (several on a shared win, all on a draw)."""

    model_config = ConfigDict(frozen=True)

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    detail: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Step(Generic[State]):
    """The result of applying an action: the new state and what happened, in order."""

    state: State
    events: tuple[Event, ...] = ()


class IllegalAction(Exception):
    """An action the rules do not allow in this state; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """The seat is not one whose move is awaited."""


class GameOver(IllegalAction):
    """The game has ended; no action applies."""


class MalformedAction(IllegalAction):
    """The action's text is not an action of this game."""


class RuleViolation(IllegalAction):
    """The action is well formed but breaks a rule in this position."""


class Game(Protocol[State, Action, Options]):
    """One board game: pure functions from state and action to the next state."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @property
    def options_model(self) -> type[Options]: ...

    @property
    def state_model(self) -> type[State]: ...

    def setup(self, players: int, seed: int, options: Options | None = None) -> State: ...

    def to_act(self, state: State) -> tuple[int, ...]: ...

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> Step[State]: ...

    def view(self, state: State, seat: int | None) -> BaseModel: ...

    def outcome(self, state: State) -> Outcome | None: ...

    def encode(self, action: Action) -> str: ...

    def decode(self, text: str) -> Action: ...

    def default_action(self, state: State, seat: int) -> Action:
        """The move taken for a seat whose time ran out (documented per game)."""
        ...

    def determinize(self, state: State, seat: int, seed: int) -> State:
        """A state ``seat`` cannot tell from ``state``: everything hidden from it (other hands, deck orders,
        tiles still to draw, the generator's state) drawn anew from ``seed`` (a ``rules.rng`` generator
        state), consistent with what it has seen. ``view(result, seat) == view(state, seat)``; the computer
        players (``ai``) search such samples."""
        ...

    def conserved(self, state: State) -> dict[str, int]:
        """Quantities that never change during a game (cards, coins, tiles), for the conformance tests."""
        ...

    def secrets(self, state: State, seat: int | None) -> tuple[str, ...]:
        """Strings that must not appear in ``view(state, seat)``: other hands, deck order, the RNG."""
        ...
