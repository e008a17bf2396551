"""Label positions of اسپلندور's self-play games with what سخت's own search makes of them, for the network's value.

    python bench/splendor_label.py GAMES.jsonl.gz [more …] --every 5 --jobs 2 --out LABELS.jsonl.gz

A game's result is one noisy label for every position of it; the root's mean value of a full search is a label per
position, far less noisy. Every ``--every``-th decision with a choice (of each game of the self-play records, which a
replay from the seed gives back) is searched as ``ai.choose`` searches at سخت (``ai.puct`` by the shipped network,
leaves mixed with a play-out, سخت's simulations) and kept as one JSON line: the game's seed, the decision's index in its
record, the seat to act, and the root's mean value for that seat (the share of the win it expects). About a second a
position on one core; ``--simulations`` searches less (400: about 0.16 s, labels nearly as good). ``--out`` goes
on from the positions a file holds. ``bench/net_train.py --labels`` trains the value on them. ``--report`` plays
nothing and prints how well the labels, the shipped network's value (or ``--net``'s) and the linear judgement predict
the games' results (squared error, ±1), in all and by the half of the game a position is in: what a value learned from
the labels could gain; and by the seat to act, the result less the value and less the label, with its standard error
counted by games: a judgement that cannot tell the seats apart overrates one of them (stop 58: the first, alike
whoever is to act, so a constant within one search).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Collection, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

import numpy as np

from ai import LEVELS, puct
from ai.games import KNOWLEDGE
from ai.games.splendor_net import encode, shipped
from ai.net import Net, load
from rules import GAMES

GAME = GAMES["splendor"]


def games(files: list[Path]) -> Iterator[dict[str, Any]]:
    """The records of self-play games (or of labels: any gzipped JSON lines), one dict a line."""
    for file in files:
        with gzip.open(file, "rt") as lines:
            for line in lines:
                yield json.loads(line)


def result(winners: Collection[int], seat: int) -> float:
    """A finished two-player game's result for ``seat``: 1 a win, -1 a loss, 0 a draw (both seats win)."""
    return 0.0 if len(winners) == 2 else (1.0 if seat in winners else -1.0)


def read_labels(files: list[Path]) -> dict[tuple[int, int], float]:
    """Labels by (seed, decision): the searching seat's share of the win."""
    return {(kept["seed"], kept["decision"]): kept["value"] for kept in games(files)}


def label(game: dict[str, Any], every: int, done: set[int], simulations: int | None = None) -> list[dict[str, Any]]:
    """The labels of one game's every ``every``-th decision with a choice, but those ``done``; searched with
    ``simulations`` (سخت's when None)."""
    knowledge = KNOWLEDGE["splendor"].at_table(2)
    assert knowledge.guide is not None, "اسپلندور at two players ships a network"
    simulations = simulations or knowledge.iterations(LEVELS["hard"].iterations, 2)
    state = GAME.setup(2, game["seed"])
    labels, choices = [], 0
    for index, (played, *_) in enumerate(game["decisions"]):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        if len(legal) > 1:
            if choices % every == 0 and index not in done:
                found = puct.search(
                    GAME, state, seat, simulations, game["seed"] * 1000 + index, knowledge.guide, mixed_with=knowledge
                )
                labels.append({"seed": game["seed"], "decision": index, "seat": seat, "value": round(found.value, 4)})
            choices += 1
        state = GAME.apply(state, seat, legal[played]).state
    return labels


def report(files: list[Path], labels: dict[tuple[int, int], float], net: Net) -> None:
    """Each labelled position's label, ``net``'s value, the linear judgement's and the result (±1)."""
    linear = KNOWLEDGE["splendor"].values
    rows = []
    for game in games(files):
        state, pending = GAME.setup(2, game["seed"]), []
        for index, (played, *_) in enumerate(game["decisions"]):
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            if (game["seed"], index) in labels:
                value = float(net(encode(state))[1])
                later = index / len(game["decisions"])
                pending.append((seat, 2 * labels[game["seed"], index] - 1, value, 2 * linear(state)[seat] - 1, later))
            state = GAME.apply(state, seat, legal[played]).state
        outcome = GAME.outcome(state)
        assert outcome is not None, f"seed {game['seed']} did not finish"
        for seat, *judged, later in pending:
            rows.append((*judged, result(outcome.winners, seat), later, seat, game["seed"]))
    table = np.array(rows)
    for part, chosen in (
        ("all", table[:, 4] >= 0),
        ("first half", table[:, 4] < 0.5),
        ("second half", table[:, 4] >= 0.5),
    ):
        kept = table[chosen]
        error = [float(((kept[:, i] - kept[:, 3]) ** 2).mean()) for i in range(3)]
        apart = [float(((kept[:, i] - kept[:, 0]) ** 2).mean()) for i in (1, 2)]
        print(
            f"{part}, {len(kept)} positions: squared error against the result: labels {error[0]:.3f}, network"
            f" {error[1]:.3f}, linear {error[2]:.3f}; against the labels: network {apart[0]:.3f}, linear {apart[1]:.3f}"
        )
    for seat, name in ((0, "first"), (1, "second")):
        kept = table[table[:, 5] == seat]
        missed = kept[:, 3] - kept[:, 1]  # a bias by seat: the seat a judgement blind to it overrates
        print(
            f"the {name} seat to act, {len(kept)} positions: the result less the network's value {missed.mean():+.3f}"
            f" ± {by_games(missed, kept[:, 6]):.3f}, less the label {(kept[:, 3] - kept[:, 0]).mean():+.3f}"
        )


def by_games(values: np.ndarray, seeds: np.ndarray) -> float:
    """The standard error of ``values``' mean where each game's positions share one result (clustered by seed):
    counted as if every position were a game of its own, it came out two to three times too small."""
    games_seen, where = np.unique(seeds, return_inverse=True)
    spread = np.bincount(where, weights=values - values.mean(), minlength=len(games_seen))
    return float(np.sqrt((spread**2).sum() * len(games_seen) / max(1, len(games_seen) - 1)) / len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=Path, nargs="+")
    parser.add_argument(
        "--every", type=int, default=5, help="label one decision with a choice in this many (odd: both seats)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--simulations", type=int, help="a search's simulations (سخت's by default): cheaper labels")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--report", action="store_true", help="how well the labels in --out predict; label nothing")
    parser.add_argument("--net", type=Path, help="with --report: this network's value in place of the shipped one's")
    args = parser.parse_args()
    values = read_labels([args.out]) if args.out.exists() else {}
    done: dict[int, set[int]] = {}
    for seed, decision in values:
        done.setdefault(seed, set()).add(decision)
    if args.report:
        if args.net:
            with args.net.open("rb") as file:
                report(args.games, values, load(file))
        else:
            report(args.games, values, shipped())
        return
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(label, g, args.every, done.get(g["seed"], set()), args.simulations) for g in games(args.games)
        ]
        count = 0
        for future in futures:
            labels = future.result()
            with gzip.open(args.out, "at") as out:
                out.writelines(json.dumps(kept, separators=(",", ":")) + "\n" for kept in labels)
            count += len(labels)
            if labels:
                print(f"seed {labels[0]['seed']}: {len(labels)} positions ({count} in all)", flush=True)


if __name__ == "__main__":
    main()
