"""Condottiere scenarios: the seed's two-player variant (قوانین دونفره), which the engine plays with 2 players.

Seed 000, "§ two players": no board; two identical 23-card decks; hands of 8; played cards leave the game
and each player refills to 8 from their own deck; first to win 3 battles wins; a player out of cards passes
in every later battle; both out of cards: most battles won wins, equal has no winner; no peace token.
RULES.md, رکب: "two players".
"""

from __future__ import annotations

from collections import Counter

from condottiere_support import GAME, act, codes, kinds, legal, make_state, play, public

from rules.condottiere.data import CODE, KIND_OF, KINDS
from rules.condottiere.model import BattleEnded, Dealt, GameEnded, HandDiscarded, NextChooser, Passed


def test_setup_two_decks_of_23_hands_of_8_no_map() -> None:
    """§ two players: each player shuffles an identical 23-card deck and draws 8; the board is not used."""
    state = GAME.setup(2, seed=4)
    assert [len(h) for h in state.hands] == [8, 8]
    assert [len(d) for d in state.decks] == [15, 15]
    assert state.owners == () and state.site == -1
    mine = [Counter(KINDS[KIND_OF[c]].code for c in (*state.hands[s], *state.decks[s])) for s in (0, 1)]
    assert mine[0] == mine[1] and sum(mine[0].values()) == 23 and "co" not in mine[0]
    assert set(state.hands[0]) | set(state.decks[0]) == set(make_state(players=2).decks[0])
    assert sum(GAME.conserved(state).values()) == 46


def test_seat_0_opens_the_first_battle_without_choosing_a_site() -> None:
    """§ two players: no map, so no site to choose: the first battle starts at once with seat 0."""
    state = GAME.setup(2, seed=4)
    assert state.phase == "battle" and GAME.to_act(state) == (0,)
    assert "x" in legal(state)
    view = GAME.view(state, 0)
    assert view.variant == "duel" and view.map is None and view.owners == ()
    assert view.deck_sizes == (15, 15)


def test_played_cards_leave_the_game_and_hands_refill_to_8() -> None:
    """§ two players: after a battle both players put the cards they played out of the game, then draw from
    their own decks back up to 8 cards."""
    state = make_state(players=2, hands={0: "5 6", 1: "3"}, lines={0: "10", 1: "4 dr"}, passed=(1,), last_passer=1)
    step = play(state, "x")
    state = step.state
    assert BattleEnded(battle=1, province=None, reason="passes", strengths=(10, 8), winner=0) in step.events
    assert state.wins == (1, 0)
    assert [len(h) for h in state.hands] == [8, 8]
    assert sorted(codes(state.discard)) == ["10", "4", "dr"]
    assert [len(d) for d in state.decks] == [23 - 3 - 6, 23 - 3 - 7]
    assert Dealt(sizes=(6, 7)) in public(step.events)
    own = [e for e in step.events if isinstance(e, Dealt) and e.audience == 1]
    assert len(own) == 1 and len(own[0].cards) == 7
    assert all(code in [CODE[c] for c in state.hands[1]] for code in own[0].cards)


def test_winner_opens_the_next_battle() -> None:
    """§ winner: the winner of a battle starts the next one."""
    state = make_state(players=2, hands={0: "5", 1: "3"}, lines={1: "10"}, passed=(1,), last_passer=1)
    step = play(state, "x")
    assert NextChooser(seat=1, reason="winner", site=False) in step.events
    assert step.state.phase == "battle" and GAME.to_act(step.state) == (1,)


def test_a_hand_with_no_mercenary_may_be_discarded_and_refilled_to_8() -> None:
    """RULES.md, two players: as in the map game a hand with no mercenary may be discarded; the cards leave
    the game and the hand is refilled to 8 from the player's own deck. A hand with mercenaries is not asked."""
    state = make_state(players=2, hands={0: "bi sc", 1: "3"}, lines={0: "10", 1: "4"}, passed=(1,), last_passer=1)
    state = play(state, "x").state
    assert state.phase == "discard" and GAME.to_act(state) == (0,)
    assert legal(state, 0) == {"d.y", "d.n"}
    out_before = len(state.discard)
    step = act(state, 0, "d.y")
    state = step.state
    discarded = [e for e in step.events if isinstance(e, HandDiscarded)]
    assert [(e.seat, sorted(c.split("#")[0] for c in e.cards), e.forced) for e in discarded] == [
        (0, ["bi", "sc"], False)
    ]
    assert len(state.discard) == out_before + 2
    assert [len(h) for h in state.hands] == [8, 8]
    assert state.phase == "battle" and GAME.to_act(state) == (0,)


def test_a_kept_hand_is_refilled_to_8_as_well() -> None:
    state = make_state(players=2, hands={0: "bi sc", 1: "3"}, lines={0: "10", 1: "4"}, passed=(1,), last_passer=1)
    state = act(play(state, "x").state, 0, "d.n").state
    assert [len(h) for h in state.hands] == [8, 8] and state.phase == "battle"


def test_tie_the_last_player_to_pass_opens_the_next_battle() -> None:
    """§ winner: on a tie nobody wins the battle; the last player to pass starts the next one."""
    state = make_state(players=2, hands={0: "5", 1: "3"}, lines={0: "6", 1: "6"}, turn=1, passed=(0,), last_passer=0)
    step = play(state, "x")
    assert step.state.wins == (0, 0)
    assert GAME.to_act(step.state) == (1,)


def test_bishop_discards_but_has_no_peace_token() -> None:
    """§ two players: the peace token is not used; the Bishop only discards the highest mercenaries, which
    leave the game."""
    state = make_state(players=2, hands={0: "bi", 1: "3"}, lines={0: "5", 1: "10 10"})
    state = play(state, "p.bi").state
    assert state.phase == "battle" and GAME.to_act(state) == (1,)
    assert codes(state.discard) == ["10", "10"]


def test_three_battles_won_wins_the_game() -> None:
    """§ two players: the first player to win 3 battles wins the game."""
    state = make_state(players=2, hands={0: "5", 1: "3"}, lines={0: "10"}, passed=(1,), last_passer=1, wins=(2, 2))
    step = play(state, "x")
    assert step.events[-1] == GameEnded(reason="three_battles", winners=(0,))
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.scores == (3, 2) and outcome.winners == (0,)


def test_a_player_out_of_cards_passes_in_every_battle() -> None:
    """§ two players: a player whose deck and hand are both empty keeps playing without cards, passing in
    every later battle."""
    battle = make_state(players=2, hands={0: "4", 1: "5 6"}, decks={0: "", 1: ""}, lines={1: "2"}, wins=(0, 1))
    step = play(battle, "p.4", "x")  # seat 0 plays its last card; seat 1 passes; seat 0 has none: passes
    assert step.events.count(Passed(seat=0, automatic=True)) == 2  # in this battle and at once in the next
    assert step.state.wins == (1, 1) and step.state.hands[0] == ()
    assert step.state.phase == "battle" and step.state.battle == 2
    assert GAME.to_act(step.state) == (1,)  # seat 0 won and opens the next battle, but has no card
    assert step.state.passed == (True, False)


def test_both_out_of_cards_most_battles_won_wins() -> None:
    """§ two players: if both players run out of cards before anyone wins 3 battles, the most battles won
    wins."""
    state = make_state(players=2, hands={0: "", 1: ""}, decks={0: "", 1: ""}, lines={0: "5"}, wins=(1, 1))
    state = state.model_copy(update={"turn": 1, "passed": (True, False), "last_passer": 0})
    step = play(state, "x")
    assert step.events[-1] == GameEnded(reason="out_of_cards", winners=(0,))


def test_both_out_of_cards_equal_wins_is_a_draw() -> None:
    """§ two players: "in case of a tie the game has no winner": a draw, every seat listed as winner."""
    state = make_state(players=2, hands={0: "", 1: ""}, decks={0: "", 1: ""}, lines={0: "5", 1: "5"}, wins=(1, 1))
    state = state.model_copy(update={"turn": 1, "passed": (True, False), "last_passer": 0})
    step = play(state, "x")
    assert step.events[-1] == GameEnded(reason="out_of_cards", winners=(0, 1))
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.detail["draw"] is True and outcome.scores == (1, 1)


def test_two_player_game_end_to_end() -> None:
    """§ two players, a whole game: seat 0 plays its strongest mercenary each turn, seat 1 always passes;
    seat 0 wins three battles in a row, refilling to 8 after each, and wins the game."""
    state = GAME.setup(2, seed=11)
    battles = actions = 0
    while GAME.to_act(state):
        actions += 1
        assert actions < 200
        (seat,) = GAME.to_act(state)
        offered = legal(state)
        mercenaries = [t for t in offered if t[2:].isdigit()]
        if state.phase == "discard":
            text = "d.n"  # a hand with no mercenary left is kept
        else:
            text = max(mercenaries, key=lambda t: int(t[2:])) if seat == 0 and mercenaries else "x"
        step = play(state, text)
        battles += kinds(step.events).count("battle_ended")
        state = step.state
        assert GAME.conserved(state) == GAME.conserved(GAME.setup(2, seed=11))
        if state.phase == "battle":
            assert all(len(h) <= 8 for h in state.hands)
    assert battles == 3 and state.wins == (3, 0)
    assert state.end_reason == "three_battles" and state.winners == (0,)
    assert state.discard and all(KINDS[KIND_OF[c]].type == "mercenary" for c in state.discard)


def test_two_battles_in_a_row_without_a_card_end_the_game_on_battles_won() -> None:
    """README, termination (interp.): a player left with cards that cannot win (here a lone Surrender, both
    decks empty, the other player out of cards) may pass battle after battle, and nothing would ever change;
    two battles in a row that end with no card played end the game, the most battles won winning."""
    state = make_state(players=2, hands={0: "su", 1: ""}, decks={0: "", 1: ""}, wins=(2, 1))
    step = play(state, "x")  # seat 0 passes, seat 1 has no card: the battle ends with nothing played
    assert step.state.quiet == 1 and step.state.phase == "discard"
    step = act(step.state, 0, "d.n")  # keeps the Surrender: nothing to draw, the next battle opens
    assert step.state.phase == "battle" and GAME.to_act(step.state) == (0,)
    step = play(step.state, "x")
    assert step.events[-1] == GameEnded(reason="stalemate", winners=(0,))
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.scores == (2, 1) and outcome.detail["reason"] == "stalemate"


def test_a_battle_with_a_card_played_starts_the_quiet_count_again() -> None:
    """README, termination: only battles in a row with no card played count; one card is enough to go on."""
    state = make_state(players=2, hands={0: "3 5", 1: "4"}, wins=(1, 1)).model_copy(update={"quiet": 1})
    step = play(state, "p.3", "x", "x")  # seat 0 plays a 3, seat 1 passes, seat 0 passes: seat 0 wins
    assert step.state.wins == (2, 1) and step.state.quiet == 0
    assert step.state.phase == "battle" and not any(isinstance(e, GameEnded) for e in step.events)
