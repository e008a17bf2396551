"""Splendor scenarios: the end of a turn (ten tokens, nobles), the end of the game, tie-breaks and passing.

Rules are cited from the Persian rulebook (seed 003, "the seed") and the Splendor section of RULES.md.
"""

from __future__ import annotations

import pytest
from splendor_support import GAME, card, cards_with_bonus, kinds, legal, make_state, play, tokens

from rules import RuleViolation
from rules.splendor.model import FinalRound, GameEnded, NobleVisited, Passed, TokensReturned

# -- Ten tokens -----------------------------------------------------------------------------------------


def test_more_than_ten_tokens_are_returned_by_the_same_player() -> None:
    """Seed, tokens: no one may hold more than 10 tokens (gold included) at the end of the turn; the player
    chooses which to give back, the ones just taken included (RULES.md: checked at the end of the turn)."""
    state = make_state(held=["w3 b3 g3", ""])
    step = play(state, "t.w.b.r")
    after = step.state
    assert GAME.to_act(after) == (0,) and after.phase == "return"
    assert GAME.view(after, None).to_return == 2
    assert legal(after) == {"g.w.w", "g.w.b", "g.w.g", "g.w.r", "g.b.b", "g.b.g", "g.b.r", "g.g.g", "g.g.r"}
    done = play(after, "g.w.r")  # one of the white and the red just taken
    assert done.events == (TokensReturned(seat=0, tokens=tokens("w1 r1")),)
    assert done.state.tokens[0] == tokens("w3 b4 g3")
    assert sum(done.state.tokens[0]) == 10
    assert GAME.to_act(done.state) == (1,) and done.state.phase == "act"


def test_exactly_ten_tokens_need_no_return() -> None:
    """Seed, tokens: ten is allowed; only more than ten must be returned."""
    step = play(make_state(held=["w3 b3 g1", ""]), "t.w.b.r")
    assert sum(step.state.tokens[0]) == 10
    assert GAME.to_act(step.state) == (1,)


def test_a_gold_from_reserving_can_be_returned() -> None:
    """Seed, tokens: gold counts towards the ten, and the returned tokens are the player's choice."""
    state = make_state(held=["w4 b3 g3", ""])
    after = play(state, "r.1.0").state
    assert after.phase == "return"
    assert legal(after) == {"g.w", "g.b", "g.g", "g.y"}
    assert play(after, "g.y").state.tokens[0] == tokens("w4 b3 g3")


def test_return_refused_unless_exactly_the_excess_of_held_tokens() -> None:
    """Seed, tokens: the player returns tokens until ten are left: no more, no fewer, only tokens held;
    nothing else can be done meanwhile."""
    after = play(make_state(held=["w3 b3 g3", ""]), "t.w.b.r").state
    for text in ("g.w", "g.w.w.w", "g.k.k", "t.w.b.g", "p"):
        with pytest.raises(RuleViolation):
            play(after, text)


# -- Nobles ---------------------------------------------------------------------------------------------


def test_a_noble_visits_at_the_end_of_the_turn() -> None:
    """Seed, nobles: at the end of their turn a player whose bonuses meet a noble's requirements receives it
    automatically: 3 points, the tile leaves the table."""
    w4 = card("W4")  # costs 3 blue, white bonus
    bought = (*cards_with_bonus("w", 3), *cards_with_bonus("b", 4))  # noble 3 asks 4 white and 4 blue
    state = make_state(held=["b3", ""], bought=[bought, ()], rows=[(w4, 0, 0, 0), (), ()], nobles=(3, 5))
    step = play(state, "b.1.0")
    assert kinds(step.events) == ["bought", "dealt", "noble"]
    assert step.events[-1] == NobleVisited(seat=0, noble="n03", chosen=False)
    assert step.state.points[0] == 3 and step.state.visitors[0] == (3,)
    assert step.state.nobles == (5,)
    assert GAME.to_act(step.state) == (1,)


def test_a_noble_visits_after_any_action() -> None:
    """Seed, nobles: the check is at the end of every turn, whatever the action."""
    state = make_state(bought=[(*cards_with_bonus("w", 4), *cards_with_bonus("b", 4)), ()], nobles=(3,))
    step = play(state, "t.g.r.k")
    assert step.events[-1] == NobleVisited(seat=0, noble="n03", chosen=False)


def test_the_player_chooses_between_two_nobles_and_gets_one() -> None:
    """Seed, nobles: a player who could receive two nobles at the end of the turn chooses one of them; the
    visit cannot be refused (no other action is offered)."""
    bla5 = card("BLA5")  # costs 3 green, black bonus
    bought = (
        *cards_with_bonus("w", 3),
        *cards_with_bonus("b", 3),
        *cards_with_bonus("g", 3),
        *cards_with_bonus("k", 2),
    )
    state = make_state(held=["g3", ""], bought=[bought, ()], rows=[(bla5, 0, 0, 0), (), ()], nobles=(4, 7, 10))
    after = play(state, "b.1.0").state  # now w3 b3 g3 k3: noble 4 (w3 b3 k3) and noble 7 (w3 b3 g3)
    assert after.phase == "noble" and GAME.to_act(after) == (0,)
    assert legal(after) == {"n.4", "n.7"}
    assert GAME.view(after, None).noble_choices == ("n04", "n07")
    for text in ("p", "t.w.b.r", "n.10"):
        with pytest.raises(RuleViolation):
            play(after, text)
    step = play(after, "n.7")
    assert step.events == (NobleVisited(seat=0, noble="n07", chosen=True),)
    assert step.state.visitors[0] == (7,) and step.state.nobles == (4, 10)
    assert step.state.points[0] == 3
    assert GAME.to_act(step.state) == (1,)


def test_a_second_qualifying_noble_visits_at_the_end_of_a_later_turn() -> None:
    """Seed, nobles: at most one noble per turn; one left behind can come at the end of the player's next
    turn (it is still on the table and the requirements still met)."""
    bought = (
        *cards_with_bonus("w", 3),
        *cards_with_bonus("b", 3),
        *cards_with_bonus("g", 3),
        *cards_with_bonus("k", 3),
    )
    state = make_state(bought=[bought, ()], nobles=(4,), visitors=[(7,), ()])
    step = play(state, "t.w.b.r")
    assert step.events[-1] == NobleVisited(seat=0, noble="n04", chosen=False)
    assert step.state.points[0] == 6


def test_the_noble_comes_after_the_tokens_are_returned() -> None:
    """Seed: both the ten-token limit and the noble visit are at the end of the turn: first the return, then
    the visit."""
    bonuses = (*cards_with_bonus("w", 4), *cards_with_bonus("b", 4))
    state = make_state(held=["w3 b3 g3", ""], bought=[bonuses, ()], nobles=(3,))
    after = play(state, "t.w.b.r").state
    assert after.phase == "return" and after.visitors[0] == ()
    step = play(after, "g.w.w")
    assert kinds(step.events) == ["returned", "noble"]


# -- The end -------------------------------------------------------------------------------------------


def test_reaching_fifteen_finishes_the_round() -> None:
    """Seed, end: when a player reaches 15 points the round is played to its end, so that all have had the
    same number of turns (RULES.md); then the game ends."""
    w8 = card("W8")  # 1 point, costs 4 green
    state = make_state(players=3, held=["g4", "", ""], rows=[(w8, 0, 0, 0), (), ()], points=[14, 0, 0])
    step = play(state, "b.1.0")
    assert FinalRound(seat=0, points=15) in step.events
    assert step.state.final_round and not step.state.finished
    assert GAME.to_act(step.state) == (1,)
    step = play(step.state, "t.w.b.r")
    assert GAME.to_act(step.state) == (2,)
    step = play(step.state, "t.w.b.r")
    assert step.events[-1] == GameEnded(reason="points")
    assert GAME.to_act(step.state) == ()
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (15, 0, 0)


def test_the_last_seat_reaching_fifteen_ends_the_game_at_once() -> None:
    """Seed, end: the round is already complete after the last player's turn."""
    w8 = card("W8")
    state = make_state(players=2, held=["", "g4"], rows=[(w8, 0, 0, 0), (), ()], points=[0, 14], turn=1)
    step = play(state, "b.1.0")
    assert kinds(step.events)[-2:] == ["final_round", "game_ended"]
    assert GAME.outcome(step.state) is not None


def test_later_players_can_overtake_in_the_final_round() -> None:
    """Seed, end: the most points wins when the round is over, not the first to reach 15."""
    w8 = card("W8")
    state = make_state(
        players=2, held=["", "g4"], rows=[(w8, 0, 0, 0), (), ()], points=[15, 15], turn=1, final_round=True
    )
    step = play(state, "b.1.0")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.scores == (15, 16) and outcome.winners == (1,)


def _finish(points: list[int], cards: list[int]) -> tuple[int, ...]:
    """The winners when the final round ends with these points and these numbers of bought cards."""
    bought = [cards_with_bonus("wbgrk"[seat], n) for seat, n in enumerate(cards)]
    state = make_state(players=len(points), bought=bought, points=points, final_round=True, turn=len(points) - 1)
    step = play(state, "t.w.b.g")
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    return outcome.winners


def test_most_points_wins() -> None:
    """Seed, end: the player with the most prestige points wins (nobles' points included)."""
    assert _finish([16, 15, 17], [5, 5, 5]) == (2,)


def test_tie_broken_by_fewer_development_cards() -> None:
    """Seed, end: on equal points, the player who bought fewer development cards wins."""
    assert _finish([16, 16, 12], [6, 5, 2]) == (1,)


def test_tie_on_points_and_cards_is_a_shared_win() -> None:
    """RULES.md, end: still tied after the card count, the tied players share the win."""
    assert _finish([16, 16, 12], [5, 5, 2]) == (0, 1)


# -- No legal action -------------------------------------------------------------------------------


def test_pass_only_when_no_other_action_is_possible() -> None:
    """RULES.md, no legal action: the player passes, and pass is offered only then."""
    state = make_state(bank="y5", held=["", "w1"], reserved=[(71, 72, 73), (74,)])
    assert legal(state) == {"p"}
    step = play(state, "p")
    assert step.events == (Passed(seat=0),)
    assert GAME.to_act(step.state) == (1,)
    assert "p" not in legal(step.state)  # seat 1 can still reserve
    with pytest.raises(RuleViolation):
        play(step.state, "p")


def test_every_player_passing_in_a_round_ends_the_game() -> None:
    """RULES.md, no legal action: if every player passes in one round the game ends, scored as at the normal
    end (most points; tie: fewer cards)."""
    state = make_state(
        bank="",
        bought=[(card("W8"),), (card("BLU8"), card("GR1"))],
        reserved=[(71, 72, 73), (74, 75, 76)],
        rows=[(), (), ()],
        decks=[(), (), ()],
    )
    step = play(state, "p", "p")
    assert kinds(step.events) == ["passed", "passed", "game_ended"]
    assert step.events[-1] == GameEnded(reason="no_moves")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.scores == (1, 1) and outcome.winners == (0,)
    assert outcome.detail["reason"] == "no_moves"


def test_passes_spread_over_two_rounds_do_not_end_the_game() -> None:
    """RULES.md, no legal action: only a round (seat 0 to the last seat) in which every player passed ends
    the game *(interp.: the round as in the end rule)*."""
    state = make_state(bank="", reserved=[(71, 72, 73), (74, 75, 76)], rows=[(), (), ()], decks=[(), (), ()], turn=1)
    step = play(state, "p")  # seat 1 passes; the round ends, seat 0 had not passed in it
    assert not step.state.finished and step.state.round == 2
    step = play(step.state, "p", "p")
    assert step.state.finished


# -- Stalled games ---------------------------------------------------------------------------------


def test_ten_rounds_without_a_card_bought_or_reserved_end_the_game() -> None:
    """Ours, the end: when nobody has bought or reserved a card in ten rounds in a row, the game ends at the end
    of the tenth and is scored as at the normal end (two players who can buy nothing would trade gems forever)."""
    state = make_state(bought=[(card("W8"),), (card("BLU8"), card("GR1"))]).model_copy(update={"quiet_turns": 18})
    step = play(state, "t.w.b.g")
    assert step.state.quiet_turns == 19 and not step.state.finished
    step = play(step.state, "t.w.b.g")
    assert step.state.quiet_turns == 20
    assert kinds(step.events)[-1] == "game_ended" and step.events[-1] == GameEnded(reason="stalled")
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.detail["reason"] == "stalled"


def test_a_stalled_run_ends_only_with_a_round() -> None:
    """Ours, the end: the ten rounds are counted in turns, but the game ends only after the last seat's turn,
    so that every player had as many turns."""
    state = make_state(players=3, turn=1).model_copy(update={"quiet_turns": 29})
    step = play(state, "t.w.b.g")
    assert step.state.quiet_turns == 30 and not step.state.finished and step.state.turn == 2
    assert play(step.state, "t.w.b.r").events[-1] == GameEnded(reason="stalled")


def test_a_buy_or_a_reserve_starts_the_count_again() -> None:
    """Ours, the end: a card bought or reserved, from the table, a deck or the reserve, is a turn that counts
    as progress; a reserve whose gold must be given back counts as well (the return is part of its turn)."""
    quiet = {"quiet_turns": 19}
    state = make_state(held=["w4 b3 g3", ""]).model_copy(update=quiet)
    step = play(state, "r.1.0", "g.y")
    assert step.state.quiet_turns == 0 and step.state.turn == 1
    step = play(step.state, "t.g.r.k")
    assert step.state.quiet_turns == 1 and not step.state.finished
    rich = make_state(held=["w7 b7 g7 r7 k7", ""], bank="", reserved=[(card("W8"),), ()]).model_copy(update=quiet)
    for move in ("b.1.0", "b.h.0", "r.2.d"):
        assert play(rich, move).state.quiet_turns == 0
