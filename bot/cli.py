"""``dorehami``: run the bot, run it against the local sandbox, or check its health."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence

from bot.config import ConfigError, Settings, load_settings
from bot.plumbing import logs


def _run(settings: Settings) -> None:
    from bot.app import run_on_redis  # here, not at the top: `dorehami health` must not load the whole bot

    if settings.bot_token is None:
        raise ConfigError("configuration error: BOT_TOKEN: missing (set it, or use `dorehami sandbox` to try the bot)")
    run_on_redis(settings, "redis")


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
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
        logs.configure(settings.log_level, settings.log_format, settings.worker_name)
        if args.command == "run":
            _run(settings)
        elif args.command == "sandbox":
            from bot.dev.local import run_sandbox  # here: only the sandbox needs the emulator

            run_sandbox(settings, args.host, args.port, keep=args.keep)
        else:
            return _health(settings)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
