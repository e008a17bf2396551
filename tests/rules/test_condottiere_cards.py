"""Condottiere scenarios: every card's effect and the seed's order of effects, alone and combined.

Seed 000, "§ specials" (توضیحات کارت های ویژه) and "§ order" (اولویت کارت های ویژه: ریش سفید، زمستان، طبل زن،
بهار، شیرزن و شیردخت); RULES.md, رکب: "strength order" and the Bishop, Scarecrow, Surrender and season rows.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from condottiere_support import GAME, codes, kinds, legal, make_state, play, province

from rules import IllegalAction, RuleViolation
from rules.condottiere.model import (
    BattleEnded,
    BishopDiscarded,
    CardPlayed,
    PeaceTokenPlaced,
    ScarecrowReturned,
    SeasonDiscarded,
)


def power(lines: Mapping[int, str], season: str = "", players: int = 3) -> tuple[int, ...]:
    """The strength of each line if the battle ended now, as the engine computes it."""
    return GAME.view(make_state(players=players, lines=lines, season=season), None).strengths


# -- Mercenaries ------------------------------------------------------------------------------------


def test_mercenaries_add_their_printed_value() -> None:
    """§ winner: the armies' card values are added up; a mercenary counts its printed value."""
    assert power({0: "1 2 3", 1: "10 6", 2: "4 5"}) == (6, 16, 9)


def test_empty_line_has_no_strength() -> None:
    """A player who played nothing has strength 0."""
    assert power({0: "5"}) == (5, 0, 0)


# -- Bishop (ریش سفید) -------------------------------------------------------------------------------


def test_bishop_discards_every_highest_mercenary_in_every_line() -> None:
    """§ Bishop / RULES.md: at once, every mercenary of the highest printed value in play, in every line
    (the player's own too), is discarded; ties: all of them."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={0: "10 3", 1: "10 10 6", 2: "5"})
    step = play(state, "p.bi")
    assert [codes(line) for line in step.state.lines] == [["3", "bi"], ["6"], ["5"]]
    assert step.events[:2] == (
        CardPlayed(seat=0, card="bi#01"),
        BishopDiscarded(seat=0, cards=("10#01", "10#02", "10#03"), owners=(0, 1, 1)),
    )
    assert codes(step.state.discard) == ["10", "10", "10"]


def test_bishop_reaches_the_lines_of_players_who_passed() -> None:
    """RULES.md: the Bishop's discard reaches passed players' lines too."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={1: "6", 2: "6 2"}, passed=(2,), last_passer=2)
    state = play(state, "p.bi").state
    assert [codes(line) for line in state.lines] == [["bi"], [], ["2"]]


def test_bishop_on_the_players_own_line_only() -> None:
    """§ Bishop: "including our own soldiers": when the highest mercenary is the player's own, it goes."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={0: "10 4", 1: "6", 2: "5"})
    state = play(state, "p.bi").state
    assert [codes(line) for line in state.lines] == [["4", "bi"], ["6"], ["5"]]


def test_bishop_judges_printed_values_even_in_winter() -> None:
    """RULES.md: the Bishop takes the highest *printed* value; Winter (every mercenary counts 1) does not
    make all mercenaries equal for it."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={0: "2", 1: "6 6", 2: "5"}, season="wi")
    state = play(state, "p.bi").state
    assert [codes(line) for line in state.lines] == [["2", "bi"], [], ["5"]]


def test_bishop_leaves_heroine_and_courtesans() -> None:
    """§ Heroine: no card affects the Heroine; the Bishop only discards mercenaries."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={1: "he co 3"})
    state = play(state, "p.bi").state
    assert codes(state.lines[1]) == ["he", "co"]


def test_bishop_with_no_mercenary_in_play_discards_nothing() -> None:
    """§ Bishop: with no mercenary face up there is nothing to discard; the peace token is still placed."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={1: "he"})
    step = play(state, "p.bi")
    assert step.events[1] == BishopDiscarded(seat=0, cards=())
    assert step.state.phase == "peace" and GAME.to_act(step.state) == (0,)


def test_bishop_then_places_the_peace_token_on_a_free_province_or_keeps_it() -> None:
    """RULES.md: then the player puts the peace token on any free province, or leaves it where it is; it
    does not go on a province with a control marker, nor on the province being fought over."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, owners={"lia": 1, "enna": 2}, site="rollo")
    state = play(state, "p.bi").state
    offered = legal(state)
    assert "pz.k" in offered
    for taken in ("lia", "enna", "rollo"):
        assert f"pz.{province(taken)}" not in offered
    assert len(offered) == 1 + 14 - 3
    with pytest.raises(RuleViolation):
        play(state, f"pz.{province('lia')}")
    step = play(state, f"pz.{province('bella')}")
    assert step.events[0] == PeaceTokenPlaced(seat=0, province=province("bella"))
    assert step.state.peace == province("bella")
    assert step.state.phase == "battle" and GAME.to_act(step.state) == (1,)


def test_peace_token_stays_until_the_next_bishop_moves_it() -> None:
    """§ Bishop: no battle takes place where the peace token lies, for as many battles as it stays there,
    until the next Bishop; keeping it (pz.k) leaves it where it is."""
    state = make_state(phase="site", hands={0: "bi", 1: "1", 2: "1"}, peace="bella")
    assert f"s.{province('bella')}" not in legal(state)
    state = play(state, f"s.{province('rollo')}", "p.bi", "pz.k").state
    assert state.peace == province("bella")
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, peace="bella", site="rollo")
    state = play(state, "p.bi", f"pz.{province('lia')}").state
    assert state.peace == province("lia")


def test_bishop_does_not_end_the_battle() -> None:
    """RULES.md: the Bishop does not end the battle; play goes on clockwise after the peace token."""
    state = make_state(hands={0: "bi 5", 1: "1", 2: "1"})
    state = play(state, "p.bi", "pz.k").state
    assert state.phase == "battle" and GAME.to_act(state) == (1,)


# -- Scarecrow (مترسک) -------------------------------------------------------------------------------


def test_scarecrow_takes_back_one_own_mercenary() -> None:
    """§ Scarecrow / RULES.md: take back one of your own mercenaries from your line to your hand; the
    Scarecrow stays in the line."""
    state = make_state(hands={0: "sc", 1: "1", 2: "1"}, lines={0: "6 10 he dr", 1: "5"})
    state = play(state, "p.sc").state
    assert state.phase == "scarecrow" and GAME.to_act(state) == (0,)
    assert legal(state) == {"sc.6", "sc.10", "sc.n"}  # no special card, nobody else's mercenary
    step = play(state, "sc.10")
    assert step.events[0] == ScarecrowReturned(seat=0, card="10#01")
    assert codes(step.state.lines[0]) == ["6", "he", "dr", "sc"]
    assert codes(step.state.hands[0]) == ["10"]
    assert GAME.to_act(step.state) == (1,)


def test_scarecrow_may_take_nothing() -> None:
    """RULES.md: "... or none"."""
    state = make_state(hands={0: "sc", 1: "1", 2: "1"}, lines={0: "6"})
    step = play(state, "p.sc", "sc.n")
    assert ScarecrowReturned(seat=0, card=None) in step.events
    assert codes(step.state.lines[0]) == ["6", "sc"]


def test_scarecrow_refuses_special_cards_and_others_mercenaries() -> None:
    """§ Scarecrow: special cards cannot be taken back; only your own line."""
    state = make_state(hands={0: "sc", 1: "1", 2: "1"}, lines={0: "6 he", 1: "10"})
    state = play(state, "p.sc").state
    for text in ("sc.10", "sc.he"):
        with pytest.raises(IllegalAction):
            play(state, text)


def test_scarecrow_without_own_mercenary_asks_nothing() -> None:
    """With no mercenary in the player's line there is nothing to take back: the turn moves on at once."""
    state = make_state(hands={0: "sc", 1: "1", 2: "1"}, lines={0: "he", 1: "10"})
    step = play(state, "p.sc")
    assert step.events[1] == ScarecrowReturned(seat=0, card=None)
    assert step.state.phase == "battle" and GAME.to_act(step.state) == (1,)


# -- Surrender (پرچمدار) -----------------------------------------------------------------------------


def test_surrender_ends_the_battle_at_once() -> None:
    """§ Surrender / RULES.md: the battle ends at once and is resolved, though nobody has passed."""
    state = make_state(hands={0: "su 10", 1: "1", 2: "1"}, lines={0: "6", 1: "5"}, site="lia")
    step = play(state, "p.su")
    ended = next(e for e in step.events if isinstance(e, BattleEnded))
    assert ended == BattleEnded(battle=1, province=province("lia"), reason="surrender", strengths=(6, 5, 0), winner=0)
    assert step.state.owners[province("lia")] == 0


def test_surrender_can_hand_the_battle_to_another_player() -> None:
    """§ Surrender: the battle is resolved as it stands, whoever is strongest."""
    state = make_state(hands={0: "su", 1: "1", 2: "1"}, lines={0: "1", 1: "10"}, site="lia")
    step = play(state, "p.su")
    assert step.state.owners[province("lia")] == 1


# -- Drummer (طبل زن) --------------------------------------------------------------------------------


def test_drummer_doubles_the_mercenaries_of_its_line() -> None:
    """§ Drummer: doubles every mercenary in the player's army, not the others'."""
    assert power({0: "5 3 dr", 1: "5 3"}) == (16, 8, 0)


def test_more_drummers_double_only_once() -> None:
    """§ Drummer: only one Drummer per army counts; any number of them doubles once."""
    assert power({0: "5 dr dr dr"}) == (10, 0, 0)


def test_drummer_doubles_neither_courtesan_nor_heroine() -> None:
    """§ order: Courtesan and Heroine come after the Drummer; the Heroine is untouched by any card."""
    assert power({0: "5 dr co he"}) == (10 + 1 + 10, 0, 0)


# -- Courtesan (شیرزن) and Heroine (شیردخت) ----------------------------------------------------------


def test_courtesan_adds_one_each() -> None:
    """§ Courtesan: +1 to the army's strength, each."""
    assert power({0: "co co 2", 1: "co"}) == (4, 1, 0)


def test_heroine_adds_ten_each() -> None:
    """§ Heroine: +10 to the army's strength."""
    assert power({0: "he", 1: "he he 1"}) == (10, 21, 0)


@pytest.mark.parametrize("season", ["wi", "sp"])
def test_heroine_is_untouched_by_seasons_and_drummer(season: str) -> None:
    """§ Heroine: no card affects it: Winter does not make it 1, Spring does not add 3, the Drummer does not
    double it (so with Spring the highest mercenary, not the Heroine, gets +3)."""
    lines = {0: "he dr", 1: "6"}
    assert power(lines, season) == (10, 1 if season == "wi" else 9, 0)


# -- Winter (زمستان) and Spring (بهار) ---------------------------------------------------------------


def test_winter_makes_every_mercenary_count_one() -> None:
    """§ Winter: every mercenary in play counts 1; only the number of mercenaries matters."""
    assert power({0: "10 10", 1: "1 1 1", 2: "co he"}, "wi") == (2, 3, 11)


def test_spring_adds_three_to_every_highest_mercenary() -> None:
    """§ Spring: +3 to the highest mercenary in play; with several players holding it, to each of them,
    and to every copy."""
    assert power({0: "6 6 2", 1: "6 5", 2: "4"}, "sp") == (9 + 9 + 2, 9 + 5, 4)


def test_spring_follows_the_highest_card_when_it_changes() -> None:
    """§ Spring: the highest card can change during the battle; once a 10 is played only the 10s get +3."""
    state = make_state(hands={0: "sp", 1: "10", 2: "1"}, lines={0: "6", 1: "4"})
    state = play(state, "p.sp").state
    assert GAME.view(state, None).strengths == (9, 4, 0)
    state = play(state, "p.10").state
    assert GAME.view(state, None).strengths == (6, 17, 0)


def test_winter_with_drummer_counts_two_each() -> None:
    """§ order: Winter before Drummer: in Winter, a Drummer's mercenaries count 2 each."""
    assert power({0: "10 6 1 dr", 1: "10 10"}, "wi") == (6, 2, 0)


def test_drummer_before_spring_a_doubled_card_can_be_the_highest() -> None:
    """§ order and RULES.md: Drummer (x2) comes before Spring, and Spring's "highest" is the value after
    doubling: a drummed 6 (12) beats a plain 10, a drummed 5 (10) ties it; the +3 itself is not doubled."""
    assert power({0: "6 dr", 1: "10"}, "sp") == (15, 10, 0)
    assert power({0: "5 dr", 1: "10"}, "sp") == (13, 13, 0)
    assert power({0: "4 dr", 1: "10", 2: "10"}, "sp") == (8, 13, 13)
    assert power({0: "5 dr", 1: "10 dr"}, "sp") == (10, 23, 0)


def test_bishop_comes_first_then_the_seasons_count() -> None:
    """§ order: the Bishop acts before the other cards change values: after it removes the 10s, Spring's
    highest mercenary is what remains."""
    state = make_state(hands={0: "bi", 1: "1", 2: "1"}, lines={0: "6", 1: "10 5"}, season="sp")
    state = play(state, "p.bi", "pz.k").state
    assert GAME.view(state, None).strengths == (9, 5, 0)


def test_full_order_of_effects() -> None:
    """§ order: Winter, Drummer, Courtesan, Heroine in one battle: Winter makes mercenaries 1 each, the
    Drummer 2 each, then Courtesans add 1 and Heroines 10."""
    assert power({0: "10 2 dr co he", 1: "6 6 6 co co", 2: "he he"}, "wi") == (2 + 2 + 1 + 10, 3 + 2, 20)


# -- The season slot ---------------------------------------------------------------------------------


def test_a_season_card_goes_to_the_season_slot() -> None:
    """§ Winter/Spring: the season card sits in its place on the board, not in a line, until the battle
    ends."""
    state = make_state(hands={0: "wi", 1: "1", 2: "1"}, lines={0: "5"})
    state = play(state, "p.wi").state
    assert codes((state.season,)) == ["wi"]
    assert codes(state.lines[0]) == ["5"]


def test_playing_one_season_discards_the_other() -> None:
    """RULES.md: playing one season card discards the other (or the copy) from the slot."""
    state = make_state(hands={0: "sp", 1: "wi", 2: "1"}, season="wi", lines={0: "6", 1: "5"})
    step = play(state, "p.sp")
    discarded = step.events[1]
    assert isinstance(discarded, SeasonDiscarded) and discarded.card.startswith("wi#")
    assert codes((step.state.season,)) == ["sp"] and codes(step.state.discard) == ["wi"]
    assert GAME.view(step.state, None).strengths == (9, 5, 0)
    step = play(step.state, "p.wi")
    assert codes((step.state.season,)) == ["wi"] and codes(step.state.discard) == ["wi", "sp"]


def test_season_is_discarded_when_the_battle_ends() -> None:
    """§ regroup: after the battle the played cards and the season card on the board are discarded."""
    state = make_state(hands={0: "1", 1: "1", 2: "1"}, season="wi", lines={0: "6"}, passed=(1, 2), last_passer=2)
    step = play(state, "x")
    assert step.state.season == -1
    assert sorted(codes(step.state.discard)) == ["6", "wi"]
    assert "battle_ended" in kinds(step.events)
