"""End to end under Telegram's group rules: privacy mode and commands shared with other bots, edited commands,
and forum topics (the implicit reply to a topic's first message, a topic closed under a running game)."""

from __future__ import annotations

from bot.app import UPDATE_TYPES
from bot.dev.harness import Harness
from bot.dev.simulate import (
    Settle,
    Table,
    board_of,
    bot_says,
    button,
    buttons,
    lobby_of,
    player_to_act,
    reply_to,
    set_timer,
    start_in_topic,
    table,
)
from bot.messages import texts
from bot.plumbing.deadlines import Deadlines
from bot.plumbing.store import Store, chat_tag
from sandbox.control_client import ControlClient


def _bare(text: str | None) -> str:
    """A message's text without the bidi isolation marks around names."""
    return (text or "").replace("\u2068", "").replace("\u2069", "")


async def test_commands_with_the_bot_s_name_work_when_another_bot_spoke_last(
    sandbox: ControlClient, settle: Settle
) -> None:
    t = await table(sandbox)
    host, guest = t.players
    quiz = await sandbox.user("کوییز", f"quiz{t.chat_id % 1000}_bot", is_bot=True)
    group = await sandbox.group("گروه دو ربات", [host["id"], guest["id"], quiz["id"]], [host["id"]])
    await sandbox.send(group["id"], quiz["id"], "سوال بعدی!")  # the other bot spoke last
    plain = await sandbox.send(group["id"], host["id"], "/new coin_age")  # Telegram gives it to the other bot
    await settle()
    assert not [m for m in await sandbox.messages(group["id"]) if m["reply_to_message_id"] == plain["message_id"]]

    await sandbox.send(group["id"], host["id"], "/new@dorehami_bot coin_age")
    lobby = await sandbox.wait_for(group["id"], lobby_of)
    answer = await sandbox.press(group["id"], lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    assert answer["text"] == texts.JOINED_ALERT
    await settle()
    assert "/begin" in await reply_to(sandbox, group["id"], host["id"], "/start@dorehami_bot")  # every bot's
    assert await reply_to(sandbox, group["id"], guest["id"], "/begin@dorehami_bot") == texts.NOT_ALLOWED
    await sandbox.send(group["id"], host["id"], "/begin@dorehami_bot")
    board = await sandbox.wait_for(group["id"], lambda ms: next((m for m in ms if m["from_bot"] and m["photo"]), None))
    assert buttons(board)
    help_text = await reply_to(sandbox, group["id"], host["id"], "/help@dorehami_bot")
    assert "/begin" in help_text and "/new@dorehami_bot" in help_text


async def test_an_edited_command_does_not_run_again(sandbox: ControlClient, settle: Settle, harness: Harness) -> None:
    t = await table(sandbox)
    host = t.players[0]
    await sandbox.send(t.chat_id, host["id"], "/new coin_age")
    await sandbox.wait_for(t.chat_id, lambda ms: buttons(ms[-1]))
    cancel = await sandbox.send(t.chat_id, host["id"], "/cancel")
    await sandbox.wait_for(t.chat_id, lambda ms: ms[-1]["text"] == texts.CANCELLED)
    new = await sandbox.send(t.chat_id, host["id"], "/new coin_age")
    lobby = await sandbox.wait_for(t.chat_id, lambda ms: ms[-1] if buttons(ms[-1]) else None)
    log_mark = (await sandbox.log())["next"]
    await sandbox.edit(t.chat_id, cancel["message_id"], host["id"], "/cancel  ")  # corrected: must not cancel again
    await sandbox.edit(t.chat_id, new["message_id"], host["id"], "/new splendor")
    await settle()
    messages = await sandbox.messages(t.chat_id)
    assert messages[-1]["message_id"] == lobby["message_id"] and buttons(messages[-1])  # nothing sent since
    assert [m["text"] for m in messages].count(texts.CANCELLED) == 1
    calls = (await sandbox.log(after=log_mark))["items"]
    assert not [c for c in calls if c["chat_id"] == t.chat_id]  # the bot did nothing in the chat
    polls = [c for c in (await sandbox.log())["items"] if c["method"] == "getUpdates"]
    assert polls[-1]["params"]["allowed_updates"] == UPDATE_TYPES and "edited_message" not in UPDATE_TYPES


async def test_kick_in_a_topic_ignores_the_implicit_reply_to_the_topic_s_first_message(
    sandbox: ControlClient, settle: Settle
) -> None:
    t = await table(sandbox)
    host, guest = t.players  # the host created the topic and is an admin
    forum = await sandbox.group("انجمن بازی", [host["id"], guest["id"]], [host["id"]], is_forum=True)
    thread = (await sandbox.topic(forum["id"], host["id"], "میز"))["message_thread_id"]
    await sandbox.send(forum["id"], host["id"], "/new coin_age", message_thread_id=thread)
    lobby = await sandbox.wait_for(forum["id"], lobby_of)
    await sandbox.press(forum["id"], lobby["message_id"], guest["id"], button(lobby, ":join")["data"])
    await settle()
    await sandbox.send(forum["id"], host["id"], "/begin", message_thread_id=thread)
    await sandbox.wait_for(forum["id"], lambda ms: next((m for m in ms if m["from_bot"] and m["photo"]), None))

    kick = await sandbox.send(forum["id"], host["id"], "/kick", message_thread_id=thread)
    assert kick["reply_to_message_id"] == thread  # Telegram's implicit reply to the topic's creation message
    usage = await sandbox.wait_for(
        forum["id"], lambda ms: next((m for m in ms if m["reply_to_message_id"] == kick["message_id"]), None)
    )
    assert "در پاسخ به پیامی از او" in usage["text"]  # how to use /kick: nobody was kicked
    said = await sandbox.send(forum["id"], guest["id"], "دارم می‌روم", message_thread_id=thread)
    question = await bot_says(sandbox, forum["id"], host["id"], "/kick", reply_to_message_id=said["message_id"])
    assert question["message_thread_id"] == thread and guest["first_name"] in question["text"]
    await sandbox.press(forum["id"], question["message_id"], host["id"], button(question, ":y")["data"])
    result = await sandbox.wait_for(
        forum["id"], lambda ms: next((m for m in ms if "تمام شد" in (m["text"] or "")), None)
    )
    assert f"برنده: {host['first_name']}" in _bare(result["text"]) and result["message_thread_id"] == thread


async def test_a_closed_topic_stands_its_game_still_until_it_is_reopened(
    sandbox: ControlClient, harness: Harness
) -> None:
    t = await table(sandbox)
    host, guest = t.players
    forum = await sandbox.group("انجمن بسته", [host["id"], guest["id"]], [host["id"]], is_forum=True)
    thread = (await sandbox.topic(forum["id"], guest["id"], "میز شب"))["message_thread_id"]
    await set_timer(sandbox, Table(forum["id"], t.players, t.outsider, t.newcomer), 30)
    await start_in_topic(sandbox, forum["id"], thread, host, guest)
    store = Store.from_url(harness.redis_url, harness.keys)
    deadlines = Deadlines(store.redis, store.keys)
    tag = chat_tag(forum["id"], thread)
    try:
        assert await deadlines.pending(tag)  # the turn's reminder and time-out

        await sandbox.close_topic(forum["id"], thread, host["id"])
        note = await sandbox.wait_for(
            forum["id"], lambda ms: next((m for m in ms if m["from_bot"] and "بسته شد" in (m["text"] or "")), None)
        )
        assert note["message_thread_id"] is None and "میز شب" in note["text"]  # said in the General topic
        board = await sandbox.wait_for(
            forum["id"], lambda ms: board_of(ms) if texts.TOPIC_CLOSED_LINE in (board_of(ms)["caption"] or "") else None
        )
        assert buttons(board)
        record = await store.load(forum["id"], thread)
        assert record is not None and record.topic_closed and record.phase == "playing"
        mover = player_to_act(t, board)
        for pressed in buttons(board):  # nothing moves in a closed topic, not even a menu
            answer = await sandbox.press(forum["id"], board["message_id"], mover["id"], pressed["data"])
            assert answer["show_alert"] and answer["text"] == texts.TOPIC_CLOSED_LINE, (pressed, answer)
        again = await store.load(forum["id"], thread)
        assert again is not None and again.version == record.version
        assert await deadlines.pending(tag) == {}  # nothing can time out in a closed topic

        await sandbox.close_topic(forum["id"], thread, guest["id"], closed=False)  # its creator reopens it
        back = await sandbox.wait_for(
            forum["id"], lambda ms: next((m for m in ms if m["text"] == texts.TOPIC_REOPENED), None)
        )
        assert back["message_thread_id"] == thread
        await sandbox.wait_for(forum["id"], lambda ms: texts.TOPIC_CLOSED_LINE not in (board_of(ms)["caption"] or ""))
        assert len(await deadlines.pending(tag)) == 2  # a full turn from now
    finally:
        await store.close()


async def test_a_lobby_opened_by_an_admin_in_a_closed_topic_waits_for_the_topic(
    sandbox: ControlClient, settle: Settle, harness: Harness
) -> None:
    """Admins may still write in a closed topic; the bot may not. Its lobby cannot be shown: the send fails
    with TOPIC_CLOSED once, and the lobby waits, without deadlines or apologies, until the topic reopens."""
    t = await table(sandbox)
    host, guest = t.players
    forum = await sandbox.group("انجمن مدیر", [host["id"], guest["id"]], [host["id"]], is_forum=True)
    thread = (await sandbox.topic(forum["id"], guest["id"], "میز"))["message_thread_id"]
    await sandbox.close_topic(forum["id"], thread, host["id"])
    await sandbox.send(forum["id"], host["id"], "/new coin_age", message_thread_id=thread)  # the admin may
    note = await sandbox.wait_for(
        forum["id"], lambda ms: next((m for m in ms if m["from_bot"] and "بسته شد" in (m["text"] or "")), None)
    )
    assert note["message_thread_id"] is None
    await settle()
    assert not [m for m in await sandbox.messages(forum["id"]) if m["from_bot"] and m["message_thread_id"]]
    store = Store.from_url(harness.redis_url, harness.keys)
    try:
        record = await store.load(forum["id"], thread)
        assert record is not None and record.phase == "lobby" and record.topic_closed
        assert await Deadlines(store.redis, store.keys).pending(chat_tag(forum["id"], thread)) == {}
    finally:
        await store.close()
    await sandbox.close_topic(forum["id"], thread, host["id"], closed=False)
    lobby = await sandbox.wait_for(forum["id"], lobby_of)
    assert lobby["message_thread_id"] == thread
