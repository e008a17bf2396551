"""Splendor (اسپلندور) as the Persian rulebook gives it, with RULES.md's decisions; see README.md."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields as dataclass_fields
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, compress
from operator import add, le, sub
from typing import Any, ClassVar, NoReturn

from rules import rng
from rules.contract import Event, GameOver, MalformedAction, NotYourTurn, Outcome, RuleViolation, Step
from rules.evolve import assemble
from rules.splendor.data import (
    BONUS,
    BY_LEVEL,
    CARD_KEY,
    CARDS,
    COLOURS,
    COST,
    GOLD,
    LEVEL,
    NEED,
    NOBLE_KEY,
    NOBLE_POINTS,
    NOBLES,
    POINTS,
    TOTAL,
)
from rules.splendor.model import (
    GEMS_BY_PLAYERS,
    GOLD_TOKENS,
    LETTERS,
    RESERVE_LIMIT,
    ROW_SIZE,
    STALL_ROUNDS,
    TAKE_TWO_MIN,
    TOKEN_LIMIT,
    TOKEN_NAMES,
    WINNING_POINTS,
    CardBought,
    CardDealt,
    CardReserved,
    CardView,
    EndReason,
    FinalRound,
    GameEnded,
    NobleView,
    NobleVisited,
    Passed,
    PlayerView,
    ReservedView,
    SplendorAction,
    SplendorOptions,
    SplendorState,
    SplendorView,
    TokensReturned,
    TokensTaken,
)

GEMS = range(len(COLOURS))
LEVELS = (1, 2, 3)
PASS = SplendorAction("p")
Fields = dict[str, Any]  # the next state's fields: a copy of the state's, changed by the turn's handlers

# Every fixed action built once; legal_actions hands out these shared (immutable) tuples.
_RESERVE = tuple(tuple(SplendorAction("r", lv, slot) for slot in range(-1, ROW_SIZE)) for lv in (0, *LEVELS))
_BUY = tuple(tuple(SplendorAction("b", lv, slot) for slot in range(ROW_SIZE)) for lv in (0, *LEVELS))
_NOBLE = tuple(SplendorAction("n", noble=n) for n in range(len(NOBLES) + 1))
# Where a card can be bought from, in the order of (*rows[0], *rows[1], *rows[2], *reserve) (level 0 is the
# player's reserve): (level, slot) and the buy action; and the reserve actions of the twelve table slots.
_PLACES = (*((lv, slot) for lv in LEVELS for slot in range(ROW_SIZE)), *((0, i) for i in range(RESERVE_LIMIT)))
_BUYS = tuple(_BUY[lv][slot] for lv, slot in _PLACES)
_PLACE_INDICES = range(len(_PLACES))
_TABLE_RESERVES = tuple(_RESERVE[lv][slot + 1] for lv in LEVELS for slot in range(ROW_SIZE))
_DECK_RESERVES = tuple(_RESERVE[lv][0] for lv in LEVELS)
# The take actions with what they move: counts of the six token kinds.
_NON_NEGATIVE = {n: max(n, 0) for n in range(-20, 21)}  # a clamp as a lookup, for map() on the hot path
_SEATS = range(max(GEMS_BY_PLAYERS))
# min(n, count) as a lookup per count, for the tokens to return (n, count: at most all the tokens of a game).
_ALL_TOKENS = max(GEMS_BY_PLAYERS.values()) * len(COLOURS) + GOLD_TOKENS
_CAPPED = tuple({n: min(n, count) for n in range(_ALL_TOKENS + 1)} for count in range(_ALL_TOKENS + 1))
# The take actions with what they move (six counts) and their event, per seat.
_TAKEN: dict[SplendorAction, tuple[tuple[int, ...], tuple[TokensTaken, ...]]] = {
    action: (counts, tuple(TokensTaken(seat=seat, tokens=counts) for seat in _SEATS))
    for action, counts in (
        *(
            (SplendorAction("t", tokens=combo), tuple(int(c in combo) for c in range(len(TOKEN_NAMES))))
            for size in (1, 2, 3)
            for combo in combinations(GEMS, size)
        ),
        *((SplendorAction("t2", tokens=(c,)), tuple(2 * (k == c) for k in range(len(TOKEN_NAMES)))) for c in GEMS),
    )
}
_NOBLE_MIN_BONUSES = min(sum(n.requires) for n in NOBLES)  # fewer bonuses than this meet no noble


# What matters of a bank count for taking: none, some, or enough to take two (index: the count).
_STOCK = (0, *(1 if n < TAKE_TWO_MIN else 2 for n in range(1, max(GEMS_BY_PLAYERS.values()) + 1)))

# Affordability of every card at once, in integers read as vectors of bytes, byte ``card`` (the card's id) of
# each: byte ``card`` of ``_SHORT[c][p]`` is what the card lacks in colour c when the player has power p (gems
# and bonuses) of it, so the five summed give every card's shortfall in gems, the gold it needs. Adding
# ``_SLACK[gold]`` (each byte 127 - gold; byte 0, no card, 255 - gold) makes a byte 128 or more exactly when the
# card cannot be bought (or is no card), and 127 - byte is then the gold left spare. No byte overflows into the
# next: a shortfall is at most a card's total cost. Written out as 256 bytes, the sum is a ``bytes.translate``
# table from card ids to their bytes, so one call reads them for every card on the table.
_POWER_MAX = max(GEMS_BY_PLAYERS.values()) + max(sum(1 for c in CARDS if c.bonus == k) for k in GEMS)
_SPARE_MAX = 127  # gold beyond this (never in a real game) takes the slow path


def _bytes(values: Iterable[int]) -> int:
    return int.from_bytes(bytes(values), "little")


_SHORT = tuple(tuple(_bytes(max(0, cost[c] - p) for cost in COST) for p in range(_POWER_MAX + 1)) for c in GEMS)
_SHORT_W, _SHORT_B, _SHORT_G, _SHORT_R, _SHORT_K = _SHORT
_SLACK = tuple(_bytes((255 - gold, *(_SPARE_MAX - gold for _ in CARDS))) for gold in range(_SPARE_MAX + 1))
# Byte ``card`` of ``_PAYABLE[c][bonus][gems]``: the gems of colour c the player pays for the card (what the card
# costs beyond the bonus, as far as the gems go), which gold may replace: bonus and gems as many as a game has.
_GEMS_MAX = max(GEMS_BY_PLAYERS.values())
_PAYABLE = tuple(
    tuple(
        tuple(bytes(min(gems, max(0, cost[c] - bonus)) for cost in COST) for gems in range(_GEMS_MAX + 1))
        for bonus in range(_POWER_MAX + 1)
    )
    for c in GEMS
)
_PAYABLE_W, _PAYABLE_B, _PAYABLE_G, _PAYABLE_R, _PAYABLE_K = _PAYABLE
_WITHIN_REACH = bytes(int(n <= _SPARE_MAX) for n in range(256))  # bytes.translate table: 1 within reach
if max(TOTAL) + _SPARE_MAX > 255 or len(COST) > 256:
    raise ValueError("a card's cost or id no longer fits the affordability bytes")


Takes = tuple[tuple[SplendorAction, ...], dict[SplendorAction, tuple[tuple[int, ...], tuple[TokensTaken, ...]]]]


@cache
def _takes(stock: tuple[int, ...]) -> Takes:
    """The take actions for the bank's gem stock (per colour, as in _STOCK): three different colours (or every
    colour left when fewer than three are), then two of each colour the bank holds enough of; and each of
    them with what it moves (as in _TAKEN), so that a take is checked and applied by one lookup."""
    colours = [c for c in GEMS if stock[c]]
    three = (SplendorAction("t", tokens=combo) for combo in combinations(colours, min(3, len(colours))) if combo)
    actions = (*three, *(SplendorAction("t2", tokens=(c,)) for c in GEMS if stock[c] == 2))
    return actions, {action: _TAKEN[action] for action in actions}


# The takes by the bank's gems (at most 8**5 keys in real games; the values are shared, one per stock).
_TAKES_BY_GEMS: dict[tuple[int, ...], Takes] = {}


def _bank_takes(gems: tuple[int, ...]) -> Takes:
    known = _TAKES_BY_GEMS.get(gems)
    if known is None:
        known = _TAKES_BY_GEMS[gems] = _takes(tuple(map(_STOCK.__getitem__, gems)))
    return known


@cache
def _multisets(kinds: int, size: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every multiset of ``size`` among ``kinds`` token kinds, in colour order, with its count per kind."""
    return tuple(
        (combo, tuple(combo.count(c) for c in range(kinds)))
        for combo in combinations_with_replacement(range(kinds), size)
    )


@lru_cache(maxsize=4096)
def _returns(tokens: tuple[int, ...], count: int) -> tuple[SplendorAction, ...]:
    """Every multiset of ``count`` tokens the player holds, in colour order (gold last); ``tokens`` may be
    capped at ``count`` per kind, as more make no difference."""
    return tuple(
        SplendorAction("g", tokens=combo)
        for combo, counts in _multisets(len(TOKEN_NAMES), count)
        if all(map(le, counts, tokens))
    )


@lru_cache(maxsize=4096)
def _gold_buys(level: int, slot: int, payable: tuple[int, ...], spare: int) -> tuple[SplendorAction, ...]:
    """The payments that spend up to ``spare`` more gold in place of gems the player could pay
    (``payable[c]`` of colour c), as ``bg`` actions."""
    return tuple(
        SplendorAction("bg", level, slot, combo)
        for size in range(1, spare + 1)
        for combo, counts in _multisets(len(COLOURS), size)
        if all(map(le, counts, payable))
    )


# Events are frozen values: those with few distinct values (at most a few hundred) are built once each, as
# validating them is the larger part of their cost.


@cache
def _returned(seat: int, tokens: tuple[int, ...]) -> TokensReturned:
    return TokensReturned(seat=seat, tokens=tokens)


# A card dealt to a table slot: _DEALT[slot][card].
_DEALT = tuple({c.id: CardDealt(level=c.level, slot=slot, card=c.key) for c in CARDS} for slot in range(ROW_SIZE))


# The frequent events with many distinct values are built as validation would build them, without validating:
# their values are the engine's own, of the declared types (checked against validation at import, below).


def _bought(seat: int, card: int, slot: int | None, paid: tuple[int, ...]) -> CardBought:
    """``slot`` None: bought from the reserve."""
    fields = {
        "kind": "bought",
        "audience": None,
        "seat": seat,
        "card": CARD_KEY[card],
        "level": LEVEL[card],
        "slot": slot,
        "paid": paid,
    }
    return assemble(CardBought, fields, {"seat", "card", "level", "slot", "paid"})


def _reserved(audience: int | None, seat: int, level: int, slot: int | None, card: int, gold: bool) -> CardReserved:
    """``card`` 0: the public twin of a reservation from a deck, without the card."""
    fields = {
        "kind": "reserved",
        "audience": audience,
        "seat": seat,
        "level": level,
        "slot": slot,
        "card": CARD_KEY[card] if card else None,
        "gold": gold,
    }
    return assemble(CardReserved, fields, {"audience", "seat", "level", "slot", "card", "gold"})


def _same_as_validated(built: Event, validated: Event) -> bool:
    """The same value, field order, set fields and JSON as the validated event (a guard against a pydantic
    that builds models differently)."""
    return (
        type(built) is type(validated)
        and built == validated
        and list(built.__dict__) == list(validated.__dict__)
        and built.model_fields_set == validated.model_fields_set
        and built.model_dump_json() == validated.model_dump_json()
        and type(validated).model_validate_json(built.model_dump_json()) == built
    )


if not (
    _same_as_validated(
        _bought(1, 7, None, (1, 0, 2, 0, 0, 1)),
        CardBought(seat=1, card=CARD_KEY[7], level=LEVEL[7], slot=None, paid=(1, 0, 2, 0, 0, 1)),
    )
    and _same_as_validated(
        _reserved(None, 2, 3, 1, 88, True),
        CardReserved(audience=None, seat=2, level=3, slot=1, card=CARD_KEY[88], gold=True),
    )
    and _same_as_validated(
        _reserved(0, 0, 2, None, 0, False),
        CardReserved(audience=0, seat=0, level=2, slot=None, card=None, gold=False),
    )
):
    raise RuntimeError("events built without validation differ from validated ones")


# ``Step(state, events)`` without the frozen dataclass's ``__init__``: its two slots set through their
# descriptors (Step is a slotted dataclass; the check below keeps this in step with it).
if tuple(f.name for f in dataclass_fields(Step)) != ("state", "events") or not hasattr(Step, "__slots__"):
    raise RuntimeError("Step's fields changed: update _step")
_new = object.__new__
_set_state = vars(Step)["state"].__set__
_set_events = vars(Step)["events"].__set__


def _step(state: SplendorState, events: tuple[Event, ...]) -> Step[SplendorState]:
    step: Step[SplendorState] = _new(Step)
    _set_state(step, state)
    _set_events(step, events)
    return step


def _replace(items: tuple[tuple[int, ...], ...], index: int, value: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (*items[:index], value, *items[index + 1 :])


def _shortfall(card: int, tokens: tuple[int, ...], bonus: tuple[int, ...]) -> int:
    """The gold a card needs beyond the player's bonuses and gems."""
    short = 0
    for c, n in NEED[card]:
        n -= bonus[c]
        if n > tokens[c]:
            short += n - tokens[c]
    return short


# The bonuses each noble requires, only the colours it requires (two or three).
_NOBLE_NEEDS = ((), *(tuple((c, n) for c, n in enumerate(noble.requires) if n) for noble in NOBLES))


def _welcoming(nobles: tuple[int, ...], bonus: tuple[int, ...]) -> list[int]:
    """The nobles on the table whose requirements these bonuses meet."""
    out = []
    for noble in nobles:
        for c, n in _NOBLE_NEEDS[noble]:
            if bonus[c] < n:
                break
        else:
            out.append(noble)
    return out


def _counts(colours: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * len(TOKEN_NAMES)
    for c in colours:
        out[c] += 1
    return tuple(out)


def _ascending(colours: tuple[int, ...], top: int, strict: bool) -> bool:
    """Colours are indices below ``top``, in order (strictly: all different)."""
    last = -1
    for c in colours:
        if not (0 <= c < top) or c < last or (strict and c == last):
            return False
        last = c
    return True


_CARD_VIEWS = {c.id: CardView(id=c.key, level=c.level, bonus=c.bonus, points=c.points, cost=c.cost) for c in CARDS}
_NOBLE_VIEWS = {n.id: NobleView(id=n.key, points=n.points, requires=n.requires) for n in NOBLES}
# A reserved card as seen: taken face up; taken from a deck, by its owner; by anyone else (its level only).
_RESERVED_VIEWS = {c.id: ReservedView(level=c.level, from_deck=False, card=_CARD_VIEWS[c.id]) for c in CARDS}
_BLIND_VIEWS = {c.id: ReservedView(level=c.level, from_deck=True, card=_CARD_VIEWS[c.id]) for c in CARDS}
_HIDDEN_VIEWS = {lv: ReservedView(level=lv, from_deck=True, card=None) for lv in LEVELS}
_FACE_UP, _BLIND, _HIDDEN = range(3)  # how a reserved card shows: face up; from a deck, to its owner; to others


@lru_cache(maxsize=4096)
def _player_view(
    seat: int,
    tokens: tuple[int, ...],
    bonuses: tuple[int, ...],
    points: int,
    cards: tuple[int, ...],
    visitors: tuple[int, ...],
    reserved: tuple[tuple[int, int], ...],
) -> PlayerView:
    """A player's part of a view; most of it is unchanged from one state to the next, so it is built once
    per distinct value (``reserved``: each card with how it shows)."""
    return PlayerView(
        seat=seat,
        tokens=tokens,
        bonuses=bonuses,
        points=points,
        cards=tuple(CARD_KEY[c] for c in cards),
        nobles=tuple(_NOBLE_VIEWS[n] for n in visitors),
        reserved=tuple(
            _RESERVED_VIEWS[c] if how == _FACE_UP else _BLIND_VIEWS[c] if how == _BLIND else _HIDDEN_VIEWS[LEVEL[c]]
            for c, how in reserved
        ),
    )


class Splendor:
    """Two to four gem merchants; see ``rules/splendor/README.md`` for the rules in force."""

    id: ClassVar[str] = "splendor"
    title: ClassVar[str] = "اسپلندور"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_model: ClassVar[type[SplendorOptions]] = SplendorOptions
    state_model: ClassVar[type[SplendorState]] = SplendorState

    # Set-up ---------------------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: SplendorOptions | None = None) -> SplendorState:
        """Shuffle the three decks, deal four cards per level, reveal players + 1 nobles (the rest leave
        the game unseen) and put out the tokens for the player count."""
        if players not in GEMS_BY_PLAYERS:
            raise ValueError("Splendor is played by two to four players")
        state = rng.mix(seed)
        decks: list[tuple[int, ...]] = []
        rows: list[tuple[int, ...]] = []
        for ids in BY_LEVEL:
            state, deck = rng.shuffled(state, list(ids))
            rows.append(tuple(reversed(deck[-ROW_SIZE:])))  # dealt from the top, slot 0 first
            decks.append(tuple(deck[:-ROW_SIZE]))
        state, nobles = rng.shuffled(state, [n.id for n in NOBLES])
        gems = GEMS_BY_PLAYERS[players]
        return SplendorState(
            options=options or SplendorOptions(),
            rng=state,
            bank=(gems,) * len(COLOURS) + (GOLD_TOKENS,),
            decks=tuple(decks),
            rows=tuple(rows),
            nobles=tuple(nobles[: players + 1]),
            tokens=((0,) * len(TOKEN_NAMES),) * players,
            cards=((),) * players,
            bonuses=((0,) * len(COLOURS),) * players,
            points=(0,) * players,
            reserved=((),) * players,
            visitors=((),) * players,
        )

    # Queries ----------------------------------------------------------------------------------------

    def to_act(self, state: SplendorState) -> tuple[int, ...]:
        return () if state.finished else (state.turn,)

    def legal_actions(self, state: SplendorState, seat: int) -> list[SplendorAction]:
        if state.finished or seat != state.turn:
            return []
        if state.phase == "return":
            tokens = state.tokens[seat]
            count = sum(tokens) - TOKEN_LIMIT
            try:
                capped = tuple(map(_CAPPED[count].__getitem__, tokens))
            except (IndexError, KeyError):  # more tokens than a game has
                capped = tuple(min(n, count) for n in tokens)
            return list(_returns(capped, count))
        if state.phase == "noble":
            return [_NOBLE[n] for n in _welcoming(state.nobles, state.bonuses[seat])]
        return self._main_actions(state) or [PASS]

    def _main_actions(self, state: SplendorState) -> list[SplendorAction]:
        """The four actions in every legal form: takes, reserves of table cards, buys (table, then reserve;
        each with its gold variants), reserves from the decks. The hot path of random play, hence inlined."""
        seat = state.turn
        gems = state.bank[:GOLD]
        takes = _TAKES_BY_GEMS.get(gems) or _bank_takes(gems)
        out = list(takes[0])
        reserved = state.reserved[seat]
        rows = state.rows
        table = rows[0] + rows[1] + rows[2]
        can_reserve = len(reserved) < RESERVE_LIMIT
        if can_reserve:
            if 0 in table:
                out.extend([action for action, card in zip(_TABLE_RESERVES, table, strict=True) if card])
            else:
                out.extend(_TABLE_RESERVES)
        tokens = state.tokens[seat]
        bonus = state.bonuses[seat]
        w, b, g, r, k, gold = tokens
        bw, bb, bg, br, bk = bonus
        cards = table + reserved
        # Per place: 127 less the gold the card leaves spare; above 127 the card is out of reach.
        spent: Sequence[int]
        reach: Iterable[int]
        try:
            short = _SHORT_W[w + bw] + _SHORT_B[b + bb] + _SHORT_G[g + bg] + _SHORT_R[r + br] + _SHORT_K[k + bk]
            spent = bytes(cards).translate((short + _SLACK[gold]).to_bytes(256, "little"))  # byte ``card`` each
            reach = spent.translate(_WITHIN_REACH)
        except IndexError:  # more power or gold than a real game has: the same, without the tables' bounds
            short = sum(_SHORT[c][min(p, _POWER_MAX)] for c, p in enumerate(map(add, tokens, bonus)))
            spent = [_SPARE_MAX - gold + (short >> 8 * card & 255) if card else _SPARE_MAX + 1 for card in cards]
            reach = [n <= _SPARE_MAX for n in spent]
        if not gold:  # a card within reach is paid with gems alone, in one way
            out.extend(compress(_BUYS, reach))
        else:
            try:
                pw, pb, pg = _PAYABLE_W[bw][w], _PAYABLE_B[bb][b], _PAYABLE_G[bg][g]
                pr, pk = _PAYABLE_R[br][r], _PAYABLE_K[bk][k]
            except IndexError:  # more than a real game has: computed below, card by card
                pw = b""
            for i in compress(_PLACE_INDICES, reach):
                out.append(_BUYS[i])
                spare = _SPARE_MAX - spent[i]
                if spare:  # gold could also stand in for gems
                    card = cards[i]
                    if pw:
                        payable: tuple[int, ...] = (pw[card], pb[card], pg[card], pr[card], pk[card])
                    else:
                        payable = tuple(map(_NON_NEGATIVE.__getitem__, map(min, tokens, map(sub, COST[card], bonus))))
                    if any(payable):
                        out.extend(_gold_buys(*_PLACES[i], payable, spare))
        if can_reserve:
            d1, d2, d3 = state.decks
            if d1:
                out.append(_DECK_RESERVES[0])
            if d2:
                out.append(_DECK_RESERVES[1])
            if d3:
                out.append(_DECK_RESERVES[2])
        return out

    def _has_main_action(self, state: SplendorState) -> bool:
        """Cheaper than listing: some gem in the bank, something to reserve, or something affordable."""
        if any(state.bank[c] for c in GEMS):
            return True
        seat = state.turn
        if len(state.reserved[seat]) < RESERVE_LIMIT and (any(state.decks) or any(any(row) for row in state.rows)):
            return True
        tokens = state.tokens[seat]
        bonus = state.bonuses[seat]
        cards = (*(card for row in state.rows for card in row if card), *state.reserved[seat])
        return any(_shortfall(card, tokens, bonus) <= tokens[GOLD] for card in cards)

    def default_action(self, state: SplendorState, seat: int) -> SplendorAction:
        """On a time-out, the first legal action: take tokens if the bank has any (the first colours in
        colour order), return the first tokens in colour order (gold last), receive the first noble listed."""
        return self.legal_actions(state, seat)[0]

    # Applying actions ---------------------------------------------------------------------------------
    # ``apply`` copies the state's fields once; each handler checks its action and writes the fields it
    # changes, _end_turn adds its own, and the new state is built from them without validation.

    def apply(self, state: SplendorState, seat: int, action: SplendorAction) -> Step[SplendorState]:
        if state.finished:
            raise GameOver("the game is over")
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn")
        fields: Fields = state.__dict__.copy()
        events: list[Event] = []
        kind = action.kind
        phase = state.phase
        limit = nobles = True  # the token limit and the noble visit still to come this turn
        if phase == "return":
            if kind != "g":
                raise RuleViolation("the player must first return tokens down to ten")
            _return(state, seat, action, fields, events)
            limit = False
        elif phase == "noble":
            if kind != "n":
                raise RuleViolation("the player must first choose the visiting noble")
            _choose_noble(state, seat, action, fields, events)
            limit = nobles = False
        elif kind == "t" or kind == "t2":
            _take(state, seat, action, fields, events)
        elif kind == "b" or kind == "bg":
            _buy(state, seat, action, fields, events)
            limit = False
        elif kind == "r":
            _reserve(state, seat, action, fields, events)
        elif kind == "p":
            if self._has_main_action(state):
                raise RuleViolation("pass only when no other action is possible")
            events.append(Passed(seat=seat))
            fields["passed"] = state.passed | 1 << seat
            limit = False
        elif kind == "g" or kind == "n":
            raise RuleViolation("nothing to return and no noble to choose now")
        else:
            raise MalformedAction(f"unknown action kind {kind!r}")
        if phase == "act":  # the turn's one main action: take, buy, reserve or pass
            fields["quiet_turns"] = 0 if kind in ("b", "bg", "r") else state.quiet_turns + 1
        _end_turn(state, seat, fields, events, limit, nobles)
        return _step(assemble(SplendorState, fields, state.__pydantic_fields_set__), tuple(events))

    def outcome(self, state: SplendorState) -> Outcome | None:
        """Most points wins; on a tie, fewer development cards; still tied, a shared win."""
        if not state.finished:
            return None
        return Outcome(
            scores=state.points,
            winners=self._winners(state),
            detail={
                "cards": [len(c) for c in state.cards],
                "nobles": [len(v) for v in state.visitors],
                "reason": state.end_reason,
            },
        )

    @staticmethod
    def _winners(state: SplendorState) -> tuple[int, ...]:
        best = max(state.points)
        leaders = [s for s, p in enumerate(state.points) if p == best]
        fewest = min(len(state.cards[s]) for s in leaders)
        return tuple(s for s in leaders if len(state.cards[s]) == fewest)

    # Views ----------------------------------------------------------------------------------------------

    def view(self, state: SplendorState, seat: int | None) -> SplendorView:
        blind = state.blind
        players = tuple(
            _player_view(
                p,
                state.tokens[p],
                state.bonuses[p],
                state.points[p],
                state.cards[p],
                state.visitors[p],
                tuple((c, (_HIDDEN if seat != p else _BLIND) if c in blind else _FACE_UP) for c in state.reserved[p]),
            )
            for p in range(len(state.tokens))
        )
        running = not state.finished
        return SplendorView(
            seat=seat,
            bank=state.bank,
            rows=tuple(tuple(_CARD_VIEWS[c] if c else None for c in row) for row in state.rows),
            decks=tuple(len(d) for d in state.decks),
            nobles=tuple(_NOBLE_VIEWS[n] for n in state.nobles),
            players=players,
            turn=state.turn,
            round=state.round,
            phase=state.phase,
            to_return=max(0, sum(state.tokens[state.turn]) - TOKEN_LIMIT) if running else 0,
            noble_choices=tuple(NOBLE_KEY[n] for n in _welcoming(state.nobles, state.bonuses[state.turn]))
            if state.phase == "noble"
            else (),
            final_round=state.final_round,
            quiet_rounds=state.quiet_turns // len(state.tokens),
            finished=state.finished,
            end_reason=state.end_reason,
            winners=self._winners(state) if state.finished else (),
        )

    def determinize(self, state: SplendorState, seat: int, seed: int) -> SplendorState:
        """Each level's deck shuffled together with the cards of that level that the other seats reserved
        from a deck (``seat`` sees only their backs), then dealt back: the same number to each place."""
        seed, future = rng.reseeded(seed)
        own = set(state.reserved[seat])
        hidden = [c for c in state.blind if c not in own]
        swap: dict[int, int] = {}
        decks = list(state.decks)
        for lv in range(len(decks)):
            blind = [c for c in hidden if LEVEL[c] == LEVELS[lv]]
            seed, (deck, dealt) = rng.dealt(seed, [*decks[lv], *blind], [len(decks[lv]), len(blind)])
            decks[lv] = deck
            swap.update(zip(blind, dealt, strict=True))
        fields = {**state.__dict__, "rng": future, "decks": tuple(decks)}
        if swap:
            fields["reserved"] = tuple(tuple(swap.get(c, c) for c in cards) for cards in state.reserved)
            fields["blind"] = tuple(sorted(swap.get(c, c) for c in state.blind))
        return assemble(SplendorState, fields, state.__pydantic_fields_set__)

    def secrets(self, state: SplendorState, seat: int | None) -> tuple[str, ...]:
        """What the view must not contain: the generator state, every card still in a deck (their order is
        the future) and the cards other players reserved from a deck."""
        own = state.reserved[seat] if seat is not None else ()
        return (
            str(state.rng),
            *(CARD_KEY[c] for deck in state.decks for c in deck),
            *(CARD_KEY[c] for c in state.blind if c not in own),
        )

    def conserved(self, state: SplendorState) -> dict[str, int]:
        """Tokens per colour (bank and players), cards per level wherever they are, nobles in play."""
        out = {name: state.bank[i] + sum(t[i] for t in state.tokens) for i, name in enumerate(TOKEN_NAMES)}
        everywhere = [
            *(c for deck in state.decks for c in deck),
            *(c for row in state.rows for c in row if c),
            *(c for r in state.reserved for c in r),
            *(c for cs in state.cards for c in cs),
        ]
        for lv in LEVELS:
            out[f"cards_{lv}"] = sum(1 for c in everywhere if LEVEL[c] == lv)
        out["nobles"] = len(state.nobles) + sum(len(v) for v in state.visitors)
        return out

    # Text form of actions -----------------------------------------------------------------------------

    def encode(self, action: SplendorAction) -> str:
        """Dot-separated, coarse to fine, one segment per token: t.w.b.r, t2.w, r.2.3, r.2.d, b.1.0, b.h.1,
        g.w.w.y, n.3, p; a gold payment names its card in one segment (level-slot, ``1-0`` or ``h-1``), so that
        the cards of every level are one choice, then its gems in one segment (bg.1-0.bbk), as variants of
        several sizes are legal together and no code may be a prefix of another (see README.md)."""
        kind = action.kind
        if kind in ("t", "t2", "g"):
            return ".".join((kind, *(LETTERS[c] for c in action.tokens)))
        if kind == "r":
            return f"r.{action.level}.{'d' if action.slot == -1 else action.slot}"
        if kind == "b":
            return f"b.{action.level or 'h'}.{action.slot}"
        if kind == "bg":
            return f"bg.{action.level or 'h'}-{action.slot}.{''.join(LETTERS[c] for c in action.tokens)}"
        if kind == "n":
            return f"n.{action.noble}"
        return "p"

    def decode(self, text: str) -> SplendorAction:
        parts = text.split(".")
        try:
            action = self._parse(parts)
        except (IndexError, ValueError):
            action = None
        if action is None:
            raise MalformedAction(f"not a Splendor action: {text[:40]!r}")
        return action

    @staticmethod
    def _parse(parts: list[str]) -> SplendorAction | None:
        gems = LETTERS[: len(COLOURS)]
        match parts:
            case ["p"]:
                return PASS
            case ["t", *cs] if 1 <= len(cs) <= 3 and all(len(c) == 1 and c in gems for c in cs):
                colours = tuple(gems.index(c) for c in cs)
                return SplendorAction("t", tokens=colours) if _ascending(colours, len(COLOURS), True) else None
            case ["t2", c] if len(c) == 1 and c in gems:
                return SplendorAction("t2", tokens=(gems.index(c),))
            case ["r", lv, slot] if lv in ("1", "2", "3") and (slot == "d" or slot in _ROW_SLOTS):
                return _RESERVE[int(lv)][0 if slot == "d" else int(slot) + 1]
            case ["b", lv, slot] if slot in _BUY_SLOTS.get(lv, ()):
                return _BUY[0 if lv == "h" else int(lv)][int(slot)]
            case ["bg", place, cs] if place in _GOLD_PLACES and cs:
                colours = tuple(gems.index(c) for c in cs)  # ValueError on a non-gem letter
                if not _ascending(colours, len(COLOURS), False):
                    return None
                return SplendorAction("bg", *_GOLD_PLACES[place], colours)
            case ["g", *cs] if cs and all(len(c) == 1 and c in LETTERS for c in cs):
                colours = tuple(LETTERS.index(c) for c in cs)
                return SplendorAction("g", tokens=colours) if _ascending(colours, len(LETTERS), False) else None
            case ["n", n] if n.isdigit() and str(int(n)) == n and 1 <= int(n) <= len(NOBLES):
                return _NOBLE[int(n)]
        return None


# The turn's handlers (see Splendor.apply): each checks its action against the state and writes the fields
# it changes into ``fields``.


def _take(state: SplendorState, seat: int, action: SplendorAction, fields: Fields, events: list[Event]) -> None:
    bank = state.bank
    gems = bank[:GOLD]
    known = (_TAKES_BY_GEMS.get(gems) or _bank_takes(gems))[1].get(action)
    if known is None:
        _refuse_take(bank, action)
    taken, event = known
    events.append(event[seat])
    tokens = state.tokens
    fields["bank"] = tuple(map(sub, bank, taken))
    fields["tokens"] = (*tokens[:seat], tuple(map(add, tokens[seat], taken)), *tokens[seat + 1 :])


def _refuse_take(bank: tuple[int, ...], action: SplendorAction) -> NoReturn:
    """Why the bank does not allow this take."""
    colours = action.tokens
    if action not in _TAKEN:
        raise MalformedAction("a take names one to three different gem colours in colour order, or one twice")
    if action.kind == "t2":
        raise RuleViolation(f"two of a colour only when the bank holds at least {TAKE_TWO_MIN} of it")
    if not min(map(bank.__getitem__, colours)):
        raise RuleViolation("the bank has none of that colour")
    raise RuleViolation("three different colours; fewer only when the bank has fewer colours")


def _reserve(state: SplendorState, seat: int, action: SplendorAction, fields: Fields, events: list[Event]) -> None:
    level, slot = action.level, action.slot
    if level not in LEVELS or not -1 <= slot < ROW_SIZE or action.tokens or action.noble:
        raise MalformedAction("reserve names a level 1..3 and a slot 0..3 or the deck")
    reserved = state.reserved[seat]
    if len(reserved) >= RESERVE_LIMIT:
        raise RuleViolation(f"at most {RESERVE_LIMIT} reserved cards")
    if slot == -1:
        deck = state.decks[level - 1]
        if not deck:
            raise RuleViolation("that deck is empty")
        card = deck[-1]
        fields["decks"] = _replace(state.decks, level - 1, deck[:-1])
        fields["blind"] = tuple(sorted((*state.blind, card)))
    else:
        card = state.rows[level - 1][slot]
        if not card:
            raise RuleViolation("that slot is empty")
    bank = state.bank
    gold = bank[GOLD] > 0
    if gold:
        fields["bank"] = (*bank[:GOLD], bank[GOLD] - 1)
        tokens = state.tokens[seat]
        fields["tokens"] = _replace(state.tokens, seat, (*tokens[:GOLD], tokens[GOLD] + 1))
    fields["reserved"] = _replace(state.reserved, seat, (*reserved, card))
    if slot == -1:
        events.append(_reserved(seat, seat, level, None, card, gold))
        events.append(_reserved(None, seat, level, None, 0, gold))
    else:
        events.append(_reserved(None, seat, level, slot, card, gold))
        _refill(state, level, slot, fields, events)


def _buy(state: SplendorState, seat: int, action: SplendorAction, fields: Fields, events: list[Event]) -> None:
    level, slot, extra = action.level, action.slot, action.tokens
    if action.kind == "bg":
        if not extra or not _ascending(extra, len(COLOURS), False):
            raise MalformedAction("a gold payment names the gems gold replaces, in colour order")
    elif extra:
        raise MalformedAction("a plain buy names no tokens")
    if action.noble:
        raise MalformedAction("a buy names no noble")
    reserved = state.reserved[seat]
    if level == 0:
        if not 0 <= slot < RESERVE_LIMIT:
            raise MalformedAction("a reserved card is named by its index 0..2")
        if slot >= len(reserved):
            raise RuleViolation("no such reserved card")
        card = reserved[slot]
    else:
        if level not in LEVELS or not 0 <= slot < ROW_SIZE:
            raise MalformedAction("buy names a level 1..3 and a slot 0..3, or h and a reserve index")
        card = state.rows[level - 1][slot]
        if not card:
            raise RuleViolation("that slot is empty")
    tokens = state.tokens[seat]
    bonus = state.bonuses[seat]
    pay = [0] * len(TOKEN_NAMES)
    short = 0
    for c, n in NEED[card]:
        n -= bonus[c]
        if n > 0:
            if n > tokens[c]:
                pay[c] = tokens[c]
                short += n - tokens[c]
            else:
                pay[c] = n
    for c in extra:  # gold instead of gems the player would pay
        if not pay[c]:
            raise RuleViolation("gold may replace only gems the player holds and the card still costs")
        pay[c] -= 1
    short += len(extra)
    if short > tokens[GOLD]:
        raise RuleViolation("not enough gems and gold for that card")
    pay[GOLD] = short
    paid = tuple(pay)
    colour = BONUS[card]
    all_tokens, cards, bonuses = state.tokens, state.cards, state.bonuses
    after = seat + 1
    fields["bank"] = tuple(map(add, state.bank, paid))
    fields["tokens"] = (*all_tokens[:seat], tuple(map(sub, tokens, paid)), *all_tokens[after:])
    fields["cards"] = (*cards[:seat], (*cards[seat], card), *cards[after:])
    fields["bonuses"] = (*bonuses[:seat], (*bonus[:colour], bonus[colour] + 1, *bonus[colour + 1 :]), *bonuses[after:])
    if POINTS[card]:
        points = state.points
        fields["points"] = (*points[:seat], points[seat] + POINTS[card], *points[after:])
    if level == 0:
        fields["reserved"] = _replace(state.reserved, seat, reserved[:slot] + reserved[slot + 1 :])
        if card in state.blind:
            fields["blind"] = tuple(c for c in state.blind if c != card)
        events.append(_bought(seat, card, None, paid))
    else:
        events.append(_bought(seat, card, slot, paid))
        _refill(state, level, slot, fields, events)


def _refill(state: SplendorState, level: int, slot: int, fields: Fields, events: list[Event]) -> None:
    """Fill the emptied slot from the top of its level's deck; with the deck empty it stays empty."""
    index = level - 1
    decks = state.decks
    deck = decks[index]
    card = deck[-1] if deck else 0
    rows = state.rows
    row = rows[index]
    fields["rows"] = (*rows[:index], (*row[:slot], card, *row[slot + 1 :]), *rows[level:])
    if card:
        fields["decks"] = (*decks[:index], deck[:-1], *decks[level:])
        events.append(_DEALT[slot][card])


def _return(state: SplendorState, seat: int, action: SplendorAction, fields: Fields, events: list[Event]) -> None:
    returned = action.tokens
    if not returned or not _ascending(returned, len(TOKEN_NAMES), False) or action.level or action.slot:
        raise MalformedAction("return names tokens in colour order, gold last")
    tokens = list(state.tokens[seat])
    if len(returned) != sum(tokens) - TOKEN_LIMIT:
        raise RuleViolation(f"return exactly the tokens above {TOKEN_LIMIT}")
    bank = list(state.bank)
    for c in returned:
        tokens[c] -= 1
        bank[c] += 1
    if min(tokens) < 0:
        raise RuleViolation("the player does not hold those tokens")
    events.append(_returned(seat, _counts(returned)))
    fields["bank"] = tuple(bank)
    fields["tokens"] = _replace(state.tokens, seat, tuple(tokens))
    fields["phase"] = "act"


def _choose_noble(state: SplendorState, seat: int, action: SplendorAction, fields: Fields, events: list[Event]) -> None:
    if action.level or action.slot or action.tokens:
        raise MalformedAction("a noble choice names the noble only")
    if action.noble not in _welcoming(state.nobles, state.bonuses[seat]):
        raise RuleViolation("that noble is not on the table or the player does not qualify")
    fields["phase"] = "act"
    _receive(state, seat, action.noble, True, fields, events)


def _end_turn(state: SplendorState, seat: int, fields: Fields, events: list[Event], limit: bool, nobles: bool) -> None:
    """The end of the turn, in order: the ten-token limit (``limit``: after an action that may add tokens),
    a decision for the same seat; at most one noble (``nobles``: unless one was just chosen), which cannot be
    refused and among several is chosen; then the next seat, and after the last seat's turn the end of the
    round, and of the game if someone has reached the winning points, every player passed in the round, or
    nobody bought or reserved a card in the last ``STALL_ROUNDS`` rounds."""
    if limit and sum(fields["tokens"][seat]) > TOKEN_LIMIT:
        fields["phase"] = "return"
        return
    if nobles:
        bonus = fields["bonuses"][seat]
        if sum(bonus) >= _NOBLE_MIN_BONUSES:
            welcoming = _welcoming(state.nobles, bonus)
            if len(welcoming) > 1:
                fields["phase"] = "noble"
                return
            if welcoming:
                _receive(state, seat, welcoming[0], False, fields, events)
    players = len(state.tokens)
    final = state.final_round
    points = fields["points"][seat]
    if not final and points >= WINNING_POINTS:
        final = fields["final_round"] = True
        events.append(FinalRound(seat=seat, points=points))
    if seat + 1 < players:
        fields["turn"] = seat + 1
        return
    all_passed = fields["passed"] == (1 << players) - 1
    if final or all_passed or fields["quiet_turns"] >= STALL_ROUNDS * players:
        reason: EndReason = "points" if final else "no_moves" if all_passed else "stalled"
        fields["finished"] = True
        fields["end_reason"] = reason
        events.append(GameEnded(reason=reason))
    else:
        fields["turn"] = 0
        fields["round"] = state.round + 1
        fields["passed"] = 0


def _receive(state: SplendorState, seat: int, noble: int, chosen: bool, fields: Fields, events: list[Event]) -> None:
    points = list(fields["points"])
    points[seat] += NOBLE_POINTS[noble]
    fields["points"] = tuple(points)
    fields["nobles"] = tuple(n for n in state.nobles if n != noble)
    fields["visitors"] = _replace(state.visitors, seat, (*state.visitors[seat], noble))
    events.append(NobleVisited(seat=seat, noble=NOBLE_KEY[noble], chosen=chosen))


_ROW_SLOTS = tuple(str(slot) for slot in range(ROW_SIZE))
_BUY_SLOTS = {"1": _ROW_SLOTS, "2": _ROW_SLOTS, "3": _ROW_SLOTS, "h": _ROW_SLOTS[:RESERVE_LIMIT]}  # by row or h
# A gold payment's card, one segment: "1-0" (level 1, slot 0), "h-2" (reserved card 2); to (level, slot).
_GOLD_PLACES = {
    f"{lv}-{slot}": (0 if lv == "h" else int(lv), int(slot)) for lv, slots in _BUY_SLOTS.items() for slot in slots
}


__all__ = ["PASS", "Splendor"]
