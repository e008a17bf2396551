"""How long the operator's steps on the data take: the start-up migration of keys written before prefixes, and
``dorehami backup`` / ``restore``, on the embedded server with many groups' games in Redis.

Each group has a running four-player splendor game as the bot keeps it (its record and version counter, the
active set, each player's list of games, a hand, the live message, its armed deadline, settings, seen members),
written by the bot's own Store under the prefix of before (``dh``, schema 1). Prints the keys, the
migration's time (and keys a second), the backup's time and file size, and the restore's time.

    python bench/upgrade_and_backup.py [--groups 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import redis
import redis.asyncio as aioredis

from bot.plumbing import backup, schema
from bot.plumbing.deadlines import Deadline, Deadlines
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.keys import LEGACY_PREFIX, Keys
from bot.plumbing.store import GameRecord, HandMessage, Player, Store, chat_tag
from rules import GAMES


async def fill(url: str, groups: int) -> None:
    """``groups`` games under the keys of schema 1 (``Keys("dh")`` names them as the code before prefixes did)."""
    store = Store.from_url(url, Keys(LEGACY_PREFIX))
    deadlines = Deadlines(store.redis, store.keys)
    game = GAMES["splendor"]
    state = game.setup(4, 1402).model_dump(mode="json")
    for n in range(groups):
        chat = -1001000000001 - n
        players = [Player(user_id=10_000 + 4 * n + i, name=f"بازیکن {i}") for i in range(4)]
        record = GameRecord(chat_id=chat, game_id="splendor", phase="playing", creator=players[0], players=players)
        record.state = state
        saved = await store.save(record, expected=0)
        tag = chat_tag(chat, None)
        await store.set_live_message(chat, None, 5, saved.version)
        await store.set_hand_message(chat, None, players[0].user_id, HandMessage(message_id=7, shown="x"))
        await store.set_group_settings(chat, GroupSettings())
        await store.note_seen(chat, players[0].user_id)
        await deadlines.arm(tag, {Deadline("timeout", tag, saved.version): 4102444800.0})
    await store.close()


async def migrate(url: str, keys: Keys) -> None:
    client = aioredis.Redis.from_url(url, decode_responses=True)
    try:
        await schema.migrate(client, keys)
    finally:
        await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--groups", type=int, default=2000)
    args = parser.parse_args()
    keys = Keys("dh:1234567890")
    with tempfile.TemporaryDirectory() as folder, EmbeddedServer(Path(folder) / "redis") as server:
        asyncio.run(fill(server.url, args.groups))
        client = redis.Redis.from_url(server.url)
        total = int(client.dbsize())
        started = time.perf_counter()
        asyncio.run(migrate(server.url, keys))
        migrated = time.perf_counter() - started
        file = Path(folder) / "backup"
        started = time.perf_counter()
        taken = backup.take(client, keys, file)
        backed_up = time.perf_counter() - started
        size = file.stat().st_size
        started = time.perf_counter()
        backup.restore(client, keys, file)
        restored = time.perf_counter() - started
        client.close()
    print(f"{args.groups} groups' games: {total} keys (schema 1), the embedded server (appendfsync always)")
    print(f"migration to the bot's prefix: {migrated:.2f} s ({total / migrated:.0f} keys/s)")
    per_group = size / args.groups
    print(f"backup: {taken} keys in {backed_up:.2f} s, a file of {size / 1e6:.1f} MB ({per_group:.0f} B a group)")
    print(f"restore: {restored:.2f} s")


if __name__ == "__main__":
    main()
