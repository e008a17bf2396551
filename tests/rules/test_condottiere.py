"""Condottiere scenarios: set-up, choosing the battle site, the turn order of a battle, views and text actions.

Rulebook points are cited from seed 000 (``/work/shared/seeds/000_*.condottiere-rakab.fa.txt``) as
"§ set-up", "§ site", "§ battle", "§ pass", "§ end of battle", "§ winner", "§ regroup", "§ end",
"§ specials", "§ order", "§ two players"; the project's decisions are RULES.md's, the engine's own
interpretations are in ``rules/condottiere/README.md``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from condottiere_support import GAME, codes, kinds, legal, make_state, play, province

from rules import GAMES, GameOver, MalformedAction, NotYourTurn, RuleViolation
from rules.condottiere import Condottiere, CondottiereOptions
from rules.condottiere.data import BOARDS, CODE, KINDS
from rules.condottiere.model import CardPlayed, Passed, SiteChosen

# -- Registration and set-up ------------------------------------------------------------------------


def test_registered_for_two_to_six_players() -> None:
    """رکب is registered as "condottiere" for 2 to 6 players (3–6 on the map, 2 the seed's variant)."""
    game = GAMES["condottiere"]
    assert isinstance(game, Condottiere)
    assert (game.min_players, game.max_players) == (2, 6)
    assert game.title == "رکب"
    for players in (1, 7):
        with pytest.raises(ValueError):
            game.setup(players, seed=1)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_deals_ten_cards_to_each_player(players: int) -> None:
    """§ set-up: shuffle all the cards and deal 10 to each player; the rest is the deck beside the board."""
    state = GAME.setup(players, seed=5)
    assert [len(h) for h in state.hands] == [10] * players
    assert len(state.decks) == 1 and len(state.decks[0]) == 110 - 10 * players
    assert all(owner == -1 for owner in state.owners) and state.peace == -1
    assert GAME.conserved(state) == {k.code: k.count for k in KINDS}


def test_seat_0_chooses_the_first_site_among_all_provinces() -> None:
    """RULES.md: seat 0 starts (the lobby's creator); § site: in the first battle the site may be any
    province."""
    state = GAME.setup(4, seed=2)
    assert GAME.to_act(state) == (0,)
    assert state.phase == "site"
    assert legal(state) == {f"s.{i}" for i in range(14)}


def test_classic_map_option_uses_the_17_regions() -> None:
    """RULES.md option: the classic 17-region map; the default is the 14-province map of the رکب rules."""
    assert CondottiereOptions().classic_map is False
    state = GAME.setup(3, seed=2, options=CondottiereOptions(classic_map=True))
    assert len(state.owners) == 17
    assert legal(state) == {f"s.{i}" for i in range(17)}
    assert GAME.view(state, None).map == "italy_17"
    assert GAME.view(GAME.setup(3, seed=2), None).map == "rekab_14"


def test_setup_is_seeded() -> None:
    """The shuffle is random but seeded: the same seed deals the same hands, other seeds others."""
    assert GAME.setup(3, seed=9) == GAME.setup(3, seed=9)
    assert len({GAME.setup(3, seed).hands for seed in range(20)}) == 20


# -- Choosing the battle site -----------------------------------------------------------------------


def test_site_must_be_free_no_marker_no_peace_token() -> None:
    """§ site and RULES.md: the battle is fought over a free province (no control marker, no peace token)."""
    state = make_state(
        phase="site", turn=1, chooser=1, owners={"bella": 0, "lia": 2}, peace="enna", hands={0: "1", 1: "2", 2: "3"}
    )
    offered = legal(state)
    assert f"s.{province('bella')}" not in offered
    assert f"s.{province('lia')}" not in offered
    assert f"s.{province('enna')}" not in offered
    assert len(offered) == 11
    with pytest.raises(RuleViolation):
        play(state, f"s.{province('enna')}")


def test_the_chooser_opens_the_battle_and_play_goes_clockwise() -> None:
    """§ battle: the player who chose the site plays first, then the turn goes clockwise (seat order)."""
    state = make_state(phase="site", turn=2, chooser=2, hands={0: "1 1", 1: "2 2", 2: "3 3"})
    step = play(state, f"s.{province('rollo')}")
    assert step.events == (SiteChosen(seat=2, province=province("rollo"), province_id="rollo"),)
    state = step.state
    assert (state.phase, state.site, GAME.to_act(state)) == ("battle", province("rollo"), (2,))
    state = play(state, "p.3").state
    assert GAME.to_act(state) == (0,)
    state = play(state, "p.1").state
    assert GAME.to_act(state) == (1,)
    state = play(state, "p.2").state
    assert GAME.to_act(state) == (2,)


# -- Playing and passing ----------------------------------------------------------------------------


def test_one_action_per_distinct_card_kind_and_pass() -> None:
    """§ battle: play a card or pass; cards of one kind are interchangeable, so each kind is offered once."""
    state = make_state(hands={0: "5 5 5 10 bi sc sc wi", 1: "1", 2: "1"})
    assert legal(state) == {"p.5", "p.10", "p.bi", "p.sc", "p.wi", "x"}


def test_playing_puts_the_card_in_the_players_line() -> None:
    """§ playing a card: the card goes face up in front of the player, beside the others, forming the line."""
    state = make_state(hands={0: "5 6", 1: "1", 2: "1"}, lines={0: "2"})
    step = play(state, "p.6")
    assert codes(step.state.lines[0]) == ["2", "6"]
    assert codes(step.state.hands[0]) == ["5"]
    assert step.events == (CardPlayed(seat=0, card="6#01"),)


def test_a_card_not_in_hand_is_refused() -> None:
    """§ playing a card: only a card from the player's own hand."""
    state = make_state(hands={0: "5", 1: "10", 2: "1"})
    with pytest.raises(RuleViolation):
        play(state, "p.10")
    assert "p.10" not in legal(state)


def test_passing_is_final_for_the_battle() -> None:
    """§ pass: a player who passes plays no more cards in this battle, but stays in it with their line."""
    state = make_state(hands={0: "5 5", 1: "4 4", 2: "3 3"}, lines={0: "6"})
    state = play(state, "x", "p.4").state
    assert GAME.to_act(state) == (2,)
    state = play(state, "p.3").state
    assert GAME.to_act(state) == (1,)  # seat 0 is skipped
    assert GAME.legal_actions(state, 0) == []
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, GAME.decode("p.5"))
    assert GAME.view(state, None).strengths[0] == 6


def test_the_last_player_in_the_battle_keeps_playing() -> None:
    """§ end of battle: the battle ends only when everyone has passed; until then the others' passes leave
    the turn with the remaining player."""
    state = make_state(hands={0: "5 5", 1: "4", 2: "3"}, passed=(1, 2), last_passer=2)
    state = play(state, "p.5").state
    assert GAME.to_act(state) == (0,) and state.phase == "battle"
    state = play(state, "p.5").state  # last card: seat 0 passes at once, and the battle ends
    assert state.phase != "battle"


def test_a_player_without_cards_passes_automatically() -> None:
    """§ pass: a player with no card left must pass; the engine passes for them when their turn comes."""
    state = make_state(hands={0: "5", 1: "", 2: "3"})
    step = play(state, "p.5")
    assert step.events[1] == Passed(seat=1, automatic=True)
    assert GAME.to_act(step.state) == (2,)
    assert step.state.passed == (False, True, False)


def test_finished_game_refuses_actions() -> None:
    """After the end no one acts: apply raises GameOver."""
    state = make_state(hands={0: "5", 1: "1", 2: "1"}).model_copy(update={"phase": "over", "winners": (0,)})
    assert GAME.to_act(state) == ()
    with pytest.raises(GameOver):
        GAME.apply(state, 0, GAME.decode("x"))


def test_an_action_of_another_step_is_refused() -> None:
    """Each step takes its own kind of action: no site choice in the middle of a battle."""
    state = make_state(hands={0: "5", 1: "1", 2: "1"})
    with pytest.raises(RuleViolation):
        play(state, "s.3")


# -- Views and secrets ------------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_only() -> None:
    """Hidden information: a seat's view holds its own hand; other hands only as sizes."""
    state = GAME.setup(4, seed=3)
    view = GAME.view(state, 1)
    assert view.hand == tuple(CODE[c] for c in state.hands[1])
    assert view.hand_sizes == (10, 10, 10, 10)
    assert GAME.view(state, None).hand == ()
    text = view.model_dump_json()
    for seat in (0, 2, 3):
        assert all(f'"{CODE[c]}"' not in text for c in state.hands[seat])
    assert all(f'"{CODE[c]}"' not in text for c in state.decks[0])


def test_secrets_are_other_hands_the_deck_and_the_generator() -> None:
    """secrets(): the generator state, each other hand and the deck, as the text a leak would show."""
    state = GAME.setup(3, seed=3)
    secrets = GAME.secrets(state, 0)
    assert secrets[0] == str(state.rng)
    assert ",".join(f'"{CODE[c]}"' for c in state.hands[1]) in secrets
    assert ",".join(f'"{CODE[c]}"' for c in state.hands[0]) not in secrets
    assert ",".join(f'"{CODE[c]}"' for c in state.decks[0]) in secrets
    assert len(GAME.secrets(state, None)) == 1 + 3 + 1


def test_public_view_shows_the_battle() -> None:
    """The public view: hand sizes, lines, the season, the battle site and peace token, passes, provinces
    held, deck size and the discard pile (count per kind)."""
    state = make_state(
        hands={0: "5 5", 1: "4", 2: ""},
        lines={0: "10 dr", 1: "6"},
        season="sp",
        owners={"lia": 1},
        peace="enna",
        site="rollo",
        passed=(2,),
        discard="1 1 bi",
    )
    view = GAME.view(state, None)
    assert view.hand_sizes == (2, 1, 0)
    assert [[c.split("#")[0] for c in line] for line in view.lines] == [["10", "dr"], ["6"], []]
    assert view.strengths == (23, 6, 0)  # 10 doubled is 20, the highest: +3
    assert view.season == "sp#01"
    assert (view.battle_site, view.peace_token) == (province("rollo"), province("enna"))
    assert view.passed == (False, False, True)
    assert view.provinces_held == (0, 1, 0)
    assert view.owners[province("lia")] == 1
    assert view.deck_sizes == (110 - 3 - 3 - 1 - 3,)  # hands, lines, season, discards
    assert Counter(dict(zip((k.code for k in KINDS), view.discard, strict=True))) == Counter({"1": 2, "bi": 1})
    assert view.to_act == (0,) and view.turn == 0
    assert set(BOARDS) == {"rekab_14", "italy_17"}


# -- Text form of actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["p.5", "p.10", "p.bi", "p.sp", "x", "s.0", "s.16", "sc.5", "sc.n", "pz.3", "pz.k", "d.y", "d.n"]
)
def test_actions_round_trip(text: str) -> None:
    """Actions are dot-separated, coarse to fine; decode(encode) and encode(decode) agree."""
    assert GAME.encode(GAME.decode(text)) == text


@pytest.mark.parametrize("text", ["p.7", "p.", "s.17", "s.-1", "s.03", "sc.bi", "pz.x", "d.maybe", "x.1", "P.5"])
def test_malformed_actions_are_refused(text: str) -> None:
    """Text that names no card, no province or no choice raises MalformedAction."""
    with pytest.raises(MalformedAction):
        GAME.decode(text)


def test_events_name_cards_by_code() -> None:
    """Events are data: the card played is named by its code (kind code and copy)."""
    state = make_state(hands={0: "he", 1: "1", 2: "1"})
    assert kinds(play(state, "p.he").events) == ["card_played"]


def test_time_out_defaults() -> None:
    """Documented time-out moves: pass; the first free province; take nothing back; leave the peace token;
    keep the hand."""
    battle = make_state(hands={0: "5 sc bi", 1: "1", 2: "1"}, lines={0: "6"})
    assert GAME.encode(GAME.default_action(battle, 0)) == "x"
    site = make_state(phase="site", owners={"bella": 1}, hands={0: "1", 1: "1", 2: "1"})
    assert GAME.encode(GAME.default_action(site, 0)) == "s.1"
    scarecrow = play(battle, "p.sc").state
    assert GAME.encode(GAME.default_action(scarecrow, 0)) == "sc.n"
    peace = play(battle, "p.bi").state
    assert GAME.encode(GAME.default_action(peace, 0)) == "pz.k"
    discard = make_state(phase="discard", hands={0: "bi", 1: "1", 2: "1"}).model_copy(update={"pending": (0,)})
    assert GAME.encode(GAME.default_action(discard, 0)) == "d.n"
