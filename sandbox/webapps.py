"""Mini Apps as Telegram opens them: the launch data a page gets in its URL fragment, signed with the bot's token.

What Telegram does is written in sandbox/README.md ("Mini Apps"), with its sources; mainly
core.telegram.org/bots/webapps ("Initializing Mini Apps", "WebAppInitData", "Validating data received via the
Mini App", "Direct Link Mini Apps", "Testing Mini Apps").
"""

from __future__ import annotations

from sandbox.errors import bad_request
from sandbox.links import LinkError, check_http_link, describe, is_user_link


def web_app_url(url: str, what: str) -> str:
    """A Web App URL as Telegram stores it (``what``: "Inline keyboard button", "Menu button"), or Telegram's 400.
    HTTP passes: the sandbox is Telegram's test environment."""
    if is_user_link(url):
        raise bad_request("link to a user can't be used in Web App URL buttons")
    try:
        return check_http_link(url, https_only=False)
    except LinkError as reason:
        wording = f"{what} Web App {describe(url, reason)}"
        raise bad_request(wording[0].lower() + wording[1:]) from None
