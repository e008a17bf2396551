"""Commands that only inform: /help, /games, /rules."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.games import PLAYABLE, PRESENTERS
from bot.messages import texts
from bot.messages.fa import num
from bot.messages.split import split_html
from bot.services import services, where
from rules import GAMES


async def reply_long(update: Update, text: str) -> None:
    """Reply with ``text``, in as many messages as Telegram's 4096 characters need (bot/messages/split.py)."""
    if update.effective_message is not None:
        for part in split_html(text):
            await update.effective_message.reply_text(part)


_reply = reply_long


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _reply(update, texts.HELP.format(bot=context.bot.username))


def games_text() -> str:
    lines = ["🎲 <b>بازی‌های دورهمی</b>", ""]
    for game in PLAYABLE.values():
        presenter = PRESENTERS[game.id]
        players = (
            f"{num(game.min_players)} نفر"
            if game.min_players == game.max_players
            else f"{num(game.min_players)} تا {num(game.max_players)} نفر"
        )
        lines.append(f"{presenter.emoji} <b>{game.title}</b> ({players}) — {presenter.summary}")
        lines.append(f"   ساختن: <code>/new {game.id}</code>، قوانین: <code>/rules {game.id}</code>")
    return "\n".join(lines)


async def cmd_games(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _reply(update, games_text())


async def cmd_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The rules in force: the named game's, else this chat's game's (with its options), else a list."""
    game_id = context.args[0].lower() if context.args else ""
    options = None
    if not game_id and update.effective_chat is not None and update.effective_chat.type != "private":
        record = await services(context).store.load(*where(update))
        if record is not None and record.active:
            game_id = record.game_id
            options = GAMES[game_id].options_model.model_validate(record.options)
    if not game_id:
        await _reply(update, games_text())
        return
    if game_id not in PLAYABLE:
        await _reply(update, texts.UNKNOWN_GAME)
        return
    game = GAMES[game_id]
    await _reply(update, PRESENTERS[game_id].rules_text(options or game.options_model()))
