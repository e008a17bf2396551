"""A real server for the store's tests: the embedded Valkey, and a system redis-server when the machine has one
(CI installs it), so every Redis-facing test runs against both; or only REDIS_URL when it is set."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.plumbing.embedded_server import EmbeddedServer, server_binary, system_server_binary
from bot.plumbing.keys import Keys
from bot.plumbing.store import Store

SERVERS = ["url"] if os.environ.get("REDIS_URL") else ["embedded", "system"]


@pytest.fixture(scope="session", params=SERVERS)
def redis_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "url":
        yield os.environ["REDIS_URL"]
        return
    binary = server_binary() if request.param == "embedded" else system_server_binary()
    if binary is None:
        pytest.skip("no redis-server or valkey-server on this machine (CI installs one)")
    workdir: Path = tmp_path_factory.mktemp(request.param)
    with EmbeddedServer(workdir, binary=binary) as server:
        yield server.url


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[Store]:
    s = Store.from_url(redis_url, Keys("test"))
    try:
        yield s
    finally:
        await s.close()
