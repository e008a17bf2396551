"""An async Python client for the sandbox's control API, for tests, benchmarks and scripted players."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

# How long a wait for what the bot does may last before the test calls it lost: not how long it should take
# (waits end when it happens), but room for a machine many times slower than usual.
WAIT_SECONDS = 120.0


class ControlClient:
    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> ControlClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _post(self, path: str, body: dict[str, Any]) -> Any:
        response = await self.http.post(path, json=body)
        data = response.json()
        if response.status_code >= 400:
            raise RuntimeError(f"{path}: {response.status_code} {data}")
        return data

    async def _get(self, path: str, **params: Any) -> Any:
        response = await self.http.get(path, params=params)
        response.raise_for_status()
        return response.json()

    async def user(self, first_name: str, username: str | None = None, is_bot: bool = False) -> dict[str, Any]:
        """A user; with ``is_bot``, another bot (its username ends in "bot") that can speak in groups."""
        body: dict[str, Any] = {"first_name": first_name, "is_bot": is_bot}
        if username:
            body["username"] = username
        return dict(await self._post("/sandbox/users", body))

    async def group(
        self, title: str, members: list[int], admins: list[int] | None = None, is_forum: bool = False, **extra: Any
    ) -> dict[str, Any]:
        """A supergroup; ``type="group"`` a basic group, ``type="channel"`` a channel; ``bot_admin=False`` a
        group where the bot is a plain member."""
        body = {"title": title, "members": members, "admins": admins or [], "is_forum": is_forum, **extra}
        return dict(await self._post("/sandbox/chats", body))

    async def bot_status(self, chat_id: int, status: str, by: int | None = None, notify: bool = True) -> dict[str, Any]:
        """Make the bot an administrator, a member, restricted (muted), left (removed) or kicked there;
        ``notify=False`` (tests only) keeps the my_chat_member update from the bot."""
        body = {"status": status, "by": by, "notify": notify}
        return dict(await self._post(f"/sandbox/chats/{chat_id}/bot", body))

    async def migrate(self, chat_id: int, by: int | None = None, service_messages: bool = True) -> dict[str, Any]:
        """Upgrade a basic group to a supergroup; returns the new chat."""
        body = {"by": by, "service_messages": service_messages}
        return dict(await self._post(f"/sandbox/chats/{chat_id}/migrate", body))

    async def delete(self, chat_id: int, message_id: int, by: int) -> dict[str, Any]:
        """A user deletes a message."""
        return dict(await self._post(f"/sandbox/chats/{chat_id}/messages/{message_id}/delete", {"by": by}))

    async def block(self, user_id: int, blocked: bool = True) -> dict[str, Any]:
        return dict(await self._post(f"/sandbox/users/{user_id}/block", {"blocked": blocked}))

    async def send(self, chat_id: int, from_id: int, text: str, **extra: Any) -> dict[str, Any]:
        return dict(
            await self._post("/sandbox/messages", {"chat_id": chat_id, "from_id": from_id, "text": text, **extra})
        )

    async def edit(self, chat_id: int, message_id: int, from_id: int, text: str) -> dict[str, Any]:
        """The user corrects their message: the bot gets an ``edited_message`` if it asked for those."""
        body = {"chat_id": chat_id, "message_id": message_id, "from_id": from_id, "text": text}
        return dict(await self._post("/sandbox/messages/edit", body))

    async def topic(self, chat_id: int, from_id: int, name: str) -> dict[str, Any]:
        """A new forum topic ``{chat_id, message_thread_id, name, closed}``."""
        return dict(await self._post(f"/sandbox/chats/{chat_id}/topics", {"from_id": from_id, "name": name}))

    async def close_topic(self, chat_id: int, thread_id: int, from_id: int, closed: bool = True) -> dict[str, Any]:
        body = {"from_id": from_id, "closed": closed}
        return dict(await self._post(f"/sandbox/chats/{chat_id}/topics/{thread_id}", body))

    async def press(
        self, chat_id: int, message_id: int, from_id: int, data: str, timeout: float = 15, wait_late: bool = False
    ) -> dict[str, Any]:
        """Press a button; the bot's answer (``answered`` False if none came in the 15 s Telegram waits).
        ``wait_late``: wait on, up to ``timeout``, for an answer that comes too late (Telegram refuses it), and
        return what it said as ``late``."""
        body = {"chat_id": chat_id, "message_id": message_id, "from_id": from_id, "data": data, "timeout": timeout}
        return dict(await self._post("/sandbox/press", {**body, "wait_late": wait_late}))

    async def press_forged(
        self, chat_id: int, message_id: int, from_id: int, data: str | None, timeout: float = 15
    ) -> dict[str, Any]:
        """For tests only (Telegram has no such thing): press ``message_id`` with any callback data, on the
        message or not, empty, overlong; None sends a query without data."""
        body = {"chat_id": chat_id, "message_id": message_id, "from_id": from_id, "data": data, "timeout": timeout}
        return dict(await self._post("/sandbox/press_forged", body))

    async def register_app(
        self, short_name: str, url: str, *, bot_token: str | None = None, bot_username: str | None = None
    ) -> dict[str, Any]:
        """BotFather's /newapp: the bot (by its token or its username; by default the sandbox's bot) gets a Mini App
        ``{bot_username, short_name, url, link}`` that opens at https://t.me/<bot_username>/<short_name>."""
        body: dict[str, Any] = {"short_name": short_name, "url": url}
        if bot_token is not None:
            body["bot_token"] = bot_token
        else:
            body["bot_username"] = bot_username or (await self._get("/sandbox/bot"))["username"]
        return dict(await self._post("/sandbox/apps", body))

    async def open_link(self, user_id: int, chat_id: int, url: str, theme: str = "light") -> str:
        """The user opens a Mini App in a chat: a Direct Link (https://t.me/<bot>/<app>?startapp=...) or a web_app
        button the chat shows them (on a message, or its menu button). The page's address as Telegram opens it,
        with the signed launch data in its fragment; ``theme`` "light" or "dark"."""
        body = {"user_id": user_id, "chat_id": chat_id, "url": url, "theme": theme}
        return str((await self._post("/sandbox/open_link", body))["url"])

    async def messages(self, chat_id: int) -> list[dict[str, Any]]:
        return list(await self._get(f"/sandbox/chats/{chat_id}/messages"))

    async def log(self, after: int = 0, wait: float = 0) -> dict[str, Any]:
        return dict(await self._get("/sandbox/log", after=after, wait=wait))

    async def config(self, **body: Any) -> dict[str, Any]:
        return dict(await self._post("/sandbox/config", body))

    async def picture(self, url: str) -> bytes:
        response = await self.http.get(url)
        response.raise_for_status()
        return response.content

    async def changes(self, after: int = -1, wait: float = 0) -> int:
        """The sandbox's change counter, once it is past ``after`` (or ``wait`` seconds have passed): it moves
        with every update, Bot API call and control action, so a waiter looks again only when something
        happened."""
        return int((await self._get("/sandbox/changes", after=after, wait=wait))["version"])

    async def state(self) -> dict[str, int]:
        """``{version, updates_pending, calls_in_flight}``: what the sandbox holds for the bot right now."""
        return dict(await self._get("/sandbox/state"))

    async def wait_for(
        self, chat_id: int, predicate: Callable[[list[dict[str, Any]]], Any], timeout: float = WAIT_SECONDS
    ) -> Any:
        """A chat's messages, looked at each time something changes in the sandbox, until ``predicate`` returns
        something truthy; return that. ``timeout`` only bounds a wait for something that never comes."""
        deadline = time.monotonic() + timeout
        seen = await self.changes()
        while True:
            result = predicate(await self.messages(chat_id))
            if result:
                return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met in chat {chat_id} within {timeout} s")
            seen = await self.changes(after=seen, wait=min(left, 5.0))
