"""Fixtures that run a fresh sandbox per test and talk to it like the bot and the tests would."""

from __future__ import annotations

import struct
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import httpx
import pytest
from telegram import Bot

from sandbox.server import SandboxServer


def png_bytes(width: int, height: int, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A real (tiny) PNG, built by hand so the tests need no imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
async def server() -> AsyncIterator[SandboxServer]:
    async with SandboxServer() as running:
        yield running


@pytest.fixture
async def client(server: SandboxServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        yield http


@pytest.fixture
async def bot(server: SandboxServer) -> AsyncIterator[Bot]:
    tg = Bot(token="123:abc", base_url=f"{server.url}/bot", base_file_url=f"{server.url}/file/bot")
    async with tg:
        yield tg


class World:
    """Shortcuts for setting up users and groups through the control API."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def user(self, first_name: str, **extra: Any) -> dict[str, Any]:
        response = await self.client.post("/sandbox/users", json={"first_name": first_name, **extra})
        response.raise_for_status()
        return dict(response.json())

    async def group(
        self, title: str, members: list[dict[str, Any]], admins: Sequence[dict[str, Any]] = (), **extra: Any
    ) -> dict[str, Any]:
        body = {"title": title, "members": [u["id"] for u in members], "admins": [u["id"] for u in admins]}
        response = await self.client.post("/sandbox/chats", json={**body, **extra})
        response.raise_for_status()
        return dict(response.json())

    async def say(self, chat_id: int, user: dict[str, Any], text: str, **extra: Any) -> dict[str, Any]:
        body = {"chat_id": chat_id, "from_id": user["id"], "text": text, **extra}
        response = await self.client.post("/sandbox/messages", json=body)
        response.raise_for_status()
        return dict(response.json())

    async def topic(self, chat_id: int, user: dict[str, Any], name: str) -> dict[str, Any]:
        body = {"from_id": user["id"], "name": name}
        response = await self.client.post(f"/sandbox/chats/{chat_id}/topics", json=body)
        response.raise_for_status()
        return dict(response.json())

    async def close_topic(self, chat_id: int, thread_id: int, user: dict[str, Any], closed: bool = True) -> Any:
        body = {"from_id": user["id"], "closed": closed}
        return await self.client.post(f"/sandbox/chats/{chat_id}/topics/{thread_id}", json=body)

    async def edit(self, chat_id: int, message_id: int, user: dict[str, Any], text: str) -> httpx.Response:
        body = {"chat_id": chat_id, "message_id": message_id, "from_id": user["id"], "text": text}
        return await self.client.post("/sandbox/messages/edit", json=body)

    async def messages(self, chat_id: int) -> list[dict[str, Any]]:
        response = await self.client.get(f"/sandbox/chats/{chat_id}/messages")
        response.raise_for_status()
        return list(response.json())

    async def log(self, after: int = 0) -> list[dict[str, Any]]:
        response = await self.client.get("/sandbox/log", params={"after": after})
        return list(response.json()["items"])


@pytest.fixture
def world(client: httpx.AsyncClient) -> World:
    return World(client)


@pytest.fixture
def make_png() -> Callable[..., bytes]:
    return png_bytes
