"""رکب in Persian: who opens and chooses next, the discard step told only to those who decide, the peace
token pointed to in the group, and a result that says how the game was won, the winner first."""

from __future__ import annotations

from bot.games.condottiere import presenter
from rules import GAMES
from rules.condottiere.data import REKAB
from rules.condottiere.model import BishopDiscarded, CardPlayed, GameEnded, NextChooser
from rules.evolve import evolve

NAMES = ["علی", "مریم", "سارا"]
GAME = GAMES["condottiere"]
STATE = GAME.setup(3, 1)
VIEW = GAME.view(STATE, None)


def _province(name: str) -> int:
    return next(p.index for p in REKAB.provinces if p.id == name)


def test_next_chooser_says_why_and_a_surrender_tie_is_not_a_last_pass() -> None:
    lines = presenter.describe(
        [
            NextChooser(seat=1, reason="surrender"),
            NextChooser(seat=2, reason="last_pass"),
            NextChooser(seat=0, reason="winner", site=False),
        ],
        NAMES,
        VIEW,
    )
    assert "مریم" in lines[0] and "پرچمدار" in lines[0] and "آخرین پاس" not in lines[0]
    assert "آخرین پاس" in lines[1]
    assert "جنگ بعدی را" in lines[2] and "شروع می‌کند" in lines[2] and "محل" not in lines[2]


def test_cards_are_played_and_a_bishop_may_burn_nothing() -> None:
    played, nothing = presenter.describe(
        [CardPlayed(seat=0, card="5#1"), BishopDiscarded(seat=1, cards=())], NAMES, VIEW
    )
    assert "را بازی کرد" in played
    assert "هیچ سربازی نسوخت" in nothing and "⛪" not in nothing


def test_a_bishop_says_whose_soldiers_burned() -> None:
    [line] = presenter.describe(
        [BishopDiscarded(seat=1, cards=("10#01", "10#02", "10#03"), owners=(0, 2, 2))], NAMES, VIEW
    )
    assert "ریش سفیدِ" in line and "مریم" in line and "سرباز ۱۰ سوخت" in line
    assert "یکی از" in line and "علی" in line and "۲ تا از" in line and "سارا" in line
    assert line.count("سرباز ۱۰") == 1  # not «سرباز ۱۰ و سرباز ۱۰ و سرباز ۱۰»


def test_only_the_players_who_may_discard_are_told_so() -> None:
    deciding = evolve(GAME.view(STATE, 0), phase="discard", to_act=(0,))
    waiting = evolve(GAME.view(STATE, 1), phase="discard", to_act=(0,))
    assert any("دور بیندازید" in line for line in presenter.hands.lines(deciding, NAMES))
    told = presenter.hands.lines(waiting, NAMES)
    assert not any("سربازی در دستتان نمانده" in line for line in told)
    assert any("منتظر" in line and "علی" in line for line in told)


def test_after_a_bishop_in_private_the_hand_points_to_the_group_for_the_peace_token() -> None:
    mine = evolve(GAME.view(STATE, 2), phase="peace", turn=2, to_act=(2,))
    assert any("نشان صلح" in line and "گروه" in line for line in presenter.hands.lines(mine, NAMES))
    other = evolve(GAME.view(STATE, 0), phase="peace", turn=2, to_act=(2,))
    assert not any("نشان صلح" in line for line in presenter.hands.lines(other, NAMES))


def test_the_result_names_the_provinces_and_ranks_the_winner_first() -> None:
    owners = [None] * REKAB.size
    for name in ("bella", "caline", "borge"):
        owners[_province(name)] = 2
    owners[_province("lia")] = 0
    view = evolve(
        VIEW, finished=True, phase="over", winners=(2,), end_reason="victory", owners=tuple(owners),
        provinces_held=(1, 0, 3),
    )  # fmt: skip
    lines = presenter.result(view, NAMES)
    assert "سارا" in lines[0] and "برنده" in lines[0]
    assert lines[1].startswith("🗺 ۳ استانِ به‌هم‌پیوسته:")
    assert all(REKAB.provinces[_province(p)].name in lines[1] for p in ("bella", "caline", "borge"))
    assert "سارا" in lines[2] and "علی" in lines[3] and "مریم" in lines[4]


def test_a_stalemate_says_why_the_game_ended_and_what_decided_it() -> None:
    """Two battles in a row with nobody playing end the game (rules/condottiere/README.md, termination): the
    event says so, and the result line says what decided it, battles won at two, provinces on the map."""
    [line] = presenter.describe([GameEnded(reason="stalemate", winners=(0,))], NAMES, VIEW)
    assert line == "🏁 پایان بازی: دو جنگ پیاپی بی آن‌که کارتی بازی شود گذشت."
    on_map = evolve(VIEW, finished=True, phase="over", winners=(1,), end_reason="stalemate", provinces_held=(0, 2, 1))
    assert presenter.result(on_map, NAMES)[1] == "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین استان"
    duel = GAME.view(GAME.setup(2, 1), None)
    at_two = evolve(duel, finished=True, phase="over", winners=(0,), end_reason="stalemate", wins=(2, 1))
    assert presenter.result(at_two, NAMES[:2])[1] == "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین جنگِ برده"


def test_after_a_battle_without_a_card_the_board_warns_until_someone_plays() -> None:
    """The board's caption warns that a second battle without a card ends the game, as long as nothing has
    been played in the battle under way; a card played (the count starts again at the battle's end) hides it."""
    warning = "⚠️ جنگ پیش بی‌کارت گذشت"
    assert not any(warning in line for line in presenter.status(VIEW, NAMES))
    quiet = evolve(VIEW, quiet=1, phase="battle", lines=((), (), ()))
    assert any(warning in line for line in presenter.status(quiet, NAMES))
    played = evolve(quiet, lines=((), ("5#01",), ()))
    assert not any(warning in line for line in presenter.status(played, NAMES))
