"""Splendor scenarios: components, set-up, views and the text form of actions.

Rules are cited from the Persian rulebook (seed 003, "the seed") and the Splendor section of RULES.md.
"""

from __future__ import annotations

import csv
import itertools
import random
from pathlib import Path

import pytest
from splendor_support import GAME, card, legal, make_state, play

from rules import MalformedAction
from rules.splendor.data import BY_LEVEL, CARDS, COLOURS, NOBLES
from rules.splendor.model import CardReserved, SplendorAction

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "data"

# -- Components -------------------------------------------------------------------------------------


def test_ninety_cards_forty_thirty_twenty() -> None:
    """Seed, components: 90 development cards, 40 of level 1, 30 of level 2, 20 of level 3."""
    assert len(CARDS) == 90
    assert [len(ids) for ids in BY_LEVEL] == [40, 30, 20]


def test_each_level_has_every_bonus_colour_equally() -> None:
    """The reference list: each level holds the same number of cards of each bonus colour (8 / 6 / 4)."""
    for level, per_colour in ((1, 8), (2, 6), (3, 4)):
        for colour in range(len(COLOURS)):
            assert sum(1 for c in CARDS if c.level == level and c.bonus == colour) == per_colour


def test_ten_nobles_of_three_points() -> None:
    """Seed, components: 10 noble tiles; each visit is worth 3 prestige points (seed's example)."""
    assert len(NOBLES) == 10
    assert {n.points for n in NOBLES} == {3}


def test_the_seeds_example_card_and_noble() -> None:
    """Seed, cards: the example card costs 3 black, 3 blue and 6 white, is worth 4 points and gives a blue
    bonus; nobles: the example noble asks for 3 green, 3 blue and 3 white bonuses."""
    example = CARDS[card("BLU17") - 1]
    assert (example.points, COLOURS[example.bonus], example.cost) == (4, "blue", (6, 3, 0, 0, 3))
    assert any(n.requires == (3, 3, 3, 0, 0) for n in NOBLES)


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="the shared reference data is not mounted here")
def test_data_matches_the_reference_lists() -> None:
    """Component data: every card's level, bonus, points and cost, and every noble, as in shared/data."""
    with (REFERENCE / "splendor_cards.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [
        (int(r["level"]), r["bonus"], int(r["points"]), tuple(int(r[f"cost_{c}"]) for c in COLOURS)) for r in rows
    ] == [(c.level, COLOURS[c.bonus], c.points, c.cost) for c in CARDS]
    with (REFERENCE / "splendor_nobles.csv").open(encoding="utf-8") as f:
        nobles = list(csv.DictReader(f))
    assert [(int(r["points"]), tuple(int(r[f"req_{c}"]) for c in COLOURS)) for r in nobles] == [
        (n.points, n.requires) for n in NOBLES
    ]


# -- Set-up -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_setup_by_player_count(players: int, gems: int) -> None:
    """Seed, set-up: 7 tokens per gem colour, 3 fewer for two players and 2 fewer for three; 5 gold whatever
    the count; players + 1 nobles; four face-up cards per level, the rest in three decks."""
    state = GAME.setup(players, seed=7)
    assert state.bank == (gems,) * 5 + (5,)
    assert len(state.nobles) == players + 1
    assert len(set(state.nobles)) == players + 1
    assert [len(row) for row in state.rows] == [4, 4, 4]
    assert [len(deck) for deck in state.decks] == [36, 26, 16]
    for level, (row, deck) in enumerate(zip(state.rows, state.decks, strict=True)):
        assert sorted((*row, *deck)) == sorted(BY_LEVEL[level])
    assert state.tokens == ((0,) * 6,) * players
    assert state.cards == state.reserved == ((),) * players
    assert state.points == (0,) * players


def test_first_player_is_seat_zero() -> None:
    """RULES.md, first player: the engine starts with seat 0 (the bot orders the seats)."""
    state = GAME.setup(3, seed=1)
    assert GAME.to_act(state) == (0,)


def test_setup_shuffles_by_seed() -> None:
    """Seed, set-up: the decks and the nobles are shuffled; the same seed gives the same game."""
    assert GAME.setup(4, seed=1) == GAME.setup(4, seed=1)
    layouts = {(GAME.setup(4, seed).rows, GAME.setup(4, seed).nobles) for seed in range(10)}
    assert len(layouts) == 10


@pytest.mark.parametrize("players", [1, 5])
def test_setup_refuses_other_player_counts(players: int) -> None:
    """Seed: 2 to 4 players."""
    with pytest.raises(ValueError):
        GAME.setup(players, seed=1)


# -- Views ------------------------------------------------------------------------------------------


def test_a_card_reserved_from_a_deck_is_seen_by_its_owner_only() -> None:
    """Seed, reserving: the top card of a deck is taken without showing it to the others (RULES.md: that card
    is seen by its owner alone). Others see a hidden reserved card of its level."""
    state = make_state(players=3)
    step = play(state, "r.2.d")
    hidden = state.decks[1][-1]
    key = f"c{hidden:02d}"
    private, public = step.events[:2]
    assert private == CardReserved(audience=0, seat=0, level=2, slot=None, card=key, gold=True)
    assert public == CardReserved(seat=0, level=2, slot=None, card=None, gold=True)
    after = step.state
    own = GAME.view(after, 0)
    assert own.players[0].reserved[0].card is not None and own.players[0].reserved[0].card.id == key
    for seat in (None, 1, 2):
        view = GAME.view(after, seat)
        reserved = view.players[0].reserved[0]
        assert (reserved.level, reserved.from_deck, reserved.card) == (2, True, None)
        assert key not in view.model_dump_json()
        assert key in GAME.secrets(after, seat)
    assert key not in GAME.secrets(after, 0)


def test_a_face_up_reserved_card_is_public() -> None:
    """Seed, reserving: a card taken from the rows was face up; everyone keeps seeing it."""
    state = play(make_state(), "r.1.2").state
    reserved = GAME.view(state, 1).players[0].reserved[0]
    assert reserved.card is not None and reserved.card.id == "c03"
    assert reserved.from_deck is False


def test_views_show_deck_sizes_never_deck_cards() -> None:
    """Decks are face down: views give their sizes; the cards in them are secrets of every view."""
    state = GAME.setup(2, seed=3)
    view = GAME.view(state, None)
    assert view.decks == (36, 26, 16)
    text = view.model_dump_json()
    deck_keys = {f"c{c:02d}" for deck in state.decks for c in deck}
    assert deck_keys <= set(GAME.secrets(state, None))
    assert not any(key in text for key in deck_keys)
    assert str(state.rng) in GAME.secrets(state, 0)


def test_view_shows_tokens_bonuses_points_and_nobles_of_everyone() -> None:
    """Seed: every player's tokens, bought cards (bonuses and points) and nobles stay in sight of all."""
    state = make_state(held=["w2 y1", "k3"], bought=[(card("W8"),), ()], visitors=[(3,), ()], nobles=(1, 2))
    view = GAME.view(state, 1)
    me, them = view.players[1], view.players[0]
    assert them.tokens == (2, 0, 0, 0, 0, 1) and me.tokens == (0, 0, 0, 0, 3, 0)
    assert them.bonuses == (1, 0, 0, 0, 0) and them.points == 1 + 3
    assert them.cards == ("c08",) and [n.id for n in them.nobles] == ["n03"]
    assert [n.id for n in view.nobles] == ["n01", "n02"]


def test_an_empty_slot_is_shown_as_none() -> None:
    """Seed, refilling: with its deck empty, a slot stays empty; the view shows None there."""
    state = make_state(rows=[(1, 0, 3, 4), (41, 42, 43, 44), (71, 72, 73, 74)])
    assert GAME.view(state, None).rows[0][1] is None


# -- Text form of actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("t.w.b.r", SplendorAction("t", tokens=(0, 1, 3))),
        ("t.g.k", SplendorAction("t", tokens=(2, 4))),
        ("t2.w", SplendorAction("t2", tokens=(0,))),
        ("r.2.3", SplendorAction("r", 2, 3)),
        ("r.3.d", SplendorAction("r", 3, -1)),
        ("b.1.0", SplendorAction("b", 1, 0)),
        ("b.h.2", SplendorAction("b", 0, 2)),
        ("bg.1-0.ww", SplendorAction("bg", 1, 0, (0, 0))),
        ("bg.h-1.bk", SplendorAction("bg", 0, 1, (1, 4))),
        ("g.w.w.y", SplendorAction("g", tokens=(0, 0, 5))),
        ("n.10", SplendorAction("n", noble=10)),
        ("p", SplendorAction("p")),
    ],
)
def test_text_form_of_actions(text: str, action: SplendorAction) -> None:
    """Actions read coarse to fine, one segment per token, so the bot builds its menus from prefixes."""
    assert GAME.decode(text) == action
    assert GAME.encode(action) == text


@pytest.mark.parametrize(
    "text",
    ["t.w.w", "t.b.w", "t.y", "t.w.b.r.k", "t2.y", "r.4.0", "r.1.4", "b.h.3", "b.1.0.w", "bg.1-0", "bg.1-0.y",
     "bg.1-0.bw", "bg.1-0.b.b", "bg.1.0.w", "bg.4-0.w", "bg.h-3.w", "bg.1-00.w", "g", "g.b.w", "g.ww", "n.0",
     "n.11", "n.03", "t2.w.w", "p.1", "b.1.01"],
)  # fmt: skip
def test_decode_refuses_what_is_no_action(text: str) -> None:
    """Out-of-order or repeated colours, gold where gold cannot go, unknown slots: MalformedAction."""
    with pytest.raises(MalformedAction):
        GAME.decode(text)


def test_no_legal_code_is_a_prefix_of_another() -> None:
    """Menus: a node is either an action or a submenu, so no legal code may start another one."""
    for seed in range(5):
        rnd = random.Random(seed)
        state = GAME.setup(4, seed)
        while GAME.to_act(state):
            codes = sorted(legal(state))
            assert not any(b.startswith(a + ".") for a, b in itertools.pairwise(codes)), codes
            state = GAME.apply(state, state.turn, rnd.choice(GAME.legal_actions(state, state.turn))).state


def test_default_action_is_the_first_legal_action() -> None:
    """Time-out: the first legal action, taking three tokens in colour order when the bank allows."""
    state = GAME.setup(2, seed=5)
    assert GAME.encode(GAME.default_action(state, 0)) == "t.w.b.g"
    assert "t.w.b.g" in legal(state)
