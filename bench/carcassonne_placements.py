"""Time Carcassonne's placement enumeration on late-game boards and print the figures.

    python bench/carcassonne_placements.py            # 20 boards of 68 laid tiles, 4 players, farmers on

For each seeded random game stopped with 4 tiles left in the pile: ``Board.placements`` for every tile type
(the frontier look-up), and ``legal_actions`` for the drawn tile, with the meeple spots of every placement,
on a cold memo (the figure a bot pays once per position). Target: enumeration ≤ 5 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

from rules.carcassonne import Carcassonne, CarcassonneOptions, CarcassonneState
from rules.carcassonne import engine as carcassonne_engine
from rules.carcassonne.board import board_of
from rules.carcassonne.data import TILES


def late_game(game: Carcassonne, seed: int, left: int) -> CarcassonneState:
    """A random game (meeples placed whenever possible) played until ``left`` tiles remain in the pile."""
    rnd = random.Random(seed)
    state = game.setup(4, seed, CarcassonneOptions(farmers=True))
    while len(state.pile) > left and game.outcome(state) is None:
        state = game.apply(state, state.turn, rnd.choice(game.legal_actions(state, state.turn))).state
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    game = Carcassonne()
    frontier_ms: list[float] = []
    legal_ms: list[float] = []
    sizes: list[int] = []
    for seed in range(args.boards):
        state = late_game(game, seed, left=4)
        board = board_of(state.placed)
        for _ in range(args.repeat):
            start = time.perf_counter()
            for ttype in range(len(TILES)):
                board.placements(ttype)
            frontier_ms.append((time.perf_counter() - start) * 1000 / len(TILES))
            carcassonne_engine._choices.cache_clear()  # a cold memo: the cost of a new position
            start = time.perf_counter()
            actions = game.legal_actions(state, state.turn)
            legal_ms.append((time.perf_counter() - start) * 1000)
        sizes.append(len(actions))
    print(f"boards: {args.boards} with {len(state.placed)} laid tiles, farmers on, 4 players")
    for label, values in (("placements of one tile type", frontier_ms), ("legal_actions with meeple spots", legal_ms)):
        ordered = sorted(values)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(f"{label:<34} p50 {statistics.median(values):6.3f} ms  p95 {p95:6.3f} ms")
    print(f"legal actions per position: mean {statistics.mean(sizes):.0f}, max {max(sizes)}")


if __name__ == "__main__":
    main()
