"""Carcassonne scenarios: tiles, set-up, placement, meeples, scoring in play and at the end.

Rules are cited from seed 001 (``/work/shared/seeds/001_*.carcassonne.fa.txt``) as "§ tile", "§ meeple",
"§ score", "§ end"; the project's decisions are RULES.md's ("RULES.md"), and the engine's interpretations
are in ``rules/carcassonne/README.md``. Coordinates: x eastwards, y southwards; rotations clockwise.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from carcassonne_support import FARMERS, GAME, kinds, legal, make_state, placements, play, scored, scores, spots_at

from rules import MalformedAction, NotYourTurn, RuleViolation
from rules.carcassonne import CarcassonneState
from rules.carcassonne.board import board_of
from rules.carcassonne.data import FITS, LETTERS, MEEPLES, ORIENTED, STRIDE, TILES, full_set
from rules.carcassonne.model import CarcAction, TileDiscarded, TileDrawn

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "carcassonne_base_tiles.json"

# -- Tiles and set-up -------------------------------------------------------------------------------


def test_tile_set_counts() -> None:
    """RULES.md: the 72-tile base set of 24 types, 10 with a shield, starting tile D."""
    assert len(TILES) == 24 and LETTERS == "ABCDEFGHIJKLMNOPQRSTUVWX"
    assert len(full_set()) == 72
    assert sum(t.count for t in TILES if t.shield) == 10
    assert sum(t.count for t in TILES if t.monastery) == 6
    raw = json.loads(resources.files("rules.carcassonne").joinpath("tiles.json").read_text(encoding="utf-8"))
    assert raw["_source"]
    if REFERENCE.exists():
        assert raw["tiles"] == json.loads(REFERENCE.read_text(encoding="utf-8"))["tiles"]


def test_rotations_turn_edges_clockwise() -> None:
    """Data convention: rotation r turns the tile r quarter turns clockwise (D: city north -> east)."""
    d = ORIENTED[LETTERS.index("D")]
    assert [o.edges for o in d] == ["crfr", "rcrf", "frcr", "rfrc"]


def test_setup_lays_tile_d_and_draws_one() -> None:
    """RULES.md: starting tile D face up; 71 others shuffled; the first player draws one (public)."""
    state = GAME.setup(3, seed=5)
    assert state.placed == ((LETTERS.index("D"), 0, 0, 0),)
    assert len(state.pile) == 70 and state.drawn >= 0 and state.turn == 0 and state.phase == "tile"
    assert Counter(state.pile) + Counter([state.drawn, state.placed[0][0]]) == Counter(full_set())
    assert GAME.conserved(state) == {"tiles": 72, "meeples": 21}
    assert GAME.view(state, 1).drawn == LETTERS[state.drawn]
    assert GAME.setup(3, seed=6).pile != state.pile


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players: int) -> None:
    """RULES.md: 2–5 players."""
    with pytest.raises(ValueError):
        GAME.setup(players, seed=1)


def test_seven_meeples_each() -> None:
    """RULES.md: 7 meeples per player."""
    assert MEEPLES == 7
    assert GAME.view(GAME.setup(5, seed=1), None).meeples_left == (7,) * 5


# -- Placement ---------------------------------------------------------------------------------------


def test_edges_must_match_in_every_rotation() -> None:
    """§ tile: a tile joins only like to like; every rotation is tried. A straight road next to D."""
    state = make_state([("D", 0, 0, 0)], drawn="U")
    assert placements(state) == {"t.1_0.1", "t.0_1.1", "t.-1_0.1"}  # rotation 3 lays the same road as 1
    assert [GAME.encode(a) for a in GAME.legal_actions(state, 0)][:3] == ["t.-1_0.1.r0", "t.-1_0.1.n", "t.1_0.1.r0"]
    with pytest.raises(RuleViolation):
        play(state, "t.0_-1.0.n")  # road against D's city
    with pytest.raises(RuleViolation):
        play(state, "t.5_5.0.n")  # not next to any tile


def test_candidates_numbered_in_y_x_order() -> None:
    """Interp.: candidate positions are numbered from 1 by (y, x), with their legal rotations and, for each,
    the meeple spots of the tile laid so."""
    state = make_state([("D", 0, 0, 0)], drawn="U", meeples=[(1, 0, "r0")])
    candidates = GAME.view(state, None).candidates
    spots = [(c.number, c.x, c.y, tuple(r.rotation for r in c.rotations)) for c in candidates]
    assert spots == [(1, -1, 0, (1,)), (2, 1, 0, (1,)), (3, 0, 1, (1,))]
    assert [[s.spot for s in r.spots] for r in candidates[0].rotations] == [[]]  # D's road is taken
    assert [(s.spot, s.feature) for s in candidates[2].rotations[0].spots] == [("r0", "road")]


def test_symmetric_tiles_offer_each_laying_once() -> None:
    """Interp.: rotations that lay the very same tile are one choice (B and C once, U and F twice, X once)."""
    rotations = {t: {r for need in FITS[LETTERS.index(t)].values() for r in need} for t in "BCUFHXD"}
    assert rotations == {
        "B": {0},
        "C": {0},
        "U": {0, 1},
        "F": {0, 1},
        "H": {0, 1},
        "X": {0},
        "D": {0, 1, 2, 3},
    }
    state = make_state([("D", 0, 0, 0)], drawn="B")
    assert placements(state) == {"t.0_1.0"}


def test_default_action_is_first_placement_without_meeple() -> None:
    """Interp.: on a time-out the first legal placement is laid, without a meeple."""
    state = make_state([("D", 0, 0, 0)], drawn="U")
    assert GAME.default_action(state, 0) == CarcAction(-1, 0, 1, "n")
    assert GAME.encode(GAME.default_action(state, 0)) == "t.-1_0.1.n"


def test_undrawable_tile_is_discarded_and_replaced() -> None:
    """RULES.md: a tile no player could place is shown, discarded and replaced."""
    state = make_state([("C", 0, 0, 0)], drawn="C", pile="BBEU")  # only city edges stay open: no monastery fits
    step = play(state, "t.1_0.0.n")
    assert kinds(step.events) == ["tile_placed", "tile_discarded", "tile_discarded", "tile_drawn"]
    assert [e.tile for e in step.events if isinstance(e, TileDiscarded)] == ["B", "B"]
    assert isinstance(step.events[-1], TileDrawn) and step.events[-1].seat == 1
    assert LETTERS[step.state.drawn] == "E" and step.state.turn == 1
    assert GAME.view(step.state, None).discarded == ("B", "B")


def test_wrong_seat_and_spots_not_on_the_tile() -> None:
    """Turns: only the seat in turn acts; a meeple only on a spot the laid tile has."""
    state = make_state([("D", 0, 0, 0)], drawn="U")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, GAME.decode("t.1_0.1.n"))
    for text in ("t.1_0.1.c0", "t.1_0.1.m", "t.1_0.1.r1"):  # a straight road has none of these
        with pytest.raises(RuleViolation):
            play(state, text)
    assert play(state, "t.1_0.1.r0").state.turn == 1


def test_encode_decode() -> None:
    """Interp.: a turn is "t.<x>_<y>.<rot>.<spot>" with spot "n" for no meeple; non-canonical text is
    refused."""
    for text in ("t.-12_3.2.n", "t.0_0.0.c0", "t.1_1.3.r2", "t.1_1.0.f1", "t.1_1.0.m"):
        assert GAME.encode(GAME.decode(text)) == text
    bad = ("t.-0_0.0.n", "t.1_1.4.n", "t.01_0.0.n", "t.1_1.0.x0", "t.1_1.0.c", "p.1_1.0.n", "t.1_1.0", "m.n")
    for text in (*bad, "t.1_1.0.n.n"):
        with pytest.raises(MalformedAction):
            GAME.decode(text)


# -- Meeples -----------------------------------------------------------------------------------------


def test_meeple_spots_of_the_new_tile() -> None:
    """§ meeple: a meeple may go on a road, city or monastery of the tile just laid; fields only with
    farmers (RULES.md)."""
    state = make_state([("D", 0, 0, 0)], drawn="A")
    assert spots_at(state, "t.-1_0.3") == {"m", "r0", "n"}  # the field needs farmers
    state = make_state([("D", 0, 0, 0)], drawn="A", options=FARMERS)
    assert spots_at(state, "t.-1_0.3") == {"m", "r0", "f0", "n"}


def test_meeple_blocked_through_a_connection() -> None:
    """§ meeple: not on a feature that already holds a meeple anywhere along it."""
    state = make_state([("D", 0, 0, 0)], drawn="U", meeples=[(0, 0, "r0")], turn=1, options=FARMERS)
    assert spots_at(state, "t.1_0.1") == {"f0", "f1", "n"}
    with pytest.raises(RuleViolation):
        play(state, "t.1_0.1.r0")
    state = make_state([("D", 0, 0, 0)], drawn="U", meeples=[(0, 0, "r0")], turn=1)
    assert spots_at(state, "t.1_0.1") == {"n"}


def test_meeple_blocked_when_the_tile_joins_two_features() -> None:
    """§ meeple: a tile whose one road joins a free road and an occupied one is blocked; its spots are those
    of the tile as laid, found without laying it (checked against laying it in ``test_free_spots_...``)."""
    tiles = [("D", 0, 0, 0), ("V", 2, 0, 1)]  # D's road runs east to (1, 0); V's curve opens west and north
    state = make_state(tiles, drawn="U", meeples=[(1, 1, "r0")])
    assert spots_at(state, "t.1_0.1") == {"n"}  # the straight road joins D's road to the occupied curve
    assert spots_at(state, "t.-1_0.1") == {"r0", "n"}


def test_no_meeple_left_skips_the_choice() -> None:
    """§ meeple: meeples are limited; with none in supply the turn passes after the tile."""
    tiles = [("D", 0, 0, 0)] + [("B", 10 + i, 10, 0) for i in range(7)]
    state = make_state(tiles, drawn="U", meeples=[(0, 1 + i, "m") for i in range(7)])
    assert GAME.view(state, None).meeples_left == (0, 7)
    assert spots_at(state, "t.1_0.1") == {"n"}
    step = play(state, "t.1_0.1.n")
    assert step.state.turn == 1 and kinds(step.events) == ["tile_placed", "tile_drawn"]


# -- Scoring in play ---------------------------------------------------------------------------------


def test_completed_city_scores_and_meeple_returns() -> None:
    """§ score: a closed city scores 2 per tile; the meeple goes back to its owner. A meeple put on the
    tile that closes the city scores at once."""
    state = make_state([("D", 0, 0, 0)], drawn="E")
    step = play(state, "t.0_-1.2.c0")
    assert kinds(step.events)[:3] == ["tile_placed", "meeple_placed", "feature_scored"]
    [event] = scored(step.events)
    assert (event.feature, event.points, event.seats, event.complete) == ("city", 4, (0,), True)
    assert scores(step.state) == (4, 0) and step.state.meeples == ()
    assert GAME.view(step.state, None).meeples_left == (7, 7)


def test_city_shields_count_two() -> None:
    """§ score: +2 per shield in a completed city (RULES.md: no small-city exception)."""
    state = make_state([("D", 0, 0, 0), ("E", 0, -2, 2)], drawn="F", meeples=[(1, 0, "c0")])
    assert spots_at(state, "t.0_-1.1") == {"n"}  # every feature of the tile is taken
    step = play(state, "t.0_-1.1.n")
    assert [(e.points, e.seats) for e in scored(step.events)] == [(2 * 3 + 2, (1,))]


def test_city_closed_by_one_tile_from_three_parts_majority() -> None:
    """§ score: one tile closes a city joining three parts; the majority (2 against 1) takes it all, the
    other meeple returns without points."""
    tiles = [("D", 0, 0, 0), ("E", 1, -1, 3), ("E", -1, -1, 1)]
    state = make_state(tiles, drawn="R", meeples=[(1, 0, "c0"), (0, 1, "c0"), (0, 2, "c0")], turn=1)
    step = play(state, "t.0_-1.2.n")
    [event] = scored(step.events)
    assert (event.points, event.seats, event.returned) == (8, (0,), (2, 1))
    assert scores(step.state) == (8, 0) and step.state.meeples == ()


def test_shared_city_tie_scores_in_full_for_both() -> None:
    """§ score: tied majorities all score in full."""
    state = make_state([("D", 0, 0, 0), ("E", 0, -2, 2)], drawn="G", meeples=[(0, 0, "c0"), (1, 1, "c0")])
    step = play(state, "t.0_-1.1.n")
    assert [(e.points, e.seats) for e in scored(step.events)] == [(6, (0, 1))]
    assert scores(step.state) == (6, 6)


def test_completed_road_scores_one_per_tile() -> None:
    """§ score: a road closed at both ends (monastery, village) scores 1 per tile."""
    state = make_state([("D", 0, 0, 0), ("A", -1, 0, 3)], drawn="A", meeples=[(0, 0, "r0")], turn=1)
    step = play(state, "t.1_0.1.n")
    [event] = scored(step.events)
    assert (event.feature, event.points, event.seats, event.returned) == ("road", 3, (0,), (1, 0))
    assert scores(step.state) == (3, 0)


def test_open_road_does_not_score_in_play() -> None:
    """§ score: only completed features score during play."""
    state = make_state([("D", 0, 0, 0)], drawn="U", meeples=[(0, 0, "r0")], turn=1)
    step = play(state, "t.1_0.1.n")
    assert scored(step.events) == [] and scores(step.state) == (0, 0) and len(step.state.meeples) == 1


def test_loop_road_is_complete() -> None:
    """§ score: a road that loops back on itself is complete."""
    tiles = [("V", 0, 0, 3), ("V", 1, 0, 0), ("V", 1, 1, 1)]
    state = make_state(tiles, drawn="V", meeples=[(0, 0, "r0")], turn=1)
    assert placements(state) >= {"t.0_1.2"}
    step = play(state, "t.0_1.2.n")
    assert [(e.feature, e.points, e.seats) for e in scored(step.events)] == [("road", 4, (0,))]


def test_surrounded_monastery_scores_nine() -> None:
    """§ score: a monastery with all 8 neighbours scores 9 (RULES.md)."""
    ring = [("B", x, y, 0) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) not in ((0, 0), (1, 1))]
    state = make_state([("B", 0, 0, 0), *ring], drawn="B", meeples=[(1, 0, "m")])
    step = play(state, "t.1_1.0.m")  # the new monastery has only 3 neighbours: it stays
    assert [(e.feature, e.points, e.seats) for e in scored(step.events)] == [("monastery", 9, (1,))]
    assert step.state.meeples == ((0, 8, TILES[LETTERS.index("B")].spot_index["m"]),)


# -- The end -----------------------------------------------------------------------------------------


def test_game_ends_with_the_last_tile_and_final_scoring() -> None:
    """§ end: the game ends when the last tile is laid; open roads 1/tile, open cities 1/tile + 1/shield,
    monasteries 1 + 1 per neighbour (a monastery at the edge of the laid area); winners by score."""
    tiles = [("D", 0, 0, 0), ("F", 0, -1, 1), ("B", 0, 1, 0)]
    meeples = [(0, 0, "r0"), (1, 1, "c0"), (1, 2, "m")]
    state = make_state(tiles, drawn="U", pile="", meeples=meeples)
    step = play(state, "t.1_0.1.n")
    assert step.state.phase == "over" and GAME.to_act(step.state) == ()
    got = {(e.feature, e.points, e.seats, e.complete) for e in scored(step.events)}
    assert got == {("road", 2, (0,), False), ("city", 2 + 1, (1,), False), ("monastery", 1 + 2, (1,), False)}
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.scores == (2, 6) and outcome.winners == (1,)
    assert step.events[-1].kind == "game_ended"


def test_tied_final_score_shares_the_win() -> None:
    """§ end: the highest score wins; ties share (RULES.md: winners by score)."""
    state = make_state([("D", 0, 0, 0)], drawn="U", pile="", meeples=[(0, 0, "r0"), (1, 0, "c0")])
    step = play(state, "t.-1_0.1.n")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.scores == (2, 1)
    state = make_state([("D", 0, 0, 0)], drawn="U", pile="")
    outcome = GAME.outcome(play(state, "t.-1_0.1.n").state)
    assert outcome is not None and outcome.winners == (0, 1)


def test_last_tile_discarded_ends_the_game() -> None:
    """RULES.md: the game ends when all tiles are placed or discarded."""
    state = make_state([("C", 0, 0, 0)], drawn="C", pile="B")
    step = play(state, "t.1_0.0.n")
    assert kinds(step.events) == ["tile_placed", "tile_discarded", "game_ended"] and step.state.phase == "over"
    assert GAME.conserved(step.state)["tiles"] == 3


def test_farmers_score_each_completed_city_they_touch() -> None:
    """RULES.md farmers: at the end each field scores 3 per completed city it touches to its majority; a
    city touched by two fields counts for each."""
    tiles = [("H", 0, 0, 0), ("E", 0, -1, 2)]
    meeples = [(0, 0, "f0"), (1, 1, "f0")]
    state = make_state(tiles, drawn="E", pile="", meeples=meeples, options=FARMERS, turn=1)
    step = play(state, "t.0_1.0.n")
    fields = {(e.points, e.seats) for e in scored(step.events) if e.feature == "field"}
    assert fields == {(6, (0,)), (3, (1,))}
    assert step.state.points[0] == (0, 0, 0, 6) and scores(step.state) == (6, 3)


def test_field_not_touching_a_completed_city_scores_nothing() -> None:
    """RULES.md farmers: only completed cities count."""
    state = make_state([("H", 0, 0, 0)], drawn="E", pile="", meeples=[(0, 0, "f0")], options=FARMERS, turn=1)
    step = play(state, "t.0_-1.2.n")  # closes the north city only
    assert [(e.points, e.seats) for e in scored(step.events) if e.feature == "field"] == [(3, (0,))]


def test_farmers_off_by_default() -> None:
    """RULES.md: farmers are a lobby option, off by default."""
    assert GAME.options_model().farmers is False
    state = make_state([("D", 0, 0, 0)], drawn="U")
    assert all(".f" not in code for code in legal(state))


# -- Views and speed ---------------------------------------------------------------------------------


def test_view_hides_only_the_draw_order() -> None:
    """Views: the board, meeples, scores and drawn tile are public; the pile's order is not."""
    state = GAME.setup(2, seed=3)
    text = GAME.view(state, 0).model_dump_json()
    for secret in GAME.secrets(state, 0):
        assert secret not in text
    view = GAME.view(state, None)
    assert view.tiles_left == 70 and view.tiles[0].tile == "D" and view.candidates


def _spots_by_laying(state: CarcassonneState, x: int, y: int, rot: int) -> list[str]:
    """The meeple spots the slow way: lay the tile, then test each of its segments' features."""
    board = board_of((*state.placed, (state.drawn, x, y, rot)))
    index = len(state.placed)
    occupied = {board.find(m[1] * STRIDE + m[2]) for m in state.meeples}
    return [
        seg.spot
        for i, seg in enumerate(TILES[state.drawn].segments)
        if (seg.kind != "field" or state.options.farmers) and board.find(index * STRIDE + i) not in occupied
    ]


@pytest.mark.parametrize("seed", range(3))
def test_free_spots_match_laying_the_tile(seed: int) -> None:
    """The meeple spots found without laying the tile equal those found by laying it, for every placement
    of every turn of random games (farmers on, many meeples)."""
    state = GAME.setup(4, seed=seed, options=FARMERS)
    turns = 0
    while GAME.outcome(state) is None:
        board = board_of(state.placed)
        left = GAME.meeples_left(state)[state.turn]
        for x, y, rot in board.placements(state.drawn):
            expected = _spots_by_laying(state, x, y, rot) if left else []
            assert GAME.free_spots(state, board, x, y, rot) == expected
        actions = GAME.legal_actions(state, state.turn)
        state = GAME.apply(state, state.turn, actions[(seed + 7 * turns) % len(actions)]).state
        turns += 1
    assert len(state.meeples) > 4


def test_city_through_the_same_tile_twice_counts_it_once() -> None:
    """Interp. (official): a city that runs round and enters one tile by two caps counts that tile once."""
    tiles = [("I", 0, 0, 0), ("N", 0, -1, 2), ("N", -1, -1, 1)]  # I's caps north and west, joined round
    state = make_state(tiles, drawn="N", meeples=[(0, 0, "c0")])
    step = play(state, "t.-1_0.0.n")
    [event] = scored(step.events)
    assert (event.feature, event.points, event.seats, len(event.tiles)) == ("city", 4 * 2, (0,), 4)


def test_farmers_tied_on_one_field_both_score() -> None:
    """RULES.md farmers: tied majorities on a field each score in full (3 per completed city)."""
    tiles = [("H", 0, 0, 0), ("E", 1, 0, 1)]  # H's field runs east into E's field; E's city faces east
    meeples = [(0, 0, "f0"), (1, 1, "f0")]
    state = make_state(tiles, drawn="E", pile="", meeples=meeples, options=FARMERS)
    step = play(state, "t.0_-1.2.n")  # closes H's northern city; the game ends
    assert [(e.points, e.seats) for e in scored(step.events) if e.feature == "field"] == [(3, (0, 1))]
    assert [p[3] for p in step.state.points] == [3, 3]
