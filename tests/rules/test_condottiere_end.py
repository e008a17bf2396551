"""Condottiere scenarios: the end of a battle (winner, ties, the Courtesan rule), discards and redeals, and the
end of the game (3 adjacent or 5 provinces, co-winners, no free province left).

Seed 000: "§ end of battle", "§ winner" (تعیین برنده جنگ), "§ regroup" (تجدید قوا), "§ end" (پایان بازی);
RULES.md, رکب: "tie on strength", "most Courtesans", "after a battle", "game end".
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from condottiere_support import GAME, act, codes, legal, make_state, play, province, public

from rules import NotYourTurn
from rules.condottiere import CondottiereOptions, CondottiereState
from rules.condottiere.data import ITALY, KINDS, REKAB
from rules.condottiere.model import (
    NONE,
    BattleEnded,
    Dealt,
    GameEnded,
    HandDiscarded,
    HandKept,
    NextChooser,
)
from rules.condottiere.scoring import victorious


def last_pass(
    lines: Mapping[int, str],
    hands: Mapping[int, str] | None = None,
    *,
    players: int = 3,
    owners: Mapping[str, int] | None = None,
    site: str = "bella",
    peace: str = "",
    options: CondottiereOptions | None = None,
) -> CondottiereState:
    """A battle where everyone but seat 0 has passed (seat 1 last); seat 0 is to play or pass."""
    return make_state(
        players=players,
        lines=lines,
        hands=hands or {s: "1" for s in range(players)},
        owners=owners,
        site=site,
        peace=peace,
        passed=tuple(range(1, players)),
        last_passer=1,
        options=options,
    )


# -- Who wins the battle ----------------------------------------------------------------------------


def test_strongest_line_takes_the_province() -> None:
    """§ winner: when all have passed, the highest total wins and puts a control marker on the site."""
    step = play(last_pass({0: "5", 1: "10", 2: "4 4"}, site="enna"), "x")
    assert BattleEnded(battle=1, province=province("enna"), reason="passes", strengths=(5, 10, 8), winner=1) in (
        step.events
    )
    state = step.state
    assert state.owners[province("enna")] == 1
    assert state.wins == (0, 1, 0)
    assert NextChooser(seat=1, reason="winner") in step.events
    assert state.phase == "site" and GAME.to_act(state) == (1,)
    assert state.battle == 2


def test_winner_chooses_and_opens_the_next_battle() -> None:
    """§ winner: the winner chooses the next site and, having chosen it, plays first."""
    state = play(last_pass({1: "10"}), "x").state
    state = play(state, f"s.{province('lia')}").state
    assert state.phase == "battle" and GAME.to_act(state) == (1,)
    assert state.passed == (False, False, False)


def test_played_cards_are_discarded_after_the_battle() -> None:
    """§ regroup: every card each player played goes to the discard pile."""
    state = play(last_pass({0: "5 dr", 1: "10 co", 2: "he"}), "x").state
    assert state.lines == ((), (), ())
    assert sorted(codes(state.discard)) == sorted(["5", "dr", "10", "co", "he"])


def test_strength_tie_nobody_takes_the_province_last_passer_chooses() -> None:
    """§ winner / RULES.md: on equal strength nobody takes the province; the last player to pass chooses
    the next site."""
    state = make_state(lines={0: "5", 1: "5", 2: "2"}, hands={0: "1", 1: "1", 2: "1"}, passed=(1,), last_passer=1)
    state = play(state, "x").state  # seat 0 passes
    step = play(state, "x")  # seat 2 passes last
    assert BattleEnded(battle=1, province=province("bella"), reason="passes", strengths=(5, 5, 2), winner=None) in (
        step.events
    )
    assert step.state.owners[province("bella")] == -1
    assert NextChooser(seat=2, reason="last_pass") in step.events
    assert GAME.to_act(step.state) == (2,)
    assert f"s.{province('bella')}" in legal(step.state)  # still free


def test_all_passing_without_playing_is_a_tie() -> None:
    """§ winner: nobody played, every army is 0: a tie, the province stays free."""
    state = make_state(hands={0: "1", 1: "1", 2: "1"})
    step = play(state, "x", "x", "x")
    assert step.state.owners == (-1,) * 14
    assert NextChooser(seat=2, reason="last_pass") in step.events


def test_two_battles_in_a_row_without_a_card_end_the_game_most_provinces_wins() -> None:
    """README, termination (interp.): players who all pass at once, battle after battle, would tie forever;
    the second battle in a row with no card played ends the game, the most provinces winning."""
    state = make_state(hands={0: "1", 1: "sc", 2: "1"}, owners={"enna": 1, "lia": 2, "borge": 1})
    first = play(state, "x", "x", "x")
    assert first.state.quiet == 1 and first.state.phase != "over"
    second = play(first.state, "d.n")  # seat 1, holding no mercenary, keeps its hand
    second = play(second.state, f"s.{province('bella')}", "x", "x", "x")
    assert second.events[-1] == GameEnded(reason="stalemate", winners=(1,))
    outcome = GAME.outcome(second.state)
    assert outcome is not None and outcome.scores == (0, 2, 1)


def test_surrender_tie_the_last_player_who_really_passed_chooses() -> None:
    """RULES.md: a tie ended by Surrender is settled like one ended by passes: the last player who really
    passed chooses the next site, not the Surrender player."""
    state = make_state(hands={0: "1", 1: "su", 2: "1"}, lines={0: "5", 1: "5"}, turn=1, passed=(2,), last_passer=2)
    step = play(state, "p.su")
    assert NextChooser(seat=2, reason="last_pass") in step.events


def test_surrender_tie_with_nobody_passed_the_surrender_player_chooses() -> None:
    """RULES.md: a tie ended by Surrender when nobody had passed: the Surrender player chooses."""
    state = make_state(hands={0: "1", 1: "su", 2: "1"}, lines={0: "5", 1: "5"}, turn=1)
    step = play(state, "p.su")
    assert NextChooser(seat=1, reason="surrender") in step.events
    assert GAME.to_act(step.state) == (1,) and step.state.phase == "site"


# -- The Courtesan rule -----------------------------------------------------------------------------


def test_most_courtesans_chooses_the_next_site_the_winner_opens_the_battle() -> None:
    """§ Courtesan / RULES.md: the player who played the most Courtesans chooses the next site instead of
    the winner, but the battle's winner opens the next battle («شروع کننده جنگ بعدی برنده جنگ قبلی است»)."""
    step = play(last_pass({0: "co co", 1: "10", 2: "co"}), "x")
    assert step.state.owners[province("bella")] == 1
    assert NextChooser(seat=0, reason="courtesans") in step.events
    state = step.state
    assert GAME.to_act(state) == (0,)
    state = play(state, f"s.{province('lia')}").state
    assert state.phase == "battle" and GAME.to_act(state) == (1,)


def test_after_a_tie_the_sites_chooser_opens_the_battle() -> None:
    """RULES.md: after a tie nobody won, so the player who chose the site (the last to pass) opens the
    battle."""
    state = play(last_pass({0: "5", 1: "5"}), "x").state
    assert state.phase == "site" and GAME.to_act(state) == (0,)
    state = play(state, f"s.{province('lia')}").state
    assert GAME.to_act(state) == (0,) and state.opener == NONE


def test_courtesan_tie_the_battle_winner_chooses() -> None:
    """RULES.md: tie on Courtesans: the battle winner chooses."""
    step = play(last_pass({0: "co", 1: "10", 2: "co"}), "x")
    assert NextChooser(seat=1, reason="winner") in step.events


def test_courtesan_tie_and_strength_tie_the_last_passer_chooses() -> None:
    """(interp.) Tie on Courtesans and no battle winner: the last player to pass chooses."""
    state = make_state(
        lines={0: "co 5", 1: "co 5"}, hands={0: "1", 1: "1", 2: "1"}, turn=1, passed=(0, 2), last_passer=0
    )
    step = play(state, "x")
    assert NextChooser(seat=1, reason="last_pass") in step.events


def test_courtesans_decide_even_without_a_battle_winner() -> None:
    """§ Courtesan: the most Courtesans chooses even when nobody wins the battle."""
    step = play(last_pass({0: "5", 1: "5", 2: "co"}), "x")
    assert NextChooser(seat=2, reason="courtesans") in step.events


# -- Discards and redeal ----------------------------------------------------------------------------


def test_players_without_mercenaries_may_discard_their_hand() -> None:
    """§ regroup 1: each player with no mercenary left in hand may discard the whole hand; they decide at
    the same time; the others are not asked."""
    state = play(last_pass({1: "10"}, {0: "bi sc", 1: "5", 2: "he"}), "x").state
    assert state.phase == "discard"
    assert GAME.to_act(state) == (0, 2)
    assert legal(state, 0) == {"d.y", "d.n"}
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        act(state, 1, "d.y")
    step = act(state, 2, "d.y")
    assert step.events == (HandDiscarded(seat=2, cards=("he#01",), forced=False),)
    assert GAME.to_act(step.state) == (0,)
    step = act(step.state, 0, "d.n")
    assert step.events[0] == HandKept(seat=0)
    state = step.state
    assert codes(state.hands[0]) == ["bi", "sc"] and state.hands[2] == ()
    assert state.phase == "site" and GAME.to_act(state) == (1,)


def test_the_only_player_left_with_cards_must_discard_them() -> None:
    """§ regroup 2: if only one player still has cards, they discard the whole hand, mercenaries too; with
    every hand empty the cards are dealt again."""
    step = play(last_pass({1: "10"}, {0: "", 1: "5 6", 2: ""}), "x")
    assert HandDiscarded(seat=1, cards=("5#01", "6#01"), forced=True) in step.events
    assert [len(h) for h in step.state.hands] == [10, 11, 10]


def test_forced_discard_follows_the_voluntary_ones() -> None:
    """§ regroup 1 then 2: when the voluntary discards leave one player with cards, that player discards."""
    state = play(last_pass({1: "10"}, {0: "bi", 1: "5 6", 2: ""}), "x").state
    step = act(state, 0, "d.y")
    assert HandDiscarded(seat=1, cards=("5#01", "6#01"), forced=True) in step.events
    assert all(len(h) >= 10 for h in step.state.hands)


def test_redeal_shuffles_deck_and_discards_and_deals_ten_plus_provinces() -> None:
    """§ regroup 3: when all hands are empty, shuffle the remaining cards with the discards and deal 10 to
    each player, plus one per province held (2 provinces: 12 cards)."""
    state = last_pass({0: "5", 1: "10"}, {0: "", 1: "", 2: ""}, owners={"lia": 0, "elinia": 0, "enna": 2})
    step = play(state, "x")
    state = step.state
    assert [len(h) for h in state.hands] == [12, 11, 11]  # seat 1 just took bella
    assert state.discard == ()
    assert len(state.decks[0]) == 110 - 34
    assert GAME.conserved(state) == {k.code: k.count for k in KINDS}
    dealt = [e for e in public(step.events) if isinstance(e, Dealt)]
    assert dealt == [Dealt(sizes=(12, 11, 11), reshuffled=True)]
    private = [e for e in step.events if isinstance(e, Dealt) and e.audience == 0]
    assert len(private) == 1 and len(private[0].cards) == 12
    assert state.rng != 12345  # the shuffle used the generator


def test_no_redeal_while_some_players_hold_cards() -> None:
    """§ regroup 3: cards are dealt only when every hand is empty."""
    state = play(last_pass({1: "10"}, {0: "5", 1: "6", 2: ""}), "x").state
    assert [len(h) for h in state.hands] == [1, 1, 0]
    assert state.phase == "site"


# -- The end of the game ----------------------------------------------------------------------------


def test_three_adjacent_provinces_win() -> None:
    """§ end: a player with 3 adjacent provinces wins at once."""
    state = last_pass({1: "10"}, owners={"morina": 1, "rollo": 1}, site="talmone")
    step = play(state, "x")
    assert step.events[-1] == GameEnded(reason="victory", winners=(1,))
    assert step.state.phase == "over" and GAME.to_act(step.state) == ()
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.scores == (0, 3, 0)
    assert outcome.detail["reason"] == "victory"


def test_three_in_a_chain_are_adjacent() -> None:
    """(interp.) "3 adjacent" means 3 provinces connected by borders: a chain A–B–C is enough."""
    neighbours = REKAB.neighbours
    owners = [-1] * 14
    for name in ("lia", "armento", "morina"):  # lia–armento–morina, lia and morina not neighbours
        owners[province(name)] = 0
    assert province("morina") not in neighbours[province("lia")]
    assert victorious(owners, 0, neighbours)


def test_three_separate_provinces_do_not_win() -> None:
    """§ end: three provinces that are not adjacent are not enough (five are needed)."""
    state = last_pass({1: "10"}, owners={"bella": 1, "lia": 1}, site="elinia")
    state = play(state, "x").state
    assert state.phase == "site"


def test_corner_contacts_do_not_make_provinces_adjacent() -> None:
    """RULES.md: on the default map corner-only contacts are not borders: atela–caline–pladaci (caline and
    pladaci meet at a corner) is not a group of three adjacent provinces."""
    state = last_pass({1: "10"}, owners={"atela": 1, "caline": 1}, site="pladaci")
    assert play(state, "x").state.phase == "site"
    state = last_pass({1: "10"}, owners={"elinia": 1, "talmone": 1}, site="armento")
    assert play(state, "x").state.phase == "site"


def test_five_provinces_anywhere_win() -> None:
    """§ end: a player with 5 provinces anywhere on the map wins."""
    owners = {"bella": 2, "atela": 2, "lia": 2, "elinia": 2}
    state = last_pass({2: "10"}, owners=owners, site="morina")
    step = play(state, "x")
    assert step.events[-1] == GameEnded(reason="victory", winners=(2,))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_victory_holds_for_every_player_count(players: int) -> None:
    """RULES.md: 3 adjacent or 5 provinces, whatever the number of players."""
    state = last_pass({1: "10"}, players=players, owners={"morina": 1, "rollo": 1}, site="talmone")
    assert play(state, "x").state.winners == (1,)


def test_victory_on_the_classic_map() -> None:
    """RULES.md option: the same victory on the 17-region map (Milano–Torino–Genova)."""
    options = CondottiereOptions(classic_map=True)
    owners = {"milano": 0, "torino": 0}
    state = last_pass({0: "10"}, owners=owners, site="genova", options=options)
    assert play(state, "x").state.winners == (0,)
    assert len(ITALY.provinces) == 17


# Four players, 13 provinces held, nobody with 3 adjacent or 5; bella is the last free one.
ALMOST_FULL = {"rollo": 0, "borge": 0, "lia": 0, "talmone": 0, "caline": 1, "morina": 1, "dimase": 1}
ALMOST_FULL |= {"pladaci": 2, "armento": 2, "atela": 2, "olivadi": 3, "enna": 3, "elinia": 3}


def test_the_last_free_province_taken_ends_the_game_co_winners_on_a_tie() -> None:
    """§ end / RULES.md: when no free province is left for a battle the game ends and the most provinces
    wins; equal players share the win (co-winners)."""
    names = {p.id for p in REKAB.provinces}
    assert set(ALMOST_FULL) == names - {"bella"}
    owners = [ALMOST_FULL.get(p.id, -1) for p in REKAB.provinces]
    assert not any(victorious(owners, s, REKAB.neighbours) for s in range(4))
    state = last_pass({1: "10"}, players=4, owners=ALMOST_FULL, site="bella")
    step = play(state, "x")
    assert step.events[-1] == GameEnded(reason="no_free_province", winners=(0, 1))
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.scores == (4, 4, 3, 3)
    assert outcome.detail["draw"] is False


def test_a_tie_on_the_last_free_province_goes_on() -> None:
    """§ winner: on a tie the last free province stays free, so the game goes on."""
    state = last_pass({0: "5", 1: "5"}, players=4, owners=ALMOST_FULL, site="bella")
    state = play(state, "x").state
    assert state.phase == "site" and legal(state) == {f"s.{province('bella')}"}


def test_the_peace_token_on_the_last_free_province_ends_the_game() -> None:
    """RULES.md: a province under the peace token is not free; once the other free provinces are taken no
    battle can be fought and the game ends, the most provinces winning alone."""
    owners = {name: seat for name, seat in ALMOST_FULL.items() if name != "elinia"}
    state = last_pass({3: "10"}, players=4, owners=owners, site="elinia", peace="bella")
    step = play(state, "x")
    assert step.state.owners[province("elinia")] == 3
    assert step.events[-1] == GameEnded(reason="no_free_province", winners=(0,))
