"""Which links Telegram accepts in a Web App button and how it rewrites them.

Telegram checks a Web App's URL (an inline keyboard ``web_app`` button, a ``web_app`` menu button) with tdlib's
``LinkManager::check_link(url, http_only=true, https_only=!is_test_dc)`` and stores the URL as tdlib rebuilds it
(``HttpUrl::get_url``): scheme and host lower-cased, ``/`` as the path when there is none. The rules below follow
tdlib (``td/telegram/LinkManager.cpp``: ``check_link_impl``; ``tdutils/td/utils/HttpUrl.cpp``: ``parse_url``),
written out here, with its error texts. The sandbox is Telegram's *test environment* (sandbox/README.md, "Mini
Apps"), so ``http://`` passes and only ``https_only=False`` is ever used by the Bot API side.
"""

from __future__ import annotations

import ipaddress
import re

# tdlib's RFC 3986 character set for a host and for userinfo (``check_url_part``), besides %XX and UTF-8.
_URL_PART = re.compile(r"[A-Za-z0-9.\-_!$,~*'();&+=]")
_NON_HTTP = ("tg:", "ton:", "tonsite:")
_USER_LINK = re.compile(r"tg:(?://)?user\?(?:.*&)?id=\d+", re.IGNORECASE)


class LinkError(ValueError):
    """A link Telegram refuses; ``str()`` is tdlib's reason (e.g. "Only HTTPS links are allowed")."""


def is_user_link(url: str) -> bool:
    """``tg://user?id=…``: tdlib refuses it in Web App buttons before it looks at anything else."""
    return bool(_USER_LINK.match(url))


def check_http_link(url: str, https_only: bool) -> str:
    """The link as Telegram stores it, or LinkError with tdlib's reason. Only http(s) links pass (``http_only``);
    ``https_only`` is Telegram's production rule, off in its test environment."""
    if url.lower().startswith(_NON_HTTP):
        raise LinkError("Only HTTPS links are allowed" if https_only else "Only HTTP links are allowed")
    scheme, userinfo, host, port, path = _parse(url)
    if https_only and scheme != "https":
        raise LinkError("Only HTTPS links are allowed")
    is_ipv6 = host.startswith("[")
    if "." not in host and not is_ipv6:
        raise LinkError("Wrong HTTP URL")  # e.g. http://localhost: a host needs a dot
    return f"{scheme}://{userinfo + '@' if userinfo else ''}{host}{f':{port}' if port else ''}{path}"


def describe(url: str, reason: LinkError) -> str:
    """tdlib's wording for a refused link: ``URL '<url>' is invalid: <reason>``."""
    return f"URL '{url}' is invalid: {reason}"


def _parse(url: str) -> tuple[str, str, str, int, str]:
    """scheme, userinfo, lower-cased host, the port as written (0 if none) and the path with query and fragment."""
    head = re.match(r"[^:/?#@\[\]]*", url)
    assert head is not None
    rest = url
    scheme = "http"  # tdlib's default when the link has no scheme
    if url[head.end() : head.end() + 3] == "://":
        scheme = head.group().lower()
        if scheme not in ("http", "https"):
            raise LinkError("Unsupported URL protocol")
        rest = url[head.end() + 3 :]
    authority_end = re.search(r"[/?#]", rest)
    authority = rest[: authority_end.start()] if authority_end else rest
    tail = rest[authority_end.start() :] if authority_end else ""
    port = 0
    colon = _port_colon(authority)
    if colon is not None:
        digits = authority[colon + 1 :].lstrip("0") or ("0" if authority[colon + 1 :] else "")
        port = int(digits) if digits.isascii() and digits.isdigit() else -1
        if port == 0:
            port = -1
        authority = authority[:colon]
    if not 0 <= port <= 65535:
        raise LinkError("Wrong port number specified in the URL")
    userinfo, _, host = authority.rpartition("@")
    if host.startswith("[") and host.endswith("]"):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise LinkError("Wrong IPv6 address specified in the URL") from None
    if not host:
        raise LinkError("URL host is empty")
    if host == ".":
        raise LinkError("Host is invalid")
    host = host.lower()
    if not host.startswith("["):
        _check_part(host, "host", allow_colon=False)
        _check_part(userinfo, "userinfo", allow_colon=True)
    path = tail.rstrip(" \t\n\r\v\f") or "/"
    if not path.startswith("/"):
        path = "/" + path
    path = "".join(f"%{ord(c):02X}" if ord(c) <= 0x20 else c for c in path)
    return scheme, userinfo, host, port, path


def _port_colon(authority: str) -> int | None:
    """Where the port's colon is: the last ``:`` that comes after any ``]`` or ``@``."""
    for i in range(len(authority) - 1, 0, -1):
        if authority[i] in "]@":
            return None
        if authority[i] == ":":
            return i
    return None


def _check_part(part: str, name: str, allow_colon: bool) -> None:
    i = 0
    while i < len(part):
        c = part[i]
        if _URL_PART.match(c) or (allow_colon and c == ":") or ord(c) >= 128:
            i += 1
        elif c == "%":
            if not re.match(r"[0-9A-Fa-f]{2}", part[i + 1 : i + 3]):
                raise LinkError(f"Wrong percent-encoded symbol in URL {name}")
            i += 3
        else:
            raise LinkError(f"Disallowed character in URL {name}")
