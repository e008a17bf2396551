"""A game's judgement learned from self-play: collect positions of seeded games, fit weights, write the data file.

    python bench/value_fit.py collect --game splendor --games 300 --jobs 2 --out /tmp/splendor_positions.jsonl
    python bench/value_fit.py fit --game splendor --positions FILE [more …] [--by score] --write
    python bench/value_fit.py match --game splendor --level hard --games 40 --record bench/records/ai_strength.jsonl

For the games of ``LEARNED`` (``ai.learned``). ``collect`` plays seeded games between the players given
(``ai_strength``'s names; seats rotated) and keeps every position the game's features say a seat chooses in and the move
chosen there, with each seat's share of the win and final score, one JSON line per game (``--out`` goes on from the
games a file holds). ``fit`` turns each position into the game's features per seat and fits one weight per feature and
stage of the game as a conditional logit: a seat's chance to win is the softmax over the seats of weights · features,
the form ``ai.knowledge.Knowledge.values`` gives a standing with ``spread`` 1. With ``--by score`` the weights are what
each feature is worth in final points, scaled per stage to who won: a few hundred games give a few hundred win-or-lose
labels but as many final scores, which say more (on 77 seeded games of a trial's twelve قلعه رودخان terms, five-fold
cross-validated log-loss 0.577 fitted to who won, 0.534 by score; ai/README.md). It holds out every fifth game and
prints, on those, the log-loss and how often the favourite won, for the hand judgement the fit replaced (``HANDS``: its
weights of the same features and its spread) and for the fitted weights; ``--write`` stores the weights in
``ai/games/<game>_value.json``, which the game's knowledge reads at import. ``match`` plays a level against the same
level judging by the hand weights (``hand-<level>``; seats rotated, games kept as ``ai_strength`` keeps them). A game's
knowledge reads its weights at import, so a game new to this fits once while its knowledge still judges by hand, then
switches.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed
from ai_strength import ROOT, Mover, Record, line, move

from ai import LEVELS
from ai.games import KNOWLEDGE, splendor
from ai.knowledge import win_shares
from ai.learned import Features, Weights, linear
from ai.search import search
from rules import GAMES

LEARNED: dict[str, Features] = {"splendor": splendor.FEATURES}  # the games whose judgement is learned
HELD_OUT = 5  # every fifth game judges the fit and is not fitted on
RIDGE = 1.0  # L2 penalty on the weights (per stage), against features that rarely vary

# The judgements written by hand before a fit (issue 28), the yardsticks a fit must beat: weights of the
# game's features (the rest 0), and the softmax spread they were played with. They are outside the record's
# code digest (bench/ai_strength.py): a ``hand-<level>`` line played with other weights needs another seed.
HANDS: dict[str, tuple[dict[str, float], float]] = {
    # points, the engine, gems (gold twice), nobles' reach, the best card within reach and 0.4 of the second,
    # 0.4 for the seat about to act (stop 36)
    "splendor": (
        {
            "points": 1.0,
            "engine": 1.0,
            "gems": 0.08,
            "gold": 0.16,
            "nobles": 1.0,
            "reach-best": 1.0,
            "reach-second": 0.4,
            "to-act": 0.4,
        },
        3.0,
    ),
}


def hand_weights(features: Features) -> Weights:
    weights, _ = HANDS[features.game_id]
    return (tuple(weights.get(name, 0.0) for name in features.names),) * features.stages


def with_hand(player: str, game_id: str, state: Any, seat: int, seed: int) -> Any:
    """``ai_strength.move``, and ``hand-<level>``: the level's search judging by the game's hand weights."""
    if not player.startswith("hand-"):
        return move(player, game_id, state, seat, seed)
    features = LEARNED[game_id]
    standing = linear(features, hand_weights(features))
    knowledge = dataclasses.replace(KNOWLEDGE[game_id], standing=standing, spread=HANDS[game_id][1])
    iterations = knowledge.iterations(LEVELS[player.removeprefix("hand-")].iterations, len(standing(state)))
    return search(GAMES[game_id], state, seat, iterations, seed, knowledge)


FIRST_DEAL = 424_242  # game i of a collection is dealt with seed FIRST_DEAL + i


def self_play(
    game_id: str, players: int, a: str, b: str, index: int, mover: Mover = move, first_deal: int = FIRST_DEAL
) -> dict[str, Any]:
    """One seeded game (A at seat ``index % players``, moves by ``mover``): the positions it keeps to fit on,
    the move made in each (``Game.encode``'s text: what a move prior would learn from), the shares and the
    final scores."""
    game, kept = GAMES[game_id], LEARNED[game_id].kept
    state = game.setup(players, first_deal + index)
    a_seat, positions, moves, actions = index % players, [], [], 0
    while seats := game.to_act(state):
        seat = seats[0]
        player = a if seat == a_seat else b
        action = mover(player, game_id, state, seat, index * 1_009 + actions)
        if kept(state):
            positions.append(state.model_dump(mode="json"))
            moves.append(game.encode(action))
        state = game.apply(state, seat, action).state
        actions += 1
    outcome = game.outcome(state)
    assert outcome is not None
    shares = [1 / len(outcome.winners) if seat in outcome.winners else 0.0 for seat in range(players)]
    scores = list(outcome.scores)
    return {
        "index": index,
        "players": players,
        "a": a,
        "b": b,
        "shares": shares,
        "scores": scores,
        "positions": positions,
        "moves": moves,
    }


def not_held(out: Path, indices: Iterable[int]) -> list[int]:
    """The games of ``indices`` a collection file does not hold yet: a collection stops and goes on."""
    held = {json.loads(text)["index"] for text in out.read_text().splitlines()} if out.exists() else set()
    return [i for i in indices if i not in held]


def keep(out: Path, game: dict[str, Any], done: int, wanted: int) -> None:
    """A finished game appended to a collection, a line in one write: processes playing parts share the file."""
    with out.open("a") as file:
        file.write(json.dumps(game) + "\n")
    print(f"{done}/{wanted} game {game['index']}: {len(game['positions'])} positions", flush=True)


def collect(game_id: str, out: Path, games: int, players: int, a: str, b: str, jobs: int) -> None:
    wanted = not_held(out, range(games))
    arguments = zip(*((game_id, players, a, b, i) for i in wanted), strict=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, game in enumerate(pool.map(self_play, *arguments)):
            keep(out, game, done + 1, len(wanted))


Sample = tuple[int, list[list[float]], list[float], list[float]]  # stage, features, shares, final scores per seat


def samples(game_id: str, paths: Sequence[Path]) -> tuple[list[Sample], list[Sample]]:
    """The positions of the files the game keeps today as (fitted, held out): a file collected while the game
    kept more positions (every decision, say, where it now fits only the starts of turns) still serves."""
    features, model = LEARNED[game_id], GAMES[game_id].state_model
    fitted: list[Sample] = []
    held: list[Sample] = []
    for text in (text for path in paths for text in path.read_text().splitlines()):
        game = json.loads(text)
        into = held if game["index"] % HELD_OUT == 0 else fitted
        for raw in game["positions"]:
            state = model.model_validate(raw)
            if not features.kept(state):
                continue
            into.append((features.stage(state), features.of(state), game["shares"], game.get("scores", [])))
    return fitted, held


def chances(weights: Sequence[float], rows: list[list[float]], spread: float = 1.0) -> list[float]:
    return list(win_shares([sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows], spread))


def fit_stage(data: list[Sample], size: int) -> list[float]:
    """Newton's method on the conditional logit's penalised log-likelihood (a few steps converge), each step
    halved while it would lower the likelihood: where one choice is nearly always made (a move prior near the
    end of the game, issue 28), a full step overshoots and the weights run off to hundreds."""
    weights = [0.0] * size
    for _ in range(12):
        gradient = [-RIDGE * w for w in weights]
        hessian = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for _, rows, shares, _ in data:
            p = chances(weights, rows)
            mean = [sum(p[s] * rows[s][k] for s in range(len(rows))) for k in range(size)]
            for s, row in enumerate(rows):
                centred = [row[k] - mean[k] for k in range(size)]
                for k in range(size):
                    gradient[k] += shares[s] * centred[k]
                    for j in range(k, size):
                        hessian[k][j] += p[s] * centred[k] * centred[j]
        step = solve_upper(hessian, gradient)
        before = likelihood(weights, data)
        while likelihood([w + d for w, d in zip(weights, step, strict=True)], data) < before - 1e-9:
            step = [d / 2 for d in step]
        weights = [w + d for w, d in zip(weights, step, strict=True)]
        if max(abs(d) for d in step) < 1e-6:
            break
    return weights


def likelihood(weights: Sequence[float], data: list[Sample]) -> float:
    """The conditional logit's log-likelihood of ``data``, less ``RIDGE``'s penalty: what ``fit_stage`` climbs."""
    total = -0.5 * RIDGE * sum(w * w for w in weights)
    for _, rows, shares, _ in data:
        total += sum(s * math.log(max(1e-300, p)) for s, p in zip(shares, chances(weights, rows), strict=True))
    return total


def fit_stage_by_score(data: list[Sample], size: int) -> list[float]:
    """What each feature is worth in final points (ridge regression of a seat's final score, less the table's
    mean, on its features less the table's mean), times the one factor that best turns those points into
    chances to win (the conditional logit on the predicted points alone). A game's final score says more than
    who won it, so the same games learn less of their noise (ai/README.md compares the two)."""
    normal = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
    target = [0.0] * size
    for _, rows, _, scores in data:
        assert scores, "fitting by score needs positions collected with their games' final scores"
        mean = [sum(row[k] for row in rows) / len(rows) for k in range(size)]
        mean_score = sum(scores) / len(scores)
        for row, score in zip(rows, scores, strict=True):
            centred = [row[k] - mean[k] for k in range(size)]
            for k in range(size):
                target[k] += centred[k] * (score - mean_score)
                for j in range(k, size):
                    normal[k][j] += centred[k] * centred[j]
    worth = solve_upper(normal, target)
    predicted = [
        (at, [[sum(w * x for w, x in zip(worth, row, strict=True))] for row in rows], shares, scores)
        for at, rows, shares, scores in data
    ]
    (factor,) = fit_stage(predicted, 1)
    return [factor * w for w in worth]


def solve_upper(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``solve`` for a symmetric matrix of which only the upper triangle was summed (the fits fill half)."""
    for k in range(len(vector)):
        for j in range(k):
            matrix[k][j] = matrix[j][k]
    return solve(matrix, vector)


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


def judge(name: str, held: list[Sample], weights: Weights, spread: float) -> None:
    """The log-loss of these weights on held-out positions, and how often their favourite won."""
    loss = favourite = 0.0
    for at, rows, shares, _ in held:
        p = chances(weights[at], rows, spread)
        loss -= sum(share * math.log(max(1e-12, q)) for share, q in zip(shares, p, strict=True))
        favourite += shares[max(range(len(p)), key=p.__getitem__)]
    n = max(1, len(held))
    print(
        f"{name:>9}: log-loss {loss / n:.4f}, the favourite won {favourite / n:.1%} of {len(held)} held-out positions"
    )


def fit(game_id: str, paths: Sequence[Path], write: bool, by_score: bool = False) -> None:
    features = LEARNED[game_id]
    fitted, held = samples(game_id, paths)
    print(f"{len(fitted)} positions fitted, {len(held)} held out")
    learned: Weights = ()
    for at in range(features.stages):
        data = [sample for sample in fitted if sample[0] == at]
        weights = tuple((fit_stage_by_score if by_score else fit_stage)(data, len(features.names)))
        learned += (weights,)
        terms = ", ".join(f"{n} {w:+.3f}" for n, w in zip(features.names, weights, strict=True))
        print(f"stage {at} ({len(data)} positions): {terms}")
    hand = hand_weights(features)
    for at in (None, *range(features.stages)):
        part = [sample for sample in held if at in (None, sample[0])]
        where = "" if at is None else f"stage {at} "
        judge(f"{where}hand", part, hand, HANDS[game_id][1])
        judge(f"{where}fitted", part, learned, 1.0)
    if write:
        stored = {"features": list(features.names), "weights": [[round(w, 5) for w in ws] for ws in learned]}
        path = ROOT / "ai" / "games" / features.file
        path.write_text(json.dumps(stored, indent=1) + "\n")
        print(f"written: {path}")


def match(game_id: str, level: str, players: int, games: int, seed: int, jobs: int, record: Path | None) -> None:
    """The level (judging by the shipped weights) against the same level judging by the hand weights."""
    line((game_id, players, level, f"hand-{level}", seed), games, jobs, Record(record), mover=with_hand)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("collect", "fit", "match"))
    parser.add_argument("--game", choices=sorted(LEARNED), required=True)
    parser.add_argument("--out", type=Path, default=Path("/tmp/positions.jsonl"), help="collect: into")
    parser.add_argument("--positions", type=Path, nargs="+", help="fit: on these files (default: --out)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="medium")
    parser.add_argument("--b", default="medium")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="fit: store the weights in the package")
    parser.add_argument(
        "--by", choices=("win", "score"), default="win", help="fit: to who won, or to final scores and then who won"
    )
    parser.add_argument("--level", choices=sorted(LEVELS), default="medium", help="match: at this level")
    parser.add_argument("--seed", type=int, default=777, help="match: the line's seed")
    parser.add_argument("--record", type=Path, help="match: keep its games in this record, to go on from")
    args = parser.parse_args()
    if args.what == "collect":
        collect(args.game, args.out, args.games, args.players, args.a, args.b, args.jobs)
    elif args.what == "fit":
        fit(args.game, args.positions or [args.out], args.write, args.by == "score")
    else:
        match(args.game, args.level, args.players, args.games, args.seed, args.jobs, args.record)


if __name__ == "__main__":
    main()
