"""CPU time of one level's search on positions spread over seeded games, and a digest of the moves it chose.

    python bench/search_speed.py --game splendor --level hard
    python bench/search_speed.py --game splendor --level hard --positions 40 --seeds 3

A change meant only to make the search faster must leave the moves digest as it was; then the time per
move (p50, p95, total) says what it bought. The positions come from games frozen آسان plays against
itself (``ai.frozen``, so a change to today's players does not move them), every ``--every`` plies,
``--positions`` of them from each of ``--seeds`` games. Times are ``time.process_time`` (one core); to compare
two checkouts on a machine whose speed drifts, run them in turn (A B A B …) and take the ratio pair by pair.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

from ai_strength import quantile

import ai.frozen
from ai import LEVELS, choose
from rules import GAMES


def positions(game_id: str, players: int, seed: int, every: int, count: int) -> list[tuple[Any, int]]:
    """(state, seat) every ``every`` plies of a game of frozen آسان against itself, up to ``count``."""
    game = GAMES[game_id]
    state = game.setup(players, seed)
    out: list[tuple[Any, int]] = []
    ply = 0
    while (seats := game.to_act(state)) and len(out) < count:
        seat = seats[0]
        if ply % every == 0 and len(game.legal_actions(state, seat)) > 1:
            out.append((state, seat))
        state = game.apply(state, seat, ai.frozen.choose(game_id, state, seat, "easy", ply)).state
        ply += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="splendor", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="hard", choices=sorted(LEVELS))
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--every", type=int, default=5)
    args = parser.parse_args()
    game = GAMES[args.game]
    times: list[float] = []
    moves = hashlib.sha256()
    for seed in range(args.seeds):
        for number, (state, seat) in enumerate(positions(args.game, args.players, seed, args.every, args.positions)):
            start = time.process_time()
            action = choose(args.game, state, seat, args.level, number)
            times.append(time.process_time() - start)
            moves.update(game.encode(action).encode() + b"\0")
    print(
        f"{args.game} {args.players}p {args.level}: {len(times)} moves, p50 {statistics.median(times):.3f} s, "
        f"p95 {quantile(times, 0.95):.3f} s, total {sum(times):.2f} s; moves {moves.hexdigest()[:16]}"
    )


if __name__ == "__main__":
    main()
