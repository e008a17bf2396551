"""``dorehami backup`` and ``dorehami restore``: one bot's data (every key under its prefix) to a file and back.

Each key is taken with DUMP and its time to live, all in one MULTI, so the file is the bot's data at one instant
(a record and its version counter never from two moments), and put back with RESTORE and the same time to live.
This works wherever the bot's keys live: the embedded server, compose's Valkey, a managed Redis one cannot copy
files from, and a Redis shared by a fleet, where each bot is backed up and restored alone. (A whole server is
also backed up by copying its files: BGSAVE's ``dump.rdb``, or the embedded server's folder while it is
stopped.) A DUMP payload is read back only by the same server family at the same or a newer version.

The file is JSON lines: a header (format, prefix, schema, count, when), then one line per key.
"""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

import redis

from bot.plumbing.keys import LEGACY_PREFIX, Keys, legacy

FORMAT = "dorehami-backup/1"


class BackupError(Exception):
    """A backup that cannot be taken or put back, with a one-line reason."""


def _skipped(keys: Keys) -> set[str]:
    """Keys of the running moment only: the migration's lock and the outage probe."""
    return {keys.schema_lock, keys.write_probe}


def take(client: redis.Redis, keys: Keys, path: Path) -> int:
    """Write every key of the bot to ``path`` (replaced whole, never half); how many."""
    skipped = {name.encode() for name in _skipped(keys)}
    names = sorted({bytes(k) for k in client.scan_iter(match=keys.everything, count=1000)} - skipped)
    if not names:
        if any(legacy(bytes(k).decode()) for k in client.scan_iter(match=f"{LEGACY_PREFIX}:*", count=1000)):
            raise BackupError(
                f"no key under {keys.prefix}, but keys of a version before prefixes: copy the server's files (README: "
                "Upgrading), or start this version once to take them"
            )
        raise BackupError(f"no key under {keys.prefix}: nothing to back up (is it the bot's Redis and prefix?)")
    pipe = client.pipeline(transaction=True)  # one MULTI: every key as it was at one instant
    for name in names:
        pipe.dump(name)
        pipe.pttl(name)
    replies = pipe.execute()
    partial = path.with_name(path.name + ".partial")
    count = 0
    with partial.open("w", encoding="utf-8") as file:
        lines = []
        for name, dumped, ttl in zip(names, replies[0::2], replies[1::2], strict=True):
            if dumped is None:  # expired between the scan and the MULTI
                continue
            line = {"key": name.decode(), "ttl_ms": int(ttl), "dump": base64.b64encode(dumped).decode()}
            lines.append(json.dumps(line))
            count += 1
        schema = client.get(keys.schema)
        header = {
            "format": FORMAT,
            "prefix": keys.prefix,
            "schema": int(schema) if schema else None,
            "keys": count,
            "taken_at": time.time(),
        }
        file.write(json.dumps(header) + "\n")
        file.writelines(line + "\n" for line in lines)
    partial.replace(path)
    return count


def _header(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    try:
        with path.open(encoding="utf-8") as file:
            header = json.loads(file.readline())
            rows = [json.loads(line) for line in file if line.strip()]
    except (OSError, ValueError) as error:
        raise BackupError(f"cannot read {path}: {error}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError(f"{path} is not a backup of {FORMAT}")
    if len(rows) != header.get("keys"):
        raise BackupError(f"{path} is cut short: {len(rows)} of {header.get('keys')} keys")
    return header, rows


def restore(client: redis.Redis, keys: Keys, path: Path) -> int:
    """Make the bot's keys what ``path`` holds: the bot's present keys deleted, the file's put back with their
    times to live, in one MULTI. The bot must be stopped meanwhile; how many keys."""
    header, rows = _header(path)
    if header["prefix"] != keys.prefix:
        raise BackupError(f"{path} holds the keys of {header['prefix']}, not of this bot ({keys.prefix})")
    if rows:  # every payload is of one server's making: if this server reads one, it reads them all
        probe = f"{keys.prefix}:restore-probe"
        try:
            client.restore(probe, 0, base64.b64decode(rows[0]["dump"]), replace=True)
        except redis.ResponseError as error:  # a newer server's payload, or another family's: nothing changed
            raise BackupError(f"Redis cannot read this backup: {error}") from None
        client.delete(probe)
    present = list(client.scan_iter(match=keys.everything, count=1000))
    pipe = client.pipeline(transaction=True)
    if present:
        pipe.delete(*present)
    for row in rows:
        ttl = int(row["ttl_ms"])
        pipe.restore(row["key"], max(ttl, 0), base64.b64decode(row["dump"]), replace=True)
    pipe.execute()
    return len(rows)
