"""Players who are out of a running game: they left, an admin removed them, or they timed out too often.

A seat out of the game stays in the engine (a game's rules rarely allow a seat to vanish: its cards, meeples
and provinces are part of the board) and the bot plays the game's default move for it whenever it is to act,
as it does on a time-out. It can no longer win. When fewer than two players remain, the game ends and the one
left wins; when only computer players remain, it ends too (nobody is left to play with them). The same for
every game, without game-specific code.

A group may choose (/settings) that a player taken out for time-outs is replaced by a computer player instead:
the seat goes on as the computer's (it can win), and the person is kept in ``GameRecord.replaced``.

Who is still in and who won are read in bot/messages/seats.py, which the board's words need too.
"""

from __future__ import annotations

from typing import Any

from bot.flow.computers import new_computer
from bot.games import PRESENTERS
from bot.messages import texts
from bot.messages.fa import name, num
from bot.messages.seats import gone_line, over_for_want_of_players, present
from bot.plumbing.store import Absence, GameRecord
from rules import GAMES

MAX_AUTOPLAY = 10_000  # default moves in a row; a game always ends long before (conformance MAX_STEPS)


def autoplay(record: GameRecord, state: Any) -> tuple[Any, list[str]]:
    """Play the default move for every absent seat to act until a present seat must decide or the game ends;
    the new state and the lines saying what happened."""
    game = GAMES[record.game_id]
    presenter = PRESENTERS[record.game_id]
    names = [p.name for p in record.players]
    lines: list[str] = []
    for _ in range(MAX_AUTOPLAY):
        absent = [seat for seat in game.to_act(state) if seat in record.gone]
        if not absent:
            break
        step = game.apply(state, absent[0], game.default_action(state, absent[0]))
        state = step.state
        public = [e for e in step.events if e.audience is None]
        lines += presenter.describe(public, names, game.view(state, None))
    return state, lines


def remove(record: GameRecord, state: Any, seat: int, reason: Absence) -> tuple[Any, list[str]]:
    """Take ``seat`` out of the game; end it if fewer than two players remain, else play on for the seat.
    The caller writes the record (``record.state`` is set here) and redraws."""
    record.gone[seat] = reason
    who = name(record.players[seat].name)
    if reason != "timeouts":  # their count stays with the seat: the line saying why names it
        record.timeouts.pop(seat, None)
    lines = [gone_line(record, seat)]
    if over_for_want_of_players(record):
        record.phase = "finished"
        return state, lines
    lines.append(texts.PLAYS_ON.format(who=who))
    state, more = autoplay(record, state)
    lines += more
    if GAMES[record.game_id].outcome(state) is not None:
        record.phase = "finished"
    record.state = state.model_dump(mode="json")
    return state, lines


def may_stand_in(record: GameRecord, seat: int, level: str) -> bool:
    """Whether a computer player of ``level`` ("off": none) replaces the person at ``seat`` when they are taken
    out for time-outs: only where the game would go on without them (two other players or more, one of them a
    person); in a two-player game the opponent still wins at once."""
    if level == "off" or record.players[seat].is_computer:
        return False
    others = [s for s in present(record) if s != seat]
    return len(others) >= 2 and any(not record.players[s].is_computer for s in others)


def stand_in(record: GameRecord, seat: int, level: str) -> list[str]:
    """Hand ``seat`` to a new computer player of ``level``; the lines telling the group."""
    person = record.players[seat]
    computer = new_computer(record, level)
    times = record.timeouts.pop(seat, 0)  # the computer starts with none
    record.replaced[seat] = person
    record.players[seat] = computer
    return [
        texts.TIMED_OUT_GONE.format(who=name(person.name), times=num(times)),
        texts.STANDS_IN.format(computer=name(computer.name), who=name(person.name)),
    ]
