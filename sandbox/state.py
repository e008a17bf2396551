"""The emulated world: users, chats, their messages and uploaded files.

Plain data with id allocation and lookups; the rules of the Bot API live in the method modules.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sandbox.formatting import FormattedText
from sandbox.images import ImageInfo

BOT_ID = 100000
BOT_FIRST_NAME = "دورهمی"
BOT_USERNAME = "dorehami_bot"
FIRST_USER_ID = 1001
# Telegram's supergroup ids look like -100XXXXXXXXXX; ours count up from -1001000000001. Basic groups have
# short negative ids (-4XXXXXXXXX nowadays); ours count up from -4000000001.
GROUP_ID_BASE = -1001000000000
BASIC_GROUP_ID_BASE = -4000000000
# Fake senders Telegram puts in ``from`` of messages sent on behalf of a chat (Bot API: Message.from, sender_chat).
ANONYMOUS_ADMIN_ID = 1087968824  # @GroupAnonymousBot: an anonymous admin writing as the group
CHANNEL_BOT_ID = 136817688  # @Channel_Bot: a message sent as a channel
TELEGRAM_ID = 777000  # "Telegram": a linked channel's post forwarded automatically to its discussion group
# The bot's standing in a chat (ChatMember.status), as the sandbox lets tests set it.
BOT_STATUSES = ("administrator", "member", "restricted", "left", "kicked")


@dataclass
class User:
    """A human the sandbox plays; ``started`` means they have written to the bot in private."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    started: bool = False
    blocked: bool = False
    is_bot: bool = False  # another bot in the groups (made with is_bot): our bot never sees what it says

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass
class StoredFile:
    """An uploaded image, addressable by file_id and by its download path."""

    file_id: str
    file_unique_id: str
    data: bytes
    info: ImageInfo
    file_path: str


@dataclass
class Message:
    """One message as the sandbox keeps it, including edits and deletion."""

    message_id: int
    chat_id: int
    from_id: int
    date: int
    text: FormattedText | None = None
    caption: FormattedText | None = None
    photo_file_id: str | None = None
    reply_markup: dict[str, Any] | None = None
    message_thread_id: int | None = None  # a forum topic's, or (not is_topic) a reply chain's first message
    is_topic: bool = False
    reply_to_message_id: int | None = None  # in a topic, its first message unless it replies to another
    sender_chat_id: int | None = None  # sent on behalf of a chat: the group itself or a channel
    is_automatic_forward: bool = False
    service: dict[str, Any] = field(default_factory=dict)  # a service message's fields, e.g. migrate_to_chat_id
    edits: int = 0
    edit_date: int | None = None
    deleted: bool = False

    @property
    def from_bot(self) -> bool:
        return self.from_id == BOT_ID

    def callback_data(self) -> list[str]:
        """The callback_data of the message's current inline buttons."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [b["callback_data"] for row in rows for b in row if "callback_data" in b]


@dataclass
class Topic:
    """A forum topic: its thread id is the id of its creation service message."""

    thread_id: int
    name: str
    creator: int
    closed: bool = False


@dataclass
class Chat:
    """A group the bot is in (a supergroup, or a basic group until it migrates), a channel, or a user's private
    chat with the bot (id = user id)."""

    id: int
    type: str
    title: str | None = None
    members: list[int] = field(default_factory=list)
    admins: list[int] = field(default_factory=list)
    creator: int | None = None
    is_forum: bool = False
    privacy: bool = True  # the bot's privacy mode as it was when the bot joined (BotFather: re-add to change)
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    topics: dict[int, Topic] = field(default_factory=dict)  # forum topics by thread id (their first message)
    last_bot_sender: int | None = None  # the bot (ours or another) that sent the group's latest bot message
    bot_status: str = "member"  # one of BOT_STATUSES; Telegram adds a bot as a plain member
    migrated_to: int | None = None  # a basic group that became this supergroup
    username: str | None = None  # a public supergroup's or channel's @username (a basic group has none)
    menu_button: dict[str, Any] | None = None  # a private chat's own (setChatMenuButton with chat_id), as set

    @property
    def bot_present(self) -> bool:
        return self.is_private or self.bot_status in ("administrator", "member", "restricted")

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def status_of(self, user_id: int) -> str:
        """The chat member status Telegram would report for this user."""
        if user_id == BOT_ID:
            return "member" if self.is_private else self.bot_status
        if self.is_private:
            return "member" if user_id == self.id else "left"
        if user_id == self.creator:
            return "creator"
        if user_id in self.admins:
            return "administrator"
        return "member" if user_id in self.members else "left"

    def live_message(self, message_id: int | None) -> Message | None:
        message = self.messages.get(message_id) if message_id is not None else None
        return message if message is not None and not message.deleted else None


class World:
    """All users, chats and files; ``reset`` forgets them and restarts the id counters."""

    def __init__(self) -> None:
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.files: dict[str, StoredFile] = {}
        self._next_user_id = FIRST_USER_ID
        self._next_group = 1
        self._next_file = 1

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]

    def add_user(
        self, first_name: str, last_name: str | None = None, username: str | None = None, is_bot: bool = False
    ) -> User:
        user = User(self._next_user_id, first_name, last_name, username, is_bot=is_bot)
        self.users[user.id] = user
        self._next_user_id += 1
        return user

    def add_group(
        self,
        title: str,
        members: list[int],
        admins: list[int],
        creator: int | None,
        is_forum: bool,
        privacy: bool,
        kind: str = "supergroup",
        bot_status: str = "member",
        username: str | None = None,
    ) -> Chat:
        """A supergroup, a basic group (``kind="group"``) or a channel, with its own id range."""
        everyone = list(dict.fromkeys([*([creator] if creator is not None else []), *admins, *members]))
        base = BASIC_GROUP_ID_BASE if kind == "group" else GROUP_ID_BASE
        chat = Chat(
            base - self._next_group,
            kind,
            title=title,
            members=everyone,
            admins=list(dict.fromkeys(admins)),
            creator=creator,
            is_forum=is_forum,
            bot_status=bot_status,
            privacy=privacy,
            username=username,
        )
        self._next_group += 1
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: User) -> Chat:
        """The user's private chat with the bot, created on first use."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = Chat(user.id, "private", members=[user.id])
            self.chats[user.id] = chat
        return chat

    def add_message(self, chat: Chat, from_id: int, **fields: Any) -> Message:
        message = Message(chat.next_message_id, chat.id, from_id, int(time.time()), **fields)
        chat.messages[message.message_id] = message
        chat.next_message_id += 1
        sender = self.users.get(from_id)
        if from_id == BOT_ID or (sender is not None and sender.is_bot):
            chat.last_bot_sender = from_id
        return message

    def store_file(self, data: bytes, info: ImageInfo) -> StoredFile:
        number = self._next_file
        self._next_file += 1
        stored = StoredFile(
            file_id=f"AgACAgQ{number:06d}{secrets.token_urlsafe(18)}",
            file_unique_id=f"AQAD{number:06d}{secrets.token_urlsafe(6)}",
            data=data,
            info=info,
            file_path=f"photos/file_{number}.{info.extension}",
        )
        self.files[stored.file_id] = stored
        return stored

    def file_by_path(self, path: str) -> StoredFile | None:
        return next((f for f in self.files.values() if f.file_path == path), None)
