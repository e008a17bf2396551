"""The names of the bot's keys and pub/sub channels in Redis: the one place that spells them.

Every name starts with the bot's prefix, so several bots (several tokens: the way past one token's Telegram
budget) share one Redis without sharing a record, a budget, a deadline or a channel. The prefix is ``dh:<bot
id>`` (the digits before ``:`` in the token, which are the bot's id on Telegram) unless ``KEY_PREFIX`` says
otherwise. A chat's keys carry the chat in a hash tag (``<prefix>:{<chat>}:…``) and the deadlines theirs
(``{deadlines}``), so a Redis Cluster keeps what one script touches in one slot; a prefix holds no brace.

Before bots had prefixes every key was ``dh:…`` (schema 1); ``bot/plumbing/schema.py`` renames those once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import KEY_PREFIX, Settings

LEGACY_PREFIX = "dh"  # every key's prefix before each bot had its own (schema 1)
APP_PREFIX = "dh"  # a bot's default prefix is this and its id
# The bot that took the keys of schema 1 (its prefix): one bot wrote them, so one bot takes them, once.
LEGACY_OWNER = f"{LEGACY_PREFIX}:legacy-owner"
# Schema 1's keys: a chat's (``dh:{<chat>}:…``) and the deadlines' (``dh:{deadlines}:…``), a person's
# (``dh:user:<id>:…``), and these.
_LEGACY_NAMES = ("active", "reachable", "quiet", "newest-private", "write-probe", "maintenance", "pace:overall")


def legacy(key: str) -> bool:
    """Whether ``key`` is a name of schema 1 (a prefixed bot's keys, ``dh:<id>:…``, never are)."""
    head, _, rest = key.partition(":")
    return head == LEGACY_PREFIX and (rest.startswith(("{", "user:")) or rest in _LEGACY_NAMES)


def bot_id(token: str) -> int:
    """The bot's id: the digits before ``:`` in its token (Telegram's tokens are ``<id>:<secret>``)."""
    digits, _, _ = token.partition(":")
    if not digits.isdigit():
        raise ValueError("a bot token starts with the bot's id, digits before ':'")
    return int(digits)


@dataclass(frozen=True, slots=True)
class Keys:
    """One bot's names in Redis, all under ``prefix``."""

    prefix: str

    def __post_init__(self) -> None:
        if not KEY_PREFIX.fullmatch(self.prefix):
            raise ValueError(f"not a key prefix: {self.prefix!r}")

    @classmethod
    def of(cls, settings: Settings) -> Keys:
        """The running bot's: ``KEY_PREFIX`` when set, else ``dh:<bot id>`` from ``BOT_TOKEN``."""
        if settings.key_prefix:
            return cls(settings.key_prefix)
        if settings.bot_token is None:
            raise ValueError("the key prefix comes from BOT_TOKEN or KEY_PREFIX; neither is set")
        return cls.for_token(settings.bot_token.get_secret_value())

    @classmethod
    def for_token(cls, token: str) -> Keys:
        return cls(f"{APP_PREFIX}:{bot_id(token)}")

    def adopted(self, key: str) -> str:
        """The name a key of schema 1 takes under this bot's prefix."""
        return self.prefix + key[len(LEGACY_PREFIX) :]

    def _name(self, rest: str) -> str:
        return f"{self.prefix}:{rest}"

    @property
    def everything(self) -> str:
        """A SCAN pattern for every key of this bot (a prefix has no glob character)."""
        return self._name("*")

    # A chat's keys: one hash tag, so they stay in one slot and move together when a group migrates.

    def chat(self, chat_id: int | str) -> str:
        """What every key about one chat starts with: ``<prefix>:{<chat>}:``."""
        return self._name(f"{{{chat_id}}}:")

    def game(self, tag: str) -> str:
        """A chat's (or forum topic's) game record; the keys about that game start with it."""
        return f"{self.chat(tag.split(':')[0])}game:{tag}"

    def moved(self, key: str, old: int, new: int) -> str:
        """The name ``key`` of chat ``old`` takes in chat ``new``: the hash tag, and the chat tag after ``game:``."""
        rest = key[len(self.chat(old)) :]
        game = f"game:{old}"
        if rest.startswith(game) and rest[len(game) : len(game) + 1] in ("", ":"):
            rest = f"game:{new}" + rest[len(game) :]
        return self.chat(new) + rest

    def user(self, user_id: int) -> str:
        """What a person's keys start with: ``<prefix>:user:<id>:``."""
        return self._name(f"user:{user_id}:")

    # The deadlines: one hash tag for all, so the claiming script works on a Cluster.

    @property
    def due(self) -> str:
        return self._name("{deadlines}:due")

    @property
    def leases(self) -> str:
        return self._name("{deadlines}:leases")

    def armed(self, tag: str) -> str:
        return self._name(f"{{deadlines}}:armed:{tag}")

    # The bot's own sets and flags.

    @property
    def active(self) -> str:
        """Chat tags with a lobby, a running game, or a result not yet announced."""
        return self._name("active")

    @property
    def active_kinds(self) -> str:
        """Chat tag → ``<game> <phase>`` for the tags in ``active`` (/metrics: ``Store.census``)."""
        return self._name("active-kinds")

    @property
    def reachable(self) -> str:
        return self._name("reachable")

    @property
    def quiet(self) -> str:
        return self._name("quiet")

    @property
    def newest_private(self) -> str:
        return self._name("newest-private")

    @property
    def write_probe(self) -> str:
        return self._name("write-probe")

    @property
    def maintenance(self) -> str:
        return self._name("maintenance")

    @property
    def pace_overall(self) -> str:
        return self._name("pace:overall")

    @property
    def schema(self) -> str:
        """The version of the shape the bot's keys and records are in (``bot/plumbing/schema.py``)."""
        return self._name("schema")

    @property
    def schema_lock(self) -> str:
        return self._name("schema:lock")

    # Pub/sub channels are shared by every database of a server: they carry the prefix too.

    @property
    def saved(self) -> str:
        """The channel every save is published on (the chat's tag)."""
        return self._name("saved")

    @property
    def wake(self) -> str:
        """The channel a freed lock or ticket is published on (its key)."""
        return self._name("wake")
