"""``dorehami``: run the bot, run it against the local sandbox, check its health, back its data up and restore it."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import redis

from bot.config import ConfigError, Settings, is_cluster, load_settings
from bot.plumbing import backup, logs, schema
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.keys import Keys
from bot.plumbing.redis_connect import CLUSTER_BACKUP, connect_blocking


def _run(settings: Settings) -> None:
    from bot.app import run_on_redis  # here, not at the top: `dorehami health` must not load the whole bot

    if settings.bot_token is None:
        raise ConfigError("configuration error: BOT_TOKEN: missing (set it, or use `dorehami sandbox` to try the bot)")
    try:
        run_on_redis(settings, "redis")
    except schema.SchemaError as error:  # the data is of a newer version: one line, as for a bad setting
        raise ConfigError(f"cannot start: {error}") from None


def _on_data(settings: Settings, path: Path, act: Callable[[redis.Redis, Keys, Path], int], done: str) -> int:
    """``act`` on the bot's keys: on REDIS_URL, or on the embedded server in DATA_DIR/redis (the running bot's,
    or started for this and stopped after)."""
    try:
        keys = Keys.of(settings)
    except ValueError as error:
        raise ConfigError(f"configuration error: {error}") from None
    if settings.redis_url and is_cluster(settings.redis_url):
        print(f"{done} failed: {CLUSTER_BACKUP}", file=sys.stderr)
        return 1
    server = None if settings.redis_url else EmbeddedServer(settings.data_dir / "redis")
    url = settings.redis_url or server.start()  # type: ignore[union-attr]
    client = connect_blocking(url, socket_timeout=60)
    try:
        count = act(client, keys, path)
    except backup.BackupError as error:
        print(f"{done} failed: {error}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if server is not None:
            server.stop()
    print(f"{done}: {count} keys of {keys.prefix}, {path}")
    return 0


def _health(settings: Settings) -> int:
    """0 when the bot wrote its heartbeat in the last minute, none of its long-running tasks is down, and when
    it wrote it Redis (and, polling, Telegram) had answered within HEALTH_SILENT_SECONDS (Docker HEALTHCHECK)."""
    path = settings.heartbeat_path
    try:
        beat = json.loads(path.read_text())
        at, down = (beat["at"], beat["down"]) if isinstance(beat, dict) else (float(beat), [])
        age = time.time() - float(at)
    except (OSError, ValueError, KeyError, TypeError):
        print("unhealthy: no heartbeat", file=sys.stderr)
        return 1
    if age > 60:
        print(f"unhealthy: last heartbeat {age:.0f} s ago", file=sys.stderr)
        return 1
    if down:
        print(f"unhealthy: failing and being restarted: {', '.join(down)}", file=sys.stderr)
        return 1
    limit = settings.health_silent_seconds
    answered = beat.get("answered", {}) if isinstance(beat, dict) else {}  # when Redis, Telegram last answered
    if quiet := [peer for peer, when in answered.items() if float(at) - float(when) > limit]:
        print(f"unhealthy: no answer from {', '.join(quiet)} for over {limit:.0f} s", file=sys.stderr)
        return 1
    print("healthy")
    return 0


# The commands on the bot's data: their help and description.
_DATA_COMMANDS = {
    "backup": (
        "write the bot's data (every key under its prefix, with times to live) to a file",
        "Write the bot's data to FILE at one instant: every key under its prefix (KEY_PREFIX, or dh:<bot id> from "
        "BOT_TOKEN), on REDIS_URL or the embedded server in DATA_DIR/redis.",
    ),
    "restore": (
        "make the bot's data what a backup file holds (stop the bot first)",
        "Delete every key under the bot's prefix and put back those of FILE, with their times to live. Stop the bot "
        "first; start it after.",
    ),
}


def main(argv: Sequence[str] | None = None) -> int:
    # PTB 22 gives durations (e.g. a 429's retry_after) as timedelta only with this set, else it warns.
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    parser = argparse.ArgumentParser(prog="dorehami", description="Persian board games for Telegram groups")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the bot (BOT_TOKEN; long polling, or a webhook when WEBHOOK_URL is set)")
    sandbox = sub.add_parser(
        "sandbox",
        help="run the bot against a local Telegram emulator with a web chat",
        description="Run the bot against a local Telegram emulator with a web chat and an embedded Redis. Each "
        "run starts clean: no users, chats, messages or games. A run that stops (Ctrl+C) saves the emulator's "
        "world in DATA_DIR beside the bot's data, and the next run may go on from there with --keep.",
    )
    sandbox.add_argument("--host", default="127.0.0.1", help="where the web chat and the emulator listen")
    sandbox.add_argument("--port", type=int, default=8080, help="their port (0: any free one)")
    sandbox.add_argument(
        "--keep",
        action="store_true",
        help="go on from the last run that stopped: its users, chats, messages and the bot's games, settings "
        "and statistics, all or nothing (a run that was killed leaves nothing, and this run starts clean); "
        "with REDIS_URL the bot's data is that server's, never emptied",
    )
    sub.add_parser("health", help="exit 0 if the running bot is alive")
    for name, (short, description) in _DATA_COMMANDS.items():
        sub.add_parser(name, help=short, description=description).add_argument("file", type=Path)
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
        logs.configure(settings.log_level, settings.log_format, settings.worker_name)
        if args.command == "run":
            _run(settings)
        elif args.command == "sandbox":
            from bot.dev.local import run_sandbox  # here: only the sandbox needs the emulator

            run_sandbox(settings, args.host, args.port, keep=args.keep)
        elif args.command == "backup":
            return _on_data(settings, args.file, backup.take, "backup")
        elif args.command == "restore":
            return _on_data(settings, args.file, backup.restore, "restore")
        else:
            return _health(settings)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
