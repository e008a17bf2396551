"""Button press → board edited, through sandbox + bot process + Redis, with many games played at once.

Prints p50/p95/p99 latency from the moment a user presses until the bot's edit of that chat's board reaches
the sandbox (timestamps from the sandbox's call log, same clock), and presses per second overall, under
Telegram's real limits (the sandbox's defaults): a group's edits share its 20 a minute, so players who press
faster than that wait for the group's budget (``real_limits.py`` measures ten groups of people).

Players think before each press for a random time (exponential, mean ``--think`` seconds), as people at a
table do; the default 4 s is 15 presses a minute, within a group's budget. ``--no-limits`` switches the
sandbox's limits off to measure the bot alone (its saturation throughput with ``--think 0``; latency is then
queueing).

With ``--computer-games N`` (default 50) the same games of people are measured twice, each time on a fresh
system: alone, then with N more groups each playing against a computer player (``--level``, default سخت; a
person there presses as soon as it is their turn, after the same thinking time) kept busy all the while, so
that the thinking pool (``--workers`` processes, the bot's ``COMPUTER_WORKERS``) always has searches waiting.
It prints both figures and the ratio of their p99 (issue 15: at most 1.5), and how many computer moves were
made meanwhile and how long a person waited for one (the group's pause, the queue and the search).
``--computer-games 0`` measures only the first. ``--rounds 2`` measures in the order A B B A (alone, with,
with, alone), and so on, and pools each kind: on a shared machine whose other load drifts, both weigh alike.

    python bench/press_latency.py [--games 50] [--moves 30] [--think 4.0] [--no-limits]
                                  [--computer-games 50] [--level hard] [--workers 1] [--rounds 1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from live_games import AgainstComputer, following, keep_playing, pct, play_all, set_up, set_up_against_computers

from bot.dev.harness import Harness
from sandbox.control_client import ControlClient


async def measure(
    games: int, moves: int, think: float, limits: bool, computer_games: int, level: str, workers: int
) -> tuple[list[float], float, list[AgainstComputer]]:
    """One fresh system: the games of people played and timed, with ``computer_games`` games against
    computer players kept busy meanwhile; the latencies, the seconds it took and the computer games."""
    env = {"COMPUTER_WORKERS": str(workers)}
    with tempfile.TemporaryDirectory() as tmp, Harness(Path(tmp), sandbox_process=True, bot_env=env) as harness:
        async with ControlClient(harness.url, timeout=60) as client:
            if not limits:
                await client.config(rate_limits={"enabled": False})
            tables = await set_up(client, ["coin_age"] * games)
            against = await set_up_against_computers(client, computer_games, "coin_age", level)
            async with following(client) as watcher:
                stop = asyncio.Event()
                busy = [
                    asyncio.create_task(keep_playing(client, watcher, t, think, 1000 + i, stop))
                    for i, t in enumerate(against)
                ]
                await asyncio.sleep(5 if busy else 0)  # the pool has searches queued before the first press
                results, elapsed = await play_all(client, watcher, tables, moves, think)
                stop.set()
                computer = list(await asyncio.gather(*busy))
    return [x for r in results for x in r.latencies], elapsed, computer


def line(latencies: list[float]) -> str:
    return (
        f"p50 {pct(latencies, 50):.1f} ms, p95 {pct(latencies, 95):.1f} ms, p99 {pct(latencies, 99):.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms"
    )


async def main(
    games: int, moves: int, think: float, limits: bool, computer_games: int, level: str, workers: int, rounds: int
) -> None:
    started = time.monotonic()
    # alone (A) and with computer games (B), in the order A B, or A B B A, A B B A B A … for more rounds: a
    # machine whose other load drifts meanwhile weighs on both alike
    order = [kind for r in range(rounds) for kind in (("A", "B") if r % 2 == 0 else ("B", "A"))]
    if not computer_games:
        order = ["A"] * rounds
    found: dict[str, list[float]] = {"A": [], "B": []}
    computer: list[AgainstComputer] = []
    seconds = {"A": 0.0, "B": 0.0}
    for kind in order:
        busy = computer_games if kind == "B" else 0
        latencies, elapsed, against = await measure(games, moves, think, limits, busy, level, workers)
        found[kind] += latencies
        seconds[kind] += elapsed
        computer += against
        label = "alone" if kind == "A" else f"with {computer_games} games against a computer player"
        print(f"run {kind} ({label}): {line(latencies)}", flush=True)
    alone = found["A"]
    print(
        f"games at once: {games}, mean think time {think} s, Telegram's limits {'on' if limits else 'off'}, "
        f"presses: {len(alone)}, wall {seconds['A']:.1f} s"
    )
    print(f"presses per second: {len(alone) / seconds['A']:.1f}")
    print(f"press → board edited: {line(alone)}")
    if not computer_games:
        return
    busy = found["B"]
    moves_made = sum(c.computer_moves for c in computer)
    waits = [s for c in computer for s in c.turn_seconds]
    print(
        f"with {computer_games} games against a computer player ({level}, COMPUTER_WORKERS={workers}) in flight: "
        f"presses: {len(busy)}, wall {seconds['B']:.1f} s"
    )
    print(f"press → board edited: {line(busy)}")
    print(
        f"computer moves made meanwhile: {moves_made} ({moves_made / seconds['B']:.2f}/s); a person waited for one: "
        + (f"p50 {statistics.median(waits):.1f} s, max {max(waits):.1f} s" if waits else "none was completed")
    )
    ratio = pct(busy, 99) / pct(alone, 99)
    print(
        f"p99 with computer games / without: {ratio:.2f} (target ≤ 1.5); all runs in {time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--think", type=float, default=4.0, help="mean seconds a player thinks before a press")
    parser.add_argument("--no-limits", action="store_true", help="the sandbox's limits off: the bot alone")
    parser.add_argument("--computer-games", type=int, default=50, help="games against a computer kept busy")
    parser.add_argument("--level", default="hard", choices=["easy", "medium", "hard"])
    parser.add_argument("--workers", type=int, default=1, help="the bot's COMPUTER_WORKERS")
    parser.add_argument("--rounds", type=int, default=1, help="measure A B (1), A B B A (2), …")
    args = parser.parse_args()
    asyncio.run(
        main(
            args.games,
            args.moves,
            args.think,
            not args.no_limits,
            args.computer_games,
            args.level,
            args.workers,
            args.rounds,
        )
    )
