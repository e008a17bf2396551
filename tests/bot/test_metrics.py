"""``/metrics``: the active games counted by game and phase from Redis at each scrape, and a scrape that answers
when Redis does not (bot/plumbing/metrics.py, ``Store.census``)."""

from __future__ import annotations

import itertools
import socket
from collections import Counter

import httpx
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bot.plumbing import metrics
from bot.plumbing.chat_move import move_chat
from bot.plumbing.keys import Keys
from bot.plumbing.store import GameRecord, Player, Store

_chats = itertools.count(-9_100)


def record(chat_id: int, game_id: str = "coin_age") -> GameRecord:
    host = Player(user_id=1, name="علی")
    return GameRecord(chat_id=chat_id, game_id=game_id, creator=host, players=[host])


def change(before: Counter[tuple[str, str]], after: Counter[tuple[str, str]]) -> dict[tuple[str, str], int]:
    return {key: after[key] - before[key] for key in before.keys() | after.keys() if after[key] != before[key]}


async def test_the_census_follows_each_game_through_its_phases(store: Store) -> None:
    lobby, game, cancelled = next(_chats), next(_chats), next(_chats)
    before = await store.census()
    await store.save(record(lobby, "splendor"), expected=0)
    running = record(game)
    running.phase = "playing"
    running = await store.save(running, expected=0)
    gone = await store.save(record(cancelled), expected=0)
    gone.phase = "cancelled"
    await store.save(gone, expected=gone.version)
    assert change(before, await store.census()) == {("splendor", "lobby"): 1, ("coin_age", "playing"): 1}

    running.phase = "finished"  # listed until its result is out
    await store.save(running, expected=running.version)
    assert change(before, await store.census()) == {("splendor", "lobby"): 1, ("coin_age", "finished"): 1}
    await store.retire(game, None)
    assert change(before, await store.census()) == {("splendor", "lobby"): 1}

    moved_to = next(_chats)  # a group that became a supergroup: its game counted once, under the new chat
    assert await move_chat(store, lobby, moved_to)
    assert change(before, await store.census()) == {("splendor", "lobby"): 1}
    assert await store.redis.hget(store.keys.active_kinds, str(moved_to)) == "splendor lobby"


async def test_a_game_saved_before_the_kinds_were_kept_is_counted_from_its_record(store: Store) -> None:
    chat = next(_chats)
    saved = record(chat, "conqueror")
    saved.phase = "playing"
    await store.save(saved, expected=0)
    await store.redis.hdel(store.keys.active_kinds, str(chat))  # as a bot before this one wrote it
    before = await store.census()
    assert before["conqueror", "playing"] >= 1
    await store.redis.srem(store.keys.active, str(chat))
    assert change(before, await store.census()) == {("conqueror", "playing"): -1}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _samples(text: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {
        tuple(sorted(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    }


async def _scrape(store: Store) -> str:
    """One scrape of a ``/metrics`` server reading ``store``: its page (answered 200, whatever Redis did)."""
    port = _free_port()
    runner = await metrics.start("127.0.0.1", port, store)
    try:
        async with httpx.AsyncClient() as http:
            page = await http.get(f"http://127.0.0.1:{port}{metrics.METRICS_PATH}")
    finally:
        await runner.cleanup()
    assert page.status_code == 200
    return page.text


async def test_a_scrape_reads_redis_and_still_answers_without_it(store: Store) -> None:
    chat = next(_chats)
    playing = record(chat, "carcassonne")
    playing.phase = "playing"
    await store.save(playing, expected=0)
    page = await _scrape(store)
    assert _samples(page, "dorehami_redis_up") == {(): 1.0}
    games = _samples(page, "dorehami_active_games")
    assert games[("game", "carcassonne"), ("phase", "playing")] >= 1
    pings = REGISTRY.get_sample_value("dorehami_redis_seconds_count", {"operation": "ping"})
    assert pings is not None and pings >= 1

    nowhere = Store.from_url(f"redis://127.0.0.1:{_free_port()}", Keys("dh:test"))  # nobody listens there
    try:
        page = await _scrape(nowhere)
    finally:
        await nowhere.close()
    assert _samples(page, "dorehami_redis_up") == {(): 0.0}
    assert _samples(page, "dorehami_active_games") == games  # as last counted, not an error page
