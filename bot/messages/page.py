"""What the Mini App's page shows one viewer: the caption, which pictures there are, and the viewer's moves
as taps (bot/games/*_page.py). The same for every worker: built from the record alone.

A player sees their own hand and, on their turn, every legal move of theirs (those the group's board offers
and those of their private chat: on the page nobody else sees the taps). Everyone else sees what the group's
picture shows.
"""

from __future__ import annotations

from typing import Any

from bot.games import PAGES, PRESENTERS, Taps
from bot.messages import board, texts
from bot.plumbing.store import GameRecord
from rendering.spots import Spot
from rules import GAMES

ZOOMED = frozenset({"carcassonne", "conqueror"})  # boards with more than a phone shows at once: + and − to zoom


def acting_seat(record: GameRecord, state: Any, user_id: int | None) -> int | None:
    """The viewer's seat if they are to move now: a person's seat, in a running game, in an open topic."""
    seat = record.seat_of(user_id) if user_id is not None else None
    if seat is None or record.phase != "playing" or record.topic_closed or record.players[seat].is_computer:
        return None
    return seat if seat in GAMES[record.game_id].to_act(state) else None


def own_view(record: GameRecord, state: Any, user_id: int | None) -> Any | None:
    """The viewer's private view, for a player of a game with hands; None for everyone else."""
    seat = record.seat_of(user_id) if user_id is not None else None
    if seat is None or PRESENTERS[record.game_id].hands is None:
        return None
    return GAMES[record.game_id].view(state, seat)


def _taps(game_id: str, code: str, view: Any) -> Taps:
    page = PAGES.get(game_id)
    return page.taps(code, view) if page is not None else Taps((f"code:{code}",))


def _label(game_id: str, tap: str, view: Any) -> str:
    page = PAGES.get(game_id)
    if page is not None:
        return page.label(tap, view)
    return PRESENTERS[game_id].menu_label(tap.removeprefix("code:").split("."), view)


def _spot(spot: Spot) -> dict[str, Any]:
    return {"on": spot.picture, "shape": spot.shape, "points": spot.points}


def _untitled(caption: str) -> str:
    """The group's caption without its first line, the game's name: the page's header says it."""
    return caption.partition("\n")[2].lstrip("\n")


def _marked(caption: str, last: str) -> str:
    """The caption with the newest line of news marked: the move the page has just been redrawn for."""
    before, found, after = caption.rpartition(last) if last else ("", "", caption)
    return f"{before}<mark>{last}</mark>{after}" if found else caption


def content(record: GameRecord, user_id: int | None) -> dict[str, Any]:
    """The page's JSON for ``user_id`` (None: a spectator whose launch named nobody in the game)."""
    game_id = record.game_id
    game = GAMES[game_id]
    state = board.load_state(record)
    view = game.view(state, None)
    presenter = PRESENTERS[game_id]
    own = own_view(record, state, user_id)
    seat = acting_seat(record, state, user_id)
    codes = [game.encode(a) for a in game.legal_actions(state, seat)] if seat is not None else []
    page = PAGES.get(game_id)
    spots = page.spots(view, own) if page is not None and codes else {}
    order = {tap: z for z, tap in enumerate(spots)}  # drawn in the page's order: a later spot lies on top
    moves: list[dict[str, Any]] = []
    taps: dict[str, dict[str, Any]] = {}
    for code in codes:
        made = _taps(game_id, code, view)
        moves.append({"code": code, "taps": list(made.ids), "unordered": made.unordered})
        for tap in made.ids:
            if tap in taps:
                continue
            spot = spots.get(tap)
            taps[tap] = {
                "label": _label(game_id, tap, view),
                "turn": page.turns(tap) if page is not None else False,
                "spot": None if spot is None else {**_spot(spot), "z": order[tap]},
            }
    hands = presenter.hands
    return {
        "game": game_id,
        "title": game.title,
        "emoji": presenter.emoji,
        "version": record.version,
        "phase": record.phase,
        "player": record.seat_of(user_id) is not None if user_id is not None else False,
        "caption": _marked(
            _untitled(board.caption(record, state, on_page=True)), record.recent[-1] if record.recent else ""
        ),
        "hand": None if own is None or hands is None else hands.lines(own, board.names(record)),
        "pictures": ["board", "hand"] if own is not None else ["board"],
        "previews": presenter.previews,
        "zoom": game_id in ZOOMED,
        "moves": moves,
        "taps": taps,
    }


def listed(record: GameRecord, user_id: int, payload: str) -> dict[str, Any]:
    """One line of a player's list of running games: the game, with whom, and whether it waits for them."""
    others = [player.name for player in record.players if player.user_id != user_id]
    waiting = acting_seat(record, board.load_state(record), user_id) is not None
    with_whom = texts.PAGE_WITH.format(names="، ".join(others)) if others else texts.PAGE_ALONE
    return {
        "p": payload,
        "title": f"{PRESENTERS[record.game_id].emoji} {GAMES[record.game_id].title}",
        "line": " · ".join([with_whom, texts.PAGE_YOUR_TURN] if waiting else [with_whom]),
        "waiting": waiting,
    }
