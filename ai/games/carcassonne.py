"""قلعه رودخان: points scored, what each feature holding meeples is expected to score, and the meeples at hand.

A feature holding meeples is worth to its majority what it would score completed, times the chance it is
completed, plus what it scores at the end otherwise. That chance is counted hole by hole: each empty place its
open edges face must get one of the tiles still to draw that fit there, within the turns its owner has left (a
quarter of the pile at four players, half at two), so a city with a hole no tile left can fill is worth its end
score only, and closing such a hole round an opponent's city is worth what it takes from them. A monastery
counts the tiles around it and a share of the empty places, the more tiles are left. A meeple at hand is worth
the points it can still earn, less as the pile runs down; one standing on a feature that will not be finished is
the opposite, a meeple lost. Farms (an option) count their completed cities as the rules do at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ai.knowledge import Knowledge
from rules.carcassonne.board import Board, board_of
from rules.carcassonne.data import FITS, MEEPLES, ORIENTED, STEP, STRIDE, TILES
from rules.carcassonne.model import CarcAction, CarcassonneState
from rules.carcassonne.scoring import field_cities, group, majority

GROW = 0.85  # the chance that filling a hole does not open the feature further
FILL = 0.7  # the share of a monastery's empty neighbours expected to be filled, with tiles enough left
AT_HAND = 1.5  # a meeple at hand at the start, in points; it falls with the pile
FIELD_CITY = 3  # a farm's points per completed city it touches (when farmers play)
TOTAL_TILES = 71  # the pile at the start
SPREAD = 14.0  # points of the standing that make one of two seats clearly ahead (the note at KNOWLEDGE)


FITTING = {need: tuple(t for t in range(len(TILES)) if FITS[t][need]) for need in FITS[0]}  # tiles per hole


def _holes(board: Board, root: int) -> set[tuple[int, int]]:
    """The empty places a city or road's open edges face."""
    out = set()
    for index in board.tiles[root]:
        ttype, x, y, rot = board.placed[index]
        for d, segment in enumerate(ORIENTED[ttype][rot].edge_segment):
            if segment >= 0:
                place = (x + STEP[d][0], y + STEP[d][1])
                if place not in board.grid and board.find(index * STRIDE + segment) == root:
                    out.add(place)
    return out


def _chance(board: Board, root: int, pile: Counter[int], left: int, draws: float) -> float:
    """That a city or road gets completed: each hole filled by one of the ``left`` tiles that fit it in
    ``draws`` draws, and not opened further."""
    if board.open.get(root, 0) <= 0:
        return 1.0
    if left <= 0:
        return 0.0
    chance = 1.0
    for place in _holes(board, root):
        fit = sum(pile[t] for t in FITTING[board.frontier[place]])
        chance *= GROW * (1.0 - (1.0 - fit / left) ** draws)
    return chance


def _standing(state: CarcassonneState) -> tuple[float, ...]:
    board = board_of(state.placed)
    left = len(state.pile)
    totals = [float(sum(p)) for p in state.points]
    standing = [0] * state.players
    pile, draws = Counter(state.pile), left / state.players  # the draws of the feature's owner
    for root, on in group(board, state.meeples).items():
        first = on[0]
        kind = TILES[board.placed[first[1]][0]].segments[first[2]].kind
        for meeple in on:
            standing[meeple[0]] += 1
        if kind == "road":
            tiles = len(board.tiles[root])
            value = float(tiles)
            if left and board.open.get(root, 0):
                value += 0.5 * _chance(board, root, pile, left, draws)  # a road grows a little more before closing
        elif kind == "city":
            size = len(board.tiles[root]) + board.shields.get(root, 0)
            value = size * (1.0 + _chance(board, root, pile, left, draws))
        elif kind == "monastery":
            _, x, y, _ = board.placed[first[1]]
            around = board.neighbours8(x, y)
            value = 1.0 + around + (8 - around) * FILL * min(1.0, left / 16)
        elif state.options.farmers:
            cities = field_cities(board, root)
            value = float(FIELD_CITY * sum(1 for c in cities if board.complete(c)))
            value += 0.3 * FIELD_CITY * sum(1 for c in cities if not board.complete(c)) * min(1.0, left / 20)
        else:
            continue
        for seat in majority(on):
            totals[seat] += value
    worth = AT_HAND * left / TOTAL_TILES
    for seat in range(state.players):
        totals[seat] += worth * min(3, MEEPLES - standing[seat])  # more than three at hand add little
    # SPREAD is set for two; the best of three opponents is further ahead, so at more players the standing is
    # scaled to a spread of 5 points a seat (four players, 24 games against three frozen سخت on the same deals:
    # a spread of 10 won 31.2%, 20 43.8%, 28 16.7%)
    scale = 1.0 if state.players == 2 else SPREAD / (5.0 * state.players)
    return tuple(scale * total for total in totals)


KEEP = {"c": 5, "m": 6, "r": 3, "f": 0}  # of 8 random meeples a play-out puts down, by the kind of spot


def _policy(state: CarcassonneState, seat: int, legal: Sequence[CarcAction], draw: int) -> int:
    """A play-out move: the tile anywhere it fits, at random, but a meeple mostly only on a city or a
    monastery (a random play-out puts a meeple down with almost every tile, on fields and short roads too, and
    is out of meeples in a few turns, which no player would be)."""
    index = (draw >> 3) % len(legal)
    spot = legal[index].spot
    if spot == "n" or (draw & 7) < KEEP[spot[0]]:
        return index
    while legal[index].spot != "n":  # the same placement without a meeple comes after its spots
        index += 1
    return index


# Listing a tile's placements is the costly part of a ply: a share of the iterations, short play-outs; and
# with a hundred places, turns and meeples a tile, the search weighs only the six that look best at once
# (without that, سخت won 1 of 12 games against the one-look greedy player; with the best 10, 8 of 12; with
# the best 6, 9 of 12). Measured (issue 28, two players, against the frozen player of 3 December at the same
# level, 40 games each): this judgement with random play-outs, متوسط 55.0%; with no play-out (8 candidates)
# 38.8%, the play-outs matter; with the policy's play-outs 62.5% (95% CI 47.0–75.8), in the frozen player's
# time. سخت took 0.66 s p95 at 0.25 of the iterations (before issue 28): 0.35 spends some of what is left.
# On 4 December (two players, سخت against frozen سخت on the same 20 deals, one core each): at 0.35 60.0%, at
# 0.5 75.0%, and with a spread of 10 70.0% at 0.35; on 28 more deals at 0.5, 64.3% and 74.1% with a spread of
# 10 (holes make the standing's margins larger than a win needs: at 6 a lead of a city was nearly a sure win).
# Adding a node's moves by a look (the best of four by the standing right after) or 8-ply play-outs did not
# help (65–70% and 55.0% of 20). At 0.5 and a spread of 10 سخت won 64.7% of 75 games against frozen سخت (p95
# 0.714 s, frozen's 0.360 s); at 0.8, 13 won and 2 drawn of 15 games of a duel on other deals (p95 about 1.1 s):
# the search is still far from its answer at 600 iterations. At 0.8 and 10 سخت won 71.8% of 200 (65.1–77.5); at 1.0,
# 70.0% of 40 against 71.3% for 0.8 on the same deals: more iterations stop paying near 960, so what is left to
# gain lies in the judgement and the play-outs. A spread of 14 won 78.8% of the same 40 and 74.5% of 200
# (68.0–80.0; 10 won 71.8% of the same 200): the margins still read as surer wins than they are; 18 won 80.0% of
# the 40, 22 73.4% of 32 (14 and 18 81.2% of those): flatter than 18 throws away what the standing knows. A node
# below the root, visited a few times among a hundred placements, tries a meeple on a road or a field as often
# as a bare tile; trying them as the play-outs place meeples (the same placement bare unless the policy's draw
# keeps the meeple) won 83.8% of the same 40 but 73.8% of 84 (spread 14 without it 75.6% of those; 11 deals
# better, 14 worse): kept out, the random reply is no weakness a search this size can see. At four players
# ``crowd`` keeps a move about as long as at two.
KNOWLEDGE = Knowledge(
    standing=_standing, spread=SPREAD, playout_depth=4, budget=0.8, candidates=6, policy=_policy, crowd=0.15
)
