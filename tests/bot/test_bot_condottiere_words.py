"""رکب in Persian: who opens and chooses next, the discard step told only to those who decide, the peace
token pointed to in the group, who ended a battle with a Surrender, who got which cards, the game's end said
once, /rules as RULES.md has them, and a result that says how the game was won, everyone ranked."""

from __future__ import annotations

from bot.games.condottiere import presenter
from rules import GAMES
from rules.condottiere.data import REKAB
from rules.condottiere.model import (
    BattleEnded,
    BishopDiscarded,
    CardPlayed,
    CondottiereOptions,
    Dealt,
    GameEnded,
    NextChooser,
    Passed,
    SeasonDiscarded,
)
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
    assert "ریش\u200cسفیدِ" in line and "مریم" in line and "سرباز ۱۰ سوخت" in line
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
    event adds no line of its own (the caption says «پایان بازی» once, over the result), and the result says
    what decided it, battles won at two, provinces on the map, in a draw too."""
    assert presenter.describe([GameEnded(reason="stalemate", winners=(0,))], NAMES, VIEW) == []
    on_map = evolve(VIEW, finished=True, phase="over", winners=(1,), end_reason="stalemate", provinces_held=(0, 2, 1))
    assert presenter.result(on_map, NAMES)[1] == "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین استان"
    duel = GAME.view(GAME.setup(2, 1), None)
    at_two = evolve(duel, finished=True, phase="over", winners=(0,), end_reason="stalemate", wins=(2, 1))
    assert presenter.result(at_two, NAMES[:2])[1] == "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین جنگِ برده"
    drawn = evolve(at_two, winners=(0, 1), wins=(1, 1))
    assert presenter.result(drawn, NAMES[:2])[:2] == ["🤝 مساوی!", "⏸ دو جنگ پیاپی بی‌کارت گذشت؛ بیشترین جنگِ برده"]


def test_a_surrender_names_who_played_it_and_who_won() -> None:
    """Reza's Surrender ends the battle Ali wins: the line names both, the province taken, and the card played
    is not told twice."""
    names = ["علی", "مریم", "رضا"]
    lines = presenter.describe(
        [
            CardPlayed(seat=2, card="su#01"),
            BattleEnded(battle=1, province=_province("borge"), reason="surrender", strengths=(7, 2, 0), winner=0),
            NextChooser(seat=0, reason="winner"),
        ],
        names,
        VIEW,
    )
    assert lines[0] == (
        "🏳️ \u2068رضا\u2069 با پرچمدار جنگ را تمام کرد: \u2068علی\u2069 جنگ ۱ را برد و «بورگه» را گرفت (قدرت ۷)."
    )
    assert len(lines) == 2 and "پرچمدار را بازی کرد" not in "".join(lines)
    [tie] = presenter.describe(
        [BattleEnded(battle=2, province=_province("lia"), reason="passes", strengths=(3, 3, 1), winner=None)],
        names,
        VIEW,
    )
    assert tie == "🤝 جنگ ۲ مساوی شد و کسی «لیا» را نگرفت."


def test_a_deal_names_who_got_how_many_and_winter_is_winter() -> None:
    [dealt] = presenter.describe([Dealt(sizes=(10, 11, 12), reshuffled=True)], NAMES, VIEW)
    assert dealt == "🃏 دسته بُر خورد و کارت پخش شد: \u2068علی\u2069 ۱۰، \u2068مریم\u2069 ۱۱ و \u2068سارا\u2069 ۱۲ کارت."
    [refill] = presenter.describe([Dealt(sizes=(0, 3, 0))], NAMES, VIEW)
    assert refill == "🃏 کارت پخش شد: \u2068مریم\u2069 ۳ کارت."
    assert presenter.describe([Dealt(sizes=(0, 0, 0))], NAMES, VIEW) == []
    winter, spring = presenter.describe([SeasonDiscarded(card="wi#01"), SeasonDiscarded(card="sp#02")], NAMES, VIEW)
    assert winter.startswith("❄️ زمستان") and spring.startswith("🌸 بهار") and "🍂" not in winter + spring
    [passed] = presenter.describe([Passed(seat=1, automatic=True)], NAMES, VIEW)
    assert passed == "✋ \u2068مریم\u2069 پاس داد (کارتی نداشت)."


def test_an_empty_hand_is_said_in_words() -> None:
    empty = evolve(GAME.view(STATE, 0), hand=())
    first = presenter.hands.lines(empty, NAMES)[0]
    assert first == "🃏 دست شما خالی است." and "۰ کارت" not in first and "بدون کارت" not in first
    full = presenter.hands.lines(GAME.view(STATE, 0), NAMES)[0]
    assert full.startswith("🃏 ۱۰ کارت: ")


def test_rules_say_who_opens_a_battle_the_surrender_tie_and_the_battles_without_a_card() -> None:
    """/rules as RULES.md has them: the previous battle's winner opens the next battle (not the site's
    chooser); a tie ended by a Surrender before anyone passed gives the choice of site to its player; two
    battles in a row without a card end the game, in RULES.md's words. One word for a province, the cards'
    names spelt as one word each."""
    text = presenter.rules_text(CondottiereOptions())
    assert "برندهٔ جنگ قبل جنگ بعدی را آغاز می‌کند" in text
    assert "محل را کس دیگری انتخاب کرده باشد" in text and "کسی که محل را انتخاب کرده" in text
    assert "و جنگ را آغاز می‌کند" not in text
    assert "با پرچمدار تمام شود و هنوز کسی پاس نداده باشد، کسی که پرچمدار را بازی کرده" in text
    assert "(فصل‌ها، مترسک و پرچمدار هم کارت حساب می‌شوند)" in text
    assert "بیشترین استان (در دو نفره: بیشترین جنگِ برده) می‌برد و بازیکنانِ برابر با هم برنده‌اند" in text
    classic = presenter.rules_text(CondottiereOptions(classic_map=True))
    for words in (text, classic, *(t.label for t in presenter.toggles)):
        assert "منطقه" not in words and "ریش سفید" not in words and "طبل زن" not in words
    assert "۱۷ استان" in classic and "ریش\u200cسفید" in text and "طبل\u200cزن" in text


def test_the_result_ranks_everyone_and_equals_share_a_place() -> None:
    view = evolve(
        VIEW, finished=True, phase="over", winners=(1,), end_reason="no_free_province", provinces_held=(2, 4, 2)
    )
    lines = presenter.result(view, NAMES)
    assert lines[0] == "🏆 برنده: <b>\u2068مریم\u2069</b>"
    assert lines[2:] == [
        "۱. \u2068مریم\u2069: <b>۴</b> استان",
        "۲. \u2068علی\u2069: <b>۲</b> استان",
        "۲. \u2068سارا\u2069: <b>۲</b> استان",
    ]
    standings = presenter.status(evolve(VIEW, provinces_held=(2, 4, 2)), NAMES)[-1]
    assert standings == "🏳️ استان: \u2068مریم\u2069 ۴، \u2068علی\u2069 ۲، \u2068سارا\u2069 ۲"  # the caption's too
    shared = evolve(view, winners=(0, 2), provinces_held=(3, 1, 3), end_reason="stalemate")
    lines = presenter.result(shared, NAMES)
    assert lines[0].startswith("🏆 برندگان: ") and lines[2].startswith("۱. ") and lines[3].startswith("۱. ")
    assert lines[4].startswith("۳. ")


def test_after_a_battle_without_a_card_the_board_warns_until_someone_plays() -> None:
    """The board's caption warns that a second battle without a card ends the game, as long as nothing has
    been played in the battle under way; a card played (the count starts again at the battle's end) hides it."""
    warning = "⚠️ جنگ پیش بی‌کارت گذشت"
    assert not any(warning in line for line in presenter.status(VIEW, NAMES))
    quiet = evolve(VIEW, quiet=1, phase="battle", lines=((), (), ()))
    assert any(warning in line for line in presenter.status(quiet, NAMES))
    played = evolve(quiet, lines=((), ("5#01",), ()))
    assert not any(warning in line for line in presenter.status(played, NAMES))
