"""A real Redis (embedded, or REDIS_URL) for the store's tests."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.embedded_server import EmbeddedRedis
from bot.runtime.store import Store


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    workdir: Path = tmp_path_factory.mktemp("redis")
    with EmbeddedRedis(workdir) as server:
        yield server.url


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[Store]:
    s = Store.from_url(redis_url)
    try:
        yield s
    finally:
        await s.close()
