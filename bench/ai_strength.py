"""Strength and speed of the computer players: seeded matches, seats rotated, one process per game.

    python bench/ai_strength.py --game coin_age --a hard --b random --games 200
    python bench/ai_strength.py --game splendor --players 4 --a hard --b random --games 100 --jobs 2
    python bench/ai_strength.py --suite --games 40 --jobs 2     # every line the issue names, fewer games
    python bench/ai_strength.py --suite --games 200 --record bench/records/ai_strength.jsonl   # stop, go on
    python bench/ai_strength.py --suite --games 200 --record bench/records/ai_strength.jsonl --report   # how far
    python bench/ai_strength.py --game coin_age --a hard --b frozen-hard --games 100 \
        --record bench/records/ai_strength.jsonl --report --code 2bd81b32b33e383c --against 735e8f4ae66910aa

Players: ``random`` and ``greedy`` (``ai.baselines``), ``easy``, ``medium``, ``hard`` (``ai.LEVELS``), and
``frozen-easy``, ``frozen-medium``, ``frozen-hard``: the levels as they were on 3 December 2026 (``ai.frozen``,
issue 28's yardstick: the new hard must win ≥ 75% of two-player games against ``frozen-hard``). In game
``i`` player A sits at seat ``i % players`` and every other seat is B, so each seat is A's as often. A's
result per game is its share of the win (1 alone, 1/k when k share it, 0 otherwise); the line prints the mean
with a 95% Wilson interval. Thinking time is the CPU time of each search (``time.process_time``, one core),
p50 and p95 over all moves and over each third of the game (early, middle, late). Targets (issue 15): hard vs
random ≥ 95% (two players) and ≥ 80% (four), hard vs greedy ≥ 65%, hard vs easy ≥ 70%; hard p95 ≤ 1.5 s,
easy p95 ≤ 0.2 s.

``--record FILE`` keeps each finished game in a JSON-lines file and plays only the games of a line that file
does not hold yet, so a long run (200 games a line takes hours) can stop and go on later, or be split over
several runs; a record counts only for the same line, seed and code (a digest of ``ai/`` and ``rules/``
without the other games' own files, comments or docstrings). ``bench/records/ai_strength.jsonl`` is the
project's record, committed: a file outside the checkout does not outlive the machine it was written on,
and the figures in a note must be checkable from the repository. ``--rekey DIGEST …`` carries the lines kept
under older code digests over to today's code where replaying a few of their games (``--replays``) plays
them alike, move for move: a change to shared code that leaves a line's players as they were keeps its games
(run it while no line is writing to the file; it rewrites the file). ``--code DIGEST`` reports a line as the
code of that digest played it (a change tried and reverted), and ``--against DIGEST`` sets it deal by deal beside
the same line by another digest: how many deals each did better on, with a sign test, which says far more than
the two lines' intervals side by side.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, however installed

import ai.frozen
from ai import LEVELS, choose
from ai.baselines import greedy_move, random_move
from rules import GAMES

FROZEN = {f"frozen-{level}": level for level in ai.frozen.ITERATIONS}  # issue 28's yardstick, ai.frozen
SEARCHERS = (*LEVELS, *FROZEN)  # the players whose thinking time is measured
PLAYERS = ("random", "greedy", *SEARCHERS)
MAX_ACTIONS = 5000

# (game, players, A, B): the lines of issue 15's strength targets
SUITE = [
    *((g, 2, "hard", "random") for g in ("coin_age", "conqueror", "condottiere", "splendor", "carcassonne")),
    *((g, 4, "hard", "random") for g in ("splendor", "carcassonne", "condottiere")),
    *((g, 2, "hard", "greedy") for g in ("coin_age", "conqueror", "condottiere", "splendor", "carcassonne")),
    *((g, 2, "hard", "easy") for g in ("coin_age", "conqueror", "condottiere", "splendor", "carcassonne")),
]


@dataclass
class Played:
    share: float  # A's share of the win
    times: list[tuple[str, float, float]]  # (player, stage 0..1 through the game, CPU seconds) per search
    moves: str = ""  # a digest of the game's actions, so that a replay can show it played the same game

    def same_game(self, other: Played) -> bool:
        """Whether two plays of a seeded game went alike: result, who searched at which move, and the actions
        (where both know them; records kept before 4 December 2026 do not)."""
        return (
            self.share == other.share
            and self.searched() == other.searched()
            and (not self.moves or not other.moves or self.moves == other.moves)
        )

    def searched(self) -> list[tuple[str, float]]:
        """Who searched at which stage of the game, as the record keeps it (rounded)."""
        return [(p, round(stage, 4)) for p, stage, _ in self.times]


def move(player: str, game_id: str, state: Any, seat: int, seed: int) -> Any:
    if player == "random":
        return random_move(game_id, state, seat, seed)
    if player == "greedy":
        return greedy_move(game_id, state, seat, seed)
    if player in FROZEN:
        return ai.frozen.choose(game_id, state, seat, FROZEN[player], seed)
    return choose(game_id, state, seat, player, seed)


Mover = Callable[[str, str, Any, int, int], Any]  # (player, game, state, seat, seed) -> action, as ``move``


def play(
    game_id: str, players: int, a: str, b: str, index: int, seed: int, mover: Mover = move, timed: Iterable[str] = ()
) -> Played:
    """One seeded game of A against B; the thinking time of the searchers, and of ``timed`` players, is kept."""
    counted = {*SEARCHERS, *timed}
    game = GAMES[game_id]
    state = game.setup(players, seed * 100_003 + index)
    a_seat = index % players
    searched: list[tuple[str, int, float]] = []
    actions = 0
    moves = hashlib.sha256()
    while seats := game.to_act(state):
        assert actions < MAX_ACTIONS, "the game does not end"
        seat = seats[0]
        player = a if seat == a_seat else b
        started = time.process_time()
        action = mover(player, game_id, state, seat, seed * 7_919 + index * 1_009 + actions)
        if player in counted:
            searched.append((player, actions, time.process_time() - started))
        moves.update(game.encode(action).encode() + b"\0")
        state = game.apply(state, seat, action).state
        actions += 1
    outcome = game.outcome(state)
    assert outcome is not None
    share = 1 / len(outcome.winners) if a_seat in outcome.winners else 0.0
    return Played(share, [(p, at / max(1, actions), t) for p, at, t in searched], moves.hexdigest()[:16])


def wilson(mean: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% interval for a proportion (shares count as fractional wins)."""
    if n == 0:
        return 0.0, 1.0
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


ROOT = Path(__file__).resolve().parents[1]


def _only_for(relative: Path) -> str:
    """The game a source file serves alone (``rules/<game>/…``, ``ai/games/<game>.py``, a data file
    ``ai/games/<game>_….json`` or a network ``ai/games/<game>_….npz``); "" if shared."""
    if relative.parts[0] == "rules" and len(relative.parts) > 2:
        return relative.parts[1]
    if relative.parts[:2] == ("ai", "games"):
        stem = relative.stem
        return next((game_id for game_id in GAMES if stem == game_id or stem.startswith(f"{game_id}_")), "")
    return ""


def code_digest(game_id: str) -> str:
    """What the players' moves in one game depend on: the code of ``ai/`` and ``rules/`` (their data files and
    networks, and their Python as parsed, without comments and docstrings, so that rewording leaves the records
    standing) but the other games' own files, so that work on one game's engine or knowledge leaves the other
    games' too."""
    others = set(GAMES) - {game_id}
    data = (path for pattern in ("ai/**/*.json", "ai/**/*.npz", "rules/**/*.json") for path in ROOT.glob(pattern))
    digest = hashlib.sha256()
    for path in sorted({*_imported(others), *data}):
        relative = path.relative_to(ROOT)
        if _only_for(relative) in others:
            continue
        code = _code(path.read_text(encoding="utf-8")) if path.suffix == ".py" else path.read_bytes()
        digest.update(str(relative).encode() + b"\0" + code)
    return digest.hexdigest()[:16]


def _imported(others: set[str]) -> set[Path]:
    """The modules of ``ai/`` and ``rules/`` the players import (``ai``, ``ai.baselines``, ``ai.frozen``), but
    through the other games' own files: a module only another game uses is none of this game's code."""
    entries = [ROOT / "ai" / "__init__.py", ROOT / "ai" / "baselines.py", ROOT / "ai" / "frozen" / "__init__.py"]
    found: set[Path] = set()
    while entries:
        path = entries.pop()
        if path in found or _only_for(path.relative_to(ROOT)) in others:
            continue
        found.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:  # and the packages above it, which an import runs first
                parts = name.split(".")
                for base in (ROOT.joinpath(*parts[:k]) for k in range(1, len(parts) + 1)):
                    entries += [p for p in (base / "__init__.py", base.with_suffix(".py")) if p.is_file()]
    return found


def _code(source: str) -> bytes:
    """A module as the interpreter runs it: its syntax tree with every docstring taken out."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree).encode()


Line = tuple[str, int, str, str, int]  # game, players, A, B, seed


class Record:
    """Finished games in a JSON-lines file, by line (with its seed) and code; without a file, nothing is kept."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.codes = {game_id: code_digest(game_id) for game_id in GAMES}

    def key(self, line: Line) -> list[Any]:
        return [*line, self.codes[line[0]]]

    def held(self, line: Line, code: str | None = None) -> dict[int, Played]:
        """The games of ``line`` by index, played by today's code or, with ``code``, by the code of that digest."""
        if self.path is None or not self.path.exists():
            return {}
        key, held = ([*line, code] if code else self.key(line)), {}
        for text in self.path.read_text().splitlines():
            try:
                entry = json.loads(text)
            except json.JSONDecodeError:  # a line cut short by a kill mid-write: that game is played again
                continue
            if entry["key"] == key:
                held[entry["index"]] = _played(entry)
        return held

    def keep(self, line: Line, index: int, played: Played) -> None:
        if self.path is None:
            return
        times = [[p, round(stage, 4), round(t, 4)] for p, stage, t in played.times]
        entry = {"key": self.key(line), "index": index, "share": played.share, "times": times}
        if played.moves:
            entry["moves"] = played.moves
        with self.path.open("a+b") as out:  # appends go to the end whatever is read first
            size = out.seek(0, 2)
            cut = False
            if size:
                out.seek(size - 1)
                cut = out.read(1) != b"\n"  # the last write was cut short
            out.write((b"\n" if cut else b"") + json.dumps(entry).encode() + b"\n")


def _played(entry: dict[str, Any]) -> Played:
    return Played(entry["share"], [tuple(t) for t in entry["times"]], entry.get("moves", ""))


Replay = Callable[[tuple[Any, ...], list[int]], list[Played] | None]  # a line's games again; None: unknown here


def replay_here(jobs: int) -> Replay:
    """Replays of the lines whose players this script knows, ``jobs`` games at once."""

    def replay(key: tuple[Any, ...], indices: list[int]) -> list[Played] | None:
        game_id, players, a, b, seed, _ = key
        if a not in PLAYERS or b not in PLAYERS:
            return None
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(play, *zip(*((game_id, players, a, b, i, seed) for i in indices), strict=True)))

    return replay


def rekey(path: Path, old: set[str], replays: int, replay: Replay) -> None:
    """Carry the games recorded under older code digests (each a game's) over to today's, line by line, where
    replaying the first ``replays`` games of the line with today's code plays them alike (``Played.same_game``):
    a change that leaves a line's players as they were (a level not in the line, a docstring of shared code)
    should not cost its hours of games. A line that plays otherwise, or whose players ``replay`` does not
    know, stays under the old digest; the file is rewritten at once, after every line is checked."""
    entries = [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
    lines: dict[tuple[Any, ...], dict[int, Played]] = {}
    for entry in entries:
        if entry["key"][5] in old:
            lines.setdefault(tuple(entry["key"]), {})[entry["index"]] = _played(entry)
    moved: dict[tuple[Any, ...], list[Any]] = {}
    for key, held in sorted(lines.items(), key=str):
        today = code_digest(key[0])
        indices = sorted(held)[:replays]
        again = None if today == key[5] else replay(key, indices)
        if again is None:
            print(f"{key}: {len(held)} games stay ({'the same code' if today == key[5] else 'players unknown here'})")
            continue
        alike = [i for i, played in zip(indices, again, strict=True) if held[i].same_game(played)]
        if len(alike) == len(indices):
            moved[key] = [*key[:5], today]
        print(f"{key}: {len(alike)} of {len(indices)} replayed alike; {len(held)} games", end=" ")
        print(f"carried to {today}" if key in moved else "stay", flush=True)
    for entry in entries:
        entry["key"] = moved.get(tuple(entry["key"]), entry["key"])
    written = path.with_suffix(".rekeyed")
    written.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    written.replace(path)


def line(
    key: Line,
    games: int,
    jobs: int,
    record: Record,
    one: Callable[[int], Played] | None = None,
    mover: Mover = move,
    part: tuple[int, int] = (0, 1),
) -> None:
    """The games of a line the record does not hold yet, ``jobs`` at a time (moves by ``mover``, a module's
    function); with ``one`` (a game by its index), one by one in this process, for a player that is loaded once
    and cannot be sent to other processes. ``part`` (j, n) plays only games j, j + n, j + 2n, …: n processes
    sharing the record share the line (the report then counts what the record holds so far)."""
    started = time.monotonic()
    done = record.held(key)
    missing = [i for i in range(part[0], games, part[1]) if i not in done]
    if one is not None:
        for index in missing:
            done[index] = one(index)
            record.keep(key, index, done[index])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play, *key[:4], i, key[4], mover): i for i in missing}
            for future in as_completed(futures):
                index = futures[future]
                done[index] = future.result()
                record.keep(key, index, done[index])
    held = [done[i] for i in range(games) if i in done]  # with other parts still playing, not every game
    if held:
        report(key, held, f"{len(held)} of {games} held, {time.monotonic() - started:6.0f} s")


def held_so_far(key: Line, games: int, record: Record, code: str | None = None, against: str | None = None) -> None:
    """A line as far as the record holds it (``--report``; by the code of digest ``code``, else today's), and with
    ``against`` deal by deal beside the same line by that digest's code: nothing is played."""
    done = record.held(key, code)
    results = [done[i] for i in range(games) if i in done]
    if results:
        report(key, results, f"{len(results)} of {games} held")
    if against:
        other = record.held(key, against)
        print(f"{'':16}{paired({i: done[i].share for i in done if i < games}, {i: p.share for i, p in other.items()})}")


def paired(this: dict[int, float], that: dict[int, float]) -> str:
    """Two players' shares on the deals both played (the same index is the same deal and seats): how often each did
    better, and a two-sided sign test of the difference, since a line's own interval hides how much two lines on the
    same deals agree (issue 28: nine better and three worse of 40 deals became twelve and thirteen of 100)."""
    both = sorted(set(this) & set(that))
    if not both:
        return "no deal played by both"
    better = sum(1 for i in both if this[i] > that[i])
    worse = sum(1 for i in both if this[i] < that[i])
    mean = 100 * statistics.fmean(this[i] for i in both)
    theirs = 100 * statistics.fmean(that[i] for i in both)
    return (
        f"the same {len(both)} deals: {mean:.1f}% against {theirs:.1f}%, {better} better, {worse} worse"
        f" (sign test p {sign_test(better, worse):.3f})"
    )


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact binomial p of a split at least this uneven, were either side equally likely."""
    n, k = better + worse, min(better, worse)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def add_comparison(parser: argparse.ArgumentParser) -> None:
    """``--code`` and ``--against``, for a script that reports lines of the record (``--report``)."""
    parser.add_argument("--code", metavar="DIGEST", help="with --report: the line as the code of this digest played it")
    parser.add_argument("--against", metavar="DIGEST", help="with --report: deal by deal beside this digest's line")


def check_comparison(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Nothing is compared while games are played: ``--code`` and ``--against`` only with ``--report``."""
    if (args.code or args.against) and not args.report:
        parser.error("--code and --against go with --report")


def report(key: Line, results: list[Played], note: str) -> None:
    game_id, players, a, b, _ = key
    mean = statistics.fmean(r.share for r in results)
    low, high = wilson(mean, len(results))
    won = sum(1 for r in results if r.share == 1)
    lost = sum(1 for r in results if r.share == 0)
    print(
        f"{game_id:12} {players}p  {a:>6} vs {b:<6} {len(results):4} games  A wins {100 * mean:5.1f}%"
        f"  (95% CI {100 * low:5.1f}–{100 * high:5.1f}; {won} won, {len(results) - won - lost} shared, {lost} lost)"
        f"  {note}",
        flush=True,
    )
    for player in sorted({p for r in results for p, _, _ in r.times}):
        times = [(stage, t) for r in results for p, stage, t in r.times if p == player]
        all_times = [t for _, t in times]
        thirds = [[t for stage, t in times if k / 3 <= stage < (k + 1) / 3] for k in range(3)]
        stages = "  ".join(
            f"{name} p95 {quantile(ts, 0.95):.3f}" for name, ts in zip(("early", "mid", "late"), thirds, strict=True)
        )
        print(
            f"{'':16}{player:>6}: {len(all_times):5} moves  p50 {quantile(all_times, 0.5):.3f} s"
            f"  p95 {quantile(all_times, 0.95):.3f} s  max {max(all_times):.3f} s   {stages}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="coin_age")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", choices=PLAYERS, default="hard")
    parser.add_argument("--b", choices=PLAYERS, default="random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (each on one core)")
    parser.add_argument("--suite", action="store_true", help="every line of the strength targets")
    parser.add_argument("--record", type=Path, help="a JSON-lines file of finished games, to go on from")
    parser.add_argument("--report", action="store_true", help="print what the record holds of the lines; play nothing")
    parser.add_argument("--rekey", nargs="+", metavar="DIGEST", help="carry lines under older code to today's")
    parser.add_argument("--replays", type=int, default=3, help="games of each line --rekey plays again")
    add_comparison(parser)
    args = parser.parse_args()
    check_comparison(parser, args)
    if args.rekey:
        assert args.record, "--rekey rewrites the --record file"
        rekey(args.record, set(args.rekey), args.replays, replay_here(args.jobs))
        return
    lines = SUITE if args.suite else [(args.game, args.players, args.a, args.b)]
    record = Record(args.record)
    for game_id, players, a, b in lines:
        key: Line = (game_id, players, a, b, args.seed)
        if args.report:
            held_so_far(key, args.games, record, args.code, args.against)
        else:
            line(key, args.games, args.jobs, record)


if __name__ == "__main__":
    main()
