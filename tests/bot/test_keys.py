"""The bot's key names: one place spells them, under a prefix of the bot's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.plumbing.keys import LEGACY_PREFIX, Keys, bot_id

BOT = Path(__file__).resolve().parents[2] / "bot"


def test_the_prefix_is_the_bot_s_id_unless_key_prefix_names_another() -> None:
    assert bot_id("123456:ABC-def") == 123456
    assert Keys.of(Settings(bot_token=SecretStr("123456:ABC-def"))).prefix == "dh:123456"
    assert Keys.of(Settings(bot_token=SecretStr("123456:ABC-def"), key_prefix="games:eu")).prefix == "games:eu"
    with pytest.raises(ValueError, match="BOT_TOKEN or KEY_PREFIX"):
        Keys.of(Settings())
    with pytest.raises(ValueError, match="not a key prefix"):
        Keys("dh:{1}")


def test_a_chat_s_keys_keep_its_hash_tag_after_the_prefix() -> None:
    keys = Keys("dh:7")
    assert keys.game("-5:3") == "dh:7:{-5}:game:-5:3"
    assert keys.chat(-5) == "dh:7:{-5}:" and keys.armed("-5") == "dh:7:{deadlines}:armed:-5"
    assert keys.due == "dh:7:{deadlines}:due" and keys.saved == "dh:7:saved" and keys.wake == "dh:7:wake"
    assert keys.adopted("dh:{-5}:game:-5") == "dh:7:{-5}:game:-5"


def test_no_module_but_keys_py_spells_a_key() -> None:
    """Every name comes from ``Keys``: a module writing ``dh:`` itself would put its key outside the bot's prefix,
    where another bot on the same Redis shares it."""
    spelled = re.compile(rf"""["']{LEGACY_PREFIX}:""")
    found = [
        f"{path.relative_to(BOT)}:{number}"
        for path in sorted(BOT.rglob("*.py"))
        if path.name != "keys.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if spelled.search(line)
    ]
    assert found == []
