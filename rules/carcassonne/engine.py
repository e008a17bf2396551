"""Carcassonne (قلعه رودخان), base game, as the Persian rulebook gives it with RULES.md's decisions."""

from __future__ import annotations

import functools
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
    PlacementChoice,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from rules.carcassonne.scoring import apply_scores, completed, final
from rules.contract import Event, GameOver, MalformedAction, NotYourTurn, Outcome, RuleViolation, Step
from rules.evolve import evolve

_ACTION_RE = re.compile(r"t\.(-?[0-9]{1,3})_(-?[0-9]{1,3})\.([0-3])\.(n|m|[crf][0-7])")
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

    def free_spots(self, state: CarcassonneState, board: Board, x: int, y: int, rot: int) -> list[str]:
        """Spots of the drawn tile laid at (x, y) turned ``rot`` that a meeple may take (see ``_free``)."""
        if self.meeples_left(state)[state.turn] <= 0:
            return []
        return _free(board, state.drawn, x, y, rot, _occupied(board, state.meeples), state.options.farmers)

    def choices(self, state: CarcassonneState) -> tuple[tuple[int, int, int, tuple[str, ...]], ...]:
        """Every legal (x, y, rotation, meeple spots) of the drawn tile, by (y, x, rotation). Memoised on
        what it depends on, since the legal actions and every view of a position need it."""
        left = self.meeples_left(state)[state.turn] > 0
        return _choices(state.placed, state.drawn, state.meeples, left, state.options.farmers)

    def legal_actions(self, state: CarcassonneState, seat: int) -> list[CarcAction]:
        """Placements by (y, x, rotation); for each, its meeple spots in the tile's segment order, then none."""
        if state.phase == "over" or seat != state.turn:
            return []
        out: list[CarcAction] = []
        for x, y, rot, spots in self.choices(state):
            out.extend(_actions(x, y, rot, spots))
        return out

    def default_action(self, state: CarcassonneState, seat: int) -> CarcAction:
        """On a time-out: the first legal placement (by y, then x, then rotation), without a meeple."""
        x, y, rot = board_of(state.placed).placements(state.drawn)[0]
        return CarcAction(x, y, rot)

    # Applying actions --------------------------------------------------------------------------

    def apply(self, state: CarcassonneState, seat: int, action: CarcAction) -> Step[CarcassonneState]:
        """A whole turn (seed § tile, § meeple, § score): lay the tile, maybe a meeple, score, draw."""
        if state.phase == "over":
            raise GameOver("the game is over")
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn")
        if not isinstance(action, CarcAction):
            raise MalformedAction("not a Carcassonne action")
        board = board_of(state.placed)
        if not board.fits(state.drawn, action.x, action.y, action.rot):
            raise RuleViolation("the tile does not fit there: every edge must match its neighbour")
        if action.spot != "n" and action.spot not in self.free_spots(state, board, action.x, action.y, action.rot):
            raise RuleViolation("no meeple may go there")
        ttype = state.drawn
        placed = (*state.placed, (ttype, action.x, action.y, action.rot))
        events: list[Event] = [
            TilePlaced(seat=state.turn, tile=LETTERS[ttype], x=action.x, y=action.y, rotation=action.rot)
        ]
        meeples = state.meeples
        if action.spot != "n":
            seg_index = TILES[ttype].spot_index[action.spot]
            meeples = (*meeples, (state.turn, len(placed) - 1, seg_index))
            kind = TILES[ttype].segments[seg_index].kind
            events.append(MeeplePlaced(seat=state.turn, x=action.x, y=action.y, spot=action.spot, feature=kind))
        state = evolve(state, placed=placed, drawn=-1, meeples=meeples)
        state, more = self._end_turn(state, board_of(placed))
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
        """Everything but the pile's order. The parts are frozen and memoised, since a game's views repeat
        nearly all of the previous position's."""
        tiles = tuple(_tile_view(i, p) for i, p in enumerate(state.placed))
        meeples = tuple(_meeple_view(m, state.placed[m[1]]) for m in state.meeples)
        candidates: tuple[CandidateSpot, ...] = ()
        if state.phase == "tile":
            candidates = _candidates(state.drawn, self.choices(state))
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
            last_tile=tiles[-1] if len(tiles) > 1 else None,
            finished=over,
            winners=_winners(totals) if over else (),
        )

    # Text form -----------------------------------------------------------------------------------

    def encode(self, action: CarcAction) -> str:
        return f"t.{action.x}_{action.y}.{action.rot}.{action.spot}"

    def decode(self, text: str) -> CarcAction:
        if not isinstance(text, str):
            raise MalformedAction("an action is text")
        m = _ACTION_RE.fullmatch(text)
        if m is None:
            raise MalformedAction(f"not a Carcassonne action: {text!r}")
        action = CarcAction(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4))
        if self.encode(action) != text:  # e.g. "-0" or a leading zero
            raise MalformedAction(f"not a Carcassonne action: {text!r}")
        return action

    # Checks --------------------------------------------------------------------------------------

    def conserved(self, state: CarcassonneState) -> dict[str, int]:
        in_hand = 1 if state.drawn >= 0 else 0
        return {
            "tiles": len(state.placed) + len(state.pile) + len(state.discarded) + in_hand,
            "meeples": sum(self.meeples_left(state)) + len(state.meeples),
        }

    def determinize(self, state: CarcassonneState, seat: int, seed: int) -> CarcassonneState:
        """The draw order of the tiles left is hidden (which tiles are left is not): shuffled anew."""
        seed, future = rng.reseeded(seed)
        seed, (pile,) = rng.dealt(seed, list(state.pile), [len(state.pile)])
        return evolve(state, rng=future, pile=pile)

    def secrets(self, state: CarcassonneState, seat: int | None) -> tuple[str, ...]:
        out = [str(state.rng)]
        if len(state.pile) >= _SECRET_MIN:
            out.append("".join(LETTERS[t] for t in state.pile))
        return tuple(out)


def _occupied(board: Board, meeples: tuple[tuple[int, int, int], ...]) -> set[int]:
    """The roots of the features that hold a meeple."""
    return {board.find(m[1] * STRIDE + m[2]) for m in meeples}


def _free(board: Board, ttype: int, x: int, y: int, rot: int, occupied: set[int], farmers: bool) -> list[str]:
    """Spots of a tile laid at (x, y) turned ``rot`` that a meeple may take: not on a feature already occupied
    through any connection, fields only with farmers. Computed from the board before the tile is laid, so
    listing every placement's spots stays cheap."""
    joins = board.joins(ttype, x, y, rot)
    return [
        seg.spot
        for seg, roots in zip(TILES[ttype].segments, joins, strict=True)
        if (seg.kind != "field" or farmers) and not roots & occupied
    ]


@functools.lru_cache(maxsize=256)
def _choices(
    placed: tuple[tuple[int, int, int, int], ...],
    ttype: int,
    meeples: tuple[tuple[int, int, int], ...],
    has_meeple: bool,
    farmers: bool,
) -> tuple[tuple[int, int, int, tuple[str, ...]], ...]:
    board = board_of(placed)
    if not has_meeple:
        return tuple((x, y, rot, ()) for x, y, rot in board.placements(ttype))
    occupied = _occupied(board, meeples)
    held = {index for root in occupied for index in board.tiles[root]}  # tiles of occupied features
    grid = board.grid
    every = _spots(ttype, farmers)
    out = []
    for x, y, rot in board.placements(ttype):
        # its neighbours towards N, E, S, W (data.STEP), written out: this runs for every placement of a search
        near = (grid.get((x, y - 1)), grid.get((x + 1, y)), grid.get((x, y + 1)), grid.get((x - 1, y)))
        if held.isdisjoint(near):  # no feature it can join holds a meeple: every spot is free
            out.append((x, y, rot, every))
        else:
            out.append((x, y, rot, tuple(_free(board, ttype, x, y, rot, occupied, farmers))))
    return tuple(out)


@functools.lru_cache(maxsize=1 << 14)
def _actions(x: int, y: int, rot: int, spots: tuple[str, ...]) -> tuple[CarcAction, ...]:
    """A placement's actions: a meeple on each spot, then none. Kept, since a search lists the same placements
    over and over and building the actions was a fifth of its time (16,384 placements: at most about 11 MB)."""
    return (*(CarcAction(x, y, rot, spot) for spot in spots), CarcAction(x, y, rot))


@functools.cache
def _spots(ttype: int, farmers: bool) -> tuple[str, ...]:
    """A tile's spots a meeple may take where none of its features is occupied (fields only with farmers)."""
    return tuple(seg.spot for seg in TILES[ttype].segments if seg.kind != "field" or farmers)


@functools.lru_cache(maxsize=256)
def _candidates(ttype: int, choices: tuple[tuple[int, int, int, tuple[str, ...]], ...]) -> tuple[CandidateSpot, ...]:
    kinds = {seg.spot: seg.kind for seg in TILES[ttype].segments}
    by_pos: dict[tuple[int, int], list[PlacementChoice]] = {}
    for x, y, rot, free in choices:
        spots = tuple(MeepleSpot(spot=s, feature=kinds[s]) for s in free)
        by_pos.setdefault((x, y), []).append(PlacementChoice(rotation=rot, spots=spots))
    return tuple(
        CandidateSpot(number=n, x=x, y=y, rotations=tuple(rotations))
        for n, ((x, y), rotations) in enumerate(by_pos.items(), start=1)
    )


@functools.lru_cache(maxsize=1024)
def _meeple_view(meeple: tuple[int, int, int], placement: tuple[int, int, int, int]) -> MeepleView:
    seat, index, segment = meeple
    ttype, x, y, _ = placement
    seg = TILES[ttype].segments[segment]
    return MeepleView(seat=seat, tile_index=index, x=x, y=y, spot=seg.spot, feature=seg.kind)


@functools.lru_cache(maxsize=8192)
def _tile_view(index: int, placement: tuple[int, int, int, int]) -> PlacedTileView:
    ttype, x, y, rot = placement
    return PlacedTileView(index=index, tile=LETTERS[ttype], x=x, y=y, rotation=rot, edges=ORIENTED[ttype][rot].edges)
