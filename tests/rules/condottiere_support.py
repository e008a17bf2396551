"""Helpers for the Condottiere scenario tests: build a position from card codes and play text actions.

Notation: a group of cards is written with the kind codes of ``cards.json``, space-separated: "10 10 dr co"
(two Mercenary 10s, a Drummer, a Courtesan); "bi sc su dr co he wi sp" are the special cards. Provinces are
the map's ids ("bella", "borge"). Actions are the engine's text form ("p.5", "x", "s.3", "sc.n", "pz.k",
"d.y").
"""

from __future__ import annotations

from collections.abc import Mapping

from play_support import legal_texts, play_texts

from rules import Event, Step
from rules.condottiere import Condottiere, CondottiereOptions, CondottiereState
from rules.condottiere.data import CODE, DECK, ITALY, KIND_OF, KIND_OF_CODE, REKAB, Board, duel_decks
from rules.condottiere.model import NONE, Phase

GAME = Condottiere()


def province(name: str, board: Board = REKAB) -> int:
    return next(p.index for p in board.provinces if p.id == name)


class _Pool:
    """Hands out distinct card ids by kind code, so a built position never holds one card twice."""

    def __init__(self, ids: tuple[int, ...]) -> None:
        self.left = list(ids)

    def take(self, text: str) -> tuple[int, ...]:
        out = []
        for code in text.split():
            kind = KIND_OF_CODE[code]
            card = next(c for c in self.left if KIND_OF[c] == kind)
            self.left.remove(card)
            out.append(card)
        return tuple(out)


def make_state(
    *,
    players: int = 3,
    hands: Mapping[int, str] | None = None,
    lines: Mapping[int, str] | None = None,
    season: str = "",
    owners: Mapping[str, int] | None = None,
    peace: str = "",
    site: str = "bella",
    phase: Phase = "battle",
    turn: int = 0,
    passed: tuple[int, ...] = (),
    last_passer: int = NONE,
    chooser: int = 0,
    discard: str = "",
    decks: Mapping[int, str] | None = None,
    wins: tuple[int, ...] | None = None,
    options: CondottiereOptions | None = None,
    rng: int = 12345,
) -> CondottiereState:
    """A position in the middle of a game. Cards not placed anywhere make up the deck (map game: one deck in
    id order; two players: each seat's own deck, unless ``decks`` says otherwise), so every card is
    somewhere. Unnamed hands and lines are empty; ``passed`` lists the seats that passed."""
    options = options or CondottiereOptions()
    hands = hands or {}
    lines = lines or {}
    duel = players == 2
    pools = [_Pool(d) for d in duel_decks()] if duel else [_Pool(DECK)]

    def pool(seat: int) -> _Pool:
        return pools[seat if duel else 0]

    hand_ids = tuple(tuple(sorted(pool(s).take(hands.get(s, "")))) for s in range(players))
    line_ids = tuple(pool(s).take(lines.get(s, "")) for s in range(players))
    season_ids = pool(0).take(season)
    discard_ids = pool(0).take(discard)
    if decks is not None:
        deck_ids = tuple(pool(s).take(decks.get(s, "")) for s in range(len(pools)))
    else:
        deck_ids = tuple(tuple(p.left) for p in pools)
    board = ITALY if options.classic_map else REKAB
    owner_list = [NONE] * (0 if duel else board.size)
    for name, seat in (owners or {}).items():
        owner_list[province(name, board)] = seat
    return CondottiereState(
        options=options,
        players=players,
        rng=rng,
        decks=deck_ids,
        hands=hand_ids,
        lines=line_ids,
        season=season_ids[0] if season_ids else NONE,
        discard=discard_ids,
        owners=tuple(owner_list),
        peace=province(peace, board) if peace else NONE,
        site=province(site, board) if not duel and phase in ("battle", "scarecrow", "peace") else NONE,
        phase=phase,
        turn=turn,
        chooser=chooser,
        passed=tuple(s in passed for s in range(players)),
        last_passer=last_passer,
        wins=wins or (0,) * players,
    )


def play(state: CondottiereState, *texts: str) -> Step[CondottiereState]:
    """Apply text actions in order, each for the one seat awaited; return the last state with every event."""
    return play_texts(GAME, state, *texts)


def act(state: CondottiereState, seat: int, text: str) -> Step[CondottiereState]:
    """One text action of a given seat (for the discard step, where several seats decide)."""
    return GAME.apply(state, seat, GAME.decode(text))


def legal(state: CondottiereState, seat: int | None = None) -> set[str]:
    """The legal actions in text form."""
    return legal_texts(GAME, state, seat)


def codes(cards: tuple[int, ...]) -> list[str]:
    """Kind codes of card ids, in order: what a hand or line holds, without copy numbers."""
    return [CODE[c].split("#")[0] for c in cards]


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]


def public(events: tuple[Event, ...]) -> list[Event]:
    return [e for e in events if e.audience is None]
