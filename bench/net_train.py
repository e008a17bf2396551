"""Train a game's network (``ai.games.<game>_net``: اسپلندور, عصر سکه‌ها) on self-play games (``bench/selfplay.py``).

    python bench/net_train.py --game splendor GAMES.jsonl.gz [more …] --out FILE.npz [--start FILE.npz] [--epochs 20]
        [--hidden 128] [--anneal] [--renamed] [--q-share 0.5] [--margin 0.3] [--labels LABELS.jsonl.gz …]
        [--label-weight 4] [--labelled-only]

Every game is replayed from its seed; each decision with visits becomes a position: the network's inputs, the legal
moves' outputs, the root's visits as the policy's target and the game's result for the seat to act (1 a win, -1 a loss,
0 a draw) as the value's; with ``--margin`` that share of the result is the final margin of points instead, as
tanh(margin / ``MARGIN_SCALE``), so that a game won or lost by much teaches more than one decided by a card; a position
labelled by ``bench/splendor_label.py`` (``--labels``) takes its search's value instead of either, and with
``--label-weight`` counts that many positions in the value's loss (labels are few beside the results, and each says
more); ``--labelled-only`` keeps the labelled positions alone, to see how well the network can learn the labels. The
loss is the policy's cross-entropy plus the value's squared error, with a small L2 penalty; Adam, mini-batches of 256,
the rate constant or with ``--anneal`` falling along a cosine to nothing; with ``--renamed`` (اسپلندور) each batch has
its gem colours renamed by one of the 120 orders (``colour_swap``), as the rules treat colours alike. Every
tenth game is held out: the script prints, per epoch, on those, the policy's cross-entropy, how often its favourite is
the move most visited, and the value's squared error, and keeps the epoch that did best on the held-out loss. Plain
numpy, one core.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Iterator
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

from selfplay import NETTED  # the games with a network, beside this script
from splendor_label import games, read_labels, result  # the records' reader, beside this script

from ai.games import KNOWLEDGE
from ai.net import sharers
from rules import GAMES

WIDEST = 3  # outputs one move adds up (a return of three tokens)
HELD_OUT = 10
BATCH = 256
MARGIN_SCALE = 8.0  # points: a margin of 8 counts about three quarters of a win (tanh 1 = 0.76)
Array = npt.NDArray[Any]


def positions(
    game_id: str,
    files: list[Path],
    q_share: float,
    margin: float = 0.0,
    labels: dict[tuple[int, int], float] | None = None,
    labelled_only: bool = False,
) -> Iterator[tuple[int, list[Any]]]:
    """(seed, rows) per game: a row per decision searched, (inputs, outputs per legal move, policy target or None, value
    target, the game's hand judgement's, whether labelled): the value's is the result, or with ``q_share`` that share of
    it the search's mean value at the root (where the record keeps it), a target less noisy than one game's result;
    a position in ``labels`` (by seed and decision) takes its label, a search's share of the win, and with
    ``labelled_only`` no other position is kept."""
    labels = labels or {}
    net, rules = importlib.import_module(f"ai.games.{game_id}_net"), GAMES[game_id]
    judged = KNOWLEDGE[game_id].values  # the judgement the network must beat, as a yardstick
    for game in games(files):
        state = rules.setup(2, game["seed"])
        pending = []
        for decision, (played, visits, *more) in enumerate(game["decisions"]):
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            quick = more[0] if more else 0  # older records keep neither
            mean = more[1] if len(more) > 1 else None
            labelled = labels.get((game["seed"], decision))
            wanted = labelled is not None or (not labelled_only and (quick or visits))
            if len(legal) > 1 and wanted:
                outputs = net.outputs(state, legal)
                target = None  # a quick search: a value target alone
                if visits and not quick:
                    target = np.zeros(len(legal), dtype=np.float32)
                    for index, count in visits:
                        target[index] = count
                    target /= target.sum()
                pending.append((net.encode(state), outputs, target, seat, judged(state)[seat], mean, labelled))
            state = rules.apply(state, seat, legal[played]).state
        outcome = rules.outcome(state)
        assert outcome is not None, f"seed {game['seed']} did not finish"
        winners, scores = outcome.winners, outcome.scores
        rows = []
        for x, o, t, seat, share, mean, labelled in pending:
            z = result(winners, seat)
            if margin:
                ahead = scores[seat] - scores[1 - seat]
                z = (1 - margin) * z + margin * math.tanh(ahead / MARGIN_SCALE)
            if mean is not None:
                z = (1 - q_share) * z + q_share * (2 * mean - 1)
            if labelled is not None:
                z = 2 * labelled - 1
            rows.append((x, o, t, z, 2 * share - 1, labelled is not None))
        yield game["seed"], rows


def arrays(
    rows: list[Any], outputs_count: int, label_weight: float = 1.0
) -> tuple[Array, Array, Array, Array, Array, Array]:
    """Inputs, output indices per move [n, moves, WIDEST] (``outputs_count`` pads), log of each output's sharing, the
    targets (0 for padding moves, which a mask of -inf logits removes), the value targets and their weights
    (``label_weight`` for a labelled position, else 1)."""
    count, moves = len(rows), max(len(r[1]) for r in rows)
    x = np.stack([r[0] for r in rows])
    index = np.full((count, moves, WIDEST), outputs_count, dtype=np.int32)
    shift = np.full((count, moves), 1e9, dtype=np.float32)  # a padding move: never chosen
    target = np.zeros((count, moves), dtype=np.float32)
    for n, (_, outputs, pi, *_) in enumerate(rows):
        for a, (o, sharing) in enumerate(zip(outputs, sharers(outputs), strict=True)):
            if isinstance(o, int):
                index[n, a, 0] = o
            else:
                index[n, a, : len(o)] = o
            shift[n, a] = np.log(sharing)
        if pi is not None:  # else a quick search's position: no policy target, a row of zeros
            target[n, : len(pi)] = pi
    z = np.array([r[3] for r in rows], dtype=np.float32)
    weight = np.array([label_weight if r[5] else 1.0 for r in rows], dtype=np.float32)
    return x, index, shift, target, z, weight


def initial(generator: np.random.Generator, inputs: int, hidden: int, outputs: int) -> dict[str, Array]:
    def he(rows: int, cols: int) -> Array:
        return (generator.standard_normal((rows, cols)) * np.sqrt(2.0 / rows)).astype(np.float32)

    return {
        "w1": he(inputs, hidden),
        "b1": np.zeros(hidden, np.float32),
        "w2": he(hidden, hidden),
        "b2": np.zeros(hidden, np.float32),
        "wp": he(hidden, outputs) * 0.1,
        "bp": np.zeros(outputs, np.float32),
        "wv": he(hidden, 1) * 0.1,
        "bv": np.zeros(1, np.float32),
    }


def step(
    w: dict[str, Array], x: Array, index: Array, shift: Array, target: Array, z: Array, weight: Array
) -> tuple[float, float, float, dict[str, Array]]:
    """Policy cross-entropy, value squared error (each position once), top-1 agreement, and the gradients
    (batch means, the value's by ``weight``)."""
    count = len(x)
    a1 = x @ w["w1"] + w["b1"]
    h1 = np.maximum(a1, 0)
    a2 = h1 @ w["w2"] + w["b2"]
    h2 = np.maximum(a2, 0)
    logits = h2 @ w["wp"] + w["bp"]
    padded = np.concatenate([logits, np.zeros((count, 1), np.float32)], axis=1)
    raw = np.take_along_axis(padded, index.reshape(count, -1), axis=1).reshape(index.shape).sum(axis=2) - shift
    raw -= raw.max(axis=1, keepdims=True)
    p = np.exp(raw)
    p /= p.sum(axis=1, keepdims=True)
    has = target.sum(axis=1) > 0  # positions with a policy target
    searched = max(1, int(has.sum()))
    policy_loss = float(-(target * np.log(p + 1e-12)).sum() / searched)
    agree = float((p.argmax(axis=1) == target.argmax(axis=1))[has].mean()) if has.any() else 0.0
    v = np.tanh(h2 @ w["wv"] + w["bv"] + x[:, -1:])[:, 0]
    value_loss = float(((v - z) ** 2).mean())
    d_raw = (p - target) * has[:, None] / searched
    d_padded = np.zeros_like(padded)
    rows = np.repeat(np.arange(count), index.shape[1] * WIDEST)
    np.add.at(d_padded, (rows, index.reshape(-1)), np.repeat(d_raw.reshape(-1), WIDEST))
    d_logits = d_padded[:, :-1]
    d_v = (2 * (v - z) * weight / weight.sum() * (1 - v**2))[:, None]
    grads = {
        "wp": h2.T @ d_logits,
        "bp": d_logits.sum(axis=0),
        "wv": h2.T @ d_v,
        "bv": d_v.sum(axis=0),
    }
    d_h2 = (d_logits @ w["wp"].T + d_v @ w["wv"].T) * (a2 > 0)
    grads["w2"], grads["b2"] = h1.T @ d_h2, d_h2.sum(axis=0)
    d_h1 = (d_h2 @ w["w2"].T) * (a1 > 0)
    grads["w1"], grads["b1"] = x.T @ d_h1, d_h1.sum(axis=0)
    return policy_loss, value_loss, agree, grads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=Path, nargs="+")
    parser.add_argument("--game", choices=NETTED, default="splendor")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--start", type=Path)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--q-share", type=float, default=0.0, help="the root's mean value's share of the target")
    parser.add_argument("--margin", type=float, default=0.0, help="the final margin's share of the result")
    parser.add_argument("--labels", type=Path, nargs="*", default=[], help="positions labelled by a search")
    parser.add_argument("--label-weight", type=float, default=1.0, help="a labelled position's weight in the value")
    parser.add_argument("--labelled-only", action="store_true", help="train and hold out labelled positions alone")
    parser.add_argument("--hidden", type=int, default=128, help="units in each of the two hidden layers")
    parser.add_argument("--anneal", action="store_true", help="the rate falls along a cosine to nothing")
    parser.add_argument("--renamed", action="store_true", help="each batch with the colours renamed at random")
    args = parser.parse_args()
    train_rows: list[Any] = []
    held_rows: list[Any] = []
    labels = read_labels(args.labels)
    net = importlib.import_module(f"ai.games.{args.game}_net")
    if args.renamed and not hasattr(net, "colour_swap"):
        parser.error(f"--renamed: {args.game} has no colours to rename")
    for seed, rows in positions(args.game, args.games, args.q_share, args.margin, labels, args.labelled_only):
        (held_rows if seed % HELD_OUT == 0 else train_rows).extend(rows)
    print(f"{len(train_rows)} positions to train on, {len(held_rows)} held out", flush=True)
    if not held_rows or not train_rows:
        parser.error(f"too few games: every {HELD_OUT}th seed is held out, the others trained on")
    shipped = float(np.mean([(r[4] - r[3]) ** 2 for r in held_rows]))
    print(f"held out: the shipped hand judgement's value squared error {shipped:.3f}", flush=True)
    train = arrays(train_rows, net.OUTPUTS, args.label_weight)
    held = arrays(held_rows, net.OUTPUTS, args.label_weight)
    generator = np.random.default_rng(0)
    swaps = [tuple(map(np.array, net.colour_swap(order))) for order in permutations(range(5))] if args.renamed else []
    if args.start:
        with np.load(args.start) as stored:
            w = {k: stored[k].astype(np.float32) for k in stored.files}
    else:
        w = initial(generator, net.INPUTS, args.hidden, net.OUTPUTS)
    m = {k: np.zeros_like(v) for k, v in w.items()}
    s = {k: np.zeros_like(v) for k, v in w.items()}
    t = 0
    steps = args.epochs * math.ceil(len(train[0]) / BATCH)  # the anneal runs over every step
    best = (float("inf"), dict(w))
    for epoch in range(args.epochs):
        order = generator.permutation(len(train[0]))
        for start in range(0, len(order), BATCH):
            batch = order[start : start + BATCH]
            x, index, shift, target, z, weight = (a[batch] for a in train)
            if args.renamed:
                inputs, outputs = swaps[generator.integers(len(swaps))]
                x, index = x[:, inputs], outputs[index]
            _, _, _, grads = step(w, x, index, shift, target, z, weight)
            t += 1
            rate = args.rate * (0.5 + 0.5 * math.cos(math.pi * t / steps) if args.anneal else 1.0)
            for k, g in grads.items():
                g = g + args.l2 * w[k]
                m[k] = 0.9 * m[k] + 0.1 * g
                s[k] = 0.999 * s[k] + 0.001 * g * g
                w[k] = w[k] - rate * (m[k] / (1 - 0.9**t)) / (np.sqrt(s[k] / (1 - 0.999**t)) + 1e-8)
        pl, vl, agree, _ = step(w, *held)
        tl, tv, _, _ = step(w, *(a[:20000] for a in train))
        print(
            f"epoch {epoch + 1}: held out policy {pl:.3f} top-1 {agree:.3f} value {vl:.3f}"
            f" (train policy {tl:.3f} value {tv:.3f})",
            flush=True,
        )
        if pl + vl < best[0]:
            best = (pl + vl, {k: v.copy() for k, v in w.items()})
    np.savez(args.out, **best[1])
    print(f"kept held-out loss {best[0]:.3f} in {args.out}")


if __name__ == "__main__":
    main()
