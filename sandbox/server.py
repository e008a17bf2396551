"""Builds the sandbox application and runs it: on the caller's event loop or in a thread of its own."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from types import TracebackType

from aiohttp import web

from sandbox import botapi, control, control_membership, control_webapps
from sandbox.appkey import SANDBOX
from sandbox.engine import Sandbox

log = logging.getLogger(__name__)

# Uploads are photos; Telegram allows 10 MB for them, so leave room for the multipart envelope.
MAX_REQUEST_BYTES = 20 * 1024 * 1024


def create_app(sandbox: Sandbox | None = None) -> web.Application:
    """The aiohttp application serving the Bot API, the control API and the web chat."""
    app = web.Application(client_max_size=MAX_REQUEST_BYTES)
    app[SANDBOX] = sandbox or Sandbox()
    botapi.setup(app)
    control.setup(app)
    control_membership.setup(app)
    control_webapps.setup(app)
    app.on_shutdown.append(_wake_waiters)
    app.on_cleanup.append(_close_sandbox)
    return app


async def _wake_waiters(app: web.Application) -> None:
    app[SANDBOX].begin_close()


async def _close_sandbox(app: web.Application) -> None:
    await app[SANDBOX].close()


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class SandboxServer:
    """Serves the sandbox on the current event loop; ``start`` returns the base URL."""

    def __init__(self, app: web.Application | None = None) -> None:
        self.app = app or create_app()
        self.url = ""
        self._runner: web.AppRunner | None = None

    @property
    def sandbox(self) -> Sandbox:
        return self.app[SANDBOX]

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Listen on host:port (0 picks a free port) and return e.g. ``http://127.0.0.1:43121``."""
        runner = web.AppRunner(self.app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.url = _url(host, runner.addresses[0][1])
        log.info("sandbox listening on %s", self.url)
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> SandboxServer:
        if self._runner is None:
            await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()


class ThreadedSandbox:
    """A sandbox running on its own event loop in a daemon thread; see :func:`run_in_thread`."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, time_scale: float = 1.0) -> None:
        self.host = host
        self.port = port
        self.time_scale = time_scale
        self.url = ""
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="sandbox", daemon=True)

    def start(self, timeout: float = 10.0) -> str:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the sandbox did not start in time")
        if self._error is not None:
            self._thread.join(timeout)
            raise RuntimeError("the sandbox failed to start") from self._error
        return self.url

    def stop(self, timeout: float = 10.0) -> None:
        """Shut the server down and wait for its thread; safe to call twice."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stop.set)
        if self._thread.is_alive():
            self._thread.join(timeout)

    def __enter__(self) -> ThreadedSandbox:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _main(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = SandboxServer(create_app(Sandbox(time_scale=self.time_scale)))
        try:
            self.url = await server.start(self.host, self.port)
        except BaseException as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await server.stop()


def run_in_thread(host: str = "127.0.0.1", port: int = 0, time_scale: float = 1.0) -> ThreadedSandbox:
    """Start a sandbox in a background thread and return its handle (``.url``, ``.stop()``); ``time_scale``
    runs Telegram's timings faster (``sandbox/clock.py``)."""
    handle = ThreadedSandbox(host, port, time_scale)
    handle.start()
    return handle
