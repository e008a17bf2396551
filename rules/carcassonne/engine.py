"""Carcassonne (قلعه رودخان), base game, as the Persian rulebook gives it with RULES.md's decisions."""

from __future__ import annotations

import re
from typing import ClassVar

from rules import rng
from rules.carcassonne.board import Board, board_of
from rules.carcassonne.data import LETTERS, MEEPLES, ORIENTED, START_TYPE, STRIDE, TILES, full_set
from rules.carcassonne.model import (
    CandidateSpot,
    CarcAction,
    CarcassonneOptions,
    CarcassonneState,
    CarcassonneView,
    GameEnded,
    MeeplePlaced,
    MeepleSpot,
    MeepleView,
    PlacedTileView,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from rules.carcassonne.scoring import apply_scores, completed, final
from rules.contract import Event, GameOver, MalformedAction, NotYourTurn, Outcome, RuleViolation, Step
from rules.evolve import evolve

NO_MEEPLE = CarcAction("m", spot="n")
_TILE_RE = re.compile(r"t\.(-?[0-9]{1,3})_(-?[0-9]{1,3})\.([0-3])")
_MEEPLE_RE = re.compile(r"m\.(n|m|[crf][0-7])")
_SECRET_MIN = 4  # pile secrets shorter than this could match innocent text


def _winners(scores: tuple[int, ...]) -> tuple[int, ...]:
    best = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)


def _totals(state: CarcassonneState) -> tuple[int, ...]:
    return tuple(sum(p) for p in state.points)


class Carcassonne:
    """2–5 players, 72 tiles, 7 meeples each; see ``rules/carcassonne/README.md`` for the rules in force."""

    id: ClassVar[str] = "carcassonne"
    title: ClassVar[str] = "قلعه رودخان"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options_model: ClassVar[type[CarcassonneOptions]] = CarcassonneOptions
    state_model: ClassVar[type[CarcassonneState]] = CarcassonneState

    # Set-up and turn flow ----------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: CarcassonneOptions | None = None) -> CarcassonneState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError("Carcassonne is played by 2 to 5 players")
        tiles = full_set()
        tiles.remove(START_TYPE)
        gen, pile = rng.shuffled(rng.mix(seed), tiles)
        state = CarcassonneState(
            options=options or CarcassonneOptions(),
            players=players,
            rng=gen,
            pile=tuple(pile),
            placed=((START_TYPE, 0, 0, 0),),
            points=tuple((0, 0, 0, 0) for _ in range(players)),
        )
        state, _ = self._draw(state, 0)
        return state

    def _draw(self, state: CarcassonneState, seat: int) -> tuple[CarcassonneState, list[Event]]:
        """Draw for ``seat``: tiles nobody could place are shown, discarded and replaced; an empty pile ends
        the game."""
        events: list[Event] = []
        board = board_of(state.placed)
        pile = state.pile
        discarded = state.discarded
        while pile:
            ttype, pile = pile[0], pile[1:]
            if board.can_place(ttype):
                events.append(TileDrawn(seat=seat, tile=LETTERS[ttype]))
                state = evolve(state, pile=pile, discarded=discarded, drawn=ttype, turn=seat, phase="tile")
                return state, events
            discarded = (*discarded, ttype)
            events.append(TileDiscarded(seat=seat, tile=LETTERS[ttype]))
        state = evolve(state, pile=pile, discarded=discarded, drawn=-1, turn=seat)
        return self._finish(state, board, events)

    def _finish(
        self, state: CarcassonneState, board: Board, events: list[Event]
    ) -> tuple[CarcassonneState, list[Event]]:
        scores = final(board, state.meeples, state.players, state.options.farmers)
        events.extend(s.event for s in scores)
        state = evolve(state, points=apply_scores(state.points, scores), phase="over", drawn=-1)
        totals = _totals(state)
        events.append(GameEnded(scores=totals, winners=_winners(totals)))
        return state, events

    # Queries ----------------------------------------------------------------------------------

    def to_act(self, state: CarcassonneState) -> tuple[int, ...]:
        return () if state.phase == "over" else (state.turn,)

    def meeples_left(self, state: CarcassonneState) -> tuple[int, ...]:
        out = [MEEPLES] * state.players
        for m in state.meeples:
            out[m[0]] -= 1
        return tuple(out)

    def meeple_spots(self, state: CarcassonneState) -> list[str]:
        """Spots of the tile just laid that a meeple may take (phase "meeple"): not on a feature already
        occupied through any connection, fields only with farmers, none without a meeple in supply."""
        if state.phase != "meeple" or self.meeples_left(state)[state.turn] <= 0:
            return []
        return self._free_spots(state, board_of(state.placed))

    def _free_spots(self, state: CarcassonneState, board: Board) -> list[str]:
        index = len(state.placed) - 1
        tile = TILES[state.placed[index][0]]
        occupied = {board.find(m[1] * STRIDE + m[2]) for m in state.meeples}
        out = []
        for i, seg in enumerate(tile.segments):
            if seg.kind == "field" and not state.options.farmers:
                continue
            if board.find(index * STRIDE + i) not in occupied:
                out.append(seg.spot)
        return out

    def legal_actions(self, state: CarcassonneState, seat: int) -> list[CarcAction]:
        if state.phase == "over" or seat != state.turn:
            return []
        if state.phase == "tile":
            return [CarcAction("t", x, y, rot) for x, y, rot in board_of(state.placed).placements(state.drawn)]
        return [*(CarcAction("m", spot=s) for s in self.meeple_spots(state)), NO_MEEPLE]

    def default_action(self, state: CarcassonneState, seat: int) -> CarcAction:
        """On a time-out: the first legal placement (by y, then x, then rotation), then no meeple."""
        if state.phase == "meeple":
            return NO_MEEPLE
        x, y, rot = board_of(state.placed).placements(state.drawn)[0]
        return CarcAction("t", x, y, rot)

    # Applying actions --------------------------------------------------------------------------

    def apply(self, state: CarcassonneState, seat: int, action: CarcAction) -> Step[CarcassonneState]:
        if state.phase == "over":
            raise GameOver("the game is over")
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn")
        if not isinstance(action, CarcAction):
            raise MalformedAction("not a Carcassonne action")
        if action.kind == "t":
            if state.phase != "tile":
                raise RuleViolation("the tile is already laid: choose a meeple spot or none")
            return self._lay(state, action)
        if action.kind == "m":
            if state.phase != "meeple":
                raise RuleViolation("lay the drawn tile first")
            return self._meeple(state, action)
        raise MalformedAction(f"unknown action {action.kind}")

    def _lay(self, state: CarcassonneState, action: CarcAction) -> Step[CarcassonneState]:
        board = board_of(state.placed)
        if not board.fits(state.drawn, action.x, action.y, action.rot):
            raise RuleViolation("the tile does not fit there: every edge must match its neighbour")
        placed = (*state.placed, (state.drawn, action.x, action.y, action.rot))
        events: list[Event] = [
            TilePlaced(seat=state.turn, tile=LETTERS[state.drawn], x=action.x, y=action.y, rotation=action.rot)
        ]
        state = evolve(state, placed=placed, drawn=-1, phase="meeple")
        new_board = board_of(placed)
        if self.meeples_left(state)[state.turn] > 0 and self._free_spots(state, new_board):
            return Step(state, tuple(events))
        state, more = self._end_turn(state, new_board)  # nothing to choose: no meeple, straight on
        events.extend(more)
        return Step(state, tuple(events))

    def _meeple(self, state: CarcassonneState, action: CarcAction) -> Step[CarcassonneState]:
        board = board_of(state.placed)
        events: list[Event] = []
        if action.spot != "n":
            if action.spot not in self.meeple_spots(state):
                raise RuleViolation("no meeple may go there")
            index = len(state.placed) - 1
            ttype, x, y, _ = state.placed[index]
            seg_index = TILES[ttype].spot_index[action.spot]
            state = evolve(state, meeples=(*state.meeples, (state.turn, index, seg_index)))
            kind = TILES[ttype].segments[seg_index].kind
            events.append(MeeplePlaced(seat=state.turn, x=x, y=y, spot=action.spot, feature=kind))
        state, more = self._end_turn(state, board)
        events.extend(more)
        return Step(state, tuple(events))

    def _end_turn(self, state: CarcassonneState, board: Board) -> tuple[CarcassonneState, list[Event]]:
        """Score what the new tile completed (meeples return), then draw for the next seat."""
        scores = completed(board, len(state.placed) - 1, state.meeples, state.players)
        events: list[Event] = [s.event for s in scores]
        if scores:
            gone = {m for s in scores for m in s.meeples}
            state = evolve(
                state,
                points=apply_scores(state.points, scores),
                meeples=tuple(m for m in state.meeples if m not in gone),
            )
        state, more = self._draw(state, (state.turn + 1) % state.players)
        events.extend(more)
        return state, events

    # Results and views ---------------------------------------------------------------------------

    def outcome(self, state: CarcassonneState) -> Outcome | None:
        if state.phase != "over":
            return None
        totals = _totals(state)
        return Outcome(
            scores=totals,
            winners=_winners(totals),
            detail={
                "road": [p[0] for p in state.points],
                "city": [p[1] for p in state.points],
                "monastery": [p[2] for p in state.points],
                "field": [p[3] for p in state.points],
                "discarded": [LETTERS[t] for t in state.discarded],
            },
        )

    def view(self, state: CarcassonneState, seat: int | None) -> CarcassonneView:
        tiles = tuple(_tile_view(i, p) for i, p in enumerate(state.placed))
        meeples = tuple(
            MeepleView(
                seat=m[0],
                tile_index=m[1],
                x=state.placed[m[1]][1],
                y=state.placed[m[1]][2],
                spot=TILES[state.placed[m[1]][0]].segments[m[2]].spot,
                feature=TILES[state.placed[m[1]][0]].segments[m[2]].kind,
            )
            for m in state.meeples
        )
        candidates: tuple[CandidateSpot, ...] = ()
        last: PlacedTileView | None = None
        spots: tuple[MeepleSpot, ...] = ()
        if state.phase == "tile":
            by_pos: dict[tuple[int, int], list[int]] = {}
            for x, y, rot in board_of(state.placed).placements(state.drawn):
                by_pos.setdefault((x, y), []).append(rot)
            candidates = tuple(
                CandidateSpot(number=n, x=x, y=y, rotations=tuple(rots))
                for n, ((x, y), rots) in enumerate(by_pos.items(), start=1)
            )
        elif state.phase == "meeple":
            last = tiles[-1]
            segs = TILES[state.placed[-1][0]].segments
            by_spot = {s.spot: s.kind for s in segs}
            spots = tuple(MeepleSpot(spot=s, feature=by_spot[s]) for s in self.meeple_spots(state))
        totals = _totals(state)
        over = state.phase == "over"
        return CarcassonneView(
            seat=seat,
            players=state.players,
            farmers=state.options.farmers,
            tiles=tiles,
            meeples=meeples,
            meeples_left=self.meeples_left(state),
            scores=totals,
            points=state.points,
            tiles_left=len(state.pile),
            discarded=tuple(LETTERS[t] for t in state.discarded),
            turn=None if over else state.turn,
            phase=state.phase,
            drawn=LETTERS[state.drawn] if state.drawn >= 0 else None,
            drawn_edges=ORIENTED[state.drawn][0].edges if state.drawn >= 0 else None,
            candidates=candidates,
            last_tile=last,
            meeple_spots=spots,
            finished=over,
            winners=_winners(totals) if over else (),
        )

    # Text form -----------------------------------------------------------------------------------

    def encode(self, action: CarcAction) -> str:
        if action.kind == "t":
            return f"t.{action.x}_{action.y}.{action.rot}"
        return f"m.{action.spot}"

    def decode(self, text: str) -> CarcAction:
        if not isinstance(text, str):
            raise MalformedAction("an action is text")
        m = _TILE_RE.fullmatch(text)
        action: CarcAction | None = None
        if m:
            action = CarcAction("t", int(m.group(1)), int(m.group(2)), int(m.group(3)))
        else:
            m = _MEEPLE_RE.fullmatch(text)
            if m:
                action = CarcAction("m", spot=m.group(1))
        if action is None or self.encode(action) != text:
            raise MalformedAction(f"not a Carcassonne action: {text!r}")
        return action

    # Checks --------------------------------------------------------------------------------------

    def conserved(self, state: CarcassonneState) -> dict[str, int]:
        in_hand = 1 if state.drawn >= 0 else 0
        return {
            "tiles": len(state.placed) + len(state.pile) + len(state.discarded) + in_hand,
            "meeples": sum(self.meeples_left(state)) + len(state.meeples),
        }

    def secrets(self, state: CarcassonneState, seat: int | None) -> tuple[str, ...]:
        out = [str(state.rng)]
        if len(state.pile) >= _SECRET_MIN:
            out.append("".join(LETTERS[t] for t in state.pile))
        return tuple(out)


def _tile_view(index: int, placement: tuple[int, int, int, int]) -> PlacedTileView:
    ttype, x, y, rot = placement
    return PlacedTileView(index=index, tile=LETTERS[ttype], x=x, y=y, rotation=rot, edges=ORIENTED[ttype][rot].edges)
