"""End to end: admins choose in /settings which games the group offers and the options new lobbies start
with."""

from __future__ import annotations

from bot.dev.simulate import Settle, button, buttons, open_lobby, table
from bot.messages import texts
from sandbox.control_client import ControlClient


async def _settings_menu(
    sandbox: ControlClient, settle: Settle, chat_id: int, admin: dict[str, object]
) -> dict[str, object]:
    await sandbox.send(chat_id, admin["id"], "/settings")
    await settle()
    return (await sandbox.messages(chat_id))[-1]


async def test_admins_close_games_and_set_default_options(sandbox: ControlClient, settle: Settle) -> None:
    t = await table(sandbox)
    admin, member = t.players
    menu = await _settings_menu(sandbox, settle, t.chat_id, admin)
    answer = await sandbox.press(t.chat_id, menu["message_id"], member["id"], button(menu, "s:g:coin_age")["data"])
    assert answer["show_alert"] and answer["text"] == texts.NOT_ADMIN
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], button(menu, "s:g:coin_age")["data"])
    assert answer["text"] == texts.SETTINGS_SAVED
    answer = await sandbox.press(
        t.chat_id, menu["message_id"], admin["id"], button(menu, "s:o:conqueror.random_board")["data"]
    )
    assert answer["text"] == texts.SETTINGS_SAVED
    await settle()
    menu = next(m for m in await sandbox.messages(t.chat_id) if m["message_id"] == menu["message_id"])
    labels = [b["text"] for b in buttons(menu)]
    assert "⬜️ 🪙 عصر سکه‌ها · باز کردن" in labels  # closed now: the button says so, and what a press does
    assert "✅ 🏰 صفحهٔ تصادفی · خاموش کردن" in labels

    await sandbox.send(t.chat_id, member["id"], "/new coin_age")
    await settle()
    assert (await sandbox.messages(t.chat_id))[-1]["text"] == texts.GAME_DISABLED
    await sandbox.send(t.chat_id, member["id"], "/new")
    await settle()
    picker = (await sandbox.messages(t.chat_id))[-1]
    offered = [b["data"] for b in buttons(picker)]
    assert "new:coin_age" not in offered and "new:conqueror" in offered

    lobby = await open_lobby(sandbox, t, "conqueror")
    assert any(b["text"].startswith("✅ صفحهٔ تصادفی") for b in buttons(lobby))  # the group's default


async def test_the_last_open_game_cannot_be_closed(sandbox: ControlClient, settle: Settle) -> None:
    t = await table(sandbox)
    admin = t.players[0]
    menu = await _settings_menu(sandbox, settle, t.chat_id, admin)
    games = [b["data"] for b in buttons(menu) if b["data"].startswith("s:g:")]
    for data in games[:-1]:
        answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], data)
        assert answer["text"] == texts.SETTINGS_SAVED
    answer = await sandbox.press(t.chat_id, menu["message_id"], admin["id"], games[-1])
    assert answer["show_alert"] and answer["text"] == texts.LAST_GAME_ALLOWED
