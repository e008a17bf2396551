"""Whether the deadlines' one slot (``{deadlines}``: every chat's turn timers in one sorted set, so the claiming
script works on a Cluster) is a hot node: how many moves a second that slot's node can take, against what a
fleet asks of it.

Each move arms its chat's deadlines once (one script: the chat's old ones out, the new ones in); each worker
claims what is due about four times a second (one script), and each deadline fired is marked done. On a real
3-primary cluster (bot/dev/cluster.py, this machine's processes), ``--clients`` concurrent clients arm
deadlines for ``--chats`` chats as fast as the node answers while ``--workers`` claim loops run, for
``--seconds``; it prints arms a second, the claim's p50/p99, and the fleet that rate would serve at one move
every 8 s a group (the pace bench/real_limits.py measures) against one token's ~170 groups.

    python bench/cluster_deadlines.py [--clients 8] [--chats 2000] [--workers 4] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.dev.cluster import ClusterSetup
from bot.plumbing.deadlines import Deadline, Deadlines
from bot.plumbing.keys import Keys
from bot.plumbing.redis_connect import connect, disconnect

SECONDS_PER_MOVE = 8.0  # a group's pace in bench/real_limits.py
GROUPS_PER_TOKEN = 170  # issue #27's target for one token


async def run(url: str, clients: int, chats: int, workers: int, seconds: float) -> None:
    client = connect(url)
    deadlines = Deadlines(client, Keys("dh:bench"))
    stop = time.monotonic() + seconds
    arms = 0
    claims: list[float] = []

    async def arming(seed: int) -> None:
        nonlocal arms
        rng = random.Random(seed)
        version = 0
        while time.monotonic() < stop:
            tag = str(-rng.randrange(chats) - 1)
            version += 1
            at = time.time() + rng.uniform(0.0, 30.0)  # some fall due while the bench runs, as turns time out
            await deadlines.arm(tag, {Deadline("timeout", tag, version): at, Deadline("remind", tag, version): at})
            arms += 1

    async def claiming() -> None:
        while time.monotonic() < stop:
            started = time.perf_counter()
            found = await deadlines.claim(time.time())
            claims.append(time.perf_counter() - started)
            for deadline in found:
                await deadlines.done(deadline)
            await asyncio.sleep(0.25)

    try:
        await asyncio.gather(*(arming(i) for i in range(clients)), *(claiming() for _ in range(workers)))
    finally:
        await disconnect(client)
    rate = arms / seconds
    claims.sort()
    print(f"arms: {arms} in {seconds:.0f} s = {rate:.0f} a second (each a move), {clients} clients")
    p50, p99 = statistics.median(claims) * 1000, claims[int(len(claims) * 0.99)] * 1000
    print(f"claims: {len(claims)}, p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    groups = rate * SECONDS_PER_MOVE
    print(f"the slot's node takes the moves of {groups:.0f} groups at one move every {SECONDS_PER_MOVE:.0f} s: "
          f"{groups / GROUPS_PER_TOKEN:.0f} tokens of {GROUPS_PER_TOKEN} groups")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--chats", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ClusterSetup(Path(folder)) as cluster:
        asyncio.run(run(cluster.url, args.clients, args.chats, args.workers, args.seconds))


if __name__ == "__main__":
    main()
