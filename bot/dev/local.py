"""``dorehami sandbox``: the real bot against the local Telegram emulator, for trying it with no token."""

from __future__ import annotations

from pydantic import SecretStr

from bot.app import run_on_redis
from bot.config import Settings
from sandbox.server import run_in_thread

SANDBOX_TOKEN = "100000:sandbox-token"


def run_sandbox(settings: Settings, host: str, port: int) -> None:
    """The emulator in a thread, an embedded Redis unless REDIS_URL is set, and the bot in this process."""
    handle = run_in_thread(host, port)
    try:
        settings = settings.model_copy(
            update={"bot_token": SecretStr(SANDBOX_TOKEN), "bot_api_url": handle.url, "webhook_url": None}
        )
        print(f"Dorehami sandbox: open {handle.url}/ in a browser (Ctrl+C stops it)", flush=True)
        run_on_redis(settings, "sandbox-redis")
    finally:
        handle.stop()
