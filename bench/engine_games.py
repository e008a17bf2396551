"""Time random full games through the engine contract and print games per second.

    python bench/engine_games.py                       # coin_age, 2 players, 2000 games
    python bench/engine_games.py --games 5000 --game coin_age --players 2
    python bench/engine_games.py --all                 # every registered game, every player count
    python bench/engine_games.py --game carcassonne --players 5 --options '{"farmers": true}'
    python bench/engine_games.py --profile             # cProfile of the run, top functions by own time

Each game is set up from its own seed and played by a ``random.Random(seed)`` choosing uniformly among the
legal actions of a seat to act, as the conformance tests do; setup, legal_actions and apply are timed
(the choosing is negligible). Target for Coin Age: at least 500 games/s.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

from pydantic import BaseModel

from rules import GAMES, Game


def play(game: Game[Any, Any, Any], players: int, seed: int, options: BaseModel | None = None) -> int:
    """One seeded random game to the end; returns the number of actions taken."""
    rnd = random.Random(seed)
    state = game.setup(players, seed, options)
    actions = 0
    to_act = game.to_act(state)
    while to_act:
        seat = to_act[0] if len(to_act) == 1 else rnd.choice(to_act)
        state = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat))).state
        actions += 1
        to_act = game.to_act(state)
    return actions


def bench(game_id: str, players: int, games: int, options: dict[str, Any] | None = None) -> tuple[float, float]:
    """Return (games per second, mean actions per game)."""
    game = GAMES[game_id]
    chosen = game.options_model.model_validate(options) if options else None
    start = time.perf_counter()
    total = sum(play(game, players, seed, chosen) for seed in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, total / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per configuration (default 2000)")
    parser.add_argument("--game", default="coin_age", choices=sorted(GAMES), help="game id")
    parser.add_argument("--players", type=int, help="player count (default: the game's minimum)")
    parser.add_argument("--options", type=json.loads, help="lobby options as JSON, e.g. '{\"farmers\": true}'")
    parser.add_argument("--all", action="store_true", help="every registered game and player count")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary of the run")
    args = parser.parse_args(argv)

    if args.all:
        runs = [(gid, n) for gid, g in GAMES.items() for n in range(g.min_players, g.max_players + 1)]
    else:
        game = GAMES[args.game]
        players = args.players if args.players is not None else game.min_players
        if not game.min_players <= players <= game.max_players:
            parser.error(f"{args.game} takes {game.min_players}..{game.max_players} players")
        runs = [(args.game, players)]

    profiler = cProfile.Profile() if args.profile else None
    for game_id, players in runs:
        if profiler:
            profiler.enable()
        rate, mean = bench(game_id, players, args.games, args.options)
        if profiler:
            profiler.disable()
        extra = f" {json.dumps(args.options)}" if args.options else ""
        print(f"{game_id:<14} {players}p{extra}  {args.games} games  {rate:8.1f} games/s  {mean:6.1f} actions/game")
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
