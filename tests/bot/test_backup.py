"""``dorehami backup`` and ``restore`` on a real server: one bot's keys, their times to live, nobody else's."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bot.cli import main
from bot.plumbing import backup
from bot.plumbing.embedded_server import EmbeddedServer
from bot.plumbing.keys import LEGACY_PREFIX, Keys

_bots = itertools.count(7_500_001)


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    made = redis.Redis.from_url(redis_url)
    yield made
    made.close()


def _fill(client: redis.Redis, keys: Keys) -> None:
    client.hset(keys.game("-5"), mapping={"v": "3", "d": '{"game_id":"coin_age"}'})
    client.set(f"{keys.chat(-5)}seq", 3)
    client.sadd(keys.active, "-5")
    client.zadd(keys.due, {"timeout|-5|3": 4102444800.0})
    client.set(f"{keys.game('-5')}:hand:7", "hand", ex=3600)
    client.set(keys.schema, 2)


def test_a_bot_s_keys_come_back_as_they_were_and_only_its_own(client: redis.Redis, tmp_path: Path) -> None:
    mine, other = Keys(f"dh:{next(_bots)}"), Keys(f"dh:{next(_bots)}")
    _fill(client, mine)
    _fill(client, other)
    file = tmp_path / "backup"
    assert backup.take(client, mine, file) == 6
    client.hset(mine.game("-5"), "v", "4")  # the game went on after the backup, and a key was added
    client.set(f"{mine.chat(-6)}seq", 1)
    client.delete(mine.active)
    assert backup.restore(client, mine, file) == 6
    assert client.hgetall(mine.game("-5")) == {b"v": b"3", b"d": b'{"game_id":"coin_age"}'}
    assert client.smembers(mine.active) == {b"-5"}
    assert not client.exists(f"{mine.chat(-6)}seq")  # the bot's keys are the backup's: no more, no fewer
    assert 3500 < client.ttl(f"{mine.game('-5')}:hand:7") <= 3600 and client.ttl(mine.active) == -1
    assert client.zscore(mine.due, "timeout|-5|3") == 4102444800.0
    assert len(list(client.scan_iter(match=other.everything))) == 6  # the other bot's: untouched


def test_a_backup_is_put_back_only_for_its_own_bot_and_whole(client: redis.Redis, tmp_path: Path) -> None:
    mine, other = Keys(f"dh:{next(_bots)}"), Keys(f"dh:{next(_bots)}")
    _fill(client, mine)
    file = tmp_path / "backup"
    backup.take(client, mine, file)
    with pytest.raises(backup.BackupError, match="not of this bot"):
        backup.restore(client, other, file)
    lines = file.read_text().splitlines()
    file.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(backup.BackupError, match="cut short"):
        backup.restore(client, mine, file)
    row = json.loads(lines[1])
    row["dump"] = "bm90IGEgZHVtcA=="  # not a DUMP payload: refused before anything is deleted
    file.write_text("\n".join([lines[0], json.dumps(row), *lines[2:]]) + "\n")
    with pytest.raises(backup.BackupError, match="cannot read"):
        backup.restore(client, mine, file)
    assert len(list(client.scan_iter(match=mine.everything))) == 6
    with pytest.raises(backup.BackupError, match="nothing to back up"):
        backup.take(client, Keys(f"dh:{next(_bots)}"), tmp_path / "empty")


def test_a_backup_of_keys_not_yet_migrated_says_how_to_save_them(client: redis.Redis, tmp_path: Path) -> None:
    """Before its first start on this version the bot's keys are still named as before prefixes (dh:{<chat>}:…)."""
    old = Keys(LEGACY_PREFIX).game("-7")
    client.hset(old, mapping={"v": "1", "d": "{}"})
    try:
        with pytest.raises(backup.BackupError, match="copy the server's files"):
            backup.take(client, Keys(f"dh:{next(_bots)}"), tmp_path / "backup")
    finally:
        client.delete(old)


def test_the_command_works_on_the_embedded_server_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No REDIS_URL: ``dorehami backup`` and ``restore`` start the embedded server of DATA_DIR/redis (the one the
    bot runs on) for themselves, and stop it after."""
    token = f"{next(_bots)}:secret"
    keys = Keys.for_token(token)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("KEY_PREFIX", raising=False)
    monkeypatch.setenv("BOT_TOKEN", token)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    with EmbeddedServer(tmp_path / "redis") as server:
        _fill(redis.Redis.from_url(server.url), keys)
    file = tmp_path / "backup"
    assert main(["backup", str(file)]) == 0
    with EmbeddedServer(tmp_path / "redis") as server:
        redis.Redis.from_url(server.url).delete(keys.game("-5"))
    assert main(["restore", str(file)]) == 0
    assert "restore: 6 keys of" in capsys.readouterr().out
    with EmbeddedServer(tmp_path / "redis") as server:
        assert redis.Redis.from_url(server.url).hget(keys.game("-5"), "v") == b"3"


def test_a_cluster_is_not_backed_up_by_the_bot_and_it_says_how(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A backup is one transaction, which a cluster cannot give across its nodes: one line says so, and no
    connection is tried (the address here answers nothing)."""
    monkeypatch.setenv("BOT_TOKEN", f"{next(_bots)}:secret")
    monkeypatch.setenv("REDIS_URL", "redis+cluster://127.0.0.1:1")
    assert main(["backup", str(tmp_path / "backup")]) == 1
    assert "backed up node by node" in capsys.readouterr().err
    assert not (tmp_path / "backup").exists()
