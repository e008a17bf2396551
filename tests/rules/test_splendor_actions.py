"""Splendor scenarios: the four actions — take tokens, reserve, buy — their refusals, and refilling the rows.

Rules are cited from the Persian rulebook (seed 003, "the seed") and the Splendor section of RULES.md.
"""

from __future__ import annotations

import pytest
from splendor_support import GAME, card, cards_with_bonus, kinds, legal, make_state, play, tokens

from rules import IllegalAction, MalformedAction, RuleViolation
from rules.splendor.model import CardBought, CardDealt, CardReserved, SplendorAction, TokensTaken

# -- Take three different colours --------------------------------------------------------------------


def test_take_three_different_colours() -> None:
    """Seed, action 1: take 3 tokens of 3 different colours (not gold); the turn passes on."""
    state = make_state()
    step = play(state, "t.w.b.r")
    assert step.events[0] == TokensTaken(seat=0, tokens=tokens("w1 b1 r1"))
    assert step.state.tokens[0] == tokens("w1 b1 r1")
    assert step.state.bank == tokens("w3 b3 g4 r3 k4 y5")
    assert GAME.to_act(step.state) == (1,)


def test_take_three_refused_when_a_colour_is_out() -> None:
    """Seed, action 1: the tokens come from the bank; a colour the bank lacks cannot be taken."""
    state = make_state(bank="w4 b4 g4 k4 y5")
    with pytest.raises(RuleViolation):
        play(state, "t.w.b.r")
    assert not any("r" in a.split(".") for a in legal(state) if a.startswith("t."))


def test_take_three_refused_as_two_colours_while_three_are_in_the_bank() -> None:
    """RULES.md, take three: three different colours; fewer only when fewer than three are in the bank."""
    state = make_state()
    with pytest.raises(RuleViolation):
        play(state, "t.w.b")


def test_take_fewer_when_fewer_than_three_colours_remain() -> None:
    """RULES.md, take three: with two colours left in the bank, the take is one of each of them *(interp.:
    all the colours left, not fewer)*."""
    state = make_state(bank="w1 b2 y5")
    assert {a for a in legal(state) if a.startswith("t")} == {"t.w.b"}
    with pytest.raises(RuleViolation):
        play(state, "t.b")
    assert play(state, "t.w.b").state.bank == tokens("b1 y5")


def test_take_the_same_colour_twice_is_not_a_take_three() -> None:
    """Seed, action 1: the three colours must differ (and are written in colour order)."""
    with pytest.raises(MalformedAction):
        GAME.decode("t.w.w.b")
    with pytest.raises(MalformedAction):
        GAME.apply(make_state(), 0, SplendorAction("t", tokens=(0, 0, 1)))


def test_gold_cannot_be_taken() -> None:
    """Seed, actions 1 and 2: gems only, never gold (gold comes only with a reservation)."""
    for text in ("t.w.b.y", "t2.y"):
        with pytest.raises(MalformedAction):
            GAME.decode(text)
    with pytest.raises(MalformedAction):
        GAME.apply(make_state(), 0, SplendorAction("t2", tokens=(5,)))


# -- Take two of one colour ----------------------------------------------------------------------------


def test_take_two_of_a_colour_with_four_in_the_bank() -> None:
    """Seed, action 2: two tokens of the same colour, only if at least 4 of it are in the bank."""
    state = make_state(players=2)  # 4 per colour
    step = play(state, "t2.g")
    assert step.state.tokens[0] == tokens("g2")
    assert step.state.bank[2] == 2


def test_take_two_refused_with_three_in_the_bank() -> None:
    """Seed, action 2: fewer than 4 of the colour before taking: refused, and not offered."""
    state = make_state(bank="w3 b4 g4 r4 k4 y5")
    with pytest.raises(RuleViolation):
        play(state, "t2.w")
    assert "t2.w" not in legal(state)
    assert "t2.b" in legal(state)


# -- Reserve --------------------------------------------------------------------------------------------


def test_reserve_a_face_up_card_with_a_gold() -> None:
    """Seed, action 3: reserve a card from the rows and take 1 gold; the empty slot is refilled at once
    from the same level's deck (seed, important note)."""
    state = make_state()
    top = state.decks[0][-1]
    step = play(state, "r.1.2")
    assert step.state.reserved[0] == (3,)
    assert step.state.tokens[0] == tokens("y1") and step.state.bank[5] == 4
    assert step.state.rows[0] == (1, 2, top, 4)
    assert step.state.decks[0] == state.decks[0][:-1]
    assert step.events == (
        CardReserved(seat=0, level=1, slot=2, card="c03", gold=True),
        CardDealt(level=1, slot=2, card=f"c{top:02d}"),
    )


def test_reserve_the_top_card_of_a_deck() -> None:
    """Seed, reserving: the top card of one of the three decks may be reserved, unseen by the others."""
    state = make_state()
    top = state.decks[2][-1]
    step = play(state, "r.3.d")
    assert step.state.reserved[0] == (top,)
    assert step.state.blind == (top,)
    assert step.state.decks[2] == state.decks[2][:-1]
    assert step.state.rows == state.rows
    assert kinds(step.events) == ["reserved", "reserved"]


def test_reserve_without_gold_left() -> None:
    """Seed, reserving: with no gold in the bank a card can still be reserved, without a gold."""
    state = make_state(bank="w4 b4 g4 r4 k4")
    step = play(state, "r.2.0")
    assert step.state.reserved[0] == (41,)
    assert step.state.tokens[0] == tokens("")
    assert step.events[0] == CardReserved(seat=0, level=2, slot=0, card="c41", gold=False)


def test_at_most_three_reserved_cards() -> None:
    """Seed, reserving: no player may hold more than 3 reserved cards."""
    state = make_state(reserved=[(5, 6, 7), ()])
    for text in ("r.1.0", "r.2.d"):
        with pytest.raises(RuleViolation):
            play(state, text)
    assert not any(a.startswith("r.") for a in legal(state))
    assert any(a.startswith("r.") for a in legal(make_state(reserved=[(5, 6), ()])))


def test_reserve_refused_from_an_empty_deck_or_slot() -> None:
    """Seed, refilling: an empty deck leaves nothing to reserve there, and an empty slot has no card."""
    state = make_state(rows=[(1, 0, 3, 4), (41, 42, 43, 44), (71, 72, 73, 74)], decks=[(), (45,), (75,)])
    with pytest.raises(RuleViolation):
        play(state, "r.1.d")
    with pytest.raises(RuleViolation):
        play(state, "r.1.1")
    assert {"r.2.d", "r.3.d"} <= legal(state) and not {"r.1.d", "r.1.1"} & legal(state)


# -- Buy ------------------------------------------------------------------------------------------------


def test_buy_a_face_up_card() -> None:
    """Seed, buying: pay the tokens shown on the card to the bank; the card gives its bonus and points; the
    slot is refilled from the deck."""
    w8 = card("W8")  # 1 point, white bonus, costs 4 green
    state = make_state(held=["g4 b1", ""], rows=[(1, w8, 3, 4), (41, 42, 43, 44), (71, 72, 73, 74)])
    top = state.decks[0][-1]
    step = play(state, "b.1.1")
    assert step.events[0] == CardBought(seat=0, card="c08", level=1, slot=1, paid=tokens("g4"))
    assert step.state.tokens[0] == tokens("b1")
    assert step.state.cards[0] == (w8,)
    assert step.state.bonuses[0] == (1, 0, 0, 0, 0) and step.state.points[0] == 1
    assert step.state.bank == tokens("w4 b3 g4 r4 k4 y5")
    assert step.state.rows[0][1] == top


def test_bonuses_are_discounts() -> None:
    """Seed, bonuses: with 2 blue bonuses, a card costing 2 blue and 1 green costs 1 green (seed's example)."""
    r3 = card("R3")  # costs 2 blue, 1 green
    state = make_state(held=["g1", ""], bought=[cards_with_bonus("b", 2), ()], rows=[(r3, 2, 3, 4), (), ()])
    step = play(state, "b.1.0")
    assert step.events[0] == CardBought(seat=0, card=f"c{r3:02d}", level=1, slot=0, paid=tokens("g1"))
    assert step.state.tokens[0] == tokens("")


def test_a_card_free_of_tokens_with_enough_bonuses() -> None:
    """Seed, bonuses: with enough bonuses a card is bought without paying a single token."""
    r3 = card("R3")
    bonus = (*cards_with_bonus("b", 2), *cards_with_bonus("g", 1))
    state = make_state(bought=[bonus, ()], rows=[(r3, 2, 3, 4), (), ()])
    assert "b.1.0" in legal(state)
    step = play(state, "b.1.0")
    assert step.events[0] == CardBought(seat=0, card=f"c{r3:02d}", level=1, slot=0, paid=tokens(""))


def test_gold_replaces_missing_gems() -> None:
    """Seed, buying: gold tokens can stand for any other token; paid tokens, gold too, go to the bank."""
    blu17 = card("BLU17")  # 6 white, 3 blue, 3 black; two white bonuses make it 4 white
    state = make_state(held=["w3 b2 k3 y2", ""], bought=[cards_with_bonus("w", 2), ()], rows=[(), (), (blu17, 0, 0, 0)])
    step = play(state, "b.3.0")
    assert step.events[0] == CardBought(seat=0, card="c77", level=3, slot=0, paid=tokens("w3 b2 k3 y2"))
    assert step.state.tokens[0] == tokens("")
    assert step.state.bank == tokens("w4 b4 g4 r4 k4 y5")
    assert step.state.points[0] == 4


def test_the_player_may_pay_with_gold_instead_of_gems() -> None:
    """Seed, buying: gold stands for any token, so the player chooses: `b` pays gems first and gold only for
    the rest; each `bg` spends spare gold in place of the named gems *(interp.)*."""
    r3 = card("R3")  # 2 blue, 1 green
    state = make_state(held=["b2 g1 y2", ""], rows=[(r3, 2, 3, 4), (), ()])
    buys = {a for a in legal(state) if a.startswith(("b.1.0", "bg.1-0"))}
    assert buys == {"b.1.0", "bg.1-0.b", "bg.1-0.g", "bg.1-0.bb", "bg.1-0.bg"}
    assert play(state, "b.1.0").events[0].model_dump()["paid"] == tokens("b2 g1")
    assert play(state, "bg.1-0.bg").events[0].model_dump()["paid"] == tokens("b1 y2")
    with pytest.raises(RuleViolation):
        play(state, "bg.1-0.w")  # the card costs no white
    with pytest.raises(RuleViolation):
        play(state, "bg.1-0.bbg")  # three gold, two held


def test_gold_payments_are_offered_with_bonuses_beyond_a_cost() -> None:
    """Seed, buying: a bonus of a colour the card does not cost changes nothing in how gold may be spent."""
    r3 = card("R3")  # 2 blue, 1 green; no white
    state = make_state(held=["b2 g1 y1", ""], bought=[cards_with_bonus("w", 1), ()], rows=[(r3, 0, 0, 0), (), ()])
    assert {a for a in legal(state) if a.startswith(("b.1.0", "bg.1-0"))} == {"b.1.0", "bg.1-0.b", "bg.1-0.g"}


def test_buy_refused_when_unaffordable() -> None:
    """Seed, buying: the player must pay the card's cost (after bonuses), gold covering only what it can."""
    blu17 = card("BLU17")
    state = make_state(held=["w5 b2 k3", ""], rows=[(), (), (blu17, 0, 0, 0)])
    with pytest.raises(RuleViolation):
        play(state, "b.3.0")
    assert "b.3.0" not in legal(state)


def test_buy_refused_from_an_empty_slot() -> None:
    """Seed, refilling: an empty slot has no card to buy."""
    state = make_state(rows=[(0, 0, 0, 0), (), ()])
    with pytest.raises(RuleViolation):
        play(state, "b.1.0")


def test_buy_a_reserved_card() -> None:
    """Seed, buying: a player may buy one of the cards they reserved before; it leaves the reserve."""
    w4 = card("W4")  # 3 blue
    state = make_state(held=["b3", ""], reserved=[(5, w4), ()], rows=[(1, 2, 3, 0), (), ()])
    step = play(state, "b.h.1")
    assert step.state.reserved[0] == (5,)
    assert step.state.cards[0] == (w4,)
    assert step.events[0] == CardBought(seat=0, card="c04", level=1, slot=None, paid=tokens("b3"))
    assert step.state.rows == state.rows  # nothing to refill


def test_buying_a_card_reserved_from_a_deck_reveals_it() -> None:
    """Seed, reserving: a reserved card can only leave the reserve by being bought; the card reserved
    unseen is then public like any bought card."""
    w4 = card("W4")
    state = make_state(held=["b3", ""], reserved=[(w4,), ()], blind=(w4,), rows=[(1, 2, 3, 0), (), ()])
    step = play(state, "b.h.0")
    assert step.state.blind == ()
    assert "c04" in GAME.view(step.state, 1).model_dump_json()


def test_only_the_owner_can_buy_a_reserved_card() -> None:
    """Seed, reserving: once reserved, only that player can buy the card (b.h names one's own reserve)."""
    w4 = card("W4")
    state = make_state(held=["", "b3"], reserved=[(w4,), ()], turn=1)
    with pytest.raises(RuleViolation):
        play(state, "b.h.0")
    assert not any(a.startswith("b.h") for a in legal(state))


def test_refill_leaves_the_slot_empty_when_the_deck_is_out() -> None:
    """Seed, important note: each row always has 4 cards unless its deck is empty; then slots stay empty."""
    w8 = card("W8")
    state = make_state(held=["g4", ""], rows=[(1, w8, 3, 4), (41, 42, 43, 44), (71, 72, 73, 74)], decks=[(), (), ()])
    step = play(state, "b.1.1")
    assert step.state.rows[0] == (1, 0, 3, 4)
    assert "dealt" not in kinds(step.events)


@pytest.mark.parametrize("text", ["r.1.0", "t.w.b.g", "b.1.0"])
def test_illegal_actions_leave_the_state_unchanged(text: str) -> None:
    """Contract: a refused action raises and changes nothing."""
    state = make_state(reserved=[(5, 6, 7), ()], bank="w0 b0 g0 r4 k4 y5")
    before = state.model_dump_json()
    with pytest.raises(IllegalAction):
        play(state, text)
    assert state.model_dump_json() == before
