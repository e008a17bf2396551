"""``python -m sandbox [--host H] [--port P] [--time-scale S]``: run the sandbox until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from sandbox.clock import TelegramClock
from sandbox.engine import Sandbox
from sandbox.server import SandboxServer, create_app


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description="Local Telegram Bot API sandbox")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8081, help="port to listen on; 0 picks a free one")
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="run Telegram's timings faster: every limit's window, retry_after and the callback query's 15 s "
        "are multiplied by this (0.001 to 1; default 1, Telegram's real timings)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request")
    return parser.parse_args(argv)


async def _serve(host: str, port: int, time_scale: float) -> None:
    server = SandboxServer(create_app(Sandbox(time_scale=time_scale)))
    url = await server.start(host, port)
    scaled = f", Telegram's timings × {time_scale:g}" if time_scale != 1 else ""
    print(f"Sandbox running at {url}  (Bot API base_url: {url}/bot, web chat: {url}/{scaled})", flush=True)
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on some platforms
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()


def main(argv: list[str] | None = None) -> None:
    args = _parse_args(argv)
    try:
        TelegramClock(args.time_scale)
    except ValueError as error:
        raise SystemExit(f"python -m sandbox: {error}") from None
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.host, args.port, args.time_scale))


if __name__ == "__main__":
    main()
