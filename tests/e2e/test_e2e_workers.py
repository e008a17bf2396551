"""End to end with two bot workers in webhook mode behind one URL, sharing one Redis (issue #7).

The sandbox delivers updates to a round-robin proxy, as Telegram would to a load balancer, so consecutive
updates land on alternate workers. Nothing may run twice and a chat's updates must be handled in order.
"""

from __future__ import annotations

import asyncio
import itertools
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.dev.harness import TEST_TIME_SCALE, Delivery, Figures, Harness, WebhookProxy, figure, moved
from bot.dev.simulate import (
    all_of,
    board_of,
    bot_says,
    button,
    eventually,
    leaving_no_task,
    open_lobby,
    play_to_end,
    player_to_act,
    reply_to,
    set_timer,
    settled,
    start_game,
    table,
)
from bot.messages import texts
from bot.plumbing.stop_points import STOP_AT
from bot.plumbing.store import Store
from sandbox.control_client import ControlClient

OPERATOR_ID = 1001
LEASE = 3  # seconds a dead worker may hold up a chat (WORKER_LEASE_SECONDS), short for the test


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    workdir: Path = tmp_path_factory.mktemp("workers")
    env = {"TURN_TIMER_CHOICES": "2,3,30,120", "OPERATOR_IDS": str(OPERATOR_ID), "WORKER_LEASE_SECONDS": str(LEASE)}
    with Harness(workdir, bot_env=env, webhook_workers=2, time_scale=TEST_TIME_SCALE) as running:
        created = httpx.post(f"{running.url}/sandbox/users", json={"first_name": "گرداننده"}).json()
        assert created["id"] == OPERATOR_ID
        yield running


class RecordingClient(ControlClient):
    """The control client, noting every button press and the bot's answer to it."""

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url)
        self.presses: list[tuple[str, dict[str, Any]]] = []

    async def press(
        self, chat_id: int, message_id: int, from_id: int, data: str, timeout: float = 15
    ) -> dict[str, Any]:
        answer = await super().press(chat_id, message_id, from_id, data, timeout)
        self.presses.append((data, answer))
        return answer


@pytest.fixture
async def client(workers: Harness) -> AsyncIterator[RecordingClient]:
    running = RecordingClient(workers.url)
    try:
        async with leaving_no_task():
            yield running
    finally:
        await running.aclose()


def _proxy(workers: Harness) -> WebhookProxy:
    assert workers.proxy is not None
    return workers.proxy


def _deliveries(workers: Harness, since: int) -> list[Delivery]:
    return list(_proxy(workers).deliveries)[since:]


async def _version(workers: Harness, chat_id: int) -> int:
    store = Store.from_url(workers.redis_url, workers.keys)
    try:
        record = await store.load(chat_id)
        assert record is not None
        return record.version
    finally:
        await store.close()


async def _log_mark(client: ControlClient) -> int:
    return int((await client.log())["next"])


def _message_of(delivery: Delivery) -> dict[str, Any]:
    message = delivery.update.get("message", {})
    return {"chat_id": message.get("chat", {}).get("id"), "message_id": message.get("message_id")}


def _version_shown(params: dict[str, Any]) -> int | None:
    """The game version a board's buttons carry (``g:``/``n:<game>:<version>:…``); None without buttons."""
    for row in (params.get("reply_markup") or {}).get("inline_keyboard", []):
        for b in row:
            parts = str(b.get("callback_data", "")).split(":")
            if parts[0] in ("g", "n") and len(parts) > 2:
                return int(parts[2])
    return None


async def test_a_whole_game_with_presses_alternating_between_workers(client: RecordingClient, workers: Harness) -> None:
    t = await table(client)
    board = await start_game(client, t)
    start_version = await _version(workers, t.chat_id)
    since, log_since = len(_proxy(workers).deliveries), await _log_mark(client)
    client.presses.clear()

    board = await play_to_end(client, t, seed=5)

    presses = client.presses  # play_move checked that each press was answered without an alert
    assert len(presses) >= 20
    deliveries = _deliveries(workers, since)
    # every press reached exactly one worker, once, and the presses alternated between the two workers
    assert [d.kind for d in deliveries] == ["callback_query"] * len(presses)
    assert all(d.status == 200 for d in deliveries)
    assert all(a.worker != b.worker for a, b in itertools.pairwise(deliveries)), [d.worker for d in deliveries]
    assert {d.worker for d in deliveries} == {0, 1}

    # every game action applied exactly once: the record moved one version per action, no more, no less
    actions = [data for data, _ in presses if data.startswith(("g:", "h:"))]
    end_version = await _version(workers, t.chat_id)
    assert end_version - start_version == len(actions)

    log = (await client.log(after=log_since))["items"]
    answered = [e["params"]["callback_query_id"] for e in log if e["method"] == "answerCallbackQuery"]
    assert sorted(answered) == sorted(answer["query_id"] for _, answer in presses)  # each answered once

    # the board's edits came in order: the versions its buttons show never go back, and each one was drawn
    edits = [
        e for e in log if e["chat_id"] == t.chat_id and e["message_id"] == board["message_id"] and e["status"] == 200
    ]
    edits = [e for e in edits if e["method"] in ("editMessageMedia", "editMessageReplyMarkup")]
    shown = [v for v in (_version_shown(e["params"]) for e in edits) if v is not None]
    assert shown == sorted(shown), shown
    assert set(range(start_version + 1, end_version)) <= set(shown)  # the last one is the finished board
    assert _version_shown(edits[-1]["params"]) is None  # the finished board, last
    assert "پایان بازی" in board["caption"]


async def test_two_simultaneous_presses_of_one_button_on_two_workers_apply_once(
    client: RecordingClient, workers: Harness
) -> None:
    t = await table(client)
    board = await start_game(client, t)
    version = await _version(workers, t.chat_id)
    mover = player_to_act(t, board)
    end_turn = button(board, ":x")["data"]
    await settled(client, workers)
    before = await _figures(workers)
    since = len(_proxy(workers).deliveries)
    first, second = await all_of(
        client.press(t.chat_id, board["message_id"], mover["id"], end_turn),
        client.press(t.chat_id, board["message_id"], mover["id"], end_turn),
    )
    assert sorted([first["text"] or "", second["text"] or ""]) == ["", texts.STALE]
    presses = [d for d in _deliveries(workers, since) if d.kind == "callback_query"]
    assert sorted(d.worker for d in presses) == [0, 1]  # one press on each worker
    await settled(client, workers)
    after = board_of(await client.messages(t.chat_id))
    assert after["edits"] == board["edits"] + 1
    assert await _version(workers, t.chat_id) == version + 1
    assert "نوبت ۱:" in board["caption"] and "نوبت ۱:" not in after["caption"]

    # each worker's /metrics counts what it did: one press each; the move and the stale press on one or the other
    figures = await _figures(workers)
    each = list(zip(before, figures, strict=True))
    assert [moved(then, now, "dorehami_updates_total", type="callback_query") for then, now in each] == [1, 1]

    def total(name: str, **labels: str) -> float:
        return sum(moved(then, now, name, **labels) for then, now in each)

    assert total("dorehami_moves_total", game="coin_age", by="person") == 1
    assert total("dorehami_presses_refused_total", game="coin_age", reason="stale") == 1
    assert [figure(now, "dorehami_redis_up") for now in figures] == [1, 1]


async def _figures(workers: Harness) -> list[Figures]:
    """Each worker's /metrics page (each process serves its own)."""
    async with httpx.AsyncClient(trust_env=False) as http:
        return [await bot.figures(http) for bot in workers.bots]


async def test_a_burst_of_commands_in_one_chat_is_answered_in_order_within_one_budget(
    client: RecordingClient, workers: Harness
) -> None:
    """Each command is answered (200) at once and the next one goes to the other worker while the first may
    still be in hand: only the chat's tickets keep the replies in the order the commands were sent. The two
    workers share the group's budget in Redis (bot/plumbing/shared_budgets.py): five replies at once, then one every
    4 s, as one worker would send them; budgets kept per worker would let all eight go at once."""
    t = await table(client)
    commands = ["/rules coin_age", "/games", "/help", "/board", "/rules splendor", "/rules condottiere"]
    commands += ["/rules conqueror", "/rules carcassonne"]
    since = len(_proxy(workers).deliveries)
    started = time.monotonic()
    sent = [await client.send(t.chat_id, t.players[0]["id"], command) for command in commands]
    sent_ids = [m["message_id"] for m in sent]

    def all_answered(messages: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        replies = [m for m in messages if m["from_bot"] and m["reply_to_message_id"] in sent_ids]
        return replies if len(replies) == len(sent_ids) else None

    replies = await client.wait_for(t.chat_id, all_answered)
    took = time.monotonic() - started
    assert [r["reply_to_message_id"] for r in replies] == sent_ids
    assert {d.worker for d in _deliveries(workers, since)} == {0, 1}
    assert took > ((len(commands) - 5) * 4 - 1) * TEST_TIME_SCALE, took  # one every 4 s after five, scaled


async def test_joins_from_the_group_and_from_private_chats_at_once_all_count(
    client: RecordingClient, workers: Harness
) -> None:
    """Five joins at once in each of two lobbies, each join from another chat (the group's /join, deep links
    in private), so they run on both workers at the same time: the game's lock must hold across workers, or
    joins are lost to compare-and-set conflicts (or a lobby is drawn from an older record after a newer one)."""
    tables = [await table(client, players=6) for _ in range(2)]
    for t in tables:  # an admin bot may ask Telegram who is a member (these players never wrote in the group)
        await client.bot_status(t.chat_id, "administrator", by=t.players[0]["id"])
    lobbies = [await open_lobby(client, t, game="condottiere") for t in tables]
    versions = [await _version(workers, t.chat_id) for t in tables]
    since = len(_proxy(workers).deliveries)
    joins = []
    for t in tables:
        first, *others = t.players[1:]
        joins.append(client.send(t.chat_id, first["id"], "/join"))
        joins += [client.send(j["id"], j["id"], f"/start j{abs(t.chat_id)}") for j in others]
    await all_of(*joins)
    await settled(client, workers)
    assert {d.worker for d in _deliveries(workers, since)} == {0, 1}
    for t, lobby, version in zip(tables, lobbies, versions, strict=True):
        assert await _version(workers, t.chat_id) == version + 5  # each join written once, none lost
        shown = next(m for m in await client.messages(t.chat_id) if m["message_id"] == lobby["message_id"])
        assert all(player["first_name"] in shown["text"] for player in t.players), shown["text"]


async def test_turn_deadlines_fire_exactly_once_with_both_workers_polling(
    client: RecordingClient, workers: Harness
) -> None:
    """A silent table: turns time out (each after its half-time reminder) until a player who timed out twice
    is removed. Both workers poll the deadlines; a reminder does not change the game, so a reminder fired
    twice would show twice, and a time-out fired twice would move the game twice. Both workers draw too: each
    turn's notice comes once."""
    t = await table(client)
    await set_timer(client, t, 2)
    board = await start_game(client, t)
    version = await _version(workers, t.chat_id)

    def removed(messages: list[dict[str, Any]]) -> bool:
        return any("کنار گذاشته شد" in str(m["text"] or "") for m in messages)

    await client.wait_for(t.chat_id, lambda ms: ms if removed(ms) else None)
    # the game is over: its deadlines are disarmed, and what the workers had in hand is done
    await settled(client, workers)
    messages = await client.messages(t.chat_id)
    said = [str(m["text"] or "") for m in messages if m["from_bot"]]
    private = [str(m["text"] or "") for p in t.players for m in await client.messages(p["id"]) if m["from_bot"]]
    reminders = [s for s in private if "از زمان نوبت شما مانده" in s]  # deleted since, but each was sent
    timeouts = await _version(workers, t.chat_id) - version  # each time-out is one write
    assert timeouts >= 2  # a player is removed after two time-outs in a row
    assert len(reminders) == timeouts  # one reminder per turn that timed out, never two
    notices = [s for s in private if "نوبت شماست —" in s]
    assert 1 <= len(notices) <= timeouts  # each turn's notice once, whichever worker drew it (none after the end)
    assert len([s for s in said if "کنار گذاشته شد" in s]) == 1
    final = board_of(messages)
    assert final["message_id"] == board["message_id"] and final["edits"] == board["edits"] + timeouts


async def _say(client: ControlClient, workers: Harness, user: dict[str, Any], text: str) -> list[str]:
    """Send a private command; wait until the workers have done all it set off; return all its answers."""
    sent = await client.send(user["id"], user["id"], text)
    await settled(client, workers)
    messages = await client.messages(user["id"])
    return [str(m["text"]) for m in messages if m["from_bot"] and m["message_id"] > sent["message_id"]]


async def test_a_broadcast_reaches_each_group_once_even_when_its_delivery_is_retried(
    client: RecordingClient, workers: Harness
) -> None:
    """The first worker takes the update, but its 200 is lost on the way back: the sandbox delivers the
    update again, to the other worker, which must see it is already in hand."""
    groups = [await table(client), await table(client)]
    for group in groups:
        await open_lobby(client, group)
    since = len(_proxy(workers).deliveries)
    text = "خبر مهم برای همه"
    _proxy(workers).lose_reply_once(lambda update: text in str(update.get("message", {}).get("text", "")))

    operator = {"id": OPERATOR_ID}
    replies = await _say(client, workers, operator, f"/broadcast {text}")
    assert len(replies) == 1 and "فرستاده شد" in replies[0], replies

    deliveries = [d for d in _deliveries(workers, since) if text in str(d.update.get("message", {}).get("text"))]
    assert [d.status for d in deliveries] == [502, 200]  # delivered twice
    assert {d.worker for d in deliveries} == {0, 1}  # to both workers
    assert deliveries[0].update_id == deliveries[1].update_id
    for group in groups:
        received = [m for m in await client.messages(group.chat_id) if m["from_bot"] and text in (m["text"] or "")]
        assert len(received) == 1, group


async def test_a_worker_killed_holding_a_chat_s_turn_holds_the_chat_up_only_for_its_lease(
    client: RecordingClient, workers: Harness
) -> None:
    """A worker takes a command's ticket, answers 200 and dies. The chat's next command goes to the other
    worker, which waits for the dead ticket's lease to run out, then answers: the chat is not stuck."""
    t = await table(client)
    proxy = _proxy(workers)

    def kill(index: int) -> None:
        process = workers.workers[index].process
        assert process is not None
        process.kill()
        killed.append(index)

    killed: list[int] = []

    def doomed(update: dict[str, Any]) -> bool:
        message = update.get("message", {})
        return bool(message.get("chat", {}).get("id") == t.chat_id and message.get("text") == "/rules splendor")

    proxy.on_reply_once(doomed, kill)
    await client.send(t.chat_id, t.players[0]["id"], "/rules splendor")

    async def was_killed() -> bool:
        return len(killed) == 1

    await eventually(was_killed, "the worker killed holding the ticket")
    started = time.monotonic()
    sent = await client.send(t.chat_id, t.players[0]["id"], "/games")

    def answered(messages: list[dict[str, Any]]) -> bool:
        return any(m["from_bot"] and m["reply_to_message_id"] == sent["message_id"] for m in messages)

    await client.wait_for(t.chat_id, answered)
    waited = time.monotonic() - started
    # behind the dead ticket (what the test is about: so it is measured), then not stuck: the bound leaves room
    # for a slow machine, and is still far below what a chat held up for good would show
    assert LEASE - 1 < waited < LEASE + 20, waited
    message = {"chat_id": t.chat_id, "message_id": sent["message_id"]}
    deliveries = [d for d in proxy.deliveries if _message_of(d) == message]
    assert [d.worker for d in deliveries] == [1 - killed[0]]  # the proxy passed over the dead worker

    workers.restart_worker(killed[0])  # and the worker comes back: both take updates again
    since = len(proxy.deliveries)
    board = await start_game(client, t)
    assert board["photo"]
    assert {d.worker for d in _deliveries(workers, since)} == {0, 1}


@pytest.mark.parametrize("finisher", [0, 1])
async def test_a_result_is_announced_once_whichever_worker_meets_the_finished_game_first(
    client: RecordingClient, workers: Harness, finisher: int
) -> None:
    """Issue #29. One worker ends the game (a player leaves) and its drawer draws the last board, then is killed
    just before the result; the other worker's drawer, started for the move before, meets the finished game
    first or after: either way the result comes once, and counts once. Whether it is out is Redis's to say (the
    game leaves the active set once it is), never what a drawer remembers it was asked."""
    other = 1 - finisher
    t = await table(client)
    quitter, stayer = t.players
    board = await start_game(client, t)
    proxy = _proxy(workers)
    workers.restart_worker(other, kill=False, env={STOP_AT: f"drawer-start@{t.chat_id}"})
    workers.restart_worker(finisher, kill=False, env={STOP_AT: f"result-due@{t.chat_id}"})
    try:
        # a move on the other worker: its drawer is due for that version, and stops before reading the game
        proxy.send_to(other)
        mover = player_to_act(t, board)
        press = asyncio.create_task(
            client.press(t.chat_id, board["message_id"], mover["id"], button(board, ":x")["data"])
        )
        await asyncio.to_thread(workers.workers[other].wait_stopped)
        # the game ends on the finisher: its drawer draws the last board, then stops before the result
        proxy.send_to(finisher)
        confirm = await bot_says(client, t.chat_id, quitter["id"], "/leave")
        await client.press(t.chat_id, confirm["message_id"], quitter["id"], button(confirm, ":y")["data"])
        await asyncio.to_thread(workers.workers[finisher].wait_stopped)
        results = [m for m in await client.messages(t.chat_id) if m["from_bot"] and "🏁" in (m["text"] or "")]
        assert not results, "the result must not be out yet"
        workers.workers[finisher].kill()  # killed holding the chat's lock: its lease runs out
        process = workers.workers[other].process
        assert process is not None
        process.send_signal(signal.SIGCONT)  # the other drawer goes on, to the finished game
        await press

        def announced(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [m for m in messages if m["from_bot"] and "🏁" in (m["text"] or "")]

        result = (await client.wait_for(t.chat_id, announced))[0]
        assert stayer["first_name"] in result["text"]
    finally:
        proxy.send_to(None)
        workers.restart_worker(finisher, kill=True, env={STOP_AT: None})  # its start-up finds nothing to announce
        if workers.workers[other].stopped() or STOP_AT in workers.workers[other].extra_env:
            workers.restart_worker(other, kill=True, env={STOP_AT: None})
    await settled(client, workers)
    assert len(announced(await client.messages(t.chat_id))) == 1
    stats = await reply_to(client, t.chat_id, stayer["id"], "/stats")
    assert stats.count("از ۱ بازی") == 2  # counted once, for each player
