"""Helpers for the Coin Age scenario tests: build a position in a readable notation and play text actions.

Notation: a coin is its size letter and the seat whose side it shows, "C0" = a C showing شیر (seat 0),
"A1" = an A showing خط (seat 1). A stack is written bottom to top, "D1 A0". Spaces are the map's ids
("A1".."C3"); actions are the engine's text form ("p.C.B2", "m.B2.B3", "c.A1", "y.A", "x").
"""

from __future__ import annotations

from collections.abc import Mapping

from play_support import legal_texts, play_texts

from rules import Event, Step
from rules.coin_age import CoinAge, CoinAgeOptions, CoinAgeState
from rules.coin_age.board import BOARD
from rules.coin_age.model import SIZES, Coin, coin, side_of, size_of

GAME = CoinAge()
FULL = (4, 3, 2, 1)  # a player's starting supply, A to D
EMPTY = (0, 0, 0, 0)

# The rulebook's table: favourable coins -> (placements, moves, captures, may pay one coin).
TABLE: dict[int, tuple[int, int, int, bool]] = {
    4: (2, 0, 0, True),
    3: (2, 0, 0, False),
    2: (1, 0, 0, False),
    1: (1, 1, 0, False),
    0: (0, 1, 1, False),
}


def coins(text: str) -> tuple[Coin, ...]:
    """ "D1 A0" -> the coins, in the order written."""
    return tuple(coin(SIZES.index(token[0]), int(token[1])) for token in text.split())


def notation(cs: tuple[Coin, ...]) -> str:
    return " ".join(f"{SIZES[size_of(c)]}{side_of(c)}" for c in cs)


def space(space_id: str) -> int:
    return BOARD.index_of[space_id]


def make_state(
    *,
    board: Mapping[str, str] | None = None,
    supply: tuple[tuple[int, ...], tuple[int, ...]] = (FULL, FULL),
    toss: str = "",
    turn: int = 0,
    hand: str | None = None,
    allowances: tuple[int, int, int, bool] | None = None,
    options: CoinAgeOptions | None = None,
    rng: int = 12345,
    turn_number: int = 1,
) -> CoinAgeState:
    """A position in the middle of ``turn``'s turn: ``toss`` is what fell (its coins are out of ``supply``,
    which is what is left); the hand defaults to the whole toss and the allowances to the rulebook's table
    for the toss's favourable coins (with the option, two favourable place two)."""
    options = options or CoinAgeOptions()
    stacks: list[tuple[Coin, ...]] = [()] * BOARD.size
    for space_id, text in (board or {}).items():
        stacks[space(space_id)] = coins(text)
    tossed = coins(toss)
    if allowances is None:
        favourable = sum(1 for c in tossed if side_of(c) == turn)
        allowances = TABLE[favourable]
        if favourable == 2 and options.two_favourable_place_two:
            allowances = (2, 0, 0, False)
    places, moves, captures, can_pay = allowances
    return CoinAgeState(
        options=options,
        rng=rng,
        supply=supply,
        stacks=tuple(stacks),
        turn=turn,
        turn_number=turn_number,
        toss=tossed,
        hand=tossed if hand is None else coins(hand),
        places_left=places,
        moves_left=moves,
        captures_left=captures,
        can_pay=can_pay,
    )


def play(state: CoinAgeState, *texts: str) -> Step[CoinAgeState]:
    """Apply text actions in order, each for the seat whose turn it is; return the final state with the
    events of all the actions, in order."""
    return play_texts(GAME, state, *texts)


def board_of(state: CoinAgeState) -> dict[str, str]:
    """The occupied spaces, in notation."""
    return {BOARD.spaces[i].id: notation(stack) for i, stack in enumerate(state.stacks) if stack}


def legal(state: CoinAgeState, seat: int | None = None) -> set[str]:
    """The legal actions in text form."""
    return legal_texts(GAME, state, seat)


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]


def toss_for(
    favourable: int,
    *,
    seat: int = 0,
    board: Mapping[str, str] | None = None,
    supply: tuple[tuple[int, ...], tuple[int, ...]] = (FULL, FULL),
    options: CoinAgeOptions | None = None,
) -> Step[CoinAgeState]:
    """The step in which the other seat ends its turn and ``seat``'s real (seeded) toss shows
    ``favourable`` coins: searched over generator states, so the engine's own toss is under test."""
    for rng in range(1, 5000):
        state = make_state(board=board, supply=supply, turn=1 - seat, toss="", options=options, rng=rng)
        step = play(state, "x")
        tossed = step.events[1]
        if step.state.turn == seat and getattr(tossed, "favourable", None) == favourable:
            return step
    raise AssertionError(f"no generator state gives {favourable} favourable coins")
