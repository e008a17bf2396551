"""``python -m sandbox [--host H] [--port P]``: run the sandbox until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from sandbox.server import SandboxServer


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description="Local Telegram Bot API sandbox")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8081, help="port to listen on; 0 picks a free one")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    return parser.parse_args(argv)


async def _serve(host: str, port: int) -> None:
    server = SandboxServer()
    url = await server.start(host, port)
    print(f"Sandbox running at {url}  (Bot API base_url: {url}/bot, web chat: {url}/)", flush=True)
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on some platforms
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()


def main(argv: list[str] | None = None) -> None:
    args = _parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.host, args.port))


if __name__ == "__main__":
    main()
