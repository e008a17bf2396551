"""کشورگشا (Conqueror), game type 1 with set-up method 1, as the Persian rulebook gives it, with RULES.md's
decisions and the interpretations listed in README.md."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeVar

from rules import rng
from rules.conqueror.board import DEFAULT, INDEX_OF, LABELS, Board, board_from_code, random_board
from rules.conqueror.model import (
    ACTIONS_PER_TURN,
    NOBODY,
    PIECES,
    TARGET,
    TURNS_PER_ROUND,
    WALLS,
    Captured,
    CastleBuilt,
    CellView,
    ConquerorAction,
    ConquerorOptions,
    ConquerorState,
    ConquerorView,
    Entered,
    GameEnded,
    Kind,
    Left,
    Moved,
    Scored,
    TurnEnded,
    WallBuilt,
    WallView,
)
from rules.contract import Event, GameOver, MalformedAction, NotYourTurn, Outcome, RuleViolation, Step
from rules.evolve import evolve

T = TypeVar("T")
EndReason = Literal["target", "rounds"]
END = ConquerorAction("end")
_LETTER: dict[Kind, str] = {"castle": "c", "wall": "w", "enter": "e", "leave": "l", "move": "m"}
_KIND: dict[str, Kind] = {letter: kind for kind, letter in _LETTER.items()}


@dataclass(frozen=True, slots=True, eq=False)
class _Tables:
    """A board and every action value on it, built once: legal_actions hands out these shared tuples."""

    board: Board
    castle: tuple[ConquerorAction, ...]  # per camp
    enter: tuple[ConquerorAction, ...]
    leave: tuple[ConquerorAction, ...]
    wall: tuple[tuple[tuple[int, ConquerorAction], ...], ...]  # per camp: (side's edge index, action)
    move: tuple[tuple[tuple[int, int, ConquerorAction], ...], ...]  # per camp: (target, edge index, action)
    cells: tuple[CellView, ...]  # the view's camps, shared by every view of the board
    walls: tuple[tuple[WallView, WallView], ...]  # per side: the view of a wall there, by builder


@functools.lru_cache(maxsize=64)
def _tables(code: str) -> _Tables:
    board = board_from_code(code)
    cells = range(board.size)
    return _Tables(
        board=board,
        castle=tuple(ConquerorAction("castle", c) for c in cells),
        enter=tuple(ConquerorAction("enter", c) for c in cells),
        leave=tuple(ConquerorAction("leave", c) for c in cells),
        wall=tuple(tuple((e, ConquerorAction("wall", c, n)) for n, e in board.links[c]) for c in cells),
        move=tuple(tuple((n, e, ConquerorAction("move", c, n)) for n, e in board.links[c]) for c in cells),
        cells=tuple(
            CellView(
                label=LABELS[c],
                tile=LABELS[c][0],
                q=board.coords[c][0],
                r=board.coords[c][1],
                capacity=board.capacity[c],
                kind="plain" if board.plain[c] else "camp",
                centre=c in board.centres,
            )
            for c in cells
        ),
        walls=tuple(
            (
                WallView(camp=LABELS[a], across=LABELS[b], side=board.sides[a].index(b), seat=0),
                WallView(camp=LABELS[a], across=LABELS[b], side=board.sides[a].index(b), seat=1),
            )
            for a, b in board.edges
        ),
    )


def seat_to_act(state: ConquerorState) -> int:
    """Odd turns are seat 0's, even turns seat 1's (the opening too: turn 1 seat 0, turn 2 seat 1)."""
    return (state.turn - 1) % 2


def owner_of(board: Board, castles: tuple[int, ...], walls: tuple[int, ...], cell: int) -> int:
    """The seed's ownership: the colour with more castles in neighbouring camps across unwalled sides (one
    castle, two of a colour, two of three); equal numbers (none, or one of each) and castle camps: nobody."""
    if castles[cell] != NOBODY:
        return NOBODY
    red = yellow = 0
    for n, e in board.links[cell]:
        owner = castles[n]
        if owner != NOBODY and walls[e] == NOBODY:
            if owner:
                yellow += 1
            else:
                red += 1
    return 0 if red > yellow else 1 if yellow > red else NOBODY


def winners_of(scores: tuple[int, ...]) -> tuple[int, ...]:
    """The higher score wins (reaching the target is the highest); equal scores are a draw."""
    best = max(scores)
    return tuple(s for s, score in enumerate(scores) if score == best)


class Conqueror:
    """Two players build castles and walls and march pieces on a board of hexagonal camps; see
    ``rules/conqueror/README.md`` for the rules in force."""

    id: ClassVar[str] = "conqueror"
    title: ClassVar[str] = "کشورگشا"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_model: ClassVar[type[ConquerorOptions]] = ConquerorOptions
    state_model: ClassVar[type[ConquerorState]] = ConquerorState

    # Set-up and queries -------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: ConquerorOptions | None = None) -> ConquerorState:
        if players != 2:
            raise ValueError("کشورگشا is a two-player game")
        options = options or ConquerorOptions()
        generator = rng.mix(seed)
        board = DEFAULT
        if options.random_board:
            generator, board = random_board(generator, options.random_board_tiles)
        empty = (0,) * board.size
        nobody = (NOBODY,) * board.size
        return ConquerorState(
            options=options,
            rng=generator,
            board=board.code,
            castles=nobody,
            manned=empty,
            pieces=(empty, empty),
            walls=(NOBODY,) * len(board.edges),
            owners=nobody,
            scores=(0, 0),
            supply=(PIECES, PIECES),
            walls_left=(WALLS, WALLS),
        )

    @staticmethod
    def board(state: ConquerorState) -> Board:
        """The board a state is played on."""
        return _tables(state.board).board

    def to_act(self, state: ConquerorState) -> tuple[int, ...]:
        return () if state.finished else (seat_to_act(state),)

    def legal_actions(self, state: ConquerorState, seat: int) -> list[ConquerorAction]:
        if state.finished or seat != seat_to_act(state):
            return []
        tables = _tables(state.board)
        board = tables.board
        castles = state.castles
        if state.round == 0:
            return [tables.castle[c] for c in board.centres if castles[c] == NOBODY]
        opp = 1 - seat
        mine, theirs = state.pieces[seat], state.pieces[opp]
        manned, walls, owners, capacity = state.manned, state.walls, state.owners, board.capacity
        adjacent = board.adjacent

        # Castles: one camp away from an opponent's castle, not next to any castle.
        blocked: set[int] = set()
        near: set[int] = set()
        for c, owner in enumerate(castles):
            if owner != NOBODY:
                blocked.add(c)
                blocked.update(adjacent[c])
                if owner == opp:
                    near.update(board.one_apart[c])
        out = [tables.castle[c] for c in sorted(near - blocked) if not board.plain[c] and not theirs[c]]

        may_wall = state.walls_left[seat] > 0
        may_enter = state.supply[seat] > 0
        enters: list[ConquerorAction] = []
        leaves: list[ConquerorAction] = []
        moves: list[ConquerorAction] = []
        walled: list[ConquerorAction] = []
        for c, owner in enumerate(castles):
            if may_wall and (owner == seat or owners[c] == seat):
                walled += [a for e, a in tables.wall[c] if walls[e] == NOBODY]
            if owner == seat:
                if manned[c]:
                    if theirs[c] or mine[c] < capacity[c]:
                        leaves.append(tables.leave[c])
                elif may_enter and not theirs[c]:
                    enters.append(tables.enter[c])
            count = mine[c]
            if not count or (owner == seat and theirs[c] and count + manned[c] == theirs[c]):
                continue
            moves += [
                a
                for n, e, a in tables.move[c]
                if walls[e] == NOBODY and (mine[n] < capacity[n] or theirs[n] or (castles[n] == opp and manned[n]))
            ]
        return [*out, *enters, *leaves, *moves, *walled, END]

    def default_action(self, state: ConquerorState, seat: int) -> ConquerorAction:
        """On a time-out: in the opening, the first free tile centre in board order; later, end the turn."""
        if state.round == 0:
            return self.legal_actions(state, seat)[0]
        return END

    # Applying actions --------------------------------------------------------------------------

    def apply(self, state: ConquerorState, seat: int, action: ConquerorAction) -> Step[ConquerorState]:
        if state.finished:
            raise GameOver("the game is over")
        if seat != seat_to_act(state):
            raise NotYourTurn(f"it is seat {seat_to_act(state)}'s turn")
        kind = action.kind
        if kind == "end":
            if state.round == 0:
                raise RuleViolation("the opening castle must be placed")
            state, events = self._end_turn(state, automatic=False)
            return Step(state, tuple(events))
        board = _tables(state.board).board
        if kind not in _LETTER or not 0 <= action.cell < board.size:
            raise MalformedAction("no such action or camp")
        if kind in ("wall", "move") and not 0 <= action.to < board.size:
            raise MalformedAction("no such camp")
        if kind == "castle":
            state, events = self._castle(state, board, seat, action.cell)
            if state.round == 0:
                return Step(self._after_opening(state), tuple(events))
        elif state.round == 0:
            raise RuleViolation("the opening is placing first castles")
        elif kind == "wall":
            state, events = self._wall(state, board, seat, action.cell, action.to)
        elif kind == "enter":
            state, events = self._enter(state, seat, action.cell)
        elif kind == "leave":
            state, events = self._leave(state, board, seat, action.cell)
        else:
            state, events = self._move(state, board, seat, action.cell, action.to)
        if state.finished:
            return Step(state, tuple(events))
        state = evolve(state, actions_left=state.actions_left - 1)
        if state.actions_left == 0:
            state, more = self._end_turn(state, automatic=True)
            events.extend(more)
        return Step(state, tuple(events))

    def _castle(self, state: ConquerorState, board: Board, seat: int, cell: int) -> tuple[ConquerorState, list[Event]]:
        castles = state.castles
        if castles[cell] != NOBODY:
            raise RuleViolation("a camp holds one castle")
        if state.round == 0:
            if cell not in board.centres:
                raise RuleViolation("the first castle goes on the centre of a tile")
        else:
            opp = 1 - seat
            if board.plain[cell]:
                raise RuleViolation("a plain holds no castle")
            if any(castles[n] != NOBODY for n in board.adjacent[cell]):
                raise RuleViolation("castles never stand in neighbouring camps")
            if state.pieces[opp][cell]:
                raise RuleViolation("no castle in a camp where the opponent's pieces stand")
            if not any(castles[n] == opp for n in board.one_apart[cell]):
                raise RuleViolation("a new castle stands one camp away from an opponent's castle")
        state = evolve(state, castles=_replace(castles, cell, seat))
        events: list[Event] = [CastleBuilt(seat=seat, camp=LABELS[cell])]
        return self._rescore(state, board, (cell, *board.adjacent[cell]), events)

    def _after_opening(self, state: ConquerorState) -> ConquerorState:
        """Seat 0's first castle hands the opening to seat 1; seat 1's starts round 1."""
        if state.turn == 1:
            return evolve(state, turn=2)
        return evolve(state, round=1, turn=1, actions_left=ACTIONS_PER_TURN)

    def _wall(
        self, state: ConquerorState, board: Board, seat: int, cell: int, across: int
    ) -> tuple[ConquerorState, list[Event]]:
        if not state.walls_left[seat]:
            raise RuleViolation("no wall left")
        edge = _edge(board, cell, across)
        if state.walls[edge] != NOBODY:
            raise RuleViolation("that side already has a wall")
        if state.castles[cell] != seat and state.owners[cell] != seat:
            raise RuleViolation("a wall goes on a side of a camp holding your castle or owned by you")
        state = evolve(
            state,
            walls=_replace(state.walls, edge, seat),
            walls_left=_replace(state.walls_left, seat, state.walls_left[seat] - 1),
        )
        events: list[Event] = [WallBuilt(seat=seat, camp=LABELS[cell], across=LABELS[across])]
        return self._rescore(state, board, (cell, across), events)

    def _enter(self, state: ConquerorState, seat: int, cell: int) -> tuple[ConquerorState, list[Event]]:
        if not state.supply[seat]:
            raise RuleViolation("no piece left in the supply")
        if state.castles[cell] != seat:
            raise RuleViolation("pieces enter only your own castles")
        if state.manned[cell]:
            raise RuleViolation("a castle holds one piece")
        if state.pieces[1 - seat][cell]:
            raise RuleViolation("the castle is besieged")
        state = evolve(
            state,
            manned=_replace(state.manned, cell, 1),
            supply=_replace(state.supply, seat, state.supply[seat] - 1),
        )
        return state, [Entered(seat=seat, camp=LABELS[cell])]

    def _leave(self, state: ConquerorState, board: Board, seat: int, cell: int) -> tuple[ConquerorState, list[Event]]:
        if state.castles[cell] != seat or not state.manned[cell]:
            raise RuleViolation("no piece of yours stands on a castle there")
        mine = state.pieces[seat]
        if not state.pieces[1 - seat][cell] and mine[cell] >= board.capacity[cell]:
            raise RuleViolation("the camp is full")
        state = evolve(
            state,
            manned=_replace(state.manned, cell, 0),
            pieces=_replace(state.pieces, seat, _replace(mine, cell, mine[cell] + 1)),
        )
        return state, [Left(seat=seat, camp=LABELS[cell])]

    def _move(
        self, state: ConquerorState, board: Board, seat: int, cell: int, to: int
    ) -> tuple[ConquerorState, list[Event]]:
        opp = 1 - seat
        mine, theirs = state.pieces[seat], state.pieces[opp]
        castles, manned = state.castles, state.manned
        if not mine[cell]:
            raise RuleViolation("no piece of yours stands in that camp")
        if castles[cell] == seat and theirs[cell] and mine[cell] + manned[cell] == theirs[cell]:
            raise RuleViolation("with equal numbers around your castle, your pieces cannot leave its camp")
        if state.walls[_edge(board, cell, to)] != NOBODY:
            raise RuleViolation("a wall blocks the way")
        at_war = theirs[to] or (castles[to] == opp and manned[to])
        if not at_war and mine[to] >= board.capacity[to]:
            raise RuleViolation("the camp is full")
        mine = _replace(_replace(mine, cell, mine[cell] - 1), to, mine[to] + 1)
        state = evolve(state, pieces=_replace(state.pieces, seat, mine))
        events: list[Event] = [Moved(seat=seat, source=LABELS[cell], target=LABELS[to])]
        defenders = theirs[to] + manned[to]
        if castles[to] != opp or mine[to] <= defenders:
            return state, events
        supply = state.supply
        state = evolve(
            state,
            castles=_replace(castles, to, seat),
            manned=_replace(manned, to, 0),
            pieces=_replace(state.pieces, opp, _replace(theirs, to, 0)),
            supply=_replace(supply, opp, supply[opp] + defenders),
        )
        events.append(Captured(seat=seat, camp=LABELS[to], returned=defenders))
        return self._rescore(state, board, board.adjacent[to], events)

    def _rescore(
        self, state: ConquerorState, board: Board, cells: Iterable[int], events: list[Event]
    ) -> tuple[ConquerorState, list[Event]]:
        """Recount the ownership of the camps a castle, wall or capture can have changed; report the
        changes and end the game when a score reaches the target."""
        owners = list(state.owners)
        scores = list(state.scores)
        changes: list[tuple[str, int | None, int | None]] = []
        for c in cells:
            new = owner_of(board, state.castles, state.walls, c)
            old = owners[c]
            if new == old:
                continue
            owners[c] = new
            if old != NOBODY:
                scores[old] -= 1
            if new != NOBODY:
                scores[new] += 1
            changes.append((LABELS[c], None if old == NOBODY else old, None if new == NOBODY else new))
        if not changes:
            return state, events
        state = evolve(state, owners=tuple(owners), scores=tuple(scores))
        events.append(Scored(changes=tuple(changes), scores=state.scores))
        if max(scores) >= TARGET:
            state, ended = self._finish(state, "target")
            events.append(ended)
        return state, events

    def _end_turn(self, state: ConquerorState, automatic: bool) -> tuple[ConquerorState, list[Event]]:
        """Move the turn track on; after turn 12 a round ends, and after the last round the game."""
        events: list[Event] = [
            TurnEnded(seat=seat_to_act(state), round=state.round, turn=state.turn, automatic=automatic)
        ]
        if state.turn < TURNS_PER_ROUND:
            return evolve(state, turn=state.turn + 1, actions_left=ACTIONS_PER_TURN), events
        if state.round < state.options.rounds:
            return evolve(state, round=state.round + 1, turn=1, actions_left=ACTIONS_PER_TURN), events
        state, ended = self._finish(state, "rounds")
        events.append(ended)
        return state, events

    def _finish(self, state: ConquerorState, reason: EndReason) -> tuple[ConquerorState, GameEnded]:
        state = evolve(state, finished=True, end_reason=reason, actions_left=0)
        return state, GameEnded(reason=reason, scores=state.scores, winners=winners_of(state.scores))

    # Results and views ---------------------------------------------------------------------------

    def outcome(self, state: ConquerorState) -> Outcome | None:
        if not state.finished:
            return None
        return Outcome(
            scores=state.scores,
            winners=winners_of(state.scores),
            detail={"reason": state.end_reason, "castles": list(_castle_counts(state))},
        )

    def view(self, state: ConquerorState, seat: int | None) -> ConquerorView:
        tables = _tables(state.board)
        return ConquerorView(
            seat=seat,
            cells=tables.cells,
            castles=tuple(None if c == NOBODY else c for c in state.castles),
            manned=tuple(m == 1 for m in state.manned),
            pieces=state.pieces,
            owners=tuple(None if o == NOBODY else o for o in state.owners),
            walls=tuple(tables.walls[e][builder] for e, builder in enumerate(state.walls) if builder != NOBODY),
            scores=state.scores,
            supply=state.supply,
            walls_left=state.walls_left,
            castle_counts=_castle_counts(state),
            opening=state.round == 0,
            round=state.round,
            rounds=state.options.rounds,
            turn=state.turn,
            to_act=None if state.finished else seat_to_act(state),
            actions_left=state.actions_left,
            finished=state.finished,
            end_reason=state.end_reason,
            winners=winners_of(state.scores) if state.finished else (),
            legal=() if state.finished else tuple(map(self.encode, self.legal_actions(state, seat_to_act(state)))),
        )

    def determinize(self, state: ConquerorState, seat: int, seed: int) -> ConquerorState:
        """Nothing is hidden in play but the generator's state; it is drawn anew."""
        return evolve(state, rng=rng.reseeded(seed)[1])

    def secrets(self, state: ConquerorState, seat: int | None) -> tuple[str, ...]:
        """Nothing is hidden in play; the generator's state (it drew the random board) stays out of views."""
        return (str(state.rng),)

    def conserved(self, state: ConquerorState) -> dict[str, int]:
        """Each colour's 12 pieces (supply, camps, castles) and 20 walls (supply, board)."""
        out: dict[str, int] = {}
        for seat in (0, 1):
            on_castles = sum(m for m, owner in zip(state.manned, state.castles, strict=True) if owner == seat)
            out[f"pieces_{seat}"] = state.supply[seat] + sum(state.pieces[seat]) + on_castles
            out[f"walls_{seat}"] = state.walls_left[seat] + state.walls.count(seat)
        return out

    # Text form of actions ------------------------------------------------------------------------

    def encode(self, action: ConquerorAction) -> str:
        """Dot-separated, coarse to fine: c.B4 castle, w.B4.C1 wall between B4 and C1, e.B4 enter, l.B4
        leave, m.B4.C1 move, x end the turn."""
        if action.kind == "end":
            return "x"
        letter = _LETTER[action.kind]
        if action.kind in ("wall", "move"):
            return f"{letter}.{LABELS[action.cell]}.{LABELS[action.to]}"
        return f"{letter}.{LABELS[action.cell]}"

    def decode(self, text: str) -> ConquerorAction:
        parts = text.split(".")
        try:
            match parts:
                case ["x"]:
                    return END
                case [("c" | "e" | "l") as letter, camp]:
                    return ConquerorAction(_KIND[letter], INDEX_OF[camp])
                case [("w" | "m") as letter, camp, other]:
                    return ConquerorAction(_KIND[letter], INDEX_OF[camp], INDEX_OF[other])
        except KeyError:
            pass
        raise MalformedAction(f"not a کشورگشا action: {text[:40]!r}")


def _edge(board: Board, cell: int, across: int) -> int:
    """The shared side between two camps; naming a camp that is not a neighbour is a rule violation."""
    for n, e in board.links[cell]:
        if n == across:
            return e
    raise RuleViolation("a wall or a move needs two neighbouring camps")


def _castle_counts(state: ConquerorState) -> tuple[int, int]:
    return state.castles.count(0), state.castles.count(1)


def _replace(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


__all__ = ["END", "Conqueror", "owner_of", "seat_to_act", "winners_of"]
