"""Self-play games of a two-player game with a network (``ai.games.<game>_net``: اسپلندور, عصر سکه‌ها) by the
guided search (``ai.puct``), kept for training its network.

    python bench/selfplay.py --game splendor --games 500 --jobs 2 --simulations 200 [--net FILE.npz] --out FILE.jsonl.gz

Each game is one JSON line: the set-up seed, the guide that played it, and per decision the index of the move played
among the legal moves (as ``legal_actions`` lists them: a replay from the seed gives back every position) and the
root's visits, the most visited moves first (at most ``KEPT``), as [index, visits] pairs: the policy's training
target. The result is the engine's, read again on replay. Without ``--net`` the guide is uniform priors and the
game's shipped judgement (``ai.games``' ``KNOWLEDGE``: the first generation); with it, that network. The first
``OPENING`` decisions draw their move by visits (temperature 1) and every root mixes a quarter of noise into its
priors, so that games differ; later moves are the most visited. With ``--fast N`` only a quarter of the decisions
(``FULL``) are searched in full, with noise, and keep their visits; the others take N simulations and keep none, so
more games are played for the value to learn from in the same time (playout cap randomisation: Wu 2019, KataGo).
With ``--mixed`` each leaf's value is half a play-out's, as سخت plays (``ai.puct``'s ``mixed_with``). A
decision is [move, visits, 1 if quick, the root's mean value for the seat to act]. ``--out`` goes on from the seeds a
file holds.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

from ai.games import KNOWLEDGE
from ai.knowledge import Guide
from ai.net import load
from ai.puct import search
from rules import GAMES

NETTED = ("splendor", "coin_age")  # the games with a network module, ``ai.games.<game>_net``
KEPT = 12  # root moves kept per decision, the most visited
OPENING = 16  # decisions drawn by visits
NOISE = 0.25
FULL = 0.25  # with --fast, the share of decisions searched in full


def plain_guide(game_id: str) -> Guide:
    """Uniform priors, and the game's shipped judgement's shares of the win."""
    judge = KNOWLEDGE[game_id].values

    def judged(state: Any, legal: Sequence[Any]) -> tuple[list[float], tuple[float, ...]]:
        return [1.0 / len(legal)] * len(legal), judge(state)

    return judged


def net_guide(game_id: str, file: Path) -> Guide:
    """The game's network stored in ``file``, as its module reads it."""
    with file.open("rb") as stored:
        return importlib.import_module(f"ai.games.{game_id}_net").guide(load(stored))  # type: ignore[no-any-return]


def play(game_id: str, seed: int, simulations: int, fast: int, net_file: str | None, mixed: bool) -> dict[str, Any]:
    game = GAMES[game_id]
    mixed_with = KNOWLEDGE[game_id] if mixed else None
    chosen = net_guide(game_id, Path(net_file)) if net_file else plain_guide(game_id)
    state = game.setup(2, seed)
    decisions: list[list[Any]] = []
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            decisions.append([0, []])
            state = game.apply(state, seat, legal[0]).state
            continue
        temperature = 1.0 if len(decisions) < OPENING else 0.0
        move_seed = seed * 1000 + len(decisions)
        full = not fast or move_seed * 2_654_435_761 % 1000 < FULL * 1000
        budget, noise = (simulations, NOISE) if full else (fast, 0.0)
        found = search(game, state, seat, budget, move_seed, chosen, temperature, noise, mixed_with=mixed_with)
        order = {action: i for i, action in enumerate(legal)}
        visits = sorted(((v, order[a]) for a, v in found.visits.items() if v), reverse=True)[:KEPT]
        kept = [[i, v] for v, i in visits] if full else []
        decisions.append([order[found.action], kept, int(not full), round(found.value, 3)])
        state = game.apply(state, seat, found.action).state
    return {
        "game": game_id,
        "seed": seed,
        "guide": net_file or "plain",
        "simulations": simulations,
        "fast": fast,
        "mixed": mixed,
        "decisions": decisions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=NETTED, default="splendor")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--fast", type=int, default=0, help="simulations of the quick searches (0: none)")
    parser.add_argument("--net")
    parser.add_argument("--mixed", action="store_true", help="leaves half a play-out's value, as سخت plays")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    done = set()
    if args.out.exists():
        with gzip.open(args.out, "rt") as existing:
            done = {json.loads(line)["seed"] for line in existing}
    seeds = [s for s in range(args.first_seed, args.first_seed + args.games) if s not in done]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(play, args.game, seed, args.simulations, args.fast, args.net, args.mixed) for seed in seeds
        ]
        for count, future in enumerate(futures, 1):
            game = future.result()
            with gzip.open(args.out, "at") as out:
                out.write(json.dumps(game, separators=(",", ":")) + "\n")
            print(f"{count}/{len(seeds)} seed {game['seed']}: {len(game['decisions'])} decisions", flush=True)


if __name__ == "__main__":
    main()
