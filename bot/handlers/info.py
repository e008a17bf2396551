"""Commands that only inform: /help, /games, /rules (alone: a button per game, which shows its rules)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.games import PLAYABLE, PRESENTERS
from bot.messages import texts
from bot.messages.fa import num
from bot.messages.keyboards import RULES_DATA, checked_data
from bot.messages.split import split_html
from bot.plumbing.services import services, where
from rules import GAMES


async def reply_long(update: Update, text: str) -> None:
    """Reply with ``text``, in as many messages as Telegram's 4096 characters need (bot/messages/split.py)."""
    if update.effective_message is not None:
        for part in split_html(text):
            await update.effective_message.reply_text(part)


_reply = reply_long


async def cmd_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _reply(update, texts.HELP.format(bot=context.bot.username))


def players_text(game_id: str) -> str:
    """«دو نفره», «۲ تا ۵ نفر»: how many play a game."""
    game = PLAYABLE[game_id]
    if game.min_players == game.max_players:
        return "دو نفره" if game.min_players == 2 else f"{num(game.min_players)} نفره"
    return f"{num(game.min_players)} تا {num(game.max_players)} نفر"


def games_text() -> str:
    lines = ["🎲 <b>بازی‌های دورهمی</b>", ""]
    for game in PLAYABLE.values():
        presenter = PRESENTERS[game.id]
        lines.append(f"{presenter.emoji} <b>{game.title}</b> — {players_text(game.id)}؛ {presenter.summary}")
    lines += ["", texts.GAMES_HOW]
    return "\n".join(lines)


def rules_picker() -> InlineKeyboardMarkup:
    """A button per game: its rules."""
    buttons = [
        InlineKeyboardButton(f"{PRESENTERS[g.id].emoji} {g.title}", callback_data=checked_data(f"{RULES_DATA}{g.id}"))
        for g in PLAYABLE.values()
    ]
    return InlineKeyboardMarkup([buttons[i : i + 2] for i in range(0, len(buttons), 2)])


async def cmd_games(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The games, each with a button to its rules."""
    if update.effective_message is not None:
        await update.effective_message.reply_text(games_text(), reply_markup=rules_picker())


async def cmd_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The rules in force: the named game's, else this chat's game's (with its options), else a button per
    game."""
    game_id = context.args[0].lower() if context.args else ""
    options = None
    if not game_id and update.effective_chat is not None and update.effective_chat.type != "private":
        record = await services(context).store.load(*where(update))
        if record is not None and record.active:
            game_id = record.game_id
            options = GAMES[game_id].options_model.model_validate(record.options)
    if not game_id:
        if update.effective_message is not None:
            await update.effective_message.reply_text(texts.PICK_RULES, reply_markup=rules_picker())
        return
    if game_id not in PLAYABLE:
        await _reply(update, texts.UNKNOWN_GAME)
        return
    game = GAMES[game_id]
    await _reply(update, PRESENTERS[game_id].rules_text(options or game.options_model()))


async def on_rules_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``r:<game>`` under /rules: that game's rules (its usual options) take the list's place, its buttons kept
    so another game's rules are one press away."""
    query = update.callback_query
    assert query is not None and query.data is not None
    game = GAMES[query.data.removeprefix(RULES_DATA)]
    await query.answer()
    text = PRESENTERS[game.id].rules_text(game.options_model())
    message = query.message
    parts = split_html(text)
    if isinstance(message, Message) and len(parts) == 1:
        try:
            await message.edit_text(text, reply_markup=rules_picker())
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():
                raise
        return
    if isinstance(message, Message):
        for part in parts:
            await message.reply_text(part)
