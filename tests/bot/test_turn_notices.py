"""Turn notices' parts: links to a group's board as Telegram makes them, whose turn began and ended once per
version in Redis, who is waited for (no computer player, nobody out of the game), when a hand is itself the
notice, the switch that turns notices off and on, and a notice never answered said again in place."""

from __future__ import annotations

import asyncio
import itertools
import time
from types import SimpleNamespace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.config import Settings
from bot.handlers.notify import switch_button, switched
from bot.messages import hands, notices
from bot.messages.links import message_link
from bot.messages.notices import NOTICES_OFF_DATA, NOTICES_ON_DATA, waiting
from bot.plumbing.chat_cards import ChatCard
from bot.plumbing.services import Services
from bot.plumbing.store import GameRecord, Player, Store
from bot.plumbing.turn_notices import Notice, TurnBook
from rules import GAMES

_tags = (f"{-7000 - n}" for n in itertools.count())


def test_links_to_a_supergroups_message_a_topics_and_a_public_groups_and_none_in_a_basic_group() -> None:
    private = ChatCard(-1001234567890, "supergroup", "دوستان")
    assert message_link(private, 42) == "https://t.me/c/1234567890/42"
    assert message_link(private, 42, thread_id=7) == "https://t.me/c/1234567890/7/42"
    public = ChatCard(-1001234567890, "supergroup", "دوستان", "dorehami_friends")
    assert message_link(public, 42) == "https://t.me/dorehami_friends/42"
    assert message_link(public, 42, thread_id=7) == "https://t.me/dorehami_friends/7/42"
    assert message_link(ChatCard(-4000000001, "group", "خانواده"), 42) is None
    assert message_link(ChatCard(-42, "supergroup"), 42) is None  # not an id Telegram gives a supergroup


async def test_whose_turn_began_and_ended_is_answered_once_per_version(store: Store) -> None:
    book, tag = TurnBook(store.redis, store.keys), next(_tags)
    first = await book.advance(tag, "seed1", 10, [1001])
    assert first is not None and (first.began, first.ended) == ((1001,), ())
    assert await book.advance(tag, "seed1", 10, [1001]) is None  # drawn again (another worker): nothing new
    assert await book.advance(tag, "seed1", 9, [1002]) is None  # an older version noted late changes nothing
    same = await book.advance(tag, "seed1", 11, [1001])  # the turn stayed with the player who just moved
    assert same is not None and (same.began, same.ended) == ((), ())
    assert await book.turn_began(tag, 1001) == 10
    moved = await book.advance(tag, "seed1", 12, [1002, 1003])
    assert moved is not None and (moved.began, set(moved.ended)) == ((1002, 1003), {1001})
    assert await book.turn_began(tag, 1001) is None and await book.turn_began(tag, 1003) == 12
    fresh = await book.advance(tag, "seed2", 20, [1002])  # a new game in the chat: every turn starts anew
    assert fresh is not None and (fresh.began, set(fresh.ended)) == ((1002,), {1002, 1003})
    over = await book.advance(tag, "seed2", 21, [])
    assert over is not None and (over.began, over.ended) == ((), (1002,))


async def test_of_many_workers_noting_one_version_only_one_hears_the_turn_began(store: Store) -> None:
    book, tag = TurnBook(store.redis, store.keys), next(_tags)
    found = await asyncio.gather(*(book.advance(tag, "s", 5, [1001]) for _ in range(8)))
    assert [turns.began for turns in found if turns is not None] == [(1001,)]


async def test_a_notice_is_taken_once_and_only_if_it_is_the_one_asked_for(store: Store) -> None:
    book, tag = TurnBook(store.redis, store.keys), next(_tags)
    assert await book.take(tag, 1001) is None
    await book.keep(tag, 1001, Notice(1001, 5))
    assert await book.take(tag, 1001, only=Notice(1001, 4)) is None  # a newer notice is not another's to delete
    assert await book.take(tag, 1001, only=Notice(1001, 5)) == Notice(1001, 5)
    await book.keep(tag, 1001, Notice(-1001000000001, 9))
    assert await book.take(tag, 1001) == Notice(-1001000000001, 9)
    assert await book.take(tag, 1001) is None


def _record(game_id: str, players: int, chat_id: int = -1001000000001, **extra: object) -> GameRecord:
    people = [Player(user_id=1001 + n, name=f"p{n}") for n in range(players)]
    state = GAMES[game_id].setup(players, 3)
    return GameRecord(
        chat_id=chat_id,
        game_id=game_id,
        phase="playing",
        creator=people[0],
        players=people,
        state=state.model_dump(mode="json"),
        **extra,  # type: ignore[arg-type]
    )


def test_only_people_still_in_a_running_group_game_are_waited_for() -> None:
    record = _record("coin_age", 2)
    seat = GAMES["coin_age"].to_act(GAMES["coin_age"].state_model.model_validate(record.state))[0]
    assert waiting(record) == [record.players[seat].user_id]
    computer = record.model_copy(deep=True)
    computer.players[seat] = Player(user_id=-1, name="رایانه ۱")
    assert waiting(computer) == []
    assert waiting(record.model_copy(update={"gone": {seat: "left"}})) == []
    assert waiting(record.model_copy(update={"topic_closed": True})) == []
    assert waiting(record.model_copy(update={"chat_id": 1001})) == []  # a game in a private chat is its board
    assert waiting(record.model_copy(update={"phase": "finished"})) == []


def test_a_hand_is_the_notice_only_when_every_choice_is_made_in_private() -> None:
    game = GAMES["condottiere"]
    record = _record("condottiere", 3)
    state = game.state_model.model_validate(record.state)
    seen: set[bool] = set()
    for _ in range(200):
        seats = game.to_act(state)
        if not seats:
            break
        for seat in seats:
            alone = hands.decides_in_private(record, state, seat)
            seen.add(alone)
            if alone and len(seats) == 1:
                assert not hands.group_codes(record, state)[0]  # nothing to press on the board meanwhile
        assert not any(hands.decides_in_private(record, state, s) for s in range(3) if s not in seats)
        state = game.apply(state, seats[0], game.legal_actions(state, seats[0])[-1]).state
    assert seen == {True, False}  # cards are played in private; where to fight is chosen on the board


def test_the_switch_offers_the_other_way_and_keeps_the_link() -> None:
    link = InlineKeyboardButton("رفتن به بازی", url="https://t.me/c/1/2")
    notice = InlineKeyboardMarkup([[link], [switch_button(True)]])
    off = switched(notice, on=False)
    assert off.inline_keyboard[0][0] == link and off.inline_keyboard[1][0].callback_data == NOTICES_ON_DATA
    back = switched(off, on=True)
    assert back.inline_keyboard[1][0].callback_data == NOTICES_OFF_DATA
    assert switched(None, on=True).inline_keyboard == ((switch_button(True),),)


class Telegram:
    """Stands in for the Bot API where the notices meet it: each call noted as ``<method> <chat>:<message>``."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.next_id = 100

    async def send_message(self, chat_id: int, text: str, **_: object) -> SimpleNamespace:
        self.next_id += 1
        self.calls.append(f"send {chat_id}:{self.next_id}")
        return SimpleNamespace(message_id=self.next_id)

    async def edit_message_text(self, chat_id: int, message_id: int, text: str, **_: object) -> None:
        self.calls.append(f"edit {chat_id}:{message_id}")

    async def delete_message(self, chat_id: int, message_id: int) -> None:
        self.calls.append(f"delete {chat_id}:{message_id}")


async def test_a_notice_never_answered_is_said_again_in_place_and_one_answered_is_taken_back(store: Store) -> None:
    """A player who never came back to their notice (no press since it came; their turn ended by itself) keeps
    it at the bottom of their chat: their next turn edits it, with no second buzz. Once they pressed, or once
    another message came after it, the next turn is a new message and the old one goes; and when the game is
    over, a notice left unanswered goes too."""
    telegram = Telegram()
    services = Services(store=store, settings=Settings(), deadlines=None)  # type: ignore[arg-type]
    context = SimpleNamespace(bot=telegram, bot_data={"services": services})
    record = _record("coin_age", 2, chat_id=int(next(_tags)))
    record.players[0].user_id = 7_000_000 + record.chat_id  # a person of this test alone (NEWEST_PRIVATE is global)
    tag, user = str(record.chat_id), record.players[0].user_id
    await store.mark_reachable(user)
    private = ("🎲 نوبت شماست", InlineKeyboardMarkup([[switch_button(True)]]))

    async def tell() -> None:
        await notices._deliver(context, record, 0, private, "", hand_button=False, began=None)  # type: ignore[arg-type]

    await tell()
    assert telegram.calls == [f"send {user}:101"]
    await notices._turn_ended(context, record, tag, user)  # type: ignore[arg-type]
    await tell()
    assert telegram.calls[1:] == [f"edit {user}:101"]  # left, then said again: one call, no new message

    await store.note_press(record.chat_id, None, user, time.time())  # they came and played
    await notices._turn_ended(context, record, tag, user)  # type: ignore[arg-type]
    assert telegram.calls[2:] == [f"delete {user}:101"]
    await tell()
    assert telegram.calls[3:] == [f"send {user}:102"]

    telegram.next_id += 1
    await store.note_private_message(user, telegram.next_id)  # another game's message came after it
    await notices._turn_ended(context, record, tag, user)  # type: ignore[arg-type]
    await tell()
    assert telegram.calls[4:] == [f"delete {user}:102", f"send {user}:104"]

    await notices._turn_ended(context, record, tag, user)  # type: ignore[arg-type]
    assert len(telegram.calls) == 6  # never answered: left
    over = record.model_copy(update={"phase": "finished", "version": record.version + 1})
    await notices._follow(context, over)  # type: ignore[arg-type]
    assert telegram.calls[6:] == [f"delete {user}:104"]  # the game is over: nothing is left behind
