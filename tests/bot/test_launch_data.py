"""The Mini App's launch data checked as Telegram documents it, and the page link's signed chat."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode

import pytest

from bot.plumbing import launch_data, page_link
from bot.plumbing.launch_data import BadLaunch
from bot.plumbing.page_link import BadLink

TOKEN = "123456:ABC-token"
NOW = 1_800_000_000.0


def made(token: str = TOKEN, **fields: str) -> str:
    """Launch data as Telegram makes it, with the documented algorithm written out here once more."""
    data = {"user": json.dumps({"id": 42, "first_name": "لیلا"}), "auth_date": str(int(NOW)), **fields}
    check = "\n".join(f"{key}={data[key]}" for key in sorted(data))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    data["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(data)


def test_telegram_s_launch_data_names_its_user_and_start_param() -> None:
    launch = launch_data.verify(made(start_param="abc", chat_type="group"), TOKEN, now=NOW + 5)
    assert (launch.user_id, launch.first_name, launch.start_param) == (42, "لیلا", "abc")


@pytest.mark.parametrize(
    "init",
    [
        "",
        "user=x",
        made(token="654321:other"),  # another bot's
        made().replace("auth_date=", "auth_date=1"),  # changed after signing
        made() + "&start_param=abc",  # a field added
        made() + "&" + made().split("&")[0],  # a field given twice
    ],
)
def test_anything_else_is_refused(init: str) -> None:
    with pytest.raises(BadLaunch):
        launch_data.verify(init, TOKEN, now=NOW)


def test_launch_data_lives_a_day() -> None:
    launch_data.verify(made(), TOKEN, now=NOW + launch_data.MAX_AGE - 1)
    with pytest.raises(BadLaunch):
        launch_data.verify(made(), TOKEN, now=NOW + launch_data.MAX_AGE + 1)
    with pytest.raises(BadLaunch):  # from the future, more than clocks differ
        launch_data.verify(made(), TOKEN, now=NOW - launch_data.FUTURE_SLACK - 1)


@pytest.mark.parametrize("where", [(-1001234567890, None), (-1001234567890, 77), (5551234, None)])
def test_a_page_link_names_its_chat_in_telegram_s_characters(where: tuple[int, int | None]) -> None:
    payload = page_link.make(TOKEN, *where)
    assert len(payload) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-") for c in payload)
    assert page_link.read(TOKEN, payload) == where


def test_a_page_link_the_bot_did_not_make_is_refused() -> None:
    payload = page_link.make(TOKEN, -1001234567890, None)
    tag = payload[-12:]
    for forged in (
        payload.replace("-1001234567890", "-1001234567891"),  # another chat, the same tag
        page_link.make("654321:other", -1001234567890, None),  # another bot's
        f"-1001234567890_5_{tag}",  # a topic added
        "not-a-link",
    ):
        with pytest.raises(BadLink):
            page_link.read(TOKEN, forged)
