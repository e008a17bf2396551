"""A local stand-in for the Telegram Bot API, with a JSON control API and a web chat.

The bot under test talks to it over HTTP exactly as it would talk to Telegram, so the
bot's code needs no test doubles; tests and people drive the "users" through the
control API (``/sandbox/...``) or the web chat at ``/``.
"""

from sandbox.server import SandboxServer, ThreadedSandbox, create_app, run_in_thread

__all__ = ["SandboxServer", "ThreadedSandbox", "create_app", "run_in_thread"]
