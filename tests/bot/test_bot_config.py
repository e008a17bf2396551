"""Settings: defaults, parsing, and one clear line for a bad value."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.config import ClusterUrl, ConfigError, SentinelUrl, load_settings
from bot.handlers.lobby import deal_seed
from bot.plumbing.store import GameRecord, Player


def test_defaults_mean_polling_with_an_embedded_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BOT_TOKEN", "REDIS_URL", "WEBHOOK_URL", "OPERATOR_IDS"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings(_env_file=None)
    assert settings.redis_url is None and not settings.webhook_mode and settings.operator_ids == ()


def test_operator_ids_are_comma_separated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPERATOR_IDS", "12, 34,56")
    assert load_settings(_env_file=None).operator_ids == (12, 34, 56)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("OPERATOR_IDS", "12,abc", "OPERATOR_IDS: must be Telegram user ids"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL: must start with redis://"),
        ("REDIS_URL", "redis+sentinel://a:26379,b/", "REDIS_URL: the path must be /<primary name>"),
        ("REDIS_URL", "redis+sentinel://a:x/m", "REDIS_URL: a Sentinel's address must be host"),
        ("REDIS_URL", "redis+sentinel://a/m/zero", "REDIS_URL: the database must be a number"),
        ("REDIS_URL", "redis+cluster://a:7000,b:x", "REDIS_URL: a cluster node's address must be host"),
        ("REDIS_URL", "redis+cluster://a:7000/1", "REDIS_URL: a cluster has one database"),
        ("REDIS_REPLICA_WAIT_MS", "0", "REDIS_REPLICA_WAIT_MS:"),  # WAIT's 0 waits for ever
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL: must be one of"),
        ("WEBHOOK_URL", "not a url", "WEBHOOK_URL:"),
        ("WEBHOOK_SECRET", "has spaces!", "WEBHOOK_SECRET: must be"),
        ("WEBHOOK_SECRET", "رمز۱۲۳", "WEBHOOK_SECRET: must be"),  # letters and digits, but not Telegram's A-Z 0-9
        ("WEBHOOK_SECRET", "x" * 257, "WEBHOOK_SECRET: must be"),
        ("WEBHOOK_PORT", "99999", "WEBHOOK_PORT:"),
        ("PACE_GROUP_PER_MINUTE", "many", "PACE_GROUP_PER_MINUTE:"),
        ("TURN_TIMER_CHOICES", "30,0", "TURN_TIMER_CHOICES: "),
        ("TURN_TIMER_CHOICES", "30,1000000000", "TURN_TIMER_CHOICES: must be at most 8 choices"),
        ("TURN_TIMER_CHOICES", ",".join(str(n) for n in range(1, 10)), "TURN_TIMER_CHOICES: must be at most 8"),
        ("BOT_TOKEN", "secret-without-an-id", "BOT_TOKEN: must be the token @BotFather gave"),
        ("KEY_PREFIX", "dh:{games}", "KEY_PREFIX: must be words"),  # a brace would make its own hash tag
        ("KEY_PREFIX", "dh:*", "KEY_PREFIX: must be words"),  # a glob would match other bots' keys
        ("KEY_PREFIX", "dh:", "KEY_PREFIX: must be words"),
    ],
)
def test_a_malformed_setting_names_itself(monkeypatch: pytest.MonkeyPatch, name: str, value: str, words: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        load_settings(_env_file=None)
    message = str(caught.value)
    assert message.startswith("configuration error: ") and words in message
    assert "\n" not in message


def test_run_without_a_token_stops_with_one_line(tmp_path: object) -> None:
    env = {"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "BOT_TOKEN" in done.stderr


def test_webhook_mode_needs_a_secret_as_telegram_checks_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/hook")
    monkeypatch.delenv("WEBHOOK_SECRET", raising=False)
    with pytest.raises(ConfigError) as caught:
        load_settings(_env_file=None)
    assert str(caught.value) == "configuration error: WEBHOOK_SECRET: must be set when WEBHOOK_URL is"
    monkeypatch.setenv("WEBHOOK_SECRET", "A-z_09" * 42 + "abcd")  # 256 characters, every kind Telegram allows
    assert load_settings(_env_file=None).webhook_mode


def test_fixed_deals_are_refused_against_telegram(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEAL_SEED", "7")
    monkeypatch.delenv("BOT_API_URL", raising=False)
    with pytest.raises(ConfigError) as caught:
        load_settings(_env_file=None)
    assert (
        str(caught.value) == "configuration error: DEAL_SEED: only with BOT_API_URL (a sandbox), never against Telegram"
    )
    monkeypatch.setenv("BOT_API_URL", "http://127.0.0.1:8081/")
    assert load_settings(_env_file=None).deal_seed == 7


def test_a_fixed_deal_depends_on_the_chat_and_the_version_and_a_secret_one_on_nothing() -> None:
    creator = Player(user_id=1, name="مریم")
    record = GameRecord(chat_id=-1001000000001, game_id="carcassonne", version=4, creator=creator)
    same = GameRecord(chat_id=-1001000000001, game_id="splendor", version=4, creator=creator)
    assert deal_seed(7, record) == deal_seed(7, same) < 2**62
    others = {
        deal_seed(7, record.model_copy(update=change))
        for change in ({"version": 5}, {"chat_id": -1001000000002}, {"thread_id": 3})
    }
    assert len(others | {deal_seed(7, record), deal_seed(8, record)}) == 5
    assert len({deal_seed(None, record) for _ in range(20)}) == 20


def test_a_sentinel_url_names_the_sentinels_the_primary_and_the_passwords() -> None:
    where = SentinelUrl.parse("redis+sentinel://bot:s3cret@s1:26380,s2,[::1]:26381/games/2?sentinel_password=p%40ss")
    assert where.sentinels == (("s1", 26380), ("s2", 26379), ("::1", 26381))
    assert (where.service, where.db, where.username, where.password) == ("games", 2, "bot", "s3cret")
    assert where.sentinel_password == "p@ss"


def test_saves_wait_for_one_replica_behind_sentinel_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://localhost:6379/0")
    assert load_settings(_env_file=None).replicas == 0
    monkeypatch.setenv("REDIS_URL", "redis+sentinel://s1,s2,s3/games")
    assert load_settings(_env_file=None).replicas == 1
    monkeypatch.setenv("REDIS_REPLICAS", "0")
    assert load_settings(_env_file=None).replicas == 0


def test_a_cluster_url_names_nodes_to_start_from_and_the_password() -> None:
    where = ClusterUrl.parse("rediss+cluster://bot:s%40cret@n1:7000,n2,[::1]:7002")
    assert where.nodes == (("n1", 7000), ("n2", 6379), ("::1", 7002))
    assert (where.tls, where.username, where.password) == (True, "bot", "s@cret")
    assert not ClusterUrl.parse("redis+cluster://n1:7000").tls


def test_a_cluster_cannot_be_told_to_wait_for_replicas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis+cluster://n1:7000,n2:7001")
    assert load_settings(_env_file=None).replicas == 0
    monkeypatch.setenv("REDIS_REPLICAS", "1")
    with pytest.raises(ConfigError, match="REDIS_REPLICAS: a cluster cannot wait for replicas"):
        load_settings(_env_file=None)
