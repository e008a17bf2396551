"""Condottiere (رکب) as the Persian rulebook gives it, with RULES.md's decisions; see README.md here."""

from __future__ import annotations

from typing import Any, ClassVar

from rules import rng
from rules.condottiere.data import (
    BISHOP,
    CODE,
    DECK,
    ITALY,
    KIND_OF,
    KIND_OF_CODE,
    KINDS,
    MAX_PROVINCES,
    REKAB,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
    Board,
    copies,
    duel_decks,
)
from rules.condottiere.model import (
    DEAL,
    DUEL_HAND,
    DUEL_WINS,
    MAX_PLAYERS,
    NONE,
    QUIET_BATTLES,
    BattleEnded,
    BishopDiscarded,
    CardPlayed,
    ChooserReason,
    CondottiereAction,
    CondottiereOptions,
    CondottiereState,
    CondottiereView,
    Dealt,
    EndReason,
    GameEnded,
    HandDiscarded,
    HandKept,
    NextChooser,
    Passed,
    PeaceTokenPlaced,
    ScarecrowReturned,
    SeasonDiscarded,
    SiteChosen,
)
from rules.condottiere.scoring import courtesans, strengths, victorious
from rules.contract import Event, GameOver, MalformedAction, NotYourTurn, Outcome, RuleViolation, Step
from rules.evolve import evolve

Action = CondottiereAction
FIRST_SPECIAL = copies(BISHOP).start  # ids below this are mercenaries (ids are numbered kind by kind)

# Every action value built once: legal_actions hands out these shared (immutable) tuples.
PASS = Action("pass")
KEEP_HAND = Action("discard", 0)
DISCARD_HAND = Action("discard", 1)
TAKE_NONE = Action("scarecrow")
KEEP_PEACE = Action("peace")
_PLAY = tuple(Action("play", k.index) for k in KINDS)
_TAKE = tuple(Action("scarecrow", k) for k in range(KIND_OF[FIRST_SPECIAL]))
_SITE = tuple(Action("site", i) for i in range(MAX_PROVINCES))
_PEACE = tuple(Action("peace", i) for i in range(MAX_PROVINCES))


# A valid view to copy from: ``view`` replaces every field.
_VIEW = CondottiereView(
    seat=None,
    variant="map",
    map=None,
    owners=(),
    hand=(),
    hand_sizes=(),
    lines=(),
    strengths=(),
    courtesans=(),
    passed=(),
    season=None,
    battle_site=None,
    peace_token=None,
    provinces_held=(),
    wins=(),
    deck_sizes=(),
    discard=(),
    phase="over",
    to_act=(),
    turn=None,
    chooser=0,
    last_passer=None,
    battle=0,
    quiet=0,
    finished=True,
    end_reason=None,
    winners=(),
)
_QUOTED = tuple(f'"{code}"' for code in CODE)  # a card code as it appears in a view's JSON


def board_of(state: CondottiereState) -> Board:
    return ITALY if state.options.classic_map else REKAB


def free_provinces(state: CondottiereState) -> list[int]:
    """Provinces a battle may be fought over: no control marker, no peace token."""
    peace = state.peace
    return [i for i, owner in enumerate(state.owners) if owner == NONE and i != peace]


def _kinds(cards: tuple[int, ...]) -> list[int]:
    """The distinct kinds among sorted card ids, in order."""
    out: list[int] = []
    for c in cards:
        k = KIND_OF[c]
        if not out or out[-1] != k:
            out.append(k)
    return out


def _replace(items: tuple[tuple[int, ...], ...], index: int, value: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (*items[:index], value, *items[index + 1 :])


def _insert(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Put a card back into a sorted hand."""
    i = 0
    while i < len(hand) and hand[i] < card:
        i += 1
    return (*hand[:i], card, *hand[i:])


class Condottiere:
    """3–6 players on a map, or the two-player variant; see ``rules/condottiere/README.md``."""

    id: ClassVar[str] = "condottiere"
    title: ClassVar[str] = "رکب"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    options_model: ClassVar[type[CondottiereOptions]] = CondottiereOptions
    state_model: ClassVar[type[CondottiereState]] = CondottiereState

    def __init__(self) -> None:
        self._last_public: tuple[CondottiereState, CondottiereView] | None = None

    # Set-up -----------------------------------------------------------------------------------

    def setup(self, players: int, seed: int, options: CondottiereOptions | None = None) -> CondottiereState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError("Condottiere takes 2 to 6 players")
        options = options or CondottiereOptions()
        state_rng = rng.mix(seed)
        common = {"options": options, "players": players, "passed": (False,) * players, "wins": (0,) * players}
        if players == 2:
            decks = []
            hands = []
            for deck in duel_decks():
                state_rng, order = rng.shuffled(state_rng, list(deck))
                hands.append(tuple(sorted(order[:DUEL_HAND])))
                decks.append(tuple(order[DUEL_HAND:]))
            state = CondottiereState(
                rng=state_rng, decks=tuple(decks), hands=tuple(hands), lines=((), ()), phase="battle", **common
            )
            return self._start_battle(state, 0, [])
        state_rng, order = rng.shuffled(state_rng, list(DECK))
        hands = [tuple(sorted(order[i * DEAL : (i + 1) * DEAL])) for i in range(players)]
        board = ITALY if options.classic_map else REKAB
        return CondottiereState(
            rng=state_rng,
            decks=(tuple(order[players * DEAL :]),),
            hands=tuple(hands),
            lines=((),) * players,
            owners=(NONE,) * board.size,
            phase="site",
            **common,
        )

    # Queries ----------------------------------------------------------------------------------

    def to_act(self, state: CondottiereState) -> tuple[int, ...]:
        if state.phase == "over":
            return ()
        if state.phase == "discard":
            return state.pending
        return (state.turn,)

    def legal_actions(self, state: CondottiereState, seat: int) -> list[CondottiereAction]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == "battle":
            return [*(_PLAY[k] for k in _kinds(state.hands[seat])), PASS]
        if phase == "site":
            return [_SITE[i] for i in free_provinces(state)]
        if phase == "scarecrow":
            line = tuple(sorted(c for c in state.lines[seat] if c < FIRST_SPECIAL))
            return [*(_TAKE[k] for k in _kinds(line)), TAKE_NONE]
        if phase == "peace":
            return [KEEP_PEACE, *(_PEACE[i] for i in free_provinces(state) if i != state.site)]
        return [DISCARD_HAND, KEEP_HAND]

    def default_action(self, state: CondottiereState, seat: int) -> CondottiereAction:
        """On a time-out: pass, take nothing back, leave the peace token, keep the hand; a site chooser gets
        the first free province."""
        phase = state.phase
        if phase == "site":
            return _SITE[free_provinces(state)[0]]
        if phase == "scarecrow":
            return TAKE_NONE
        if phase == "peace":
            return KEEP_PEACE
        if phase == "discard":
            return KEEP_HAND
        return PASS

    # Applying actions --------------------------------------------------------------------------

    def apply(self, state: CondottiereState, seat: int, action: CondottiereAction) -> Step[CondottiereState]:
        if state.phase == "over":
            raise GameOver("the game is over")
        if seat not in self.to_act(state):
            raise NotYourTurn(f"seat {seat} is not to act")
        kind, arg = action
        phase = state.phase
        events: list[Event] = []
        if phase == "battle" and kind == "play":
            state = self._play(state, seat, arg, events)
        elif phase == "battle" and kind == "pass":
            events.append(Passed(seat=seat, automatic=False))
            following = (seat + 1) % state.players
            state = self._next_turn(state, following, events, passed=_set(state.passed, seat), last_passer=seat)
        elif phase == "site" and kind == "site":
            state = self._choose_site(state, seat, arg, events)
        elif phase == "scarecrow" and kind == "scarecrow":
            state = self._take_back(state, seat, arg, events)
        elif phase == "peace" and kind == "peace":
            state = self._place_peace(state, seat, arg, events)
        elif phase == "discard" and kind == "discard":
            state = self._discard_choice(state, seat, arg, events)
        elif kind in ("play", "pass", "site", "scarecrow", "peace", "discard"):
            raise RuleViolation(f"a {kind} action is not expected now ({phase})")
        else:
            raise MalformedAction(f"unknown action {kind!r}")
        return Step(state, tuple(events))

    def _play(self, state: CondottiereState, seat: int, kind: int, events: list[Event]) -> CondottiereState:
        if not 0 <= kind < len(KINDS):
            raise MalformedAction("no such card kind")
        hand = state.hands[seat]
        at = next((i for i, c in enumerate(hand) if KIND_OF[c] == kind), NONE)
        if at == NONE:
            raise RuleViolation(f"no {KINDS[kind].english} in hand")
        card = hand[at]
        hands = _replace(state.hands, seat, hand[:at] + hand[at + 1 :])
        events.append(CardPlayed(seat=seat, card=CODE[card]))
        following = (seat + 1) % state.players
        if kind in (WINTER, SPRING):
            discard = state.discard
            if state.season != NONE:
                discard = (*discard, state.season)
                events.append(SeasonDiscarded(card=CODE[state.season]))
            return self._next_turn(state, following, events, hands=hands, season=card, discard=discard)
        line = (*state.lines[seat], card)
        lines = _replace(state.lines, seat, line)
        if kind not in (SURRENDER, BISHOP, SCARECROW):
            return self._next_turn(state, following, events, hands=hands, lines=lines)
        state = evolve(state, hands=hands, lines=lines)
        if kind == SURRENDER:
            return self._end_battle(state, "surrender", events, surrendered=seat)
        if kind == BISHOP:
            state = self._bishop(state, seat, events)
            if state.players > 2:
                return evolve(state, phase="peace", turn=seat)
        elif any(c < FIRST_SPECIAL for c in line):
            return evolve(state, phase="scarecrow", turn=seat)
        else:
            events.append(ScarecrowReturned(seat=seat, card=None))
        return self._next_turn(state, following, events)

    def _bishop(self, state: CondottiereState, seat: int, events: list[Event]) -> CondottiereState:
        """Discard every mercenary of the highest printed value in play, in every line (ids are ordered by
        kind and mercenary kinds by value, so the highest value is the highest mercenary kind)."""
        in_play = [KIND_OF[c] for line in state.lines for c in line if c < FIRST_SPECIAL]
        if not in_play:
            events.append(BishopDiscarded(seat=seat, cards=()))
            return state
        top = max(in_play)
        burned = [
            (owner, c)
            for owner, line in enumerate(state.lines)
            for c in line
            if c < FIRST_SPECIAL and KIND_OF[c] == top
        ]
        removed = tuple(c for _, c in burned)
        lines = tuple(tuple(c for c in line if c not in removed) for line in state.lines)
        events.append(
            BishopDiscarded(seat=seat, cards=tuple(CODE[c] for c in removed), owners=tuple(o for o, _ in burned))
        )
        return evolve(state, lines=lines, discard=state.discard + removed)

    def _take_back(self, state: CondottiereState, seat: int, kind: int, events: list[Event]) -> CondottiereState:
        line = state.lines[seat]
        card = NONE
        if kind != NONE:
            card = next((c for c in reversed(line) if c < FIRST_SPECIAL and KIND_OF[c] == kind), NONE)
            if card == NONE:
                raise RuleViolation("the Scarecrow takes back only a mercenary of your own line")
            at = line.index(card)
            hands = _replace(state.hands, seat, _insert(state.hands[seat], card))
            state = evolve(state, hands=hands, lines=_replace(state.lines, seat, line[:at] + line[at + 1 :]))
        events.append(ScarecrowReturned(seat=seat, card=None if card == NONE else CODE[card]))
        return self._next_turn(state, (seat + 1) % state.players, events)

    def _place_peace(self, state: CondottiereState, seat: int, province: int, events: list[Event]) -> CondottiereState:
        if province != NONE:
            if province == state.site or province not in free_provinces(state):
                raise RuleViolation("the peace token goes on a free province other than the battle site")
            state = evolve(state, peace=province)
        events.append(PeaceTokenPlaced(seat=seat, province=None if province == NONE else province))
        return self._next_turn(state, (seat + 1) % state.players, events)

    def _choose_site(self, state: CondottiereState, seat: int, province: int, events: list[Event]) -> CondottiereState:
        if province not in free_provinces(state):
            raise RuleViolation("a battle is fought over a free province (no control marker, no peace token)")
        events.append(SiteChosen(seat=seat, province=province, province_id=board_of(state).provinces[province].id))
        opener = seat if state.opener == NONE else state.opener
        return self._start_battle(evolve(state, site=province, opener=NONE), opener, events)

    # Turn flow -----------------------------------------------------------------------------------

    def _start_battle(self, state: CondottiereState, starter: int, events: list[Event]) -> CondottiereState:
        state = evolve(state, phase="battle", passed=(False,) * state.players, last_passer=NONE)
        return self._next_turn(state, starter, events)

    def _next_turn(self, state: CondottiereState, start: int, events: list[Event], **changes: Any) -> CondottiereState:
        """Apply ``changes`` and give the turn to the first seat from ``start`` on, clockwise, that has not
        passed; a seat with no card left passes at once. When everyone has passed, the battle ends."""
        n = state.players
        hands = changes.get("hands", state.hands)
        passed = changes.get("passed", state.passed)
        last = changes.get("last_passer", state.last_passer)
        seat = start
        for _ in range(n):
            if not passed[seat]:
                if hands[seat]:
                    changes.update(phase="battle", turn=seat, passed=passed, last_passer=last)
                    return evolve(state, **changes)
                passed = _set(passed, seat)
                last = seat
                events.append(Passed(seat=seat, automatic=True))
            seat = (seat + 1) % n
        changes.update(passed=passed, last_passer=last)
        return self._end_battle(evolve(state, **changes), "passes", events)

    def _end_battle(
        self, state: CondottiereState, reason: str, events: list[Event], surrendered: int = NONE
    ) -> CondottiereState:
        """Resolve: strengths, capture, who chooses next, played cards and the season to the discards; then
        the end of the game, or the discards and redeal (map) or the refill (two players).

        RULES.md: the most Courtesans choose the next site (map game), else the winner; on a tie the last
        player who really passed, or the Surrender player when nobody had passed. The winner opens the next
        battle even when the Courtesans gave the site to someone else; after a tie, the site's chooser."""
        lines = state.lines
        duel = state.players == 2
        power = strengths(lines, state.season)
        top = max(power)
        winner = power.index(top) if power.count(top) == 1 else NONE
        counts = courtesans(lines)
        most = max(counts)
        why: ChooserReason
        if most > 0 and counts.count(most) == 1:
            chooser, why = counts.index(most), "courtesans"
        elif winner != NONE:
            chooser, why = winner, "winner"
        elif state.last_passer != NONE:
            chooser, why = state.last_passer, "last_pass"
        else:
            chooser, why = surrendered, "surrender"
        played = tuple(c for line in lines for c in line)
        if state.season != NONE:
            played = (*played, state.season)
        events.append(
            BattleEnded(
                battle=state.battle,
                province=None if duel else state.site,
                reason="surrender" if reason == "surrender" else "passes",
                strengths=power,
                winner=None if winner == NONE else winner,
            )
        )
        owners = state.owners
        wins = state.wins
        if winner != NONE:
            wins = (*wins[:winner], wins[winner] + 1, *wins[winner + 1 :])
            if not duel:
                owners = (*owners[: state.site], winner, *owners[state.site + 1 :])
        state = evolve(
            state,
            lines=((),) * state.players,
            season=NONE,
            discard=state.discard + played,
            owners=owners,
            wins=wins,
            site=NONE,
            chooser=chooser,
            opener=winner,
            battle=state.battle + 1,
            quiet=0 if played else state.quiet + 1,
        )
        if state.quiet >= QUIET_BATTLES:
            return self._finish(state, "stalemate", _most(state.wins if duel else _held(state)), events)
        if duel:
            return self._after_duel_battle(state, winner, why, events)
        if winner != NONE:
            neighbours = board_of(state).neighbours
            victors = tuple(s for s in range(state.players) if victorious(owners, s, neighbours))
            if victors:
                return self._finish(state, "victory", victors, events)
        if not free_provinces(state):
            return self._finish(state, "no_free_province", _most(_held(state)), events)
        events.append(NextChooser(seat=chooser, reason=why))
        pending = tuple(s for s, hand in enumerate(state.hands) if hand and hand[0] >= FIRST_SPECIAL)
        if pending:
            return evolve(state, phase="discard", pending=pending)
        return self._after_discards(state, events)

    def _after_duel_battle(
        self, state: CondottiereState, winner: int, why: ChooserReason, events: list[Event]
    ) -> CondottiereState:
        """Two players: three battles won end the game. Else, as in the map game, a player whose hand holds
        no mercenary may discard it (RULES.md); then both refill to 8 from their own decks."""
        if winner != NONE and state.wins[winner] >= DUEL_WINS:
            return self._finish(state, "three_battles", (winner,), events)
        events.append(NextChooser(seat=state.chooser, reason=why, site=False))
        pending = tuple(s for s, hand in enumerate(state.hands) if hand and hand[0] >= FIRST_SPECIAL)
        if pending:
            return evolve(state, phase="discard", pending=pending)
        return self._refill_duel(state, events)

    def _refill_duel(self, state: CondottiereState, events: list[Event]) -> CondottiereState:
        """Both draw up to 8 from their own decks; with no card left anywhere the game ends on the battles
        won; else the next battle opens (the winner, or after a tie the last player who passed)."""
        hands = list(state.hands)
        decks = list(state.decks)
        drawn: list[tuple[int, ...]] = []
        for seat in range(2):
            take = min(DUEL_HAND - len(hands[seat]), len(decks[seat]))
            drawn.append(decks[seat][:take])
            hands[seat] = tuple(sorted(hands[seat] + decks[seat][:take]))
            decks[seat] = decks[seat][take:]
        if any(drawn):
            sizes = tuple(len(d) for d in drawn)
            events.append(Dealt(sizes=sizes))
            events.extend(Dealt(sizes=sizes, cards=tuple(CODE[c] for c in d), audience=s) for s, d in enumerate(drawn))
        state = evolve(state, hands=tuple(hands), decks=tuple(decks), pending=(), opener=NONE)
        if not hands[0] and not hands[1]:
            return self._finish(state, "out_of_cards", _most(state.wins), events)
        return self._start_battle(state, state.chooser, events)

    def _discard_choice(self, state: CondottiereState, seat: int, choice: int, events: list[Event]) -> CondottiereState:
        if choice not in (0, 1):
            raise MalformedAction("discard is 1 (discard the hand) or 0 (keep it)")
        if choice:
            state = self._discard_hand(state, seat, forced=False, events=events)
        else:
            events.append(HandKept(seat=seat))
        pending = tuple(s for s in state.pending if s != seat)
        state = evolve(state, pending=pending)
        if pending:
            return state
        return self._refill_duel(state, events) if state.players == 2 else self._after_discards(state, events)

    def _discard_hand(self, state: CondottiereState, seat: int, forced: bool, events: list[Event]) -> CondottiereState:
        hand = state.hands[seat]
        events.append(HandDiscarded(seat=seat, cards=tuple(CODE[c] for c in hand), forced=forced))
        return evolve(state, hands=_replace(state.hands, seat, ()), discard=state.discard + hand)

    def _after_discards(self, state: CondottiereState, events: list[Event]) -> CondottiereState:
        """The last player holding cards must discard them; with every hand empty, shuffle the deck and the
        discards together and deal 10 + 1 per province held. Then the chooser picks the next site."""
        holders = [s for s, hand in enumerate(state.hands) if hand]
        if len(holders) == 1:
            state = self._discard_hand(state, holders[0], forced=True, events=events)
            holders = []
        if not holders:
            state_rng, pool = rng.shuffled(state.rng, [*state.decks[0], *state.discard])
            sizes = tuple(DEAL + state.owners.count(s) for s in range(state.players))
            hands = []
            for size in sizes:
                hands.append(tuple(sorted(pool[:size])))
                pool = pool[size:]
            events.append(Dealt(sizes=sizes, reshuffled=True))
            events.extend(
                Dealt(sizes=sizes, cards=tuple(CODE[c] for c in hand), reshuffled=True, audience=s)
                for s, hand in enumerate(hands)
            )
            state = evolve(state, rng=state_rng, decks=(tuple(pool),), discard=(), hands=tuple(hands))
        return evolve(state, phase="site", turn=state.chooser, pending=())

    def _finish(
        self, state: CondottiereState, reason: EndReason, winners: tuple[int, ...], events: list[Event]
    ) -> CondottiereState:
        events.append(GameEnded(reason=reason, winners=winners))
        return evolve(state, phase="over", winners=winners, end_reason=reason, pending=())

    # Results and views ---------------------------------------------------------------------------

    def outcome(self, state: CondottiereState) -> Outcome | None:
        if state.phase != "over":
            return None
        duel = state.players == 2
        held = _held(state)
        return Outcome(
            scores=state.wins if duel else held,
            winners=state.winners,
            detail={
                "reason": state.end_reason,
                "wins": list(state.wins),
                "provinces": list(held),
                "draw": len(state.winners) == state.players,
            },
        )

    def view(self, state: CondottiereState, seat: int | None) -> CondottiereView:
        """The public view, plus the seat's own hand. Views are asked per seat for one state, so the public
        part of the last state is kept (by identity: states are immutable) and only the hand is added."""
        last = self._last_public
        if last is None or last[0] is not state:
            last = (state, self._public_view(state))
            self._last_public = last
        if seat is None:
            return last[1]
        return evolve(last[1], seat=seat, hand=tuple(map(CODE.__getitem__, state.hands[seat])))

    def _public_view(self, state: CondottiereState) -> CondottiereView:
        duel = state.players == 2
        power, counts = strengths(state.lines, state.season), courtesans(state.lines)
        over = state.phase == "over"
        # Every value is built here with its declared type, so the copy skips validation (views are made per
        # seat and per step); the conformance suite round-trips them through JSON.
        return evolve(
            _VIEW,
            seat=None,
            variant="duel" if duel else "map",
            map=None if duel else board_of(state).key,
            owners=tuple(None if owner == NONE else owner for owner in state.owners),
            hand=(),
            hand_sizes=tuple(map(len, state.hands)),
            lines=tuple(tuple(map(CODE.__getitem__, line)) for line in state.lines),
            strengths=power,
            courtesans=counts,
            passed=state.passed,
            season=None if state.season == NONE else CODE[state.season],
            battle_site=None if state.site == NONE else state.site,
            peace_token=None if state.peace == NONE else state.peace,
            provinces_held=_held(state),
            wins=state.wins,
            deck_sizes=tuple(map(len, state.decks)),
            discard=_by_kind(state.discard),
            phase=state.phase,
            to_act=self.to_act(state),
            turn=None if over or state.phase == "discard" else state.turn,
            chooser=state.chooser,
            last_passer=None if state.last_passer == NONE else state.last_passer,
            battle=state.battle,
            quiet=state.quiet,
            finished=over,
            end_reason=state.end_reason,
            winners=state.winners,
        )

    def determinize(self, state: CondottiereState, seat: int, seed: int) -> CondottiereState:
        """The cards ``seat`` cannot see (the other hands and the decks) dealt anew, each hand and deck keeping
        its size. The map game has one deck shared by all; in the two-player variant each seat's cards come
        from its own deck, so the other seat's hand is dealt from its own deck's cards, and the seat's own
        deck is only shuffled."""
        seed, future = rng.reseeded(seed)
        hands, decks = list(state.hands), list(state.decks)
        if state.players == 2:
            other = 1 - seat
            seed, (hand, deck) = rng.dealt(seed, [*hands[other], *decks[other]], [len(hands[other]), len(decks[other])])
            hands[other], decks[other] = tuple(sorted(hand)), deck
            seed, (decks[seat],) = rng.dealt(seed, list(decks[seat]), [len(decks[seat])])
        else:
            others = [s for s in range(state.players) if s != seat]
            pool = [c for s in others for c in hands[s]] + list(decks[0])
            seed, parts = rng.dealt(seed, pool, [*(len(hands[s]) for s in others), len(decks[0])])
            for s, part in zip(others, parts, strict=False):
                hands[s] = tuple(sorted(part))
            decks[0] = parts[-1]
        return evolve(state, rng=future, hands=tuple(hands), decks=tuple(decks))

    def secrets(self, state: CondottiereState, seat: int | None) -> tuple[str, ...]:
        """The generator's state, and each other seat's hand and each deck as the text a view would hold if it
        leaked them (the quoted card codes, comma-separated as in the JSON of ``hand``); card codes are unique,
        so even a one-card hand is found."""
        hidden = [hand for s, hand in enumerate(state.hands) if s != seat and hand]
        hidden.extend(deck for deck in state.decks if deck)
        return (str(state.rng), *(",".join(map(_QUOTED.__getitem__, cards)) for cards in hidden))

    def conserved(self, state: CondottiereState) -> dict[str, int]:
        """The cards by kind, wherever they are: deck(s), hands, lines, season slot, discards."""
        counts = {k.code: 0 for k in KINDS}
        places = [*state.decks, *state.hands, *state.lines, state.discard]
        if state.season != NONE:
            places.append((state.season,))
        for cards in places:
            for c in cards:
                counts[KINDS[KIND_OF[c]].code] += 1
        return counts

    # Text form of actions ------------------------------------------------------------------------

    def encode(self, action: CondottiereAction) -> str:
        """p.<card> play (p.5, p.10, p.bi), x pass, s.<province> site, sc.<value>|sc.n Scarecrow's take,
        pz.<province>|pz.k peace token, d.y|d.n discard or keep the hand."""
        kind, arg = action
        if kind == "play":
            return f"p.{KINDS[arg].code}"
        if kind == "site":
            return f"s.{arg}"
        if kind == "scarecrow":
            return "sc.n" if arg == NONE else f"sc.{KINDS[arg].code}"
        if kind == "peace":
            return "pz.k" if arg == NONE else f"pz.{arg}"
        if kind == "discard":
            return "d.y" if arg else "d.n"
        return "x"

    def decode(self, text: str) -> CondottiereAction:
        match text.split("."):
            case ["x"]:
                return PASS
            case ["p", code] if code in KIND_OF_CODE:
                return _PLAY[KIND_OF_CODE[code]]
            case ["s", number] if _index(number) != NONE:
                return _SITE[_index(number)]
            case ["sc", "n"]:
                return TAKE_NONE
            case ["sc", code] if KIND_OF_CODE.get(code, len(KINDS)) < len(_TAKE):
                return _TAKE[KIND_OF_CODE[code]]
            case ["pz", "k"]:
                return KEEP_PEACE
            case ["pz", number] if _index(number) != NONE:
                return _PEACE[_index(number)]
            case ["d", "y"]:
                return DISCARD_HAND
            case ["d", "n"]:
                return KEEP_HAND
        raise MalformedAction(f"not a Condottiere action: {text[:40]!r}")


def _index(text: str) -> int:
    """A province index in canonical decimal form, or NONE."""
    if text.isascii() and text.isdigit() and str(int(text)) == text and int(text) < MAX_PROVINCES:
        return int(text)
    return NONE


def _by_kind(cards: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * len(KINDS)
    for c in cards:
        counts[KIND_OF[c]] += 1
    return tuple(counts)


def _set(flags: tuple[bool, ...], index: int) -> tuple[bool, ...]:
    return (*flags[:index], True, *flags[index + 1 :])


def _held(state: CondottiereState) -> tuple[int, ...]:
    """Provinces held per seat (map game)."""
    return tuple(state.owners.count(s) for s in range(state.players))


def _most(counts: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the highest count: the winners when a game ends on provinces or battles won."""
    best = max(counts)
    return tuple(s for s, count in enumerate(counts) if count == best)
