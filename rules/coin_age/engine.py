"""Coin Age (عصر سکه‌ها) as the Persian rulebook gives it, with RULES.md's decisions."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from rules import rng
from rules.coin_age.board import BOARD
from rules.coin_age.model import (
    SIZES,
    START_SUPPLY,
    Captured,
    Coin,
    CoinAction,
    CoinAgeOptions,
    CoinAgeState,
    CoinAgeView,
    CoinView,
    GameEnded,
    Moved,
    Paid,
    Placed,
    RegionView,
    ScoreView,
    SpaceView,
    Tossed,
    TurnEnded,
    TurnView,
    coin,
    side_of,
    size_of,
)
from rules.coin_age.scoring import region_control, score, winners
from rules.contract import (
    Event,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    RuleViolation,
    Step,
)
from rules.evolve import evolve

END = CoinAction("end")
T = TypeVar("T")

# Every action value built once: legal_actions hands out these shared (immutable) tuples.
_PLACE = tuple(tuple(CoinAction("place", size, i) for i in range(BOARD.size)) for size in range(len(SIZES)))
_MOVE = tuple(tuple(CoinAction("move", space=i, to=j) for j in range(BOARD.size)) for i in range(BOARD.size))
_CAPTURE = tuple(CoinAction("capture", space=i) for i in range(BOARD.size))
_PAY = tuple(CoinAction("pay", size=size) for size in range(len(SIZES)))


def allowance(favourable: int, options: CoinAgeOptions) -> tuple[int, int, int, bool]:
    """The rulebook's table: (places, moves, captures, may pay) for a number of favourable coins."""
    if favourable >= 4:
        return 2, 0, 0, True
    if favourable == 3:
        return 2, 0, 0, False
    if favourable == 2:
        return (2 if options.two_favourable_place_two else 1), 0, 0, False
    if favourable == 1:
        return 1, 1, 0, False
    return 0, 1, 1, False


def _unplaced(state: CoinAgeState) -> tuple[tuple[int, ...], ...]:
    """Each seat's coins off the board: its supply plus, for the seat in turn, the coins in its hand."""
    out = [list(s) for s in state.supply]
    for c in state.hand:
        out[state.turn][size_of(c)] += 1
    return tuple(tuple(s) for s in out)


class CoinAge:
    """Two players, 20 coins, ten spaces; see ``rules/coin_age/README.md`` for the rules in force."""

    id: ClassVar[str] = "coin_age"
    title: ClassVar[str] = "عصر سکه‌ها"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_model: ClassVar[type[CoinAgeOptions]] = CoinAgeOptions
    state_model: ClassVar[type[CoinAgeState]] = CoinAgeState

    # Set-up and turn flow ----------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: CoinAgeOptions | None = None) -> CoinAgeState:
        if players != 2:
            raise ValueError("Coin Age is a two-player game")
        state = CoinAgeState(
            options=options or CoinAgeOptions(),
            rng=rng.mix(seed),
            supply=(START_SUPPLY, START_SUPPLY),
            stacks=tuple(() for _ in BOARD.spaces),
            turn=0,
        )
        state, _ = self._start_turn(state, 0, state.turn_number)
        return state

    def _start_turn(self, state: CoinAgeState, seat: int, number: int) -> tuple[CoinAgeState, list[Event]]:
        """Take one coin of each size left in the supply and toss them all (seeded)."""
        supply = list(state.supply[seat])
        sizes = [s for s in range(len(SIZES)) if supply[s] > 0]
        for s in sizes:
            supply[s] -= 1
        seed, bits = rng.next_state(state.rng)
        toss = tuple(coin(s, (bits >> i) & 1) for i, s in enumerate(sizes))
        favourable = sum(1 for c in toss if side_of(c) == seat)
        places, moves, captures, can_pay = allowance(favourable, state.options)
        new_supply = tuple(tuple(supply) if i == seat else s for i, s in enumerate(state.supply))
        state = evolve(
            state,
            rng=seed,
            supply=new_supply,
            turn=seat,
            turn_number=number,
            toss=toss,
            hand=toss,
            places_left=places,
            moves_left=moves,
            captures_left=captures,
            can_pay=can_pay,
        )
        event = Tossed(seat=seat, coins=tuple((size_of(c), side_of(c)) for c in toss), favourable=favourable)
        return state, [event]

    def _end_turn(self, state: CoinAgeState, automatic: bool) -> tuple[CoinAgeState, list[Event]]:
        """Return the unused coins to the supply and toss for the next player, skipping turns with nothing
        to do (each such turn is reported, so players see the toss that caused it)."""
        events: list[Event] = []
        while True:
            seat = state.turn
            supply = list(state.supply[seat])
            for c in state.hand:
                supply[size_of(c)] += 1
            events.append(TurnEnded(seat=seat, returned=tuple(size_of(c) for c in state.hand), automatic=automatic))
            state = evolve(
                state,
                supply=tuple(tuple(supply) if i == seat else s for i, s in enumerate(state.supply)),
                hand=(),
                touched=(),
                last_touched=state.touched or state.last_touched,
            )
            state, tossed = self._start_turn(state, 1 - seat, state.turn_number + 1)
            events.extend(tossed)
            if self._has_action(state):
                return state, events
            automatic = True

    # Queries ----------------------------------------------------------------------------------

    def to_act(self, state: CoinAgeState) -> tuple[int, ...]:
        return () if state.finished else (state.turn,)

    def _placements(self, state: CoinAgeState) -> list[CoinAction]:
        if state.places_left <= 0:
            return []
        seat = state.turn
        sizes = sorted({c >> 1 for c in state.hand if c & 1 == seat})
        tops = [stack[-1] >> 1 if stack else 99 for stack in state.stacks]
        return [_PLACE[size][i] for size in sizes for i, top in enumerate(tops) if top > size]

    def _moves(self, state: CoinAgeState) -> list[CoinAction]:
        if state.moves_left <= 0:
            return []
        stacks = state.stacks
        return [_MOVE[i][j] for i, stack in enumerate(stacks) if stack for j in BOARD.neighbours[i] if not stacks[j]]

    def _captures(self, state: CoinAgeState) -> list[CoinAction]:
        if state.captures_left <= 0:
            return []
        return [_CAPTURE[i] for i, stack in enumerate(state.stacks) if stack]

    def _payments(self, state: CoinAgeState) -> list[CoinAction]:
        if not state.can_pay:
            return []
        sizes = sorted({size_of(c) for c in state.hand if side_of(c) == state.turn})
        return [_PAY[s] for s in sizes]

    def _has_action(self, state: CoinAgeState) -> bool:
        """Cheap test for any action besides ending the turn; while the game runs an empty space always
        exists (only a placement can fill the board, and that ends the game)."""
        seat = state.turn
        if (state.places_left > 0 or state.can_pay) and any(c & 1 == seat for c in state.hand):
            return True
        stacks = state.stacks
        if state.captures_left > 0 and any(stacks):
            return True
        return state.moves_left > 0 and any(
            stack and any(not stacks[j] for j in BOARD.neighbours[i]) for i, stack in enumerate(stacks)
        )

    def legal_actions(self, state: CoinAgeState, seat: int) -> list[CoinAction]:
        if state.finished or seat != state.turn:
            return []
        return [
            *self._placements(state),
            *self._moves(state),
            *self._captures(state),
            *self._payments(state),
            END,
        ]

    def default_action(self, state: CoinAgeState, seat: int) -> CoinAction:
        """On a time-out the turn ends: the unused coins go back to the supply."""
        return END

    # Applying actions --------------------------------------------------------------------------

    def apply(self, state: CoinAgeState, seat: int, action: CoinAction) -> Step[CoinAgeState]:
        if state.finished:
            raise GameOver("the game is over")
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn")
        events: list[Event] = []
        if action.kind == "end":
            state, events = self._end_turn(state, automatic=False)
            return Step(state, tuple(events))
        if action.kind == "place":
            state, events = self._place(state, action)
        elif action.kind == "move":
            state, events = self._move(state, action)
        elif action.kind == "capture":
            state, events = self._capture(state, action)
        elif action.kind == "pay":
            state, events = self._pay(state, action)
        else:  # pragma: no cover - CoinAction.kind is a closed set
            raise MalformedAction(f"unknown action {action.kind}")
        changed = {"place": (action.space,), "move": (action.space, action.to), "capture": (action.space,)}
        if action.kind in changed:
            state = evolve(state, touched=(*state.touched, *changed[action.kind]))
        if not state.finished and not self._has_action(state):
            state, more = self._end_turn(state, automatic=True)
            events.extend(more)
        return Step(state, tuple(events))

    def _take_from_hand(self, state: CoinAgeState, size: int) -> tuple[Coin, ...]:
        wanted = coin(size, state.turn)
        if wanted not in state.hand:
            raise RuleViolation(f"no favourable {SIZES[size]} coin in hand")
        hand = list(state.hand)
        hand.remove(wanted)
        return tuple(hand)

    def _place(self, state: CoinAgeState, action: CoinAction) -> tuple[CoinAgeState, list[Event]]:
        if state.places_left <= 0:
            raise RuleViolation("no placement left this turn")
        self._check_space(action.space)
        if not 0 <= action.size < len(SIZES):
            raise MalformedAction("no such coin size")
        hand = self._take_from_hand(state, action.size)
        stack = state.stacks[action.space]
        if stack and size_of(stack[-1]) <= action.size:
            raise RuleViolation("a coin may only go on an empty space or on a larger coin")
        stacks = _replace(state.stacks, action.space, (*stack, coin(action.size, state.turn)))
        state = evolve(state, stacks=stacks, hand=hand, places_left=state.places_left - 1)
        events: list[Event] = [Placed(seat=state.turn, size=action.size, space=BOARD.spaces[action.space].id)]
        reason = None
        if not any(state.supply[state.turn]) and not state.hand:
            reason = "last_coin"
        elif all(stacks):
            reason = "board_full"
        if reason is not None:
            state = self._finish(state, reason)
            events.append(GameEnded(reason=reason))
        return state, events

    def _move(self, state: CoinAgeState, action: CoinAction) -> tuple[CoinAgeState, list[Event]]:
        if state.moves_left <= 0:
            raise RuleViolation("no move left this turn")
        self._check_space(action.space)
        self._check_space(action.to)
        stack = state.stacks[action.space]
        if not stack:
            raise RuleViolation("there is nothing to move on that space")
        if action.to not in BOARD.neighbours[action.space]:
            raise RuleViolation("a stack moves only to a neighbouring space")
        if state.stacks[action.to]:
            raise RuleViolation("a stack moves only to an empty space")
        stacks = _replace(_replace(state.stacks, action.space, ()), action.to, stack)
        state = evolve(state, stacks=stacks, moves_left=state.moves_left - 1)
        source, target = BOARD.spaces[action.space].id, BOARD.spaces[action.to].id
        return state, [Moved(seat=state.turn, source=source, target=target, coins=len(stack))]

    def _capture(self, state: CoinAgeState, action: CoinAction) -> tuple[CoinAgeState, list[Event]]:
        if state.captures_left <= 0:
            raise RuleViolation("no capture left this turn")
        self._check_space(action.space)
        stack = state.stacks[action.space]
        if not stack:
            raise RuleViolation("there is no coin to capture on that space")
        top = stack[-1]
        seat = state.turn
        supply = list(state.supply[seat])
        supply[size_of(top)] += 1
        state = evolve(
            state,
            stacks=_replace(state.stacks, action.space, stack[:-1]),
            supply=_replace(state.supply, seat, tuple(supply)),
            captures_left=state.captures_left - 1,
        )
        space = BOARD.spaces[action.space].id
        return state, [Captured(seat=seat, size=size_of(top), side=side_of(top), space=space)]

    def _pay(self, state: CoinAgeState, action: CoinAction) -> tuple[CoinAgeState, list[Event]]:
        if not state.can_pay:
            raise RuleViolation("paying is allowed only with four favourable coins, once")
        if not 0 <= action.size < len(SIZES):
            raise MalformedAction("no such coin size")
        hand = self._take_from_hand(state, action.size)
        other = 1 - state.turn
        supply = list(state.supply[other])
        supply[action.size] += 1
        state = evolve(
            state,
            hand=hand,
            supply=_replace(state.supply, other, tuple(supply)),
            can_pay=False,
            places_left=state.places_left + 1,
        )
        return state, [Paid(seat=state.turn, size=action.size)]

    def _finish(self, state: CoinAgeState, reason: str) -> CoinAgeState:
        """End at once; coins still in hand go back to the supply and count as unplaced."""
        return evolve(
            state,
            supply=_unplaced(state),
            hand=(),
            places_left=0,
            moves_left=0,
            captures_left=0,
            can_pay=False,
            finished=True,
            end_reason=reason,
        )

    @staticmethod
    def _check_space(index: int) -> None:
        if not 0 <= index < BOARD.size:
            raise MalformedAction("no such space")

    # Results and views ---------------------------------------------------------------------------

    def outcome(self, state: CoinAgeState) -> Outcome | None:
        if not state.finished:
            return None
        scores = score(state.stacks, state.supply)
        return Outcome(
            scores=tuple(s.total for s in scores),
            winners=winners(scores),
            detail={
                "board": [s.board for s in scores],
                "unplaced": [s.unplaced for s in scores],
                "tiebreak": [s.tiebreak for s in scores],
                "reason": state.end_reason,
            },
        )

    def view(self, state: CoinAgeState, seat: int | None) -> CoinAgeView:
        unplaced = _unplaced(state)
        scores = score(state.stacks, unplaced)
        control = region_control(state.stacks)
        spaces = tuple(
            SpaceView(
                id=s.id,
                name=s.name,
                region=s.region,
                neighbours=tuple(BOARD.spaces[j].id for j in BOARD.neighbours[s.index]),
                stack=tuple(_coin_view(c) for c in state.stacks[s.index]),
            )
            for s in BOARD.spaces
        )
        regions = tuple(
            RegionView(
                id=r.id,
                name=r.name,
                spaces=tuple(s.id for s in BOARD.spaces if s.region == r.id),
                controlled=control[r.id].controlled,
                doubled=control[r.id].doubled,
            )
            for r in BOARD.regions
        )
        turn = None
        if not state.finished:
            turn = TurnView(
                seat=state.turn,
                number=state.turn_number,
                toss=tuple(_coin_view(c) for c in state.toss),
                favourable=sum(1 for c in state.toss if side_of(c) == state.turn),
                hand=tuple(_coin_view(c) for c in state.hand),
                places_left=state.places_left,
                moves_left=state.moves_left,
                captures_left=state.captures_left,
                can_pay=state.can_pay,
            )
        return CoinAgeView(
            seat=seat,
            last_move=tuple(BOARD.spaces[i].id for i in dict.fromkeys(state.touched or state.last_touched)),
            spaces=spaces,
            regions=regions,
            supply=state.supply,
            turn=turn,
            scores=tuple(
                ScoreView(board=s.board, unplaced=s.unplaced, total=s.total, tiebreak=s.tiebreak) for s in scores
            ),
            finished=state.finished,
            end_reason=state.end_reason,
            winners=winners(scores) if state.finished else (),
        )

    def determinize(self, state: CoinAgeState, seat: int, seed: int) -> CoinAgeState:
        """Only the future tosses are hidden (the generator's state): they are drawn anew."""
        return evolve(state, rng=rng.reseeded(seed)[1])

    def secrets(self, state: CoinAgeState, seat: int | None) -> tuple[str, ...]:
        """What no view may contain: the generator's state, which would predict every future toss."""
        return (str(state.rng),)

    def conserved(self, state: CoinAgeState) -> dict[str, int]:
        """The 20 coins by size, wherever they are: supplies, the hand, the board."""
        counts = {size: 0 for size in SIZES}
        for seat_supply in state.supply:
            for size, n in enumerate(seat_supply):
                counts[SIZES[size]] += n
        for c in (*state.hand, *(c for stack in state.stacks for c in stack)):
            counts[SIZES[size_of(c)]] += 1
        return counts

    # Text form of actions ------------------------------------------------------------------------

    def encode(self, action: CoinAction) -> str:
        """Dot-separated, coarse to fine, so the bot can build menus from prefixes: p.C.B2, m.B2.B3, c.A1,
        y.A, x."""
        spaces = BOARD.spaces
        if action.kind == "place":
            return f"p.{SIZES[action.size]}.{spaces[action.space].id}"
        if action.kind == "move":
            return f"m.{spaces[action.space].id}.{spaces[action.to].id}"
        if action.kind == "capture":
            return f"c.{spaces[action.space].id}"
        if action.kind == "pay":
            return f"y.{SIZES[action.size]}"
        return "x"

    def decode(self, text: str) -> CoinAction:
        parts = text.split(".")
        try:
            match parts:
                case ["x"]:
                    return END
                case ["p", size, space] if len(size) == 1:
                    return CoinAction("place", size=SIZES.index(size), space=BOARD.index_of[space])
                case ["m", source, target]:
                    return CoinAction("move", space=BOARD.index_of[source], to=BOARD.index_of[target])
                case ["c", space]:
                    return CoinAction("capture", space=BOARD.index_of[space])
                case ["y", size] if len(size) == 1:
                    return CoinAction("pay", size=SIZES.index(size))
        except (KeyError, ValueError):
            pass
        raise MalformedAction(f"not a Coin Age action: {text[:40]!r}")


def _coin_view(c: int) -> CoinView:
    return CoinView(size=size_of(c), value=size_of(c) + 1, side=side_of(c))


def _replace(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


__all__ = ["CoinAge", "IllegalAction"]
