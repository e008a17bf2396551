"""The shape of the bot's data in Redis, by version, and the start-up step that brings an older shape up to date.

The version is kept under the bot's prefix (``Keys.schema``). At start-up, before the bot takes an update, each
step from the stored version to ``SCHEMA`` runs in turn, under a lease in Redis (``Keys.schema_lock``): one of
several workers starting together migrates, the others wait for it and find the work done. A step is written so
that running it again does nothing new, so a worker killed halfway leaves it to the next start to finish.

1. Every key was ``dh:…``, with no bot in it (no version stored).
2. Every key under the bot's prefix (``bot/plumbing/keys.py``): the keys of 1 renamed, once, by the first bot to
   start on this Redis (``LEGACY_OWNER``), since one bot wrote them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from bot.plumbing.keys import LEGACY_OWNER, LEGACY_PREFIX, Keys, legacy
from bot.plumbing.redis_connect import Client, script

log = logging.getLogger(__name__)

SCHEMA = 2
LEGACY_SCHEMA = 1  # a Redis with no version stored: written by a bot older than the version key
LEASE_MS = 60_000  # a migrating worker that died holds the others up this long at most; renewed while it works
WAIT_SECONDS = 600.0  # how long a worker waits for another's migration before it gives up starting
BATCH = 500  # keys renamed between renewals of the lease

# KEYS: the lock. ARGV: our token. Deleted only if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: the lock. ARGV: our token, lease ms. Renewed only if it is still ours.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


class SchemaError(Exception):
    """The data cannot be brought to this version's shape (written by a newer version, or a migration that
    never finished in time)."""


class _Lease:
    """The migration lock held by this worker, renewed as it goes."""

    def __init__(self, client: Client, key: str, token: str) -> None:
        self.redis, self.key, self.token = client, key, token
        self._renew = script(client, _RENEW)
        self._release = script(client, _RELEASE)

    async def renew(self) -> None:
        if not await self._renew(keys=[self.key], args=[self.token, LEASE_MS]):
            raise SchemaError("the migration's lock was lost (the worker stalled longer than its lease)")

    async def release(self) -> None:
        await self._release(keys=[self.key], args=[self.token])


async def stored_version(client: Client, keys: Keys) -> int:
    value = await client.get(keys.schema)
    return int(value) if value else LEGACY_SCHEMA


async def _to_prefixed(client: Client, keys: Keys, lease: _Lease) -> None:
    """1 → 2: the keys of schema 1 renamed under this bot's prefix, if this bot is the one that takes them."""
    await client.set(LEGACY_OWNER, keys.prefix, nx=True)
    owner = await client.get(LEGACY_OWNER)
    if owner != keys.prefix:
        log.info("schema 1's keys are %s's, not this bot's (%s): nothing to take", owner, keys.prefix)
        return
    if keys.prefix == LEGACY_PREFIX:
        return  # KEY_PREFIX=dh: the keys are where they were
    moved = kept = 0
    batch: list[str] = []
    async for key in client.scan_iter(match=f"{LEGACY_PREFIX}:*", count=BATCH):
        name = key.decode() if isinstance(key, bytes) else str(key)
        if legacy(name) and not name.startswith(f"{keys.prefix}:"):
            batch.append(name)
        if len(batch) >= BATCH:
            moved, kept = await _rename(client, keys, batch, moved, kept)
            batch = []
            await lease.renew()
    moved, kept = await _rename(client, keys, batch, moved, kept)
    # a fresh Redis (nothing to take) is no news; keys of an older version renamed are
    log.log(
        logging.WARNING if moved or kept else logging.INFO,
        "schema 1's keys taken by this bot (%s): %d renamed, %d left",
        keys.prefix,
        moved,
        kept,
    )


async def _rename(client: Client, keys: Keys, names: list[str], moved: int, kept: int) -> tuple[int, int]:
    """Rename a batch in one round trip (one fsync of the append-only file for all); the counts so far, added to.
    RENAMENX keeps a key's time to live, and the name under the prefix keeps its hash tag, so its slot."""
    async with client.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.renamenx(name, keys.adopted(name))
        done = await pipe.execute(raise_on_error=False)
    for name, renamed in zip(names, done, strict=True):
        if renamed is True or renamed == 1:
            moved += 1
        elif isinstance(renamed, Exception):  # gone meanwhile (expired): nothing to take
            log.info("schema 1's key %s not renamed: %s", name, renamed)
        else:
            kept += 1
            log.warning("schema 1's key %s left where it is: %s exists already", name, keys.adopted(name))
    return moved, kept


Step = Callable[[Client, Keys, _Lease], Awaitable[None]]
STEPS: dict[int, Step] = {1: _to_prefixed}  # from a version to the next


async def migrate(client: Client, keys: Keys, wait: float = WAIT_SECONDS) -> int:
    """Bring the bot's data to ``SCHEMA``, step by step, under the lock; the version found at the start."""
    found = await stored_version(client, keys)
    deadline = time.monotonic() + wait
    while True:
        version = await stored_version(client, keys)
        if version > SCHEMA:
            raise SchemaError(f"Redis holds schema {version} of {keys.prefix}; this version knows up to {SCHEMA}")
        if version == SCHEMA:
            return found
        token = secrets.token_hex(8)
        if await client.set(keys.schema_lock, token, nx=True, px=LEASE_MS):
            lease = _Lease(client, keys.schema_lock, token)
            try:
                await _steps(client, keys, lease)
            finally:
                await lease.release()
            return found
        if time.monotonic() > deadline:
            raise SchemaError(f"another worker's migration of {keys.prefix} did not finish in {wait:.0f} s")
        await asyncio.sleep(0.1)  # another worker migrates: its lease runs out if it died


async def _steps(client: Client, keys: Keys, lease: _Lease) -> None:
    version = await stored_version(client, keys)  # read again under the lock: another may have finished
    while version < SCHEMA:
        log.info("migrating %s's data from schema %d to %d", keys.prefix, version, version + 1)
        await STEPS[version](client, keys, lease)
        version += 1
        await lease.renew()
        await client.set(keys.schema, version)
