"""The store behind Sentinel: a save returns once a replica holds it; with the replica away, once and only once
it waits in vain, says so, and saves go on without waiting until the replica could be back."""

from __future__ import annotations

import logging
import signal
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.dev.replicated import SentinelSetup
from bot.plumbing.keys import Keys
from bot.plumbing.redis_connect import connect_blocking
from bot.plumbing.store import GameRecord, Player, Store

WAIT_MS = 300
FAILED, WORKS = "a save reaching 1 replica(s) failed", "a save reaching 1 replica(s) works again"


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SentinelSetup]:
    with SentinelSetup(tmp_path_factory.mktemp("sentinel")) as running:
        yield running


@pytest.fixture
async def store(setup: SentinelSetup) -> AsyncIterator[Store]:
    s = Store.from_url(setup.url, Keys("dh:test"), replicas=1, replica_wait_ms=WAIT_MS)
    try:
        yield s
    finally:
        await s.close()


def record(chat_id: int) -> GameRecord:
    host = Player(user_id=1, name="علی")
    return GameRecord(chat_id=chat_id, game_id="coin_age", creator=host, players=[host])


def waits_asked(setup: SentinelSetup) -> int:
    """How many WAIT commands the primary has answered (its own count)."""
    with setup.primary.client() as client:
        return int(client.info("commandstats").get("cmdstat_wait", {}).get("calls", 0))


async def test_a_save_returns_once_the_replica_holds_it(setup: SentinelSetup, store: Store) -> None:
    saved = await store.save(record(-900), expected=0)
    with setup.replica.client() as replica:  # read at once, no waiting: WAIT already did
        assert replica.hget(store._game_key("-900"), "v") == str(saved.version)


async def test_a_replica_away_costs_one_slow_save_said_once(
    setup: SentinelSetup, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.plumbing.store")
    first = await store.save(record(-901), expected=0)
    replica = setup.replica.process
    assert replica is not None
    replica.send_signal(signal.SIGSTOP)  # there, but answering nothing: acknowledges no write
    try:
        asked = waits_asked(setup)
        second = await store.save(first, expected=first.version)  # waits WAIT_MS in vain, saved all the same
        assert waits_asked(setup) == asked + 1
        third = await store.save(second, expected=second.version)  # no second wait while the replica is away
        assert waits_asked(setup) == asked + 1
        loaded = await store.load(-901)
        assert loaded is not None and loaded.version == third.version
        assert [r.getMessage().startswith(FAILED) for r in caplog.records].count(True) == 1
    finally:
        replica.send_signal(signal.SIGCONT)
    store._wait_again_at = 0.0  # as ten seconds later (REPLICA_RECHECK): saves wait again, and are answered
    await store.save(third, expected=third.version)
    assert waits_asked(setup) == asked + 2
    assert [r.getMessage() for r in caplog.records].count(WORKS) == 1


def test_the_command_line_reaches_the_primary_behind_sentinel(setup: SentinelSetup) -> None:
    """``dorehami backup`` and ``restore`` take REDIS_URL as the bot does: behind Sentinel, the primary."""
    client = connect_blocking(setup.url, socket_timeout=5)
    try:
        assert client.info("replication")["role"] == "master"
        assert client.connection_pool.get_master_address() == setup.primary.address  # type: ignore[attr-defined]
    finally:
        client.close()
