"""The seats of a game as players see them: a computer player's number and how the caption names whoever is
to act; who is still in the game, why someone is out, and who won among those who stayed (bot/flow/absence.py
takes seats out; bot/flow/computers.py seats computer players)."""

from __future__ import annotations

from typing import Any

from bot.messages import texts
from bot.messages.fa import mention, name, num
from bot.plumbing.store import GameRecord, Player
from rules import GAMES


def number(player: Player) -> int:
    """A computer player's number in its game, as its name shows it (رایانه ۱, رایانه ۲, …)."""
    return -player.user_id


def addressed(player: Player) -> str:
    """A seat as the caption names whoever is to act: a person by a mention (it notifies them), a computer by
    its name (it has no account to mention)."""
    return name(player.name) if player.is_computer else mention(player.user_id, player.name)


def computer_room_error(record: GameRecord) -> str | None:
    """Why no computer player may be added now: the lobby is full, or the seat left is a person's."""
    seats = GAMES[record.game_id].max_players
    if len(record.players) >= seats:
        return texts.LOBBY_FULL
    if len(record.players) + 1 >= seats and all(p.is_computer for p in record.players):
        return texts.NEED_A_PERSON
    return None


def present(record: GameRecord) -> list[int]:
    """Seats still playing."""
    return [seat for seat in range(len(record.players)) if seat not in record.gone]


def people_present(record: GameRecord) -> list[int]:
    """Persons still playing."""
    return [seat for seat in present(record) if not record.players[seat].is_computer]


def over_for_want_of_players(record: GameRecord) -> bool:
    """Fewer than two seats left, or nobody but computer players."""
    return len(present(record)) < 2 or not people_present(record)


def gone_line(record: GameRecord, seat: int) -> str:
    """Why a seat is out of the game, in a line: for time-outs, how many in a row (the group's setting when it
    happened), kept with the seat."""
    who = name(record.players[seat].name)
    if record.gone[seat] == "timeouts" and (times := record.timeouts.get(seat)):
        return texts.TIMED_OUT_GONE.format(who=who, times=num(times))
    return texts.GONE[record.gone[seat]].format(who=who)


def winners(record: GameRecord, state: Any) -> tuple[int, ...]:
    """The winning seats among those still playing: the game's own winners, or the best scores among the
    present seats when every winner had left; the one left when the game ended for want of players."""
    outcome = GAMES[record.game_id].outcome(state)
    staying = present(record)
    if outcome is None:
        return tuple(staying)
    won = tuple(seat for seat in outcome.winners if seat not in record.gone)
    if won or not staying:
        return won
    best = max(outcome.scores[seat] for seat in staying)
    return tuple(seat for seat in staying if outcome.scores[seat] == best)


def result_view(record: GameRecord, state: Any) -> Any:
    """The public view of a finished game with its winners among the seats still playing, for the
    presenter's result words (every game's view has ``winners``)."""
    view = GAMES[record.game_id].view(state, None)
    if record.gone and hasattr(view, "winners"):
        view = view.model_copy(update={"winners": winners(record, state)})
    return view
