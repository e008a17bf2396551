"""Getting updates: long-polling with getUpdates, or a webhook."""

from __future__ import annotations

import time
from typing import Any

from sandbox.engine import Sandbox
from sandbox.errors import bad_request, conflict
from sandbox.methods.common import Call, Handler

MAX_POLL_TIMEOUT = 50.0
_WEBHOOK_ACTIVE = "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
_TERMINATED = "terminated by other getUpdates request; make sure that only one bot instance is running"


async def get_updates(sandbox: Sandbox, call: Call) -> Any:
    if sandbox.webhook.active:
        raise conflict(_WEBHOOK_ACTIVE)
    params = call.params
    queue = sandbox.queue
    limit = min(100, max(1, params.get_int("limit") or 100))
    timeout = min(MAX_POLL_TIMEOUT, max(0.0, params.get_float("timeout") or 0.0))
    queue.set_allowed(params.get_list("allowed_updates"))
    offset = params.get_int("offset")
    if offset:
        before = len(queue.items)
        queue.confirm(offset)
        if len(queue.items) != before:
            sandbox.touch()  # the bot has taken those in: a waiter for a settled system looks again
    # A newer getUpdates call ends an older one, as Telegram does.
    sandbox.poll_generation += 1
    generation = sandbox.poll_generation
    queue.changed.fire()
    deadline = time.monotonic() + timeout
    while True:
        batch = queue.take(limit)
        if batch:
            sandbox.touch()
            return [update.as_json() for update in batch]
        remaining = deadline - time.monotonic()
        if remaining <= 0 or sandbox.closing:
            return []
        await queue.changed.wait(remaining)
        if sandbox.webhook.active:
            raise conflict(_WEBHOOK_ACTIVE)
        if sandbox.poll_generation != generation:
            raise conflict(_TERMINATED)


async def set_webhook(sandbox: Sandbox, call: Call) -> Any:
    params = call.params
    url = params.get_str("url") or ""
    if not url:
        await sandbox.webhook.disable()
        return True
    if not url.startswith(("http://", "https://")):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if params.get_bool("drop_pending_updates"):
        sandbox.queue.clear()
    sandbox.queue.set_allowed(params.get_list("allowed_updates"))
    sandbox.webhook.configure(url, params.get_str("secret_token"), params.get_int("max_connections"))
    # Wake a pending getUpdates so it learns about the conflict.
    sandbox.poll_generation += 1
    sandbox.queue.changed.fire()
    return True


async def delete_webhook(sandbox: Sandbox, call: Call) -> Any:
    await sandbox.webhook.disable()
    if call.params.get_bool("drop_pending_updates"):
        sandbox.queue.clear()
    return True


async def get_webhook_info(sandbox: Sandbox, call: Call) -> Any:
    return sandbox.webhook.info()


HANDLERS: dict[str, Handler] = {
    "getUpdates": get_updates,
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
}
