"""Forum topics and reply threads: where a new message goes, and topics opened, closed and reopened.

Telegram's rules, as the Bot API and PTB describe them (``Message.message_thread_id``, ``is_topic_message``,
``forum_topic_created``; PTB's ``Message._parse_message_thread_id``):

- A topic's thread id is the id of its creation service message (``forum_topic_created``), and every other
  message in the topic is a reply to it when it replies to nothing else: ``reply_to_message`` is set
  implicitly. Topic messages carry ``is_topic_message``.
- The General topic has no thread id; a reply there (or in a group without topics) carries the reply
  chain's ``message_thread_id`` (the chain's first message) but no ``is_topic_message``.
- A send to a thread that is not a topic fails with "message thread not found"; a send into a closed topic
  fails with "TOPIC_CLOSED" unless the sender is an administrator (the bot never is, here).
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.errors import bad_request
from sandbox.state import Chat, Message, Topic, World

TOPIC_CLOSED = "TOPIC_CLOSED"
THREAD_NOT_FOUND = "message thread not found"
ICON_COLOR = 7322096  # the first of Telegram's six topic icon colours


@dataclass(frozen=True)
class Place:
    """Where a new message goes: its thread, whether that is a forum topic, the message it replies to."""

    thread_id: int | None
    is_topic: bool
    reply_to_message_id: int | None


def place(chat: Chat, thread_id: int | None, reply_to: Message | None, may_post_closed: bool) -> Place:
    """The place of a new message asked for ``thread_id`` (None: none asked) replying to ``reply_to``;
    raises Telegram's error for a thread that is not a topic, or a closed topic."""
    if thread_id is None and reply_to is not None and reply_to.is_topic:
        thread_id = reply_to.message_thread_id
    if thread_id is not None:
        topic = chat.topics.get(thread_id)
        if topic is None:
            raise bad_request(THREAD_NOT_FOUND)
        if topic.closed and not may_post_closed:
            raise bad_request(TOPIC_CLOSED)
        return Place(thread_id, True, reply_to.message_id if reply_to is not None else topic.thread_id)
    if reply_to is not None and not chat.is_private:
        return Place(reply_to.message_thread_id or reply_to.message_id, False, reply_to.message_id)
    return Place(None, False, reply_to.message_id if reply_to is not None else None)


def create(world: World, chat: Chat, creator: int, name: str) -> tuple[Topic, Message]:
    """A new topic and its creation service message, whose id becomes the topic's thread id."""
    if not chat.is_forum:
        raise bad_request("the chat is not a forum")
    if not 1 <= len(name) <= 128:
        raise bad_request("TOPIC_TITLE_EMPTY" if not name else "topic name is too long")
    message_id = chat.next_message_id
    topic = Topic(message_id, name, creator)
    chat.topics[message_id] = topic
    service = {"forum_topic_created": {"name": name, "icon_color": ICON_COLOR}}
    message = world.add_message(chat, creator, message_thread_id=message_id, is_topic=True, service=service)
    return topic, message


def set_closed(world: World, chat: Chat, topic: Topic, user_id: int, closed: bool) -> Message:
    """Close or reopen a topic (its creator or an administrator may), with the service message in it."""
    if user_id != topic.creator and chat.status_of(user_id) not in ("creator", "administrator"):
        raise bad_request("TOPIC_CLOSE_NOT_ALLOWED" if closed else "TOPIC_REOPEN_NOT_ALLOWED")
    if topic.closed == closed:
        raise bad_request("TOPIC_NOT_MODIFIED")
    topic.closed = closed
    service: dict[str, dict[str, str]] = {"forum_topic_closed" if closed else "forum_topic_reopened": {}}
    return world.add_message(
        chat, user_id, message_thread_id=topic.thread_id, is_topic=True, reply_to_message_id=topic.thread_id,
        service=service,
    )  # fmt: skip


def checked_topic(chat: Chat, thread_id: int) -> Topic:
    topic = chat.topics.get(thread_id)
    if topic is None:
        raise bad_request(THREAD_NOT_FOUND)
    return topic
