"""A whole PTB Application polling the sandbox: commands, buttons and idle, end to end."""

from __future__ import annotations

from typing import Any

import httpx
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from sandbox.server import SandboxServer


async def on_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("پیوستن", callback_data="join")]])
    args = " ".join(context.args or [])
    await update.effective_message.reply_html(f"<b>بازی تازه</b>: {args}", reply_markup=markup)


async def on_join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    await query.answer("خوش آمدی")
    await query.edit_message_text(f"بازیکن: {query.from_user.first_name}")


async def test_application_plays_a_round(server: SandboxServer, client: httpx.AsyncClient, world: Any) -> None:
    application = (
        Application.builder()
        .token("123:abc")
        .base_url(f"{server.url}/bot")
        .base_file_url(f"{server.url}/file/bot")
        .build()
    )
    application.add_handler(CommandHandler("new", on_new))
    application.add_handler(CallbackQueryHandler(on_join))
    ali = await world.user("علی")
    group = await world.group("G", [ali])
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        try:
            await world.say(group["id"], ali, "/new@dorehami_bot coin_age")
            assert (await client.post("/sandbox/idle", json={"timeout": 10})).json() == {"idle": True}
            [_command, reply] = await world.messages(group["id"])
            assert reply["text"] == "بازی تازه: coin_age" and reply["buttons"] == [[{"text": "پیوستن", "data": "join"}]]
            press = {"chat_id": group["id"], "message_id": reply["message_id"], "from_id": ali["id"], "data": "join"}
            answer = (await client.post("/sandbox/press", json=press)).json()
            assert answer["answered"] is True and answer["text"] == "خوش آمدی"
            assert (await client.post("/sandbox/idle", json={"timeout": 10})).json() == {"idle": True}
            [_, edited] = await world.messages(group["id"])
            assert edited["text"] == "بازیکن: علی" and edited["edits"] == 1 and edited["buttons"] == []
        finally:
            await application.updater.stop()
            await application.stop()
