"""Every reply the bot makes still arrives when the message it answers was deleted meanwhile: PTB's Defaults
send ``allow_sending_without_reply`` with each reply (Telegram refuses a reply to a deleted message without
it: 400 "message to be replied not found"; the sandbox does the same)."""

from __future__ import annotations

import httpx
import pytest
from telegram import Bot
from telegram.error import BadRequest

from bot.app import build_application
from bot.config import Settings
from sandbox.server import SandboxServer


async def _deleted_command(server: SandboxServer) -> int:
    """A user's /stats in a group, deleted by them before the bot answers; returns the group's id."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        user = (await http.post("/sandbox/users", json={"first_name": "علی"})).json()
        group = (await http.post("/sandbox/chats", json={"title": "G", "members": [user["id"]]})).json()
        sent = await http.post(
            "/sandbox/messages", json={"chat_id": group["id"], "from_id": user["id"], "text": "/stats"}
        )
        path = f"/sandbox/chats/{group['id']}/messages/{sent.json()['message_id']}/delete"
        assert (await http.post(path, json={"by": user["id"]})).status_code == 200
    return int(group["id"])


async def test_the_bot_s_replies_survive_a_deleted_message() -> None:
    async with SandboxServer() as server:
        settings = Settings(bot_token="123:abc", bot_api_url=server.url)  # type: ignore[arg-type]
        app = build_application(settings, "redis://127.0.0.1:1")  # Redis is never asked here
        async with app.bot:
            chat_id = await _deleted_command(server)
            [*_, update] = await app.bot.get_updates(timeout=0)
            assert update.message is not None and update.message.chat_id == chat_id
            reply = await update.message.reply_text("📊 جدول")
            assert reply.reply_to_message is None and reply.text == "📊 جدول"


async def test_without_the_defaults_such_a_reply_fails() -> None:
    async with SandboxServer() as server, Bot("123:abc", base_url=f"{server.url}/bot") as bot:
        await _deleted_command(server)
        [*_, update] = await bot.get_updates(timeout=0)
        assert update.message is not None
        with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
            await update.message.reply_text("📊 جدول")
