"""Condottiere's data types: options, state, actions, events and the view the bot and renderer see."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from rules.contract import Event

# The seed's numbers.
DEAL = 10  # cards per player at the start and at every redeal (+1 per province held at a redeal)
DUEL_HAND = 8  # two-player variant: hand size, refilled after every battle
ADJACENT_TO_WIN = 3  # provinces in one connected group
PROVINCES_TO_WIN = 5  # provinces anywhere
DUEL_WINS = 3  # two-player variant: battles won
QUIET_BATTLES = 2  # battles in a row with no card played that end the game (a stalemate, README)
MAX_PLAYERS = 6

NONE = -1  # no card, province or seat

Phase = Literal["site", "battle", "scarecrow", "peace", "discard", "over"]
ChooserReason = Literal["courtesans", "winner", "last_pass", "surrender"]
EndReason = Literal["victory", "no_free_province", "three_battles", "out_of_cards", "stalemate"]


class CondottiereOptions(BaseModel):
    """Lobby options; the defaults are the Persian rulebook's rules with RULES.md's decisions."""

    model_config = ConfigDict(frozen=True)

    classic_map: bool = Field(
        default=False,
        description="The classic 17-region map of Italy instead of the 14-province map of the Persian rules.",
    )


class CondottiereState(BaseModel):
    """The whole game. Cards are ids 0..109 (``data.CODE`` names them); ``rng`` is the generator's state.

    With two players the game is the seed's two-player variant: one deck per seat, no map (``owners`` empty).
    """

    model_config = ConfigDict(frozen=True)

    options: CondottiereOptions = CondottiereOptions()
    players: int
    rng: int
    decks: tuple[tuple[int, ...], ...]  # map game: the one shared deck; two players: one per seat; top first
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted ids (so sorted by kind)
    lines: tuple[tuple[int, ...], ...]  # per seat, the battle line in the order played
    season: int = NONE  # the card in the season slot
    discard: tuple[int, ...] = ()  # map game: the discard pile; two players: the cards out of the game
    owners: tuple[int, ...] = ()  # per province: the controlling seat or NONE
    peace: int = NONE  # the province under the peace token
    site: int = NONE  # the province fought over
    phase: Phase
    turn: int = 0  # the seat to play, choose the site, or finish its Scarecrow or Bishop
    chooser: int = 0  # who chooses the next site (and opens the next battle unless ``opener`` is set)
    opener: int = NONE  # who opens the next battle: the last battle's winner; NONE: the site's chooser
    passed: tuple[bool, ...]
    last_passer: int = NONE
    pending: tuple[int, ...] = ()  # discard phase: seats still to say whether they discard their hand
    wins: tuple[int, ...]  # battles won per seat
    battle: int = 1  # number of the current (or next) battle
    quiet: int = 0  # battles in a row that ended with no card played (QUIET_BATTLES of them end the game)
    winners: tuple[int, ...] = ()
    end_reason: EndReason | None = None


ActionKind = Literal["play", "pass", "site", "scarecrow", "peace", "discard"]


class CondottiereAction(NamedTuple):
    """One decision. ``arg``: the card kind (play), the province (site, peace; NONE keeps the peace token),
    the mercenary kind to take back (scarecrow; NONE takes none), 1 discard / 0 keep (discard)."""

    kind: ActionKind
    arg: int = NONE


# Events -------------------------------------------------------------------------------------------


class Dealt(Event):
    """Cards dealt (start of a two-player game's refills, a redeal); ``cards`` only in a seat's own copy."""

    kind: Literal["dealt"] = "dealt"
    sizes: tuple[int, ...]  # cards received per seat
    cards: tuple[str, ...] = ()  # the audience seat's new cards
    reshuffled: bool = False


class SiteChosen(Event):
    kind: Literal["site_chosen"] = "site_chosen"
    seat: int
    province: int
    province_id: str


class CardPlayed(Event):
    kind: Literal["card_played"] = "card_played"
    seat: int
    card: str


class SeasonDiscarded(Event):
    """A season card left the slot because the other (or another copy) was played."""

    kind: Literal["season_discarded"] = "season_discarded"
    card: str


class BishopDiscarded(Event):
    kind: Literal["bishop_discarded"] = "bishop_discarded"
    seat: int
    cards: tuple[str, ...]  # every mercenary of the highest printed value, all lines
    owners: tuple[int, ...] = ()  # the seat whose line each of ``cards`` was in, in the same order


class PeaceTokenPlaced(Event):
    kind: Literal["peace_token_placed"] = "peace_token_placed"
    seat: int
    province: int | None  # None: left where it was


class ScarecrowReturned(Event):
    kind: Literal["scarecrow_returned"] = "scarecrow_returned"
    seat: int
    card: str | None  # the mercenary taken back to the hand, or none


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: int
    automatic: bool  # the seat had no card left


class BattleEnded(Event):
    kind: Literal["battle_ended"] = "battle_ended"
    battle: int
    province: int | None  # None in the two-player variant
    reason: Literal["passes", "surrender"]
    strengths: tuple[int, ...]
    winner: int | None  # None on a tie for the highest strength


class NextChooser(Event):
    """Who chooses the next battle's site (map game), or who opens the next battle (two players: no site)."""

    kind: Literal["next_chooser"] = "next_chooser"
    seat: int
    reason: ChooserReason
    site: bool = True


class HandDiscarded(Event):
    kind: Literal["hand_discarded"] = "hand_discarded"
    seat: int
    cards: tuple[str, ...]
    forced: bool  # the only player still holding cards


class HandKept(Event):
    kind: Literal["hand_kept"] = "hand_kept"
    seat: int


class GameEnded(Event):
    kind: Literal["game_ended"] = "game_ended"
    reason: EndReason
    winners: tuple[int, ...]


# The view ------------------------------------------------------------------------------------------


class CondottiereView(BaseModel):
    """What one seat (or, with ``seat=None``, anyone) may know: no other hand, no deck order, no generator."""

    model_config = ConfigDict(frozen=True)  # the engine shares one public view between the seats' views

    game: Literal["condottiere"] = "condottiere"
    seat: int | None
    variant: Literal["map", "duel"]
    map: str | None  # the map's key in data.BOARDS (its provinces, Persian names, borders); None with two players
    owners: tuple[int | None, ...]  # by province index: the seat holding its control marker
    hand: tuple[str, ...]  # the seat's own cards, by code ("5#03": kind code, copy; sorted by kind)
    hand_sizes: tuple[int, ...]
    lines: tuple[tuple[str, ...], ...]  # per seat, the battle line's cards in the order played
    strengths: tuple[int, ...]  # per seat, the line's strength if the battle ended now
    courtesans: tuple[int, ...]  # per seat, Courtesans in the line
    passed: tuple[bool, ...]
    season: str | None
    battle_site: int | None
    peace_token: int | None
    provinces_held: tuple[int, ...]
    wins: tuple[int, ...]
    deck_sizes: tuple[int, ...]  # one shared deck, or one per seat with two players
    discard: tuple[int, ...]  # the discard pile (two players: the cards out of the game), count per kind
    phase: Phase
    to_act: tuple[int, ...]
    turn: int | None
    chooser: int
    last_passer: int | None
    battle: int
    quiet: int  # battles in a row that ended with no card played (QUIET_BATTLES end the game)
    finished: bool
    end_reason: EndReason | None
    winners: tuple[int, ...]
