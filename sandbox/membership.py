"""The bot's standing in groups as Telegram rules it, and what users do to it and to their messages.

A group the bot was removed from refuses every call with 403, a basic group that became a supergroup answers
every call with the supergroup's id (400 with ``migrate_to_chat_id``), a bot without the right to send gets
400 for sends, and a bot that is not an administrator cannot look up other members. Users (and other bots) can
delete messages, write on behalf of the group (anonymous admins) or of a channel, and upgrade a basic group.
Sources for each rule: sandbox/README.md, "Membership, migration and senders".
"""

from __future__ import annotations

import time
from typing import Any

from sandbox.engine import Sandbox
from sandbox.errors import ApiError, bad_request, forbidden, migrated
from sandbox.state import (
    ANONYMOUS_ADMIN_ID,
    BOT_ID,
    CHANNEL_BOT_ID,
    TELEGRAM_ID,
    Chat,
    Message,
    User,
)
from sandbox.telegram_json import chat_json, member_status_json, message_json, user_json

_KINDS = {"group": "group chat", "supergroup": "supergroup chat", "channel": "channel chat"}


class MembershipError(Exception):
    """A user action the sandbox refuses (the control API answers it with 400)."""


def check_access(chat: Chat) -> None:
    """Any Bot API call that names a group or channel: refused once it migrated or the bot is out of it."""
    if chat.is_private:
        return
    if chat.migrated_to is not None:
        raise migrated(chat.migrated_to)
    if not chat.bot_present:
        raise not_a_member(chat)


def not_a_member(chat: Chat) -> ApiError:
    kind = _KINDS.get(chat.type, "group chat")
    if chat.bot_status == "kicked":
        return forbidden(f"bot was kicked from the {kind}")
    return forbidden(f"bot is not a member of the {kind}")


def check_can_send(chat: Chat, what: str) -> None:
    """A restricted (muted) bot may not send ``what`` ("text messages", "photos"); it may still edit its own."""
    if not chat.is_private and chat.bot_status == "restricted":
        raise bad_request(f"not enough rights to send {what} to the chat")


def check_member_lookup(chat: Chat, user_id: int) -> None:
    """getChatMember for someone else is only guaranteed when the bot is an administrator. Telegram answers a
    plain member bot only for users it received updates from recently; the sandbox, stricter, never does."""
    if chat.is_private or user_id == BOT_ID or chat.bot_status == "administrator":
        return
    raise bad_request("member list is inaccessible")


def set_bot_status(
    sandbox: Sandbox, chat: Chat, status: str, actor: User, notify: bool = True
) -> dict[str, Any] | None:
    """Promote, demote, mute, remove, ban or re-add the bot; the bot gets a ``my_chat_member`` update."""
    old = chat.bot_status
    if old == status:
        return None
    chat.bot_status = status
    payload = {
        "chat": chat_json(sandbox.world, chat),
        "from": user_json(actor),
        "date": int(time.time()),
        "old_chat_member": member_status_json(sandbox.world, chat, BOT_ID, old),
        "new_chat_member": member_status_json(sandbox.world, chat, BOT_ID, status),
    }
    if notify:
        sandbox.push_update("my_chat_member", payload, chat.id)
    return payload


def set_blocked(sandbox: Sandbox, user: User, blocked: bool) -> None:
    """A user blocks or unblocks the bot: its private chat's ``my_chat_member`` says kicked or member."""
    if user.blocked == blocked:
        return
    user.blocked = blocked
    chat = sandbox.world.private_chat(user)
    old, new = ("member", "kicked") if blocked else ("kicked", "member")
    payload = {
        "chat": chat_json(sandbox.world, chat),
        "from": user_json(user),
        "date": int(time.time()),
        "old_chat_member": member_status_json(sandbox.world, chat, BOT_ID, old),
        "new_chat_member": member_status_json(sandbox.world, chat, BOT_ID, new),
    }
    sandbox.push_update("my_chat_member", payload, chat.id)


def migrate(sandbox: Sandbox, chat: Chat, actor: User, service_messages: bool = True) -> Chat:
    """A basic group becomes a supergroup with a new id: its members, admins and the bot's standing move there,
    the old id answers every call with the new one, and each chat gets its service message. The old messages
    stay with the old id (clients show them above the supergroup's; the Bot API cannot reach them)."""
    if chat.type != "group":
        raise MembershipError("only a basic group can be migrated to a supergroup")
    if chat.migrated_to is not None:
        raise MembershipError(f"chat {chat.id} was already migrated to {chat.migrated_to}")
    world = sandbox.world
    new = world.add_group(
        chat.title or "", list(chat.members), list(chat.admins), chat.creator, False, chat.privacy,
        bot_status=chat.bot_status,
    )  # fmt: skip
    chat.migrated_to = new.id
    farewell = world.add_message(chat, actor.id, service={"migrate_to_chat_id": new.id})
    welcome = world.add_message(new, actor.id, service={"migrate_from_chat_id": chat.id})
    if service_messages and chat.bot_present:
        sandbox.push_update("message", message_json(world, farewell), chat.id)
        sandbox.push_update("message", message_json(world, welcome), new.id)
    sandbox.touch()
    return new


def delete_message(chat: Chat, message: Message, by: User) -> None:
    """Anyone deletes their own messages, a group's admins anyone's, and either side a private chat's."""
    allowed = chat.is_private or message.from_id == by.id or chat.status_of(by.id) in ("creator", "administrator")
    if not allowed:
        raise MembershipError(f"user {by.id} may not delete message {message.message_id} in chat {chat.id}")
    message.deleted = True


def sender(chat: Chat, user: User, sender_chat: Chat | None, automatic_forward: bool) -> tuple[int, int | None]:
    """``from`` and ``sender_chat`` of a message a user sends: as themselves, as the group (an anonymous admin),
    as a channel, or a channel's post forwarded automatically to its discussion group."""
    if sender_chat is None:
        if automatic_forward:
            raise MembershipError("an automatic forward comes from a channel: give sender_chat_id")
        return user.id, None
    if sender_chat.id == chat.id:
        if chat.status_of(user.id) not in ("creator", "administrator"):
            raise MembershipError("only the group's admins can write on behalf of the group")
        return ANONYMOUS_ADMIN_ID, chat.id
    if sender_chat.type != "channel":
        raise MembershipError("sender_chat_id must be the group itself or a channel")
    if sender_chat.status_of(user.id) not in ("creator", "administrator"):
        raise MembershipError(f"user {user.id} cannot post as channel {sender_chat.id}")
    return (TELEGRAM_ID if automatic_forward else CHANNEL_BOT_ID), sender_chat.id
