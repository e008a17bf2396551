"""اسپلندور on the Mini App: gems are tapped on the bank, cards and decks on the table, reserved cards and the
tokens to give back on the seat's own picture.

Taps of each kind of move (``Taps``; a tap id is a spot, or a button when it has none):

- ``t.w.b.g``: ``gem:w``, ``gem:b``, ``gem:g``, in any order; ``t2.w``: ``gem:w`` twice, in any order (no take of
  different colours names a colour twice, so the two never meet);
- ``r.1.0`` / ``b.1.0`` / ``bg.1-0.bb``: the card ``card:1.0`` on the table, then a button that is the code
  itself («📌 رزرو …», «🛒 خرید …», «🟡 خرید … — طلا به جای ۲ آبی»), only those legal being offered;
- ``r.2.d``: the deck ``deck:2``, then its button; ``b.h.0`` / ``bg.h-0.bk``: the reserved card ``card:h.0`` on
  the seat's own picture, then its button;
- ``g.w.w.y``: the seat's own tokens on its picture, ``give:w`` twice and ``give:y``, in any order (the bank's
  gems are never given to, so a return is not mistaken for a take);
- ``n.3``: the noble ``noble:3`` on the table; ``p``: a button.

The buttons' words are the presenter's, as its menus chain them (``chain_label``).
"""

from __future__ import annotations

from bot.games.base import Taps
from bot.games.splendor import letter_name, presenter
from rendering.splendor import layout as lay
from rendering.splendor.labels import CARD_BUTTON, RESERVED_BUTTON, card_button, card_label, reserved_label
from rendering.splendor.picture import noble_number
from rendering.spots import Spot
from rules.splendor.model import LETTERS, SplendorView

GEMS = LETTERS[:5]  # the colours a take names (gold is never taken)


def _chain(code: str) -> tuple[tuple[str, ...], ...]:
    """The menu nodes from a code's first-level button down to the code, as ``chain_label`` takes them."""
    parts = tuple(code.split("."))
    depth = presenter.root_depth(parts[0])
    return tuple(parts[:n] for n in range(min(depth, len(parts)), len(parts) + 1))


class SplendorPage:
    def taps(self, code: str, view: SplendorView) -> Taps:
        kind, *rest = code.split(".")
        if kind == "t":
            return Taps(tuple(f"gem:{c}" for c in rest), unordered=True)
        if kind == "t2":
            return Taps((f"gem:{rest[0]}",) * 2, unordered=True)
        if kind == "g":
            return Taps(tuple(f"give:{c}" for c in rest), unordered=True)
        if kind in ("r", "b"):
            level, slot = rest
            where = f"deck:{level}" if slot == "d" else f"card:{level}.{slot}"
            return Taps((where, code))
        if kind == "bg":
            level, _, slot = rest[0].partition("-")
            return Taps((f"card:{level}.{slot}", code))
        if kind == "n":
            return Taps((f"noble:{rest[0]}",))
        return Taps((code,))  # p

    def spots(self, view: SplendorView, own: SplendorView | None) -> dict[str, Spot]:
        spots: dict[str, Spot] = {}
        for colour, letter in enumerate(GEMS):
            x, y = lay.bank_centre(colour)
            spots[f"gem:{letter}"] = Spot.circle("board", x, y, lay.BANK_CHIP_RADIUS)
        if not view.finished:  # the result's banner takes the nobles' place
            for index, noble in enumerate(view.nobles):
                box = lay.noble_box(index, len(view.nobles))
                spots[f"noble:{noble_number(noble)}"] = Spot.rect("board", *box)
        for level in (1, 2, 3):
            spots[f"deck:{level}"] = Spot.rect("board", *lay.deck_box(level))
            for slot, card in enumerate(view.rows[level - 1]):
                if card is not None:
                    spots[f"card:{level}.{slot}"] = Spot.rect("board", *lay.slot_box(level, slot))
        if own is not None and own.seat is not None:
            me = own.players[own.seat]
            for index in range(len(me.reserved)):
                spots[f"card:h.{index}"] = Spot.rect("hand", *lay.private_card_box(index))
            _bonus_y, token_y = lay.private_rows_y()
            for colour, letter in enumerate(LETTERS):
                spots[f"give:{letter}"] = Spot.circle(
                    "hand", lay.private_cell_x(colour), token_y, lay.PRIVATE_TOKEN_RADIUS
                )
        return spots

    def label(self, tap: str, view: SplendorView) -> str:
        what, _, which = tap.partition(":")
        if what in ("gem", "give"):
            return letter_name(which)
        if what == "noble":
            return presenter.menu_label(("n", which), view)
        if what == "deck":
            return presenter.menu_label(("r", which, "d"), view)
        if what == "card":
            level, _, slot = which.partition(".")
            if level == "h":
                reserved = view.players[view.turn].reserved
                card = reserved[int(slot)].card if int(slot) < len(reserved) else None
                return card_button(RESERVED_BUTTON.format(label=reserved_label(int(slot))), card)
            card = view.rows[int(level) - 1][int(slot)]
            return card_button(CARD_BUTTON.format(label=card_label(int(level), int(slot))), card)
        chain = _chain(tap)  # a button: the code it makes
        if len(chain) == 1:
            return presenter.menu_label(chain[0], view)
        # a reserved card's words are read from the seat's reserve: the public view shows the player in turn's,
        # but for the cards taken from a deck
        mine = view if view.seat is not None else view.model_copy(update={"seat": view.turn})
        return presenter.chain_label(chain, mine)

    def turns(self, tap: str) -> bool:
        return False


page = SplendorPage()
