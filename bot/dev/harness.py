"""Runs the whole system locally for tests and benchmarks: Redis, the sandbox and the bot as a real process.

The bot runs as a child process (``python -m bot run``) so that it can be killed and restarted like in
production; it talks to the sandbox over HTTP only. For multi-worker runs, several webhook workers sit behind
a small round-robin proxy whose URL is the one webhook the sandbox knows, as behind a load balancer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Limits, Settings
from bot.dev.local import APP_NAME, SANDBOX_TOKEN, register_app
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.figures import IN_HAND_METRIC
from bot.plumbing.keys import Keys
from bot.plumbing.metrics import METRICS_PATH
from bot.plumbing.webhook import HEALTH_PATH, SECRET_HEADER
from sandbox.server import ThreadedSandbox, run_in_thread

Figures = dict[tuple[str, frozenset[tuple[str, str]]], float]  # a /metrics page: (name, labels) -> value


def figure(figures: Figures, name: str, **labels: str) -> float:
    """One sample of a /metrics page (0 if the page has none: a counter not counted yet)."""
    return figures.get((name, frozenset(labels.items())), 0.0)


def moved(before: Figures, after: Figures, name: str, **labels: str) -> float:
    """How much one sample moved between two pages of the same process."""
    return figure(after, name, **labels) - figure(before, name, **labels)


class BotProcess:
    """One bot worker process pointed at a sandbox and a Redis."""

    def __init__(self, sandbox_url: str, redis_url: str, data_dir: Path, log_path: Path, **env: str) -> None:
        self.sandbox_url = sandbox_url
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_env = env
        self.metrics_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._log_start = 0  # where this process's lines begin in the log file

    async def figures(self, http: httpx.AsyncClient) -> Figures:
        """Every sample on the running bot's ``/metrics`` (bot/plumbing/figures.py), by name and labels."""
        response = await http.get(f"http://127.0.0.1:{self.metrics_port}{METRICS_PATH}")
        response.raise_for_status()
        return {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text)
            for sample in family.samples
        }

    async def in_hand(self, http: httpx.AsyncClient) -> int:
        """What the running bot has in hand (bot/plumbing/activity.py), read from its ``/metrics``."""
        return round(sum(value for (name, _), value in (await self.figures(http)).items() if name == IN_HAND_METRIC))

    def start(self, timeout: float = 30.0) -> None:
        self.launch()
        self._wait_ready(timeout)

    def change_env(self, env: dict[str, str | None]) -> None:
        """Settings for the next start (None drops one)."""
        for key, value in env.items():
            if value is None:
                self.extra_env.pop(key, None)
            else:
                self.extra_env[key] = value

    def run_log(self) -> list[str]:
        """The lines this process (its latest start) has logged so far."""
        with self.log_path.open("rb") as log:
            log.seek(self._log_start)
            return log.read().decode("utf-8", errors="replace").splitlines()

    def start_wait(self, timeout: float = 30.0) -> None:
        """After ``launch``: wait until the bot is ready."""
        self._wait_ready(timeout)

    def launch(self) -> None:
        """Start the process without waiting for it to be ready (start several workers at once)."""
        env = {
            **os.environ,
            "BOT_TOKEN": SANDBOX_TOKEN,
            "BOT_API_URL": self.sandbox_url,
            "REDIS_URL": self.redis_url,
            "DATA_DIR": str(self.data_dir),
            "LOG_LEVEL": "INFO",
            "METRICS_PORT": str(self.metrics_port),
        }
        env.pop("WEBHOOK_URL", None)  # polling unless the caller asks for a webhook
        env.update(self.extra_env)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()

    def _wait_ready(self, timeout: float) -> None:
        """Ready once this process has started polling: PTB logs "Application started" after its first
        getUpdates is on its way (the sandbox logs a call only when it ends, a long poll seconds later)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"the bot exited at start (code {self.process.returncode}); see {self.log_path}")
            with self.log_path.open("rb") as log:
                log.seek(self._log_start)
                if b"Application started" in log.read():
                    return
            time.sleep(0.02)
        raise RuntimeError(f"the bot did not start polling within {timeout} s; see {self.log_path}")

    def stopped(self) -> bool:
        """True while the process is stopped (SIGSTOP, e.g. at a stop point)."""
        if self.process is None or self.process.poll() is not None:
            return False
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] == "T"  # the state field: T is stopped

    def wait_stopped(self, timeout: float = 30.0) -> None:
        """Until the process has stopped itself at a stop point (``bot.plumbing.stop_points``)."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the bot exited instead of stopping; see {self.log_path}")
            if self.stopped():
                return
            time.sleep(0.02)
        raise RuntimeError(f"the bot did not reach its stop point within {timeout} s; see {self.log_path}")

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


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """``count`` loopback ports free now and different from each other: the probes stay bound until all are
    chosen, since a port probed and let go may be handed out again by the next probe (a cluster's node once got
    another's bus port, and could not start)."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]


class WebhookWorker(BotProcess):
    """A bot worker in webhook mode: it listens on its own port behind ``webhook_url`` (a proxy's)."""

    def __init__(
        self,
        sandbox_url: str,
        redis_url: str,
        data_dir: Path,
        log_path: Path,
        webhook_url: str,
        port: int,
        name: str,
        **env: str,
    ) -> None:
        settings = {"WEBHOOK_URL": webhook_url, "WEBHOOK_LISTEN": "127.0.0.1", "WEBHOOK_PORT": str(port)}
        super().__init__(sandbox_url, redis_url, data_dir, log_path, **settings, WORKER_NAME=name, **env)
        self.name = name
        self.url = f"http://127.0.0.1:{port}"

    def _wait_ready(self, timeout: float) -> None:
        """Ready once its health check answers 200 (it has set the webhook and takes updates)."""
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.url, timeout=1.0) as http:
            while time.monotonic() < deadline:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"worker {self.name} exited at start; see {self.log_path}")
                try:
                    if http.get(HEALTH_PATH).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
        raise RuntimeError(f"worker {self.name} was not ready within {timeout} s; see {self.log_path}")


@dataclass(frozen=True)
class Delivery:
    """One webhook request through the proxy: the update, the worker that got it (-1: none), the status the
    sandbox was given."""

    update: dict[str, Any]
    worker: int
    status: int

    @property
    def update_id(self) -> int:
        return int(self.update["update_id"])

    @property
    def kind(self) -> str:
        return next(key for key in self.update if key != "update_id")


class WebhookProxy:
    """One URL in front of several workers, round-robin, as a load balancer would be: the sandbox's webhook
    points here. A worker that does not answer (killed) is passed over for the next one. Runs on its own
    event loop in a thread, like the sandbox.

    ``deliveries`` records where each update went; ``lose_reply_once`` makes the proxy drop a worker's 200 on
    the way back (the sandbox sees 502 and delivers the update again), as a network or a proxy timeout can.
    """

    def __init__(self, targets: list[str], path: str = "/hook") -> None:
        self.targets = targets
        self.path = path
        self.url = ""
        self.deliveries: list[Delivery] = []
        self.only: int | None = None  # every update to this worker (``send_to``) instead of round-robin
        self._turn = 0
        self._rules: list[tuple[Callable[[dict[str, Any]], bool], bool, Callable[[int], None] | None]] = []
        self._guard = threading.Lock()
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve()), name="proxy", daemon=True)

    def start(self, timeout: float = 10.0) -> str:
        self._thread.start()
        if not self._ready.wait(timeout) or not self.url:
            raise RuntimeError("the webhook proxy did not start")
        return self.url

    def stop(self, timeout: float = 10.0) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread.is_alive():
            self._thread.join(timeout)

    def send_to(self, worker: int | None) -> None:
        """Every update to worker ``worker`` from now on, as a load balancer that sticks to one target (None:
        round-robin again)."""
        self.only = worker

    def lose_reply_once(self, match: Callable[[dict[str, Any]], bool]) -> None:
        """The next update that ``match``es reaches a worker, but its 200 is lost on the way back."""
        with self._guard:
            self._rules.append((match, True, None))

    def on_reply_once(self, match: Callable[[dict[str, Any]], bool], action: Callable[[int], None]) -> None:
        """Once a worker has accepted the next update that ``match``es, call ``action(worker index)`` (in the
        proxy's thread) before the sandbox hears back: e.g. kill that worker while it holds the update."""
        with self._guard:
            self._rules.append((match, False, action))

    def _after_reply(self, update: dict[str, Any], worker: int) -> bool:
        """Apply the first rule for ``update``; True if its reply is to be lost."""
        with self._guard:
            rule = next((r for r in self._rules if r[0](update)), None)
            if rule is not None:
                self._rules.remove(rule)
        if rule is None:
            return False
        _, lose, action = rule
        if action is not None:
            action(worker)
        return lose

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        app = web.Application()
        app.router.add_post(self.path, self._forward)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        async with httpx.AsyncClient(timeout=10.0, trust_env=False) as self._session:
            await runner.setup()
            try:
                site = web.TCPSite(runner, "127.0.0.1", 0)
                await site.start()
                self.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
            finally:
                self._ready.set()
            try:
                await self._stop.wait()
            finally:
                await runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        update = json.loads(body)
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("content-type", SECRET_HEADER.lower())}
        for _ in self.targets:
            index = self._turn % len(self.targets) if self.only is None else self.only
            self._turn += 1
            try:
                reply = await self._session.post(self.targets[index] + request.path_qs, content=body, headers=headers)
                status, payload = reply.status_code, reply.content
            except (httpx.HTTPError, OSError):
                continue  # that worker is down: the next one
            if 200 <= status < 300 and self._after_reply(update, index):
                status, payload = 502, b"reply lost"
            self.deliveries.append(Delivery(update, index, status))
            return web.Response(status=status, body=payload)
        self.deliveries.append(Delivery(update, -1, 502))
        return web.Response(status=502, text="no worker answered")


SCALED_SETTINGS = ("PACE_GROUP_WINDOW", "PACE_GLOBAL_WINDOW", "PACE_PRIVATE_PER_SECOND")
# The end-to-end tests' Telegram clock: ten times as fast, so a group's minute lasts 6 s and whole games under
# the real limits take seconds; a press may still wait 1.5 s for its answer (a freshly started bot under load
# needs that much for its first).
TEST_TIME_SCALE = 0.1


def scaled_pacing(time_scale: float) -> dict[str, str]:
    """The bot's ``PACE_*`` settings for a sandbox whose Telegram clock runs ``1 / time_scale`` times as fast:
    every window that much shorter and the private chats' rate that much higher, so that the bot keeps the
    real schedule, faster (the bot itself knows nothing of the scale: these are its ordinary settings)."""
    if time_scale == 1:
        return {}
    defaults = Limits()
    values = (defaults.group_window * time_scale, defaults.global_window * time_scale)
    return dict(zip(SCALED_SETTINGS, map(repr, (*values, defaults.private_per_second / time_scale)), strict=True))


PRESENCE_SETTINGS = ("AWAY_AFTER_SECONDS", "NOTICE_AFTER_SECONDS")  # scaled by ``scaled_settings``


def scaled_settings(time_scale: float) -> dict[str, str]:
    """``scaled_pacing``, how long a player who pressed is taken to be at the screen (``AWAY_AFTER_SECONDS``,
    bot/messages/presence.py) and how long a turn notice waits (``NOTICE_AFTER_SECONDS``, bot/messages/notices.py):
    the players' seconds run as fast as Telegram's."""
    if time_scale == 1:
        return {}
    fields = Settings.model_fields
    away, wait = (fields[name].default * time_scale for name in ("away_after_seconds", "notice_after_seconds"))
    return {**scaled_pacing(time_scale), "AWAY_AFTER_SECONDS": repr(away), "NOTICE_AFTER_SECONDS": repr(wait)}


class SandboxProcess:
    """``python -m sandbox`` on a free port, stopped with the harness."""

    def __init__(self, log_path: Path, timeout: float = 20.0, time_scale: float = 1.0) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        log = log_path.open("ab")
        command = [sys.executable, "-m", "sandbox", "--port", str(port), "--time-scale", repr(time_scale)]
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
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


REPLAYED_DEALS = "1402"  # DEAL_SEED: a run deals what the run before it dealt, so a failure shows again


def mini_app_env() -> dict[str, str]:
    """Settings that turn the Mini App on for a polling bot: its page on a free loopback port (HTTP: the sandbox
    is Telegram's test environment), registered with the sandbox by ``Harness.start``."""
    port = free_port()
    return {
        "WEBAPP_URL": f"http://127.0.0.1:{port}/app/",
        "WEBAPP_NAME": APP_NAME,
        "WEBAPP_LISTEN": "127.0.0.1",
        "WEBAPP_PORT": str(port),
    }


class Harness:
    """Redis (embedded unless REDIS_URL is set), a sandbox in a thread, and one bot process (long polling) or
    several webhook workers behind one proxy URL."""

    def __init__(
        self,
        workdir: Path,
        sandbox_process: bool = False,
        bot_env: dict[str, str] | None = None,
        webhook_workers: int = 0,
        time_scale: float = 1.0,
        redis_url: str | None = None,
    ) -> None:
        """``sandbox_process``: run the sandbox as its own process (benchmarks: its own core and GIL)
        rather than in a thread of the caller; ``bot_env``: extra settings for the bot process(es);
        ``webhook_workers``: that many workers in webhook mode behind a round-robin proxy (``proxy``), the
        sandbox's webhook pointing at it, instead of one polling bot; ``time_scale``: the sandbox runs
        Telegram's clock that much faster (``sandbox/clock.py``) and the bot gets budgets scaled to match
        (``scaled_settings``; ``bot_env`` may still override them); ``redis_url``: a Redis already running (another
        harness's: several bots on one Redis, each with its own token and sandbox; a Sentinel setup's) instead
        of REDIS_URL or an embedded one. The bot deals from ``REPLAYED_DEALS``: the same tests in the same order
        play the same games on every run."""
        self.workdir = workdir
        self.sandbox_process = sandbox_process
        self.time_scale = time_scale
        self.bot_env = {**scaled_settings(time_scale), "DEAL_SEED": REPLAYED_DEALS, **(bot_env or {})}
        self.webhook_workers = webhook_workers
        self.redis: EmbeddedServer | None = None
        self.redis_url = redis_url or os.environ.get("REDIS_URL", "")
        self.sandbox: ThreadedSandbox | SandboxProcess | None = None
        self.bot: BotProcess | None = None  # with webhook workers: the first of them
        self.workers: list[WebhookWorker] = []
        self.proxy: WebhookProxy | None = None

    @property
    def url(self) -> str:
        assert self.sandbox is not None
        return self.sandbox.url

    @property
    def keys(self) -> Keys:
        """The names of the bot's keys in Redis (its prefix comes from its token unless KEY_PREFIX is set)."""
        if prefix := self.bot_env.get("KEY_PREFIX"):
            return Keys(prefix)
        return Keys.for_token(self.bot_env.get("BOT_TOKEN", SANDBOX_TOKEN))

    @property
    def bots(self) -> list[BotProcess]:
        """Every bot process: the webhook workers, or the one polling bot."""
        return list(self.workers) if self.workers else [self.bot] if self.bot is not None else []

    def start(self) -> Harness:
        if not self.redis_url:
            self.redis = EmbeddedServer(self.workdir / "redis")
            self.redis_url = self.redis.start()
        redis_url = self.redis_url
        self.sandbox = (
            SandboxProcess(self.workdir / "sandbox.log", time_scale=self.time_scale)
            if self.sandbox_process
            else run_in_thread(time_scale=self.time_scale)
        )
        if self.webhook_workers:
            self._start_workers(redis_url)
        else:
            self.bot = BotProcess(self.url, redis_url, self.workdir / "bot", self.workdir / "bot.log", **self.bot_env)
            self.bot.start()
        if "WEBAPP_NAME" in self.bot_env:  # what the operator does with BotFather's /newapp
            register_app(self.url, self.bot_env["WEBAPP_NAME"], self.bot_env["WEBAPP_URL"])
        return self

    def _start_workers(self, redis_url: str) -> None:
        ports = free_ports(self.webhook_workers)
        self.proxy = WebhookProxy([f"http://127.0.0.1:{port}" for port in ports])
        self.proxy.start()
        env = {"WEBHOOK_SECRET": "sandbox-webhook-secret", **self.bot_env}
        for i, port in enumerate(ports):
            name = f"w{i}"
            worker = WebhookWorker(
                self.url,
                redis_url,
                self.workdir / name,
                self.workdir / f"{name}.log",
                f"{self.proxy.url}/hook",
                port,
                name,
                **env,
            )
            worker.launch()
            self.workers.append(worker)
        for worker in self.workers:
            worker.start_wait()
        self.bot = self.workers[0]

    def restart_worker(self, index: int, kill: bool = True, env: dict[str, str | None] | None = None) -> None:
        """Kill (or stop) one webhook worker and start it again, with ``env`` changing its settings (None
        drops one); the others keep serving."""
        worker = self.workers[index]
        if kill:
            worker.kill()
        else:
            worker.stop()
        worker.change_env(env or {})
        worker.start()

    def restart_bot(self, kill: bool = True, env: dict[str, str | None] | None = None) -> None:
        """Kill (or stop) the bot and start it again; ``env`` changes its settings from then on (None drops
        one), e.g. a stop point for the next run."""
        assert self.bot is not None
        if kill:
            self.bot.kill()
        else:
            self.bot.stop()
        self.bot.change_env(env or {})
        self.bot.start()

    def set_time_scale(self, time_scale: float) -> None:
        """Run the sandbox's Telegram clock at ``time_scale`` from now on, and restart the bot (a clean stop)
        with its budgets scaled to match: for a test whose work does not shrink with the clock (rendering
        under load), so that the 15 s a press may wait for its answer stay long enough."""
        httpx.post(f"{self.url}/sandbox/config", json={"time_scale": time_scale}, timeout=10).raise_for_status()
        self.time_scale = time_scale
        scaled = scaled_settings(time_scale)
        self.restart_bot(kill=False, env={key: scaled.get(key) for key in (*SCALED_SETTINGS, *PRESENCE_SETTINGS)})

    def kill_redis(self) -> None:
        """SIGKILL the embedded server, as a crash of Redis would be; ``start_redis`` brings it back."""
        assert self.redis is not None, "an outage needs the embedded server (REDIS_URL is set)"
        self.redis.kill()

    def start_redis(self) -> None:
        """The embedded server again, on the same folder and socket: it loads its append-only file."""
        assert self.redis is not None
        self.redis.start()

    def stop(self) -> None:
        for worker in self.workers:
            if worker is not self.bot:
                worker.stop()
        if self.bot is not None:
            self.bot.stop()
        if self.proxy is not None:
            self.proxy.stop()
        if self.sandbox is not None:
            self.sandbox.stop()
        if self.redis is not None:
            self.redis.stop()

    def __enter__(self) -> Harness:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
