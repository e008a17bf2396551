"""Group admins' controls: /settings (turn timer, reminder, removal after time-outs, idle lobbies, the games
the group allows and their default options, computer players' pause and stand-ins), /pause and /resume of the
turn timer, /kick. Admin rights are checked with Telegram at every use."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from ai import LEVELS
from bot.flow.commit import commit, schedule
from bot.flow.redraw import redraw
from bot.games import PLAYABLE, PRESENTERS, OptionToggle
from bot.handlers.access import is_admin, on_behalf_of_a_chat
from bot.handlers.lobby import remove_player
from bot.messages import keyboards, texts
from bot.messages.fa import duration, name, num
from bot.messages.keyboards import checked_data
from bot.messages.seats import present
from bot.plumbing.group_settings import GroupSettings
from bot.plumbing.services import locked_game, services, when_unlocked, where
from bot.plumbing.store import GameRecord

MAX_TIMEOUT_CHOICES = (1, 2, 3, 5)
LOBBY_IDLE_CHOICES = (300, 900, 3600, 0)
COMPUTER_PAUSE_CHOICES = (0, 1, 2, 3, 5)  # seconds before a computer player's move (0: as soon as it has thought)
STAND_IN_CHOICES = ("off", *LEVELS)  # who replaces a player removed for time-outs: nobody, or a computer level


def pause_text(seconds: int) -> str:
    return duration(seconds) if seconds else texts.NO_PAUSE


def pause_button(seconds: int) -> str:
    return texts.COMPUTER_PAUSE_BUTTON.format(pause=duration(seconds)) if seconds else texts.NO_PAUSE_BUTTON


def stand_in_text(level: str) -> str:
    """The stand-in setting as its button says it."""
    return texts.STAND_IN_LEVEL.format(level=LEVELS[level].title) if level in LEVELS else texts.STAND_IN_OFF


def stand_in_line(level: str) -> str:
    """The stand-in setting as the settings' text says it: what happens to a seat taken out."""
    return texts.STAND_IN_LEVEL_LINE.format(level=LEVELS[level].title) if level in LEVELS else texts.STAND_IN_OFF_LINE


def _mark(chosen: bool, label: str) -> str:
    """One of several choices: the chosen one is ticked, pressing another chooses it."""
    return f"✅ {label}" if chosen else label


def _switch(label: str, on: bool, *, verbs: tuple[str, str] = ("خاموش کردن", "روشن کردن")) -> str:
    """A yes/no setting: ticked or not (its state), then what pressing it does (its action)."""
    return f"{'✅' if on else '⬜️'} {label} · {verbs[0] if on else verbs[1]}"


def _option_label(toggle: OptionToggle) -> str:
    """A lobby option's label short enough for a button: its short form, else without its explanation."""
    return toggle.short or toggle.label.split(" (")[0]


def default_option(settings: GroupSettings, game_id: str, field: str) -> bool:
    """The value a new lobby of ``game_id`` starts with here for the option ``field``."""
    fallback = PLAYABLE[game_id].options_model.model_fields[field].default
    return bool(settings.options_for(game_id).get(field, fallback))


def settings_text(settings: GroupSettings) -> str:
    timer = duration(settings.turn_seconds) if settings.turn_seconds else "بدون زمان"
    lobby = duration(settings.lobby_idle_seconds) if settings.lobby_idle_seconds else "هرگز"
    games = "، ".join(g.title for g in PLAYABLE.values() if settings.allows(g.id)) or "هیچ‌کدام"
    return "\n".join(
        [
            texts.SETTINGS_TITLE,
            "",
            f"⏱ زمان هر نوبت: <b>{timer}</b>",
            f"🔔 یادآوری در نیمهٔ زمان: <b>{'روشن' if settings.reminder else 'خاموش'}</b>",
            f"🚫 کنار گذاشتن بازیکن پس از <b>{num(settings.max_timeouts)}</b> بار تمام شدن پیاپی زمان"
            " (ربات به جایش بازی می‌کند؛ در بازی دو نفره حریفش می‌برد)",
            f"⌛️ بستن اتاق انتظارِ بی‌کار پس از: <b>{lobby}</b>",
            f"🎲 بازی‌های باز در این گروه: {games}",
            "⚙️ گزینه‌های هر بازی (زیرِ دکمهٔ همان بازی) پیش‌فرضِ اتاق‌های انتظار تازه‌اند؛ در هر اتاق هم می‌شود عوضشان کرد.",
            texts.COMPUTER_PAUSE.format(pause=pause_text(settings.computer_pause_seconds)),
            texts.STAND_IN_SETTING.format(who=stand_in_line(settings.stand_in)),
            "",
            "وقتی زمان کسی تمام شود، ربات حرکت پیش‌فرض بازی را به جای او انجام می‌دهد.",
            "دکمه‌های ✅ همان چیزی‌اند که الان انتخاب شده؛ روی دکمه‌های روشن و خاموش آمده که زدنشان چه می‌کند.",
        ]
    )


def settings_keyboard(settings: GroupSettings, timer_choices: tuple[int, ...]) -> InlineKeyboardMarkup:
    """Short buttons, a row or two per setting, each with the emoji of its line in the text above: the choices
    of a number ticked where chosen, and each yes/no setting saying whether it is on and what a press does."""
    timers = [
        InlineKeyboardButton(_mark(settings.turn_seconds == s, f"⏱ {duration(s)}"), callback_data=f"s:t:{s}")
        for s in timer_choices
    ]
    timers.append(InlineKeyboardButton(_mark(settings.turn_seconds == 0, "⏱ بدون زمان"), callback_data="s:t:0"))
    rows = _rows(timers, 3)
    reminder = _switch("🔔 یادآوری", settings.reminder)
    rows.append([InlineKeyboardButton(reminder, callback_data=f"s:r:{0 if settings.reminder else 1}")])
    removal = [
        InlineKeyboardButton(_mark(settings.max_timeouts == n, f"🚫 پس از {num(n)} بار"), callback_data=f"s:m:{n}")
        for n in MAX_TIMEOUT_CHOICES
    ]
    rows += _rows(removal, 2)
    idle = [
        InlineKeyboardButton(
            _mark(settings.lobby_idle_seconds == s, f"⌛️ اتاق: {duration(s) if s else 'هرگز'}"),
            callback_data=f"s:l:{s}",
        )
        for s in LOBBY_IDLE_CHOICES
    ]
    rows += _rows(idle, 2)
    rows += computer_rows(settings)
    for game in PLAYABLE.values():
        presenter = PRESENTERS[game.id]
        shown = _switch(f"{presenter.emoji} {game.title}", settings.allows(game.id), verbs=("بستن", "باز کردن"))
        rows.append([InlineKeyboardButton(shown, callback_data=checked_data(f"s:g:{game.id}"))])
        for toggle in presenter.toggles:
            label = _switch(
                f"{presenter.emoji} {_option_label(toggle)}", default_option(settings, game.id, toggle.field)
            )
            rows.append([InlineKeyboardButton(label, callback_data=checked_data(f"s:o:{game.id}.{toggle.field}"))])
    return InlineKeyboardMarkup(rows)


def _rows(buttons: list[InlineKeyboardButton], columns: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + columns] for i in range(0, len(buttons), columns)]


def computer_rows(settings: GroupSettings) -> list[list[InlineKeyboardButton]]:
    """The computer players' rows: the pause before their moves, and the stand-in for a removed player."""
    pauses = [
        InlineKeyboardButton(
            _mark(settings.computer_pause_seconds == s, pause_button(s)),
            callback_data=f"s:c:{s}",
        )
        for s in COMPUTER_PAUSE_CHOICES
    ]
    stand_ins = [
        InlineKeyboardButton(
            _mark(settings.stand_in == level, texts.STAND_IN_BUTTON.format(who=stand_in_text(level))),
            callback_data=f"s:x:{level}",
        )
        for level in STAND_IN_CHOICES
    ]
    return _rows(pauses, 2) + _rows(stand_ins, 2)  # two to a row: a phone's width


async def _admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    return await is_admin(context.bot, chat.id, user.id, update.effective_message)


async def cmd_settings(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    assert message is not None
    if not await _admin(update, context):
        await message.reply_text(texts.NOT_ADMIN)
        return
    svc = services(context)
    settings = await svc.store.group_settings(message.chat_id)
    await message.reply_text(
        settings_text(settings),
        reply_markup=settings_keyboard(settings, svc.settings.turn_timer_choices),
    )


async def on_settings_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``s:<field>:<value>``: change one setting; a running game's timer follows at once."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, field, raw = query.data.split(":", 2)
    if not await is_admin(context.bot, query.message.chat.id if query.message else 0, query.from_user.id):
        await query.answer(texts.NOT_ADMIN, show_alert=True)
        return
    svc = services(context)
    settings = await svc.store.group_settings(where(update)[0])
    if field == "x":
        if raw not in STAND_IN_CHOICES:
            await query.answer(texts.STALE, show_alert=True)
            return
        await _save(update, context, settings.model_copy(update={"stand_in": raw}))
        return
    if field in ("g", "o"):
        changed = _game_setting(settings, field, raw)
        if isinstance(changed, str):
            await query.answer(changed, show_alert=True)
            return
        await _save(update, context, changed)
        return
    value = int(raw)
    allowed = {
        "t": (*svc.settings.turn_timer_choices, 0),
        "r": (0, 1),
        "m": MAX_TIMEOUT_CHOICES,
        "l": LOBBY_IDLE_CHOICES,
        "c": COMPUTER_PAUSE_CHOICES,
    }
    if value not in allowed[field]:
        await query.answer(texts.STALE, show_alert=True)
        return
    name = {
        "t": "turn_seconds",
        "r": "reminder",
        "m": "max_timeouts",
        "l": "lobby_idle_seconds",
        "c": "computer_pause_seconds",
    }[field]
    await _save(update, context, settings.model_copy(update={name: bool(value) if field == "r" else value}))


def _game_setting(settings: GroupSettings, field: str, raw: str) -> GroupSettings | str:
    """``g:<game>`` opens or closes a game in the group; ``o:<game>.<option>`` flips a lobby option's default.
    The new settings, or why not (an alert)."""
    game_id, _, option = raw.partition(".")
    if game_id not in PLAYABLE or (field == "o" and option not in {t.field for t in PRESENTERS[game_id].toggles}):
        return texts.STALE
    if field == "g":
        disabled = set(settings.disabled_games) ^ {game_id}
        if all(g in disabled for g in PLAYABLE):
            return texts.LAST_GAME_ALLOWED
        return settings.model_copy(update={"disabled_games": sorted(disabled)})
    options = settings.options_for(game_id) | {option: not default_option(settings, game_id, option)}
    return settings.model_copy(update={"default_options": settings.default_options | {game_id: options}})


async def _save(update: Update, context: ContextTypes.DEFAULT_TYPE, settings: GroupSettings) -> None:
    """Store the group's settings, confirm, let a running game's timer follow and redraw the menu."""
    query = update.callback_query
    assert query is not None
    svc = services(context)
    chat_id, thread_id = where(update)
    await svc.store.set_group_settings(chat_id, settings)
    await query.answer(texts.SETTINGS_SAVED)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is not None and record.active:
            await schedule(context, record)
    try:
        await query.edit_message_text(
            settings_text(settings),
            reply_markup=settings_keyboard(settings, svc.settings.turn_timer_choices),
        )
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            raise


async def cmd_pause(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _set_paused(update, context, True)


async def cmd_resume(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _set_paused(update, context, False)


async def _set_paused(update: Update, context: ContextTypes.DEFAULT_TYPE, paused: bool) -> None:
    """Stop or restart the turn timer of this chat's game; resuming gives the player a full turn again."""
    message = update.effective_message
    assert message is not None
    if not await _admin(update, context):
        await message.reply_text(texts.NOT_ADMIN)
        return
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or record.phase != "playing":
            await when_unlocked(lambda: message.reply_text(texts.NO_RUNNING_GAME))
            return
        record.paused = paused
        record = await commit(context, record)
        await redraw(context, record)
    await message.reply_text(texts.PAUSED if paused else texts.RESUMED)


def replied_to(message: Message) -> Message | None:
    """The message ``message`` answers, if its author chose one: in a forum topic every message replies to the
    topic's first message (its ``forum_topic_created`` service message) when it replies to nothing else, and
    that implicit reply names nobody."""
    replied = message.reply_to_message
    if replied is None or replied.forum_topic_created is not None:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return replied


def _target(record: GameRecord, message: Message, args: list[str]) -> int | None:
    """The seat meant by /kick: the author of the replied-to message, else the player named in the text
    (display name or @username, case-insensitive)."""
    replied = replied_to(message)
    if replied is not None and replied.from_user is not None:
        return record.seat_of(replied.from_user.id)
    wanted = " ".join(args).strip().removeprefix("@").casefold()
    for seat, player in enumerate(record.players):
        if wanted and wanted in (player.name.casefold(), (player.username or "").casefold()):
            return seat
    return None


async def cmd_kick(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An admin removes a player: from a lobby at once, from a running game as if they had left."""
    message = update.effective_message
    assert message is not None
    if not await _admin(update, context):
        await message.reply_text(texts.NOT_ADMIN)
        return
    if replied_to(message) is None and not context.args:
        await message.reply_text(texts.KICK_USAGE)
        return
    chat_id, thread_id = where(update)
    async with locked_game(context, chat_id, thread_id) as record:
        if record is None or not record.active:
            await when_unlocked(lambda: message.reply_text(texts.NO_RUNNING_GAME))
            return
        seat = _target(record, message, list(context.args or []))
        if seat is None:
            await when_unlocked(lambda: message.reply_text(texts.KICK_WHO))
            return
        who = name(record.players[seat].name)
        if seat in record.gone:
            await when_unlocked(lambda: message.reply_text(texts.KICK_GONE.format(who=who)))
        elif record.phase == "lobby":
            await remove_player(context, record, record.players[seat].user_id)
            await when_unlocked(lambda: message.reply_text(texts.KICKED_LOBBY.format(who=who)))
        else:  # taken out of a running game for good: asked first
            staying = [s for s in present(record) if s != seat]
            then = texts.KICK_WINS if len(staying) <= 1 else texts.KICK_PLAYS_ON
            question = texts.KICK_CONFIRM.format(who=who, then=then)
            user = update.effective_user
            asker = 0 if on_behalf_of_a_chat(update) or user is None else user.id  # 0: any admin may answer
            buttons = keyboards.confirm(f"kick{seat}", record.seed, asker, texts.KICK_YES, texts.KICK_NO)
            await when_unlocked(lambda: message.reply_text(question, reply_markup=buttons))
