"""The sandbox's small pure parts: HTML entities, image headers and flood limits."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest

from sandbox.errors import ApiError
from sandbox.formatting import command_entities, format_text, utf16_len
from sandbox.images import read_image_info
from sandbox.ratelimit import RateLimitConfig, RateLimiter


def no_users(user_id: int) -> None:
    return None


def test_html_becomes_plain_text_and_utf16_entities() -> None:
    text = format_text('😀 <b>سلام <i>دوست</i></b> &amp; <a href="https://x.ir">x</a>', "HTML", None, no_users)
    assert text.text == "😀 سلام دوست & x"
    assert text.entities == [
        {"type": "bold", "offset": 3, "length": 9},  # the emoji is two UTF-16 units
        {"type": "italic", "offset": 8, "length": 4},
        {"type": "text_link", "url": "https://x.ir", "offset": 15, "length": 1},
    ]
    assert text.html is not None and utf16_len("😀") == 2


def test_html_pre_with_language_and_unknown_mentions() -> None:
    text = format_text(
        '<pre><code class="language-python">x = 1</code></pre><a href="tg://user?id=5">A</a>', "html", None, no_users
    )
    assert text.entities == [
        {"type": "pre", "language": "python", "offset": 0, "length": 5},
        {"type": "text_link", "url": "tg://user?id=5", "offset": 5, "length": 1},
    ]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("<blink>x</blink>", 'Unsupported start tag "blink" at byte offset 0'),
        ("x<br/>y", 'Unsupported start tag "br/" at byte offset 1'),
        ("۳ < ۴", 'Unsupported start tag "" at byte offset 3'),  # a bare < is a tag to Telegram
        ("<b", "Unclosed start tag at byte offset 0"),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("<a href=x/y>l</a>", "Unexpected end of name token at byte offset 8"),
        ("<b title>x</b>", 'Expected equal sign in declaration of an attribute of the tag "b" at byte offset 0'),
        ('<tg-emoji emoji-id="x">🙂</tg-emoji>', "Invalid custom emoji identifier specified"),
        ("&#xD800;", "Text contains invalid Unicode characters after decoding HTML entities"),
    ],
)
def test_html_errors_use_telegram_wording(source: str, message: str) -> None:
    with pytest.raises(ApiError) as caught:
        format_text(source, "HTML", None, no_users)
    assert caught.value.error_code == 400
    assert caught.value.description.startswith("Bad Request: can't parse entities: ")
    assert message in caught.value.description


def test_command_entities() -> None:
    assert command_entities("/new coin_age") == [{"type": "bot_command", "offset": 0, "length": 4}]
    assert command_entities("/join@dorehami_bot") == [{"type": "bot_command", "offset": 0, "length": 18}]
    assert command_entities("سلام /help") == [{"type": "bot_command", "offset": 5, "length": 5}]
    assert command_entities("a/b") == []


def test_image_sizes_from_headers(make_png: Callable[..., bytes]) -> None:
    png = read_image_info(make_png(7, 3))
    assert (png.mime, png.width, png.height) == ("image/png", 7, 3)
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 480, 640, 1) + b"\x01\x11\x00"
    jpeg = read_image_info(b"\xff\xd8" + app0 + sof0 + b"\xff\xd9")
    assert (jpeg.mime, jpeg.width, jpeg.height) == ("image/jpeg", 640, 480)
    with pytest.raises(ValueError):
        read_image_info(b"not an image")


def test_rate_limiter_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("sandbox.ratelimit.time.monotonic", lambda: now[0])
    limiter = RateLimiter(RateLimitConfig(group_per_minute=2, edits_per_minute_per_chat=1))
    limiter.check_send(-1, private=False)
    now[0] += 10
    limiter.check_send(-1, private=False)
    with pytest.raises(ApiError) as caught:
        limiter.check_send(-1, private=False)
    assert caught.value.error_code == 429 and caught.value.retry_after == 50
    assert caught.value.payload()["parameters"] == {"retry_after": 50}
    limiter.check_send(-2, private=False)  # other groups are unaffected
    now[0] += 50
    limiter.check_send(-1, private=False)

    for _ in range(3):  # the private burst
        limiter.check_send(7, private=True)
    with pytest.raises(ApiError):
        limiter.check_send(7, private=True)
    now[0] += 1
    limiter.check_send(7, private=True)

    limiter.check_edit(-1)
    with pytest.raises(ApiError):
        limiter.check_edit(-1)


def test_rate_limit_config_validation() -> None:
    config = RateLimitConfig()
    config.update({"group_per_minute": 5, "edits_per_minute_per_chat": None, "enabled": False})
    assert config.as_dict()["group_per_minute"] == 5
    with pytest.raises(ValueError):
        config.update({"nonsense": 1})
    with pytest.raises(ValueError):
        config.update({"global_per_second": 0})


def test_html_accepts_every_telegram_tag_and_only_four_named_entities() -> None:
    source = (
        "<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s><strike>k</strike><del>d</del>"
        '<span class="tg-spoiler">p</span><tg-spoiler>q</tg-spoiler><a href="https://t.me/x">a</a>'
        '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji><code>c</code>'
        '<pre><code class="language-python">x</code></pre><blockquote>q</blockquote>'
        "<blockquote expandable>w</blockquote><B>upper</>"
    )
    text = format_text(source, "HTML", None, no_users)
    assert text.text == "bsieunskdpqa👍cxqwupper"
    kinds = [e["type"] for e in text.entities]
    assert kinds == [
        *["bold", "bold", "italic", "italic", "underline", "underline"],
        *["strikethrough", "strikethrough", "strikethrough", "spoiler", "spoiler", "text_link"],
        *["custom_emoji", "code", "pre", "blockquote", "expandable_blockquote", "bold"],
    ]
    assert next(e for e in text.entities if e["type"] == "pre")["language"] == "python"
    # &lt; &gt; &amp; &quot; and numeric references are decoded, with or without ";"; others stay as typed
    entities = format_text("&lt;&gt;&amp;&quot;&#1587;&#x1F600;&amp &nbsp;&copy;&#0;", "HTML", None, no_users)
    assert entities.text == '<>&"س😀& &nbsp;&copy;&#0;'
