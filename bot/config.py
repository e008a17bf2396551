"""Settings from the environment or ``.env``; a bad value stops start-up with one line naming it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import AnyHttpUrl, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from telegram.constants import FloodLimit

_APP_NAME = re.compile(r"[A-Za-z0-9_]{3,64}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
# A Redis key prefix: words of letters, digits, ``_ . -`` joined by ``:``; no brace (hash tags follow it), no glob
KEY_PREFIX = re.compile(r"[A-Za-z0-9_.-]{1,64}(?::[A-Za-z0-9_.-]{1,64}){0,3}")
SENTINEL_SCHEME = "redis+sentinel"
SENTINEL_PORT = 26379  # Sentinel's own default port
CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")  # the second over TLS
CLUSTER_PORT = 6379
MAX_TIMER_CHOICES = 8  # turn timer buttons in /settings, besides «no timer»
MAX_TURN_SECONDS = 7 * 86400


def is_sentinel(url: str) -> bool:
    return url.startswith(f"{SENTINEL_SCHEME}://")


def is_cluster(url: str) -> bool:
    return url.startswith(tuple(f"{scheme}://" for scheme in CLUSTER_SCHEMES))


@dataclass(frozen=True)
class SentinelUrl:
    """``redis+sentinel://[[user]:password@]host[:port][,host[:port]…]/<primary name>[/<db>]
    [?sentinel_password=…]``: the user and password are the data nodes'; the Sentinels' own password, when
    they have one, is a query parameter."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None

    @classmethod
    def parse(cls, url: str) -> SentinelUrl:
        parts = urlsplit(url)
        if parts.scheme != SENTINEL_SCHEME:
            raise ValueError(f"not a {SENTINEL_SCHEME}:// URL")
        credentials, _, hosts = parts.netloc.rpartition("@")
        username, _, password = credentials.partition(":")
        sentinels = tuple(_address(host) for host in hosts.split(","))
        path = [unquote(piece) for piece in parts.path.split("/") if piece]
        if not path or len(path) > 2:
            raise ValueError("the path must be /<primary name> or /<primary name>/<db>")
        if len(path) == 2 and not path[1].isdigit():
            raise ValueError(f"the database must be a number, not {path[1]!r}")
        query = parse_qs(parts.query)
        return cls(
            sentinels=sentinels,
            service=path[0],
            db=int(path[1]) if len(path) == 2 else 0,
            username=unquote(username) or None,
            password=unquote(password) or None,
            sentinel_password=query.get("sentinel_password", [None])[0],
        )


@dataclass(frozen=True)
class ClusterUrl:
    """``redis+cluster://[[user]:password@]host[:port][,host[:port]…]`` (``rediss+cluster://`` over TLS): a few
    of the cluster's nodes to start from; the client learns the rest, and which node holds which slot, from them.
    A cluster has one database, so there is no path."""

    nodes: tuple[tuple[str, int], ...]
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> ClusterUrl:
        parts = urlsplit(url)
        if parts.scheme not in CLUSTER_SCHEMES:
            raise ValueError(f"not a {CLUSTER_SCHEMES[0]}:// URL")
        credentials, _, hosts = parts.netloc.rpartition("@")
        username, _, password = credentials.partition(":")
        if parts.path.strip("/"):
            raise ValueError("a cluster has one database: the URL has no path")
        return cls(
            nodes=tuple(_address(host, CLUSTER_PORT, "a cluster node") for host in hosts.split(",")),
            tls=parts.scheme == CLUSTER_SCHEMES[1],
            username=unquote(username) or None,
            password=unquote(password) or None,
        )


def _address(host: str, default_port: int = SENTINEL_PORT, what: str = "a Sentinel") -> tuple[str, int]:
    """``host`` or ``host:port`` (an IPv6 address in brackets)."""
    name, colon, port = host.rpartition(":")
    if not colon or "]" in port:
        name, port = host, str(default_port)
    if not name.strip("[]") or not port.isdigit():
        raise ValueError(f"{what}'s address must be host or host:port, not {host!r}")
    return name.strip("[]"), int(port)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr | None = Field(default=None, description="the bot's token from @BotFather")
    redis_url: str | None = Field(
        default=None,
        description="redis://, rediss://, unix://, redis+sentinel:// or redis+cluster:// URL; embedded server if unset",
    )
    redis_replicas: int | None = Field(
        default=None,
        ge=0,
        description="replicas that must hold a saved move before it is answered (WAIT); 1 with Sentinel, else 0",
    )
    redis_replica_wait_ms: int = Field(default=1000, ge=1, description="at most this long a save waits for them")
    key_prefix: str | None = Field(
        default=None, description="what the bot's Redis keys start with; dh:<bot id> if unset (bot/plumbing/keys.py)"
    )
    bot_api_url: AnyHttpUrl | None = Field(default=None, description="base URL of a Bot API server (sandbox)")
    operator_ids: Annotated[tuple[int, ...], NoDecode] = ()
    turn_timer_choices: Annotated[tuple[int, ...], NoDecode] = Field(
        default=(30, 60, 120, 300, 3600, 86400), description="seconds offered by /settings for the turn timer"
    )
    data_dir: Path = Path("data")
    webhook_url: AnyHttpUrl | None = None
    webhook_secret: SecretStr | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    worker_name: str = Field(default="", description="names this worker in logs and locks (webhook mode)")
    worker_lease_seconds: float = Field(
        default=10.0, gt=0, description="webhook mode: at most how long a dead worker holds up a chat"
    )
    computer_workers: int = Field(
        default=1, ge=1, le=32, description="processes in which computer players think (bot/plumbing/thinking.py)"
    )
    deal_seed: int | None = Field(
        default=None,
        ge=0,
        description="tests and demos only: every deal drawn from it and the chat, so a run deals the same games",
    )
    away_after_seconds: float = Field(
        default=20.0,
        ge=0,
        description="a player who pressed in a game less than this long ago is at the screen: no turn notice",
    )
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = Field(
        default="text", description="text: one line per record for people; json: one JSON object a line"
    )
    health_silent_seconds: float = Field(
        default=30.0, gt=0, description="dorehami health fails once Redis (or, polling, Telegram) is silent this long"
    )
    metrics_listen: str = "127.0.0.1"
    metrics_port: int | None = Field(default=None, ge=1, le=65535, description="serve /metrics here (Prometheus)")
    webapp_url: AnyHttpUrl | None = Field(
        default=None, description="the Mini App's public HTTPS address, e.g. https://games.example.org/app/"
    )
    webapp_name: str | None = Field(default=None, description="the Mini App's short name, registered with @BotFather")
    webapp_listen: str = "0.0.0.0"
    webapp_port: int = Field(default=8080, ge=1, le=65535, description="polling mode: where the page is served")

    @field_validator("operator_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        return _integers(value, "must be Telegram user ids separated by commas, e.g. 123,456")

    @field_validator("turn_timer_choices", mode="before")
    @classmethod
    def _split_seconds(cls, value: object) -> object:
        return _integers(value, "must be whole seconds separated by commas, e.g. 30,60,120")

    @field_validator("turn_timer_choices")
    @classmethod
    def _positive(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        """Each becomes a /settings button: a few, none longer than a week (the button's pattern allows up
        to nine digits, bot/messages/keyboards.py)."""
        if not value or any(v <= 0 for v in value):
            raise ValueError("must be one or more positive numbers of seconds")
        if len(value) > MAX_TIMER_CHOICES or max(value) > MAX_TURN_SECONDS:
            raise ValueError(f"must be at most {MAX_TIMER_CHOICES} choices of at most {MAX_TURN_SECONDS} s (a week)")
        return value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _format(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: str | None) -> str | None:
        if value and not (
            value.startswith(("redis://", "rediss://", "unix://")) or is_sentinel(value) or is_cluster(value)
        ):
            raise ValueError(f"must start with redis://, rediss://, unix://, {SENTINEL_SCHEME}:// or redis+cluster://")
        if value and is_sentinel(value):
            SentinelUrl.parse(value)  # its ValueError names what is wrong
        if value and is_cluster(value):
            ClusterUrl.parse(value)
        return value or None

    @property
    def replicas(self) -> int:
        """How many replicas a save waits for: set, or one behind Sentinel (a failover must not lose an answered
        move), none with a single server."""
        if self.redis_replicas is not None:
            return self.redis_replicas
        return 1 if self.redis_url and is_sentinel(self.redis_url) else 0

    @field_validator("key_prefix")
    @classmethod
    def _prefix_shape(cls, value: str | None) -> str | None:
        """Hash tags come after it (a brace would make its own) and SCAN matches on it (so no glob character)."""
        if value and not KEY_PREFIX.fullmatch(value):
            raise ValueError("must be words of A-Z, a-z, 0-9, _, . and - joined by ':', e.g. dh:games")
        return value or None

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        """The bot's id comes before the colon (the default key prefix is made of it, bot/plumbing/keys.py)."""
        if value is not None and not re.fullmatch(r"\d+:\S+", value.get_secret_value()):
            raise ValueError("must be the token @BotFather gave: the bot's id, ':', its secret (123456:ABC-DEF...)")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _secret_chars(cls, value: SecretStr | None) -> SecretStr | None:
        """As setWebhook checks secret_token: 1-256 characters, only A-Z, a-z, 0-9, _ and - (ASCII: Persian
        letters or digits, which str.isalnum() accepts, Telegram refuses)."""
        if value is not None and not _SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        """Without the secret anyone who finds the webhook's URL could post updates as Telegram."""
        if self.webhook_url is not None and self.webhook_secret is None:
            raise ValueError("WEBHOOK_SECRET: must be set when WEBHOOK_URL is")
        return self

    @field_validator("webapp_name")
    @classmethod
    def _app_name(cls, value: str | None) -> str | None:
        """As BotFather takes a short name: 3-64 characters of A-Z, a-z, 0-9 and _."""
        if value and not _APP_NAME.fullmatch(value):
            raise ValueError("must be 3-64 characters of A-Z, a-z, 0-9 and _ (the app's short name)")
        return value or None

    @model_validator(mode="after")
    def _webapp_whole(self) -> Settings:
        """A Direct Link needs both: the page's address and the app's short name."""
        if (self.webapp_url is None) != (self.webapp_name is None):
            raise ValueError("WEBAPP_URL and WEBAPP_NAME: set both (the Mini App) or neither")
        if self.webapp_url is not None and self.webapp_url.scheme != "https" and self.bot_api_url is None:
            raise ValueError("WEBAPP_URL: must be https:// (Telegram opens no other Mini App)")
        return self

    @property
    def webapp_path(self) -> str:
        """Where the page's routes live on the bot's server: the path of WEBAPP_URL, ending in ``/``."""
        path = self.webapp_url.path if self.webapp_url is not None else None
        return (path or "/").rstrip("/") + "/"

    @model_validator(mode="after")
    def _deal_seed_off_telegram(self) -> Settings:
        """Fixed deals are for a sandbox: against Telegram anyone who knew the seed could foresee every deck."""
        if self.deal_seed is not None and self.bot_api_url is None:
            raise ValueError("DEAL_SEED: only with BOT_API_URL (a sandbox), never against Telegram")
        return self

    @model_validator(mode="after")
    def _no_replica_wait_on_a_cluster(self) -> Settings:
        """WAIT counts the replicas of the node one connection wrote to; a cluster's client spreads a move's
        writes over pooled connections to several nodes, so there is nothing to wait on (Sentinel waits)."""
        if self.redis_url and is_cluster(self.redis_url) and self.redis_replicas:
            raise ValueError("REDIS_REPLICAS: a cluster cannot wait for replicas; use Sentinel for that")
        return self

    @property
    def webhook_mode(self) -> bool:
        return self.webhook_url is not None

    @property
    def heartbeat_path(self) -> Path:
        """The file the running bot touches; ``dorehami health`` reads it without importing the bot."""
        return self.data_dir / "heartbeat"


def _integers(value: object, message: str) -> object:
    """Comma-separated integers from the environment, as a tuple."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.replace(";", ",").split(",") if p.strip()]
        try:
            return tuple(int(p) for p in parts)
        except ValueError:
            raise ValueError(message) from None
    return value


class Limits(BaseSettings):
    """Telegram's flood budgets as bot/plumbing/pacing.py keeps them, from ``PACE_*`` environment variables (or
    ``.env``, like the other settings); 0 switches one off."""

    model_config = SettingsConfigDict(
        env_prefix="PACE_", env_file=".env", env_file_encoding="utf-8", frozen=True, extra="ignore"
    )

    global_per_second: int = Field(
        default=int(FloodLimit.MESSAGES_PER_SECOND), ge=0, description="messages and edits in any window, all chats"
    )
    global_window: float = Field(default=1.0, gt=0, description="the seconds global_per_second counts over")
    group_per_minute: int = Field(
        default=int(FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP),
        ge=0,
        description="messages and edits in any window, in one group",
    )
    group_window: float = Field(default=60.0, gt=0, description="the seconds group_per_minute counts over")
    group_burst: int = Field(default=5, ge=1, description="of those, how many may go at once")
    private_per_second: float = Field(
        default=float(FloodLimit.MESSAGES_PER_SECOND_PER_CHAT),
        ge=0,
        description="messages and edits per second in private",
    )
    private_burst: int = Field(default=3, ge=1, description="messages a private chat may get at once")
    max_retries: int = Field(default=20, ge=0, description="429s a request waits out before it fails")


class ConfigError(Exception):
    """Raised with a one-line, human message naming the bad setting."""


def load_settings(**overrides: object) -> Settings:
    """The settings, and the pacing budgets (``PACE_*``, bot/plumbing/pacing.py) checked with them, so that any bad
    value stops start-up with the same one line."""
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
        Limits(_env_file=overrides.get("_env_file", ".env"))  # type: ignore[arg-type]
        return settings
    except ValidationError as exc:
        first = exc.errors()[0]
        prefix = "PACE_" if exc.title == Limits.__name__ else ""
        name = f"{prefix}{str(first['loc'][0]).upper()}: " if first["loc"] else ""  # else the message names it
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"configuration error: {name}{message}") from None
