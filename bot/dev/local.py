"""``dorehami sandbox``: the real bot against the local Telegram emulator, for trying it with no token.

The emulator's world (users, chats, messages, pictures) lives in its memory, and its ids start at the same
numbers every time, so the bot's data of an earlier run (its embedded server in ``DATA_DIR/sandbox-redis``)
would belong to chats that no longer exist, whose ids the new world gives out again: a new group would find
an old game. So a run starts clean: no world, no data. Keeping one without the other means nothing, so
``keep`` keeps both: every run that stops saves its world (``DATA_DIR/sandbox-world.pickle``) beside the bot's
data, and a run with ``keep`` goes on from there, as a restarted bot goes on in the same Telegram. A run that
did not stop (killed, crashed) leaves no world, and the next one starts clean whatever it asked for. With
REDIS_URL the bot uses that server, which the sandbox never empties.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import shutil
import socket
import threading
from pathlib import Path

import httpx
import redis
from pydantic import SecretStr

from bot.app import run_on_redis
from bot.config import ConfigError, Settings
from sandbox.engine import Sandbox
from sandbox.server import SandboxServer, create_app
from sandbox.state import World

SANDBOX_TOKEN = "100000:sandbox-token"
APP_NAME = "play"  # the Mini App's short name in the sandbox
REDIS_FOLDER = "sandbox-redis"  # the embedded server's folder under DATA_DIR
WORLD_FILE = "sandbox-world.pickle"  # the emulator's world as the last run that stopped left it


def kept_world(data_dir: Path) -> World | None:
    """The world the last run saved when it stopped, or None (none saved, or unreadable: then said why)."""
    path = data_dir / WORLD_FILE
    if not path.exists():
        print("Dorehami sandbox: no earlier run to keep (none stopped cleanly here); starting clean", flush=True)
        return None
    try:
        with path.open("rb") as file:
            world = pickle.load(file)  # our own file in our own DATA_DIR
    except Exception as error:  # any unreadable file (another version's classes, a truncated write) is no world
        print(f"Dorehami sandbox: cannot read {path} ({error!r}); starting clean", flush=True)
        return None
    if not isinstance(world, World):
        print(f"Dorehami sandbox: {path} holds no emulator world; starting clean", flush=True)
        return None
    return world


def forget(data_dir: Path) -> None:
    """A clean start: the bot's embedded data and the saved world of earlier runs are thrown away."""
    folder = data_dir / REDIS_FOLDER
    socket = folder / "redis.sock"
    if socket.exists() and _answers(socket):
        raise ConfigError(f"configuration error: DATA_DIR: another sandbox is running on {data_dir}; stop it first")
    shutil.rmtree(folder, ignore_errors=True)
    (data_dir / WORLD_FILE).unlink(missing_ok=True)


def save_world(data_dir: Path, world: World) -> None:
    """Written whole or not at all, so that a run stopped while it writes leaves the last good world."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / WORLD_FILE
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as file:
        pickle.dump(world, file, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)


def _answers(socket: Path) -> bool:
    client = redis.Redis(unix_socket_path=str(socket), socket_timeout=0.5)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


def register_app(sandbox_url: str, short_name: str, url: str) -> None:
    """The bot's Mini App registered with the sandbox, as BotFather's /newapp does with Telegram."""
    body = {"bot_token": SANDBOX_TOKEN, "short_name": short_name, "url": url}
    httpx.post(f"{sandbox_url}/sandbox/apps", json=body, timeout=10).raise_for_status()


def free_port(host: str) -> int:
    with contextlib.closing(socket.socket()) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class Emulator:
    """The emulator serving a given Sandbox on its own thread and event loop, so that its world can be kept."""

    def __init__(self, sandbox: Sandbox, host: str, port: int) -> None:
        self._loop = asyncio.new_event_loop()
        self._server = SandboxServer(create_app(sandbox))
        try:
            self.url = self._loop.run_until_complete(self._server.start(host, port))
        except BaseException:
            self._loop.close()
            raise
        self._thread = threading.Thread(target=self._loop.run_forever, name="sandbox", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with contextlib.suppress(TimeoutError):
            asyncio.run_coroutine_threadsafe(self._server.stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self._loop.close()


def run_sandbox(settings: Settings, host: str, port: int, keep: bool = False) -> None:
    """The emulator in a thread, an embedded Redis unless REDIS_URL is set, and the bot in this process; a clean
    start unless ``keep`` and the last run left its world."""
    data_dir = settings.data_dir
    world = kept_world(data_dir) if keep else None
    sandbox = Sandbox()
    if world is not None:
        sandbox.world = world
    emulator = Emulator(sandbox, host, port)  # first: a port in use stops us before anything is thrown away
    try:
        if world is None:
            forget(data_dir)
        else:  # from now on the world changes: if this run does not stop, nothing is left to keep
            (data_dir / WORLD_FILE).unlink()
    except BaseException:
        emulator.stop()
        raise
    try:
        page_port = free_port(host)  # the Mini App's page, served by the bot beside the emulator
        page_url = f"http://{host}:{page_port}/app/"  # the sandbox is a test environment: HTTP is allowed
        settings = Settings.model_validate(
            {
                **settings.model_dump(),
                "bot_token": SecretStr(SANDBOX_TOKEN),
                "bot_api_url": emulator.url,
                "webhook_url": None,
                "webapp_url": page_url,
                "webapp_name": APP_NAME,
                "webapp_listen": host,
                "webapp_port": page_port,
            }
        )
        register_app(emulator.url, APP_NAME, page_url)
        if settings.redis_url:
            print("Dorehami sandbox: REDIS_URL is set: the bot uses that server as it is (never emptied)", flush=True)
        kept = f"the last run's {len(world.users)} users and {len(world.chats)} chats" if world else "nothing kept"
        print(f"Dorehami sandbox: open {emulator.url}/ in a browser ({kept}; Ctrl+C stops it)", flush=True)
        run_on_redis(settings, REDIS_FOLDER)
    finally:
        emulator.stop()
        save_world(data_dir, sandbox.world)
