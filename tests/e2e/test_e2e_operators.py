"""End to end: the operators' /status, /maintenance and /broadcast."""

from __future__ import annotations

from typing import Any

from bot.dev.simulate import Settle, open_lobby, table
from bot.messages import texts
from sandbox.control_client import ControlClient


async def _say(sandbox: ControlClient, user: dict[str, Any], text: str) -> str:
    """Send a private command and wait for the bot's answer (which may wait out a 429 in a busy chat)."""
    sent = await sandbox.send(user["id"], user["id"], text)

    def answer(messages: list[dict[str, Any]]) -> str | None:
        replies = [m for m in messages if m["from_bot"] and m["message_id"] > sent["message_id"]]
        return str(replies[0]["text"]) if replies else None

    return str(await sandbox.wait_for(user["id"], answer))


async def test_only_operators_get_the_status(sandbox: ControlClient, operator: dict[str, Any]) -> None:
    t = await table(sandbox)
    assert await _say(sandbox, t.players[0], "/status") == texts.OPERATORS_ONLY
    status = await _say(sandbox, operator, "/status")
    assert "وضعیت ربات" in status and "حافظهٔ Redis" in status


async def test_maintenance_stops_new_games_and_tells_active_groups(
    sandbox: ControlClient, settle: Settle, operator: dict[str, Any]
) -> None:
    t = await table(sandbox)
    await open_lobby(sandbox, t)
    try:
        reply = await _say(sandbox, operator, "/maintenance on")
        assert "روشن شد" in reply
        assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.MAINTENANCE_NOTICE
        other = await table(sandbox)
        await sandbox.send(other.chat_id, other.players[0]["id"], "/new coin_age")
        await settle()
        assert (await sandbox.messages(other.chat_id))[-1]["text"] == texts.MAINTENANCE
    finally:
        off = await _say(sandbox, operator, "/maintenance off")
    assert "خاموش شد" in off
    lobby = await open_lobby(sandbox, other)
    assert "اتاق انتظار" in lobby["text"]


async def test_broadcast_reaches_groups_with_a_lobby_or_game(sandbox: ControlClient, operator: dict[str, Any]) -> None:
    busy, idle = await table(sandbox), await table(sandbox)
    await open_lobby(sandbox, busy)
    reply = await _say(sandbox, operator, "/broadcast سلام به همه")
    assert "فرستاده شد" in reply
    assert (await sandbox.messages(busy.chat_id))[-1]["text"] == "📢 سلام به همه"
    assert not any("سلام به همه" in (m["text"] or "") for m in await sandbox.messages(idle.chat_id))
