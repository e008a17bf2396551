"""The sandbox's small pure parts: HTML entities, image headers and flood limits."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest

from sandbox.clock import TelegramClock
from sandbox.errors import ApiError
from sandbox.formatting import command_entities, format_text, utf16_len
from sandbox.images import read_image_info
from sandbox.ratelimit import FORGIVE_AFTER, MAX_WAIT, RateLimitConfig, RateLimiter


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


class FakeTime:
    """Stands in for ``time.monotonic`` under the sandbox's clock."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 1000.0
        monkeypatch.setattr("sandbox.clock.time.monotonic", lambda: self.now)

    def refused(self, check: Callable[[], None]) -> float:
        """The retry_after of the 429 that ``check`` must raise."""
        with pytest.raises(ApiError) as caught:
            check()
        assert caught.value.error_code == 429 and caught.value.retry_after is not None
        assert caught.value.payload()["parameters"] == {"retry_after": caught.value.retry_after}
        return caught.value.retry_after


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return FakeTime(monkeypatch)


def test_rate_limiter_windows(clock: FakeTime) -> None:
    limiter = RateLimiter(RateLimitConfig(group_per_minute=2))
    limiter.check_send(-1, private=False)
    clock.now += 10
    limiter.check_send(-1, private=False)
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 50
    limiter.check_send(-2, private=False)  # other groups are unaffected
    clock.now += 50
    limiter.check_send(-1, private=False)

    for _ in range(3):  # the private burst
        limiter.check_send(7, private=True)
    assert clock.refused(lambda: limiter.check_send(7, private=True)) == 1
    clock.now += 1
    limiter.check_send(7, private=True)


def test_edits_count_as_messages_by_default(clock: FakeTime) -> None:
    limiter = RateLimiter()
    for n in range(20):
        (limiter.check_edit if n % 2 else lambda chat: limiter.check_send(chat, private=False))(-1)
    assert clock.refused(lambda: limiter.check_edit(-1)) == 60  # the group's 20 a minute, shared
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) >= 60
    limiter.check_edit(5)
    limiter.check_edit(5)
    limiter.check_edit(5)
    assert clock.refused(lambda: limiter.check_edit(5)) == 1  # a private chat's burst of 3, edits included

    kinder = RateLimiter(RateLimitConfig(edits_count_as_messages=False, edits_per_minute_per_chat=1))
    kinder.check_edit(-1)
    assert clock.refused(lambda: kinder.check_edit(-1)) == 60
    clock.now += 60  # the chat's flood wait, which holds new messages too
    for _ in range(20):
        kinder.check_send(-1, private=False)  # edits took nothing from the messages' budget


def test_flood_waits_escalate_and_are_forgiven(clock: FakeTime) -> None:
    limiter = RateLimiter(RateLimitConfig(group_per_minute=2))
    limiter.check_send(-1, private=False)
    limiter.check_send(-1, private=False)
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 60
    clock.now += 20  # the bot did not wait the 60 s it was told: what was left (40 s) doubles
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 80
    clock.now += 79.5
    assert clock.refused(lambda: limiter.check_edit(-1)) == 1  # still within the wait, though the window has room
    clock.now += 1
    limiter.check_send(-1, private=False)  # waited as told
    limiter.check_send(-1, private=False)
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 120  # a second 429: twice the wait
    clock.now += 120
    limiter.check_send(-1, private=False)
    limiter.check_send(-1, private=False)
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 240  # a minute is no limit
    clock.now += 240 + FORGIVE_AFTER * 2  # twenty quiet minutes forgive two of the three doublings
    limiter.check_send(-1, private=False)
    limiter.check_send(-1, private=False)
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 120
    clock.now += 120 + FORGIVE_AFTER * 2
    limiter.check_send(-1, private=False)
    limiter.check_send(-1, private=False)
    assert clock.refused(lambda: limiter.check_send(-1, private=False)) == 60
    for _ in range(12):  # ignoring every wait: the waits grow to the cap and no further
        clock.now += 1
        last = clock.refused(lambda: limiter.check_send(-1, private=False))
    assert last == MAX_WAIT


def test_the_overall_limit_starts_no_flood_wait(clock: FakeTime) -> None:
    limiter = RateLimiter(RateLimitConfig(global_per_second=2))
    limiter.check_send(-1, private=False)
    limiter.check_send(-2, private=False)
    assert clock.refused(lambda: limiter.check_send(-3, private=False)) == 1
    clock.now += 1
    limiter.check_send(-3, private=False)  # no wait was started, none was doubled
    limiter.check_send(-3, private=False)


def test_a_scaled_clock_keeps_the_schedule_and_runs_it_faster(clock: FakeTime) -> None:
    scaled = RateLimiter(RateLimitConfig(group_per_minute=2), TelegramClock(0.05))
    scaled.check_send(-1, private=False)
    clock.now += 0.5  # ten Telegram seconds
    scaled.check_send(-1, private=False)
    assert clock.refused(lambda: scaled.check_send(-1, private=False)) == 2.5  # 50 s, in real seconds
    clock.now += 1.0  # the bot ignored it: what was left (30 s) doubles, as at scale 1
    assert clock.refused(lambda: scaled.check_send(-1, private=False)) == 3.0
    clock.now += 3.0
    scaled.check_send(-1, private=False)


def test_the_time_scale_changes_without_jumps(clock: FakeTime) -> None:
    telegram = TelegramClock()
    clock.now += 10
    before = telegram.now()
    telegram.scale = 0.1
    assert telegram.now() == before
    clock.now += 1
    assert telegram.now() == pytest.approx(before + 10)
    telegram.scale = 1
    clock.now += 1
    assert telegram.now() == pytest.approx(before + 11) and telegram.wall(15) == 15
    for bad in (0, 1.5, -1, True, "fast"):
        with pytest.raises(ValueError):
            TelegramClock(bad)  # type: ignore[arg-type]


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
