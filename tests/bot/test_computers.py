"""Computer players in the bot, the parts without Telegram: their seats and names, when one is to move and
with what seed, the buttons nobody gets for them, a player replaced by one after time-outs, the deadlines a
write arms, how results are counted, the lobby's buttons, the thinking pool, and every new word in Persian."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, get_args

import pytest
from prometheus_client import REGISTRY

from ai import LEVELS
from bot.config import Settings
from bot.flow import absence, computers
from bot.flow.commit import schedule
from bot.flow.results import count_result
from bot.handlers.admin import settings_keyboard, settings_text
from bot.handlers.stats import against_computers, leaderboard, leaderboard_text
from bot.messages import hands, keyboards, seats, texts
from bot.messages.lobby_message import lobby_text
from bot.plumbing.deadlines import Deadline, Deadlines
from bot.plumbing.group_settings import GroupSettings, StandIn
from bot.plumbing.services import Services
from bot.plumbing.store import GameRecord, Player, Store, chat_tag
from bot.plumbing.thinking import Thinker, think
from rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
GROUP = -100777
LATIN = re.compile(r"[A-Za-z0-9]")
ALI, SARA = Player(user_id=11, name="علی"), Player(user_id=12, name="سارا")


def _computer(record: GameRecord, level: str) -> Player:
    player = computers.new_computer(record, level)
    record.players.append(player)
    return player


def _record(game_id: str, players: list[Player], chat_id: int = GROUP, levels: tuple[str, ...] = ()) -> GameRecord:
    """A running game of these people and a computer player per level, from seed 1."""
    record = GameRecord(chat_id=chat_id, game_id=game_id, creator=players[0], players=list(players), seed=1)
    for level in levels:
        _computer(record, level)
    record.phase = "playing"
    record.state = GAMES[game_id].setup(len(record.players), 1).model_dump(mode="json")
    record.version = 5
    return record


def _state(record: GameRecord) -> Any:
    return GAMES[record.game_id].state_model.model_validate(record.state)


# Seats and names ---------------------------------------------------------------------------------------------


def test_computer_players_are_numbered_from_one_with_the_smallest_free_number_and_named_in_persian() -> None:
    record = GameRecord(chat_id=GROUP, game_id="splendor", creator=ALI, players=[ALI])
    first, second = _computer(record, "hard"), _computer(record, "easy")
    assert (first.user_id, first.name, first.level) == (-1, "رایانه ۱ (سخت)", "hard")
    assert (second.user_id, second.name) == (-2, "رایانه ۲ (آسان)")
    record.players.remove(first)
    assert _computer(record, "medium").name == "رایانه ۱ (متوسط)"  # the number freed is taken again
    record.replaced[0] = Player(user_id=-3, name="x", level="easy")  # a number once used in the game stays used
    assert _computer(record, "easy").user_id == -4
    assert all(p.user_id <= 0 for p in record.players if p.is_computer)  # notifications skip them by their id
    assert computers.people(record) == [0] and computers.strongest_level(record) == "medium"


def test_records_written_before_computer_players_still_load() -> None:
    old = '{"chat_id": -5, "game_id": "coin_age", "creator": {"user_id": 1, "name": "a"}, "players": [{"user_id": 1, "name": "a", "username": null}]}'  # noqa: E501
    record = GameRecord.model_validate_json(old)
    assert record.players[0].level is None and not record.players[0].is_computer and record.replaced == {}
    assert not record.in_private and GameRecord.model_validate_json(old.replace("-5", "77")).in_private


def test_the_stand_in_setting_offers_exactly_the_levels() -> None:
    assert set(get_args(StandIn)) == {"off", *LEVELS}
    assert GroupSettings().stand_in == "off" and GroupSettings().computer_pause_seconds == 2


# Whose move, and with what seed ---------------------------------------------------------------------------------


def test_a_computer_seat_to_move_is_found_and_its_seed_follows_the_game_and_its_version() -> None:
    record = _record("coin_age", [ALI], levels=("easy",))
    state = _state(record)
    assert GAMES["coin_age"].to_act(state) == (0,)
    assert computers.computer_to_act(record, state) is None and computers.person_to_act(record, state)
    record.players.reverse()  # now the computer holds seat 0, which is to act
    assert computers.computer_to_act(record) == 0 and not computers.person_to_act(record, state)
    record.gone[0] = "kicked"  # a seat out of the game is played by default moves, not by the search
    assert computers.computer_to_act(record) is None
    seed = computers.search_seed(record, 0)
    assert seed == computers.search_seed(record, 0) and 0 <= seed < 2**62
    assert seed != computers.search_seed(record.model_copy(update={"version": 6}), 0)
    assert seed != computers.search_seed(record, 1)


def test_nobody_gets_buttons_for_a_computer_and_it_has_no_private_message() -> None:
    record = _record("condottiere", [ALI], levels=("easy", "easy"))
    state = _state(record)
    seat = GAMES["condottiere"].to_act(state)[0]
    assert record.players[seat] is ALI
    assert hands.hand_seats(record) == [0]  # the person's hand only
    record.players[0], record.players[1] = record.players[1], record.players[0]
    assert hands.group_codes(record, state) == ([], False)  # the computer is to act: no buttons, nothing private
    assert hands.hand_seats(record) == [1]


def _secret_choice_of_seat_0(record: GameRecord) -> Any:
    """Play the game on (first choices) until seat 0 is to make a choice that involves its hand."""
    game, presenter = GAMES[record.game_id], hands.PRESENTERS[record.game_id].hands
    assert presenter is not None
    state = _state(record)
    for _ in range(200):
        seat = game.to_act(state)[0]
        codes = [game.encode(a) for a in game.legal_actions(state, seat)]
        if seat == 0 and any(presenter.is_private(c) for c in codes):
            record.state = state.model_dump(mode="json")
            return state
        state = game.apply(state, seat, game.legal_actions(state, seat)[0]).state
    raise AssertionError("no secret choice came")


def test_in_a_private_chat_the_board_has_all_of_the_person_s_choices_and_the_hand_none() -> None:
    game = GAMES["condottiere"]
    group = _record("condottiere", [ALI, SARA], levels=("easy",))
    state = _secret_choice_of_seat_0(group)
    codes = [game.encode(a) for a in game.legal_actions(state, 0)]
    public, in_private = hands.group_codes(group, state)
    assert in_private and set(public) < set(codes)  # in a group, cards are played from the private hand
    assert hands.private_codes(group, state, 0) and hands.board_seat(group) is None
    alone = _record("condottiere", [ALI], chat_id=ALI.user_id, levels=("easy", "easy"))
    state = _secret_choice_of_seat_0(alone)
    everything = [game.encode(a) for a in game.legal_actions(state, 0)]
    assert alone.in_private and hands.group_codes(alone, state) == (everything, False)
    assert hands.private_codes(alone, state, 0) == [] and hands.board_seat(alone) == 0


# A player replaced after time-outs, and games left to computers --------------------------------------------------


def test_a_timed_out_player_is_replaced_by_a_computer_only_where_the_game_would_go_on() -> None:
    three = _record("carcassonne", [ALI, SARA, Player(user_id=13, name="رضا")])
    assert absence.may_stand_in(three, 0, "medium") and not absence.may_stand_in(three, 0, "off")
    lines = absence.stand_in(three, 0, "medium")
    assert three.players[0].name == "رایانه ۱ (متوسط)" and three.replaced[0] is ALI and 0 not in three.gone
    assert "علی" in lines[0] and "رایانه ۱ (متوسط)" in lines[1] and "علی" in lines[1]
    assert not absence.may_stand_in(three, 0, "hard")  # a computer is never replaced
    two = _record("coin_age", [ALI, SARA])
    assert not absence.may_stand_in(two, 0, "hard")  # the opponent wins at once, as without stand-ins
    alone = _record("carcassonne", [ALI], levels=("easy", "easy"))
    assert not absence.may_stand_in(alone, 0, "easy")  # no person would be left to play with


def test_a_game_left_to_computer_players_alone_ends() -> None:
    record = _record("carcassonne", [ALI], levels=("easy", "easy"))
    state, _ = absence.remove(record, _state(record), 0, "left")
    assert record.phase == "finished" and seats.over_for_want_of_players(record)
    assert seats.winners(record, state) == (1, 2)
    with_two = _record("carcassonne", [ALI, SARA], levels=("easy",))
    absence.remove(with_two, _state(with_two), 0, "left")
    assert with_two.phase == "playing"  # a person and a computer go on


# Deadlines a write arms -------------------------------------------------------------------------------------------


def _context(store: Store) -> Any:
    svc = Services(store=store, settings=Settings(), deadlines=Deadlines(store.redis, store.keys))
    return SimpleNamespace(bot_data={"services": svc})


async def _armed(store: Store, record: GameRecord) -> set[str]:
    await schedule(_context(store), record)
    pending = await Deadlines(store.redis, store.keys).pending(chat_tag(record.chat_id, None))
    return {member.split("|")[0] for member in pending}


async def test_a_computer_to_move_gets_its_deadline_and_only_people_time_out(store: Store) -> None:
    record = _record("coin_age", [ALI], levels=("easy",))
    record.chat_id = GROUP - 1
    assert await _armed(store, record) == {"timeout", "remind"}  # the person is to move
    record.players.reverse()
    assert await _armed(store, record) == {"computer"}  # the computer is: nothing can time out
    record.chat_id = ALI.user_id + 1000
    assert await _armed(store, record) == {"computer"}
    record.players.reverse()
    assert await _armed(store, record) == set()  # a person alone in private plays at their own pace
    record.phase = "finished"
    assert await _armed(store, record) == set()


async def test_leases_are_renewed_while_firing_and_taken_back_by_a_new_run(store: Store) -> None:
    deadlines = Deadlines(store.redis, store.keys)
    tag = "-9777"
    await deadlines.arm(tag, {Deadline("computer", tag, 4): 10.0, Deadline("timeout", tag, 4): 10.0})
    claimed = [d for d in await deadlines.claim(now=11.0) if d.tag == tag]
    assert len(claimed) == 2
    await deadlines.renew(claimed[:1], now=100.0)
    assert await store.redis.zscore(store.keys.leases, claimed[0].member) > 100.0
    assert await store.redis.zscore(store.keys.leases, claimed[1].member) < 100.0
    await deadlines.done(claimed[1])
    await deadlines.renew(claimed[1:], now=200.0)  # a lease already given up is not made again
    assert await store.redis.zscore(store.keys.leases, claimed[1].member) is None
    assert await deadlines.take_back(now=50.0) >= 1
    assert await store.redis.zscore(store.keys.due, claimed[0].member) == 50.0
    assert [d for d in await deadlines.claim(now=51.0) if d.tag == tag] == claimed[:1]
    await deadlines.done(claimed[0])


# Results ------------------------------------------------------------------------------------------------------


async def test_games_with_computers_are_counted_apart_and_by_level(store: Store) -> None:
    chat = GROUP - 2
    people = [Player(user_id=2101, name="آرش"), Player(user_id=2102, name="بهار"), Player(user_id=2103, name="پریسا")]
    among_people = _record("splendor", people[:2], chat_id=chat)
    assert await count_result(store, among_people, (0,))
    with_computers = _record("splendor", people[:2], chat_id=chat, levels=("easy", "hard"))
    with_computers.seed = 2
    with_computers.replaced[1] = people[2]  # a person replaced after time-outs: played and lost
    assert await count_result(store, with_computers, (1,))
    assert not await count_result(store, with_computers, (1,))  # once
    assert [(x.user_id, x.won) for x in await leaderboard(store, chat, "splendor")] == [(2101, 1), (2102, 0)]
    apart = await leaderboard(store, chat, "splendor", computers=True)
    assert sorted((x.user_id, x.played, x.won) for x in apart) == [(2101, 1, 0), (2102, 1, 1), (2103, 1, 0)]
    mine = await store.redis.hgetall(f"{store.keys.user(2102)}stats")
    assert mine == {"splendor:played": "1", "computer:splendor:hard:played": "1", "computer:splendor:hard:won": "1"}
    assert await store.redis.hgetall(f"{store.keys.user(-1)}stats") == {}  # computers are never counted
    assert "💎 اسپلندور، سخت: ۱ برد از ۱ بازی (۱۰۰٪)" in "\n".join(against_computers(mine))  # the game named
    earlier = against_computers({"computer:hard:played": "2", "computer:hard:won": "1"})  # counted before games were
    assert "سطح سخت، بازی‌های پیشین: ۱ برد از ۲ بازی (۵۰٪)" in "\n".join(earlier)
    private = _record("coin_age", [people[0]], chat_id=people[0].user_id, levels=("medium",))
    private.seed = 3
    assert await count_result(store, private, (1,))
    assert await store.redis.hgetall(f"{store.keys.chat(people[0].user_id)}stats:coin_age:computer") == {}
    assert await store.redis.hget(f"{store.keys.user(2101)}stats", "computer:coin_age:medium:played") == "1"
    text = leaderboard_text({"splendor": await leaderboard(store, chat, "splendor")}, {"splendor": apart})
    assert text.index("آرش") < text.index(texts.STATS_WITH_COMPUTERS) < text.index("پریسا")


# The lobby's buttons --------------------------------------------------------------------------------------------


def test_a_private_lobby_has_no_joining_and_every_computer_a_button_to_take_it_out() -> None:
    options = GAMES["splendor"].options_model()
    group = keyboards.lobby(3, "splendor", options, "https://t.me/bot?start=j1", computers=[(1, "رایانه ۱ (آسان)")])
    data = [b.callback_data for row in group.inline_keyboard for b in row]
    assert "l:3:join" in data and "c:3:add" in data and "c:3:rm:1" in data
    assert any(b.url for row in group.inline_keyboard for b in row)
    private = keyboards.lobby(3, "splendor", options, "", private=True)
    data = [b.callback_data for row in private.inline_keyboard for b in row]
    assert "l:3:join" not in data and "l:3:leave" not in data and "l:3:start" in data and "c:3:add" in data
    assert not any(b.url for row in private.inline_keyboard for b in row)
    levels = [b.callback_data for row in keyboards.computer_levels(3).inline_keyboard for b in row]
    assert levels == ["c:3:add:easy", "c:3:add:medium", "c:3:add:hard", "c:3:back"]


# The thinking pool ----------------------------------------------------------------------------------------------


async def test_the_pool_plays_the_move_the_search_chooses() -> None:
    game = GAMES["coin_age"]
    state = game.setup(2, 9)
    thinker = Thinker(1)
    thought = REGISTRY.get_sample_value("dorehami_thinking_seconds_count", {"game": "coin_age", "level": "easy"}) or 0
    try:
        code = await thinker.choose("coin_age", state.model_dump_json(), 0, "easy", 123)
    finally:
        thinker.stop()
    assert code in {game.encode(a) for a in game.legal_actions(state, 0)}
    labels = {"game": "coin_age", "level": "easy"}
    assert REGISTRY.get_sample_value("dorehami_thinking_seconds_count", labels) == thought + 1  # on /metrics
    assert REGISTRY.get_sample_value("dorehami_thinking_in_pool") == 0
    assert code == think("coin_age", state.model_dump_json(), 0, "easy", 123)  # the same move in this process


def test_a_thinking_process_ends_when_the_bot_is_killed() -> None:
    """A spawned worker would wait for work forever after a kill -9 of the bot (it holds both ends of its
    queue); it notices that its parent is gone and ends."""
    child = textwrap.dedent(
        """
        import asyncio, os, signal
        from bot.plumbing.thinking import Thinker

        async def main():
            thinker = Thinker(1)
            await thinker.warm_up()
            print(thinker._pool.submit(os.getpid).result(), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)

        asyncio.run(main())
        """
    )
    run = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=60)
    worker = int(run.stdout.split()[0])
    deadline = time.monotonic() + 10
    while Path(f"/proc/{worker}").exists() and "Z" not in _state_of(worker):
        assert time.monotonic() < deadline, "the thinking process outlived the bot"
        time.sleep(0.1)


def _state_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


# Words ----------------------------------------------------------------------------------------------------------


NEW_TEXTS = [
    "COMPUTER_NAME", "ADD_COMPUTER", "PICK_LEVEL", "REMOVE_COMPUTER", "BACK", "COMPUTER_ADDED", "COMPUTER_REMOVED",
    "NEED_A_PERSON", "STANDS_IN", "NO_PERSON_LEFT", "PRIVATE_LOBBY_HELP", "GROUP_LOBBY_COMPUTERS", "COMPUTER_PAUSE",
    "COMPUTER_PAUSE_BUTTON", "NO_PAUSE", "STAND_IN_SETTING", "STAND_IN_BUTTON", "STAND_IN_OFF", "STAND_IN_LEVEL",
    "STATS_WITH_COMPUTERS", "MYSTATS_COMPUTERS", "MYSTATS_EARLIER", "RECORD", "STATUS_PRIVATE_GAMES", "LEAVE_ENDS",
    "WELCOME", "HELP", "NO_PAUSE_BUTTON", "STAND_IN_OFF_LINE", "STAND_IN_LEVEL_LINE", "COMPUTER_ROOM_ONE",
    "COMPUTER_ROOM_MANY",
]  # fmt: skip


def _words(text: str) -> str:
    """What a player reads: no markup, no placeholders still to fill, no commands (typed as they are)."""
    text = html.unescape(re.sub(r"<[^>]*>|\{[a-z]+\}|/[a-z]+(@\{bot\})?", "", text))
    return text.replace("coin_age", "")


def test_everything_new_a_player_reads_is_persian() -> None:
    group = _record("splendor", [Player(user_id=1, name="")], levels=("easy", "medium", "hard"))
    group.phase = "lobby"
    private = group.model_copy(update={"chat_id": 1})
    said = [lobby_text(group), lobby_text(private)]
    for markup in (
        keyboards.lobby(1, "splendor", GAMES["splendor"].options_model(), "", computers=[(1, "رایانه ۱ (آسان)")]),
        keyboards.computer_levels(1),
        settings_keyboard(GroupSettings(stand_in="hard"), (30,)),
    ):
        said += [b.text for row in markup.inline_keyboard for b in row]
    said += [settings_text(GroupSettings(stand_in=level)) for level in ("off", *LEVELS)]
    said += against_computers({"computer:easy:played": "3", "computer:easy:won": "1"})
    said += [p.name for p in group.players if p.is_computer]
    said += [getattr(texts, name) for name in NEW_TEXTS]
    latin = [text for text in said if LATIN.search(_words(text))]
    assert not latin, latin


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_has_a_persian_title(level: str) -> None:
    assert not LATIN.search(LEVELS[level].title)
