"""اسپلندور's judgement learned from self-play: collect positions of seeded games, fit weights, write the data file.

    python bench/splendor_value.py collect --games 300 --jobs 2 --out /tmp/splendor_positions.jsonl
    python bench/splendor_value.py fit --positions /tmp/splendor_positions.jsonl [more.jsonl …] --write
    python bench/splendor_value.py match --level hard --games 40 --record bench/records/ai_strength.jsonl

``collect`` plays seeded games between the players given (``ai_strength``'s names; seats rotated) and keeps
every position where a seat acts, with each seat's share of the win, one JSON line per game (``--out`` goes on
from the games a file holds). ``fit`` turns each position into ``ai.games.splendor.features`` per seat and fits
one weight per feature and stage of the game (by the leader's points) as a conditional logit: a seat's chance
to win is the softmax over the seats of weights · features, the form ``ai.knowledge.Knowledge.values`` gives
a standing with ``spread`` 1. It holds out every fifth game and prints, on those, the log-loss and how often
the favourite won, for the hand judgement (its ``spread``) and for the fitted weights; ``--write`` stores the
weights in ``ai/games/splendor_value.json``, which the knowledge reads at import. ``match`` plays a level
against the same level judging by the hand weights (``hand-<level>``; seats rotated, as ``ai_strength``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed
from ai_strength import ROOT, Record, line, move

from ai import LEVELS
from ai.games.splendor import FEATURES, KNOWLEDGE, STAGES, VALUE_FILE, features, stage
from ai.search import search
from rules import GAMES
from rules.splendor.model import SplendorState

GAME = GAMES["splendor"]
HELD_OUT = 5  # every fifth game judges the fit and is not fitted on
RIDGE = 1.0  # L2 penalty on the weights (per stage), against features that rarely vary
# The judgement written by hand before any fit (issue 28, stop 36), the yardstick a fit must beat: points,
# the engine, gems (gold twice), nobles' reach, the best card within reach and 0.4 of the second, 0.4 for the
# seat about to act, its softmax spread 3 points.
HAND = dict.fromkeys(FEATURES, 0.0) | {
    "points": 1.0,
    "engine": 1.0,
    "gems": 0.08,
    "gold": 0.16,
    "nobles": 1.0,
    "reach-best": 1.0,
    "reach-second": 0.4,
    "to-act": 0.4,
}
HAND_WEIGHTS = [HAND[name] for name in FEATURES]
HAND_SPREAD = 3.0


def hand_standing(state: SplendorState) -> tuple[float, ...]:
    return tuple(sum(w * x for w, x in zip(HAND_WEIGHTS, row, strict=True)) for row in features(state))


HAND_KNOWLEDGE = dataclasses.replace(KNOWLEDGE, standing=hand_standing, spread=HAND_SPREAD)


def with_hand(player: str, game_id: str, state: Any, seat: int, seed: int) -> Any:
    """``ai_strength.move``, and ``hand-<level>``: the level's search judging by the hand weights."""
    if not player.startswith("hand-"):
        return move(player, game_id, state, seat, seed)
    iterations = HAND_KNOWLEDGE.iterations(LEVELS[player.removeprefix("hand-")].iterations, len(state.points))
    return search(GAMES[game_id], state, seat, iterations, seed, HAND_KNOWLEDGE)


def self_play(players: int, a: str, b: str, index: int) -> dict[str, Any]:
    """One seeded game (A at seat ``index % players``): its positions where a seat acts, and the shares."""
    state = GAME.setup(players, 424_242 + index)
    a_seat, positions, actions = index % players, [], 0
    while seats := GAME.to_act(state):
        seat = seats[0]
        if state.phase == "act":
            positions.append(state.model_dump(mode="json"))
        player = a if seat == a_seat else b
        state = GAME.apply(state, seat, move(player, "splendor", state, seat, index * 1_009 + actions)).state
        actions += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    shares = [1 / len(outcome.winners) if seat in outcome.winners else 0.0 for seat in range(players)]
    return {"index": index, "players": players, "a": a, "b": b, "shares": shares, "positions": positions}


def collect(out: Path, games: int, players: int, a: str, b: str, jobs: int) -> None:
    held = {json.loads(line)["index"] for line in out.read_text().splitlines()} if out.exists() else set()
    wanted = [i for i in range(games) if i not in held]
    with ProcessPoolExecutor(max_workers=jobs) as pool, out.open("a") as file:
        for done, game in enumerate(pool.map(self_play, *zip(*((players, a, b, i) for i in wanted), strict=True))):
            file.write(json.dumps(game) + "\n")
            file.flush()
            print(f"{done + 1}/{len(wanted)} game {game['index']}: {len(game['positions'])} positions", flush=True)


Sample = tuple[int, list[list[float]], list[float]]  # stage, features per seat, shares per seat


def samples(paths: Sequence[Path]) -> tuple[list[Sample], list[Sample]]:
    """The positions of the files as (fitted, held out)."""
    fitted: list[Sample] = []
    held: list[Sample] = []
    for text in (text for path in paths for text in path.read_text().splitlines()):
        game = json.loads(text)
        into = held if game["index"] % HELD_OUT == 0 else fitted
        for raw in game["positions"]:
            state = SplendorState.model_validate(raw)
            into.append((stage(state), features(state), game["shares"]))
    return fitted, held


def chances(weights: Sequence[float], rows: list[list[float]], spread: float = 1.0) -> list[float]:
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) / spread for row in rows]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def fit_stage(data: list[Sample], size: int) -> list[float]:
    """Newton's method on the conditional logit's penalised log-likelihood (a few steps converge)."""
    weights = [0.0] * size
    for _ in range(12):
        gradient = [-RIDGE * w for w in weights]
        hessian = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for _, rows, shares in data:
            p = chances(weights, rows)
            mean = [sum(p[s] * rows[s][k] for s in range(len(rows))) for k in range(size)]
            for s, row in enumerate(rows):
                centred = [row[k] - mean[k] for k in range(size)]
                for k in range(size):
                    gradient[k] += shares[s] * centred[k]
                    for j in range(k, size):
                        hessian[k][j] += p[s] * centred[k] * centred[j]
        for k in range(size):
            for j in range(k):
                hessian[k][j] = hessian[j][k]
        step = solve(hessian, gradient)
        weights = [w + d for w, d in zip(weights, step, strict=True)]
        if max(abs(d) for d in step) < 1e-6:
            break
    return weights


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and positive definite)."""
    n = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def judge(name: str, held: list[Sample], weights_of: Any, spread: float) -> None:
    loss = favourite = 0.0
    for at, rows, shares in held:
        p = chances(weights_of(at), rows, spread)
        loss -= sum(share * math.log(max(1e-12, q)) for share, q in zip(shares, p, strict=True))
        favourite += shares[max(range(len(p)), key=p.__getitem__)]
    n = max(1, len(held))
    print(
        f"{name:>6}: log-loss {loss / n:.4f}, the favourite won {favourite / n:.1%} of {len(held)} held-out positions"
    )


def fit(paths: Sequence[Path], write: bool) -> None:
    fitted, held = samples(paths)
    print(f"{len(fitted)} positions fitted, {len(held)} held out")
    learned = []
    for at in range(len(STAGES)):
        data = [sample for sample in fitted if sample[0] == at]
        weights = fit_stage(data, len(FEATURES))
        learned.append(weights)
        print(
            f"stage {at} ({len(data)} positions): "
            + ", ".join(f"{n} {w:+.3f}" for n, w in zip(FEATURES, weights, strict=True))
        )
    judge("hand", held, lambda _: HAND_WEIGHTS, HAND_SPREAD)
    judge("fitted", held, lambda at: learned[at], 1.0)
    for at in range(len(STAGES)):
        judge(f"s{at} h", [s for s in held if s[0] == at], lambda _: HAND_WEIGHTS, HAND_SPREAD)
        judge(f"s{at} f", [s for s in held if s[0] == at], lambda _, w=learned[at]: w, 1.0)
    if write:
        stored = {
            "features": list(FEATURES),
            "stages": list(STAGES),
            "weights": [[round(w, 5) for w in ws] for ws in learned],
        }
        path = ROOT / "ai" / "games" / VALUE_FILE
        path.write_text(json.dumps(stored, indent=1) + "\n")
        print(f"written: {path}")


def match(level: str, players: int, games: int, seed: int, jobs: int, record: Path | None) -> None:
    """The level (judging by the shipped weights) against the same level judging by the hand weights."""
    line(("splendor", players, level, f"hand-{level}", seed), games, jobs, Record(record), mover=with_hand)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("collect", "fit", "match"))
    parser.add_argument("--out", type=Path, default=Path("/tmp/splendor_positions.jsonl"), help="collect: into")
    parser.add_argument("--positions", type=Path, nargs="+", help="fit: on these files (default: --out)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="medium")
    parser.add_argument("--b", default="medium")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="fit: store the weights in the package")
    parser.add_argument("--level", choices=sorted(LEVELS), default="medium", help="match: at this level")
    parser.add_argument("--seed", type=int, default=777, help="match: the line's seed")
    parser.add_argument("--record", type=Path, help="match: keep its games in this record, to go on from")
    args = parser.parse_args()
    if args.what == "collect":
        collect(args.out, args.games, args.players, args.a, args.b, args.jobs)
    elif args.what == "fit":
        fit(args.positions or [args.out], args.write)
    else:
        match(args.level, args.players, args.games, args.seed, args.jobs, args.record)


if __name__ == "__main__":
    main()
