"""Conformance: every registered game honours the engine contract (DESIGN.md, "Tests, in layers", 1).

Only the contract is used here, never a game's own types, so a game joins these tests by registering in
``rules.GAMES``. Each game is played to the end from many seeds, for every player count, with its default
options (30 seeds, fewer for long games: see STEP_BUDGET) and with each boolean option switched (10), choosing
uniformly among the legal actions of a seat to act; the checks then run over the recorded traces, which are
played once and cached.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from rules import GAMES, Event, Game, GameOver, IllegalAction, MalformedAction, NotYourTurn, Outcome

SEEDS = range(30)  # for the default options; each other option variant gets the first VARIANT_SEEDS
VARIANT_SEEDS = 10
# Long games (Carcassonne's 144 decisions with big views, six-player رکب) would make this suite take minutes:
# a case stops adding seeds once its games hold this many actions, but always plays at least MIN_SEEDS.
STEP_BUDGET = 1500
MIN_SEEDS = 8
ACTIONS_APPLIED_PER_STEP = 24  # a seeded sample when a position has more legal actions (placements)
MAX_STEPS = 10_000
GARBAGE = ("", " ", "?", "not an action", "x" * 41, "..", "\x00", "☃", "شیر", "-1", "{}", "p.Z.Q9.extra")


def _option_variants(game: Game[Any, Any, Any]) -> list[tuple[str, BaseModel | None]]:
    """The default options, then each boolean option turned away from its default."""
    variants: list[tuple[str, BaseModel | None]] = [("default", None)]
    model = game.options_model
    for name, field in model.model_fields.items():
        if field.annotation is bool:
            variants.append((name, model(**{name: not field.default})))
    return variants


CASES = [
    pytest.param(game_id, players, name, id=f"{game_id}-{players}p-{name}")
    for game_id, game in GAMES.items()
    for players in range(game.min_players, game.max_players + 1)
    for name, _ in _option_variants(game)
]


@dataclass(frozen=True)
class Trace:
    """One seeded random game: the states (setup first), the (seat, action) taken and the events of each,
    and for every state its views (public under None, then per seat)."""

    seed: int
    states: tuple[Any, ...]
    moves: tuple[tuple[int, Any], ...]
    events: tuple[tuple[Event, ...], ...]
    views: tuple[dict[int | None, BaseModel], ...]


def _options(game_id: str, variant: str) -> BaseModel | None:
    return dict(_option_variants(GAMES[game_id]))[variant]


@functools.cache
def traces(game_id: str, players: int, variant: str) -> tuple[Trace, ...]:
    """Play one random game per seed to the end (asserting that it ends) and record it."""
    game = GAMES[game_id]
    options = _options(game_id, variant)
    out: list[Trace] = []
    budget = STEP_BUDGET if variant == "default" else STEP_BUDGET // 3
    for seed in SEEDS if variant == "default" else SEEDS[:VARIANT_SEEDS]:
        if len(out) >= MIN_SEEDS and sum(len(t.moves) for t in out) >= budget:
            break
        rnd = random.Random(seed)
        state = game.setup(players, seed, options)
        states: list[Any] = [state]
        moves: list[tuple[int, Any]] = []
        events: list[tuple[Event, ...]] = []
        while game.to_act(state):
            assert len(moves) < MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} actions"
            seat = rnd.choice(game.to_act(state))
            action = rnd.choice(list(game.legal_actions(state, seat)))
            step = game.apply(state, seat, action)
            state = step.state
            states.append(state)
            moves.append((seat, action))
            events.append(step.events)
        views = tuple({seat: game.view(s, seat) for seat in (None, *range(players))} for s in states)
        out.append(Trace(seed, tuple(states), tuple(moves), tuple(events), views))
    return tuple(out)


def _running(trace: Trace) -> tuple[Any, ...]:
    return trace.states[:-1]


def _dump(model: BaseModel) -> str:
    return model.model_dump_json()


def _round_trips(model: BaseModel) -> bool:
    return type(model).model_validate_json(model.model_dump_json()) == model


def _seats(players: int) -> range:
    return range(players)


# -- Playing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_random_games_end(game_id: str, players: int, variant: str) -> None:
    """Every seeded random game ends within a bounded number of actions, and only at its last state."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        assert all(game.to_act(s) for s in _running(trace)), trace.seed
        assert game.to_act(trace.states[-1]) == (), trace.seed


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_to_act_seats_have_legal_actions(game_id: str, players: int, variant: str) -> None:
    """A running game awaits valid, distinct seats, each with at least one legal action."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state in _running(trace):
            to_act = game.to_act(state)
            assert len(set(to_act)) == len(to_act)
            assert set(to_act) <= set(_seats(players))
            for seat in to_act:
                assert list(game.legal_actions(state, seat)), (trace.seed, seat)


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_every_legal_action_applies_without_mutating(game_id: str, players: int, variant: str) -> None:
    """Every legal action of every seat to act applies without raising and leaves its input unchanged."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state in _running(trace):
            before = _dump(state)
            for seat in game.to_act(state):
                actions = list(game.legal_actions(state, seat))
                if len(actions) > ACTIONS_APPLIED_PER_STEP:
                    actions = random.Random(trace.seed).sample(actions, ACTIONS_APPLIED_PER_STEP)
                for action in actions:
                    step = game.apply(state, seat, action)
                    assert isinstance(step.state, game.state_model)
                    assert all(isinstance(e, Event) for e in step.events)
                    assert _dump(state) == before, (trace.seed, seat, action)


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_events_are_data(game_id: str, players: int, variant: str) -> None:
    """Events round-trip through JSON and are addressed to everyone or to one valid seat."""
    for trace in traces(game_id, players, variant):
        for events in trace.events:
            for event in events:
                assert _round_trips(event), event
                assert event.audience is None or event.audience in _seats(players)
                json.loads(event.model_dump_json())


# -- Data -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_states_round_trip_through_json(game_id: str, players: int, variant: str) -> None:
    """Every state, set-up and final included, round-trips through JSON exactly."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state in trace.states:
            assert _round_trips(state), trace.seed
            assert game.state_model.model_validate_json(state.model_dump_json()) == state


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_views_round_trip_through_json(game_id: str, players: int, variant: str) -> None:
    """The public view and every seat's view round-trip through JSON exactly, at every step."""
    for trace in traces(game_id, players, variant):
        for views in trace.views:
            for seat, view in views.items():
                assert _round_trips(view), (trace.seed, seat)


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_conserved_quantities_hold(game_id: str, players: int, variant: str) -> None:
    """``conserved(state)`` keeps its set-up value through the whole game."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        start = game.conserved(trace.states[0])
        assert start, "a game should conserve something"
        for state in trace.states:
            assert game.conserved(state) == start, trace.seed


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_views_keep_secrets(game_id: str, players: int, variant: str) -> None:
    """No secret of a seat appears in that seat's view nor in the public view; nor the public secrets."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state, views in zip(trace.states, trace.views, strict=True):
            public = _dump(views[None])
            for secret in game.secrets(state, None):
                assert secret and secret not in public, (trace.seed, secret)
            for seat in _seats(players):
                own = _dump(views[seat])
                for secret in game.secrets(state, seat):
                    assert secret, "an empty secret would match every view"
                    assert secret not in own, (trace.seed, seat, secret)
                    assert secret not in public, (trace.seed, seat, secret)


# -- Text form of actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_actions_encode_to_short_ascii_and_decode_back(game_id: str, players: int, variant: str) -> None:
    """Every legal action encodes to ASCII of at most 40 bytes, and decoding gives the action back."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state in _running(trace):
            for seat in game.to_act(state):
                for action in game.legal_actions(state, seat):
                    text = game.encode(action)
                    assert text.isascii() and 0 < len(text.encode()) <= 40, text
                    assert game.decode(text) == action, text


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("text", GARBAGE)
def test_decode_rejects_garbage(game_id: str, text: str) -> None:
    """Text that is no action of the game raises MalformedAction (an IllegalAction)."""
    with pytest.raises(MalformedAction):
        GAMES[game_id].decode(text)
    assert issubclass(MalformedAction, IllegalAction)


# -- Turns and the end ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_seats_not_to_act_are_refused(game_id: str, players: int, variant: str) -> None:
    """A seat not awaited has no legal actions, and applying any action for it raises NotYourTurn."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state in _running(trace):
            to_act = game.to_act(state)
            some_action = next(iter(game.legal_actions(state, to_act[0])))
            for seat in _seats(players):
                if seat in to_act:
                    continue
                assert not list(game.legal_actions(state, seat)), (trace.seed, seat)
                with pytest.raises(NotYourTurn):
                    game.apply(state, seat, some_action)


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_outcome_only_at_the_end(game_id: str, players: int, variant: str) -> None:
    """Outcome is None while the game runs; at the end it scores every seat and names winners among them."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        for state in _running(trace):
            assert game.outcome(state) is None, trace.seed
        outcome = game.outcome(trace.states[-1])
        assert isinstance(outcome, Outcome), trace.seed
        assert len(outcome.scores) == players
        assert outcome.winners, trace.seed
        assert len(set(outcome.winners)) == len(outcome.winners)
        assert set(outcome.winners) <= set(_seats(players))
        assert type(outcome).model_validate_json(outcome.model_dump_json()) == outcome


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_finished_game_refuses_everything(game_id: str, players: int, variant: str) -> None:
    """After the end nobody is awaited, nobody has legal actions and apply raises GameOver for every seat."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        final = trace.states[-1]
        before = _dump(final)
        assert game.to_act(final) == ()
        for seat in _seats(players):
            assert not list(game.legal_actions(final, seat))
            for _, action in trace.moves[-3:]:
                with pytest.raises(GameOver):
                    game.apply(final, seat, action)
        assert _dump(final) == before


# -- Determinism and time-outs ----------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_replays_are_deterministic(game_id: str, players: int, variant: str) -> None:
    """The same seed and the same actions give identical states and events, step by step."""
    game = GAMES[game_id]
    options = _options(game_id, variant)
    for trace in traces(game_id, players, variant):
        state = game.setup(players, trace.seed, options)
        assert state == trace.states[0]
        for (seat, action), expected, events in zip(trace.moves, trace.states[1:], trace.events, strict=True):
            step = game.apply(state, seat, action)
            assert step.state == expected, trace.seed
            assert step.events == events, trace.seed
            state = step.state


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_seeds_matter(game_id: str, players: int, variant: str) -> None:
    """Different seeds give different games (the seed reaches the game's randomness)."""
    game = GAMES[game_id]
    options = _options(game_id, variant)
    dumps = {_dump(game.setup(players, seed, options)) for seed in SEEDS}
    assert len(dumps) > 1


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_default_action_is_legal(game_id: str, players: int, variant: str) -> None:
    """The time-out action of a seat to act is one of its legal actions and applies, at random points."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant):
        rnd = random.Random(trace.seed)
        running = _running(trace)
        for state in rnd.sample(running, min(5, len(running))):
            for seat in game.to_act(state):
                action = game.default_action(state, seat)
                assert action in list(game.legal_actions(state, seat)), (trace.seed, seat, action)
                game.apply(state, seat, action)


# -- Determinization (the computer players' samples) -------------------------------------------------

DETERMINIZED_PER_TRACE = 24  # states of a trace checked, spread over the game
SAMPLES = 12


def _spread(trace: Trace) -> list[tuple[Any, dict[int | None, BaseModel]]]:
    pairs = list(zip(_running(trace), trace.views, strict=False))
    step = max(1, len(pairs) // DETERMINIZED_PER_TRACE)
    return pairs[::step]


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_a_determinized_state_looks_the_same_to_its_seat(game_id: str, players: int, variant: str) -> None:
    """``determinize(state, seat, seed)`` is a state the seat cannot tell apart from the real one: the same
    view, the same seats to act and the same own choices; what is conserved still holds; it is a valid state
    and the same seed gives the same sample."""
    game = GAMES[game_id]
    for trace in traces(game_id, players, variant)[:3]:
        for state, views in _spread(trace):
            for seat in _seats(players):
                sample = game.determinize(state, seat, trace.seed * 7919 + seat)
                assert game.view(sample, seat) == views[seat], (trace.seed, seat)
                assert game.to_act(sample) == game.to_act(state)
                assert game.conserved(sample) == game.conserved(state)
                assert _round_trips(sample)
                assert sample == game.determinize(state, seat, trace.seed * 7919 + seat)
                if seat in game.to_act(state):
                    mine = [game.encode(a) for a in game.legal_actions(state, seat)]
                    assert [game.encode(a) for a in game.legal_actions(sample, seat)] == mine


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_determinize_draws_the_hidden_parts_anew(game_id: str, players: int, variant: str) -> None:
    """Over many samples the hidden parts really vary: the future of chance always, and the hidden cards or
    tiles (what ``secrets`` names beyond the generator) whenever the game has any hidden."""
    game = GAMES[game_id]
    hidden_seen = varied = False
    for trace in traces(game_id, players, variant)[:3]:
        for state, _ in _spread(trace):
            for seat in _seats(players):
                samples = [game.determinize(state, seat, seed) for seed in range(SAMPLES)]
                assert len({s.model_dump_json() for s in samples}) > 1, (trace.seed, seat)
                hidden = {game.secrets(s, seat)[1:] for s in samples}
                if game.secrets(state, seat)[1:]:
                    hidden_seen = True
                    varied = varied or len(hidden) > 1
    assert varied or not hidden_seen, "hidden cards are never dealt differently"
