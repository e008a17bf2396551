"""Runs the whole system locally for tests and benchmarks: Redis, the sandbox and the bot as a real process.

The bot runs as a child process (``python -m bot run``) so that it can be killed and restarted like in
production; it talks to the sandbox over HTTP only.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from bot.cli import SANDBOX_TOKEN
from bot.redis_server import EmbeddedRedis
from sandbox.server import ThreadedSandbox, run_in_thread


class BotProcess:
    """One bot worker process pointed at a sandbox and a Redis."""

    def __init__(self, sandbox_url: str, redis_url: str, data_dir: Path, log_path: Path, **env: str) -> None:
        self.sandbox_url = sandbox_url
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_env = env
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> None:
        env = {
            **os.environ,
            "BOT_TOKEN": SANDBOX_TOKEN,
            "BOT_API_URL": self.sandbox_url,
            "REDIS_URL": self.redis_url,
            "DATA_DIR": str(self.data_dir),
            "LOG_LEVEL": "INFO",
            **self.extra_env,
        }
        env.pop("WEBHOOK_URL", None)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        self._wait_ready(timeout)

    def _wait_ready(self, timeout: float) -> None:
        """Ready once the bot polls for updates (after its start-up requests)."""
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.sandbox_url) as http:
            after = 0
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"the bot exited at start (code {self.process.returncode}); see {self.log_path}")
                page = http.get("/sandbox/log", params={"after": after, "wait": 0.5}).json()
                after = page["next"]
                if any(item["method"] == "getUpdates" for item in page["items"]):
                    return
        raise RuntimeError(f"the bot did not start polling within {timeout} s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL: no clean-up at all, as a crash would be."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class SandboxProcess:
    """``python -m sandbox`` on a free port, stopped with the harness."""

    def __init__(self, log_path: Path, timeout: float = 20.0) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        log = log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sandbox", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/sandbox/config", timeout=1).raise_for_status()
                return
            except httpx.HTTPError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the sandbox did not start; see {log_path}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


class Harness:
    """Redis (embedded unless REDIS_URL is set), a sandbox in a thread, and one bot process."""

    def __init__(self, workdir: Path, sandbox_process: bool = False, bot_env: dict[str, str] | None = None) -> None:
        """``sandbox_process``: run the sandbox as its own process (benchmarks: its own core and GIL)
        rather than in a thread of the caller; ``bot_env``: extra settings for the bot process."""
        self.workdir = workdir
        self.sandbox_process = sandbox_process
        self.bot_env = bot_env or {}
        self.redis: EmbeddedRedis | None = None
        self.redis_url = ""
        self.sandbox: ThreadedSandbox | SandboxProcess | None = None
        self.bot: BotProcess | None = None

    @property
    def url(self) -> str:
        assert self.sandbox is not None
        return self.sandbox.url

    def start(self) -> Harness:
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            self.redis = EmbeddedRedis(self.workdir / "redis")
            redis_url = self.redis.start()
        self.redis_url = redis_url
        self.sandbox = SandboxProcess(self.workdir / "sandbox.log") if self.sandbox_process else run_in_thread()
        self.bot = BotProcess(self.url, redis_url, self.workdir / "bot", self.workdir / "bot.log", **self.bot_env)
        self.bot.start()
        return self

    def restart_bot(self, kill: bool = True) -> None:
        assert self.bot is not None
        if kill:
            self.bot.kill()
        else:
            self.bot.stop()
        self.bot.start()

    def stop(self) -> None:
        if self.bot is not None:
            self.bot.stop()
        if self.sandbox is not None:
            self.sandbox.stop()
        if self.redis is not None:
            self.redis.stop()

    def __enter__(self) -> Harness:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
