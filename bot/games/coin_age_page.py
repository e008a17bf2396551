"""عصر سکه‌ها on the Mini App: the toss is drawn at the top of the board, and a move is a coin of it and a space,
or two spaces.

Taps of each kind of move (a tap id is a spot, or a button when it has none):

- ``p.A.A1``: the tossed coin ``coin:A``, then the space ``space:A1``;
- ``y.A``: the tossed coin ``coin:A``, then the button ``y.A`` («💰 پرداخت سکهٔ ۱ به حریف»), so that a coin
  is placed or paid, either or;
- ``m.B2.A1``: the spaces ``space:B2`` then ``space:A1``;
- ``c.A1``: the space ``space:A1``, then the button ``c.A1`` («⚔️ تصرف …»), beside the spaces its stack may
  move to;
- ``x``: a button («⏭ پایان نوبت»).

The buttons' words are the presenter's, as its menus chain them.
"""

from __future__ import annotations

from bot.games.base import Taps
from bot.games.coin_age import SPACE_NAMES, coin_name, presenter
from rendering.coin_age import layout as lay
from rendering.coin_age.static import space_centres
from rendering.spots import Spot
from rules.coin_age.model import SIZES, CoinAgeView


class CoinAgePage:
    def taps(self, code: str, view: CoinAgeView) -> Taps:
        kind, *rest = code.split(".")
        if kind == "p":
            size, space = rest
            return Taps((f"coin:{size}", f"space:{space}"))
        if kind == "y":
            return Taps((f"coin:{rest[0]}", code))
        if kind == "m":
            source, target = rest
            return Taps((f"space:{source}", f"space:{target}"))
        if kind == "c":
            return Taps((f"space:{rest[0]}", code))
        return Taps((code,))  # x

    def spots(self, view: CoinAgeView, own: CoinAgeView | None) -> dict[str, Spot]:
        centres = space_centres([s.id for s in view.spaces])
        spots = {f"space:{sid}": Spot.poly("board", tuple(lay.space_corners(c))) for sid, c in centres.items()}
        turn = view.turn
        if turn is not None and not view.finished:  # the toss, drawn while the game runs
            for coin, (x, y) in zip(turn.toss, lay.toss_centres(len(turn.toss)), strict=True):
                if coin.side == turn.seat and coin in turn.hand:  # a favourable coin not yet placed or paid
                    # as wide as the gap to the next coin allows: a thumb is larger than the smallest coin
                    spots[f"coin:{SIZES[coin.size]}"] = Spot.circle("board", x, y, lay.TOSS_STEP / 2)
        return spots

    def label(self, tap: str, view: CoinAgeView) -> str:
        what, _, which = tap.partition(":")
        if what == "coin":
            return coin_name(SIZES.index(which))
        if what == "space":
            return SPACE_NAMES[which]
        path = tap.split(".")  # a button: the code it makes
        if path[0] == "c":
            return presenter.chain_label([path[:1], path], view)
        return presenter.menu_label(path, view)

    def turns(self, tap: str) -> bool:
        return False


page = CoinAgePage()
