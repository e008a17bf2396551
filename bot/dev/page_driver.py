"""Plays the Mini App's page in a real browser, as a thumb would: tests and benchmarks only (needs Playwright,
a test dependency, and Debian's Chromium: Playwright's own browser download is not reachable here).

A move is made by tapping what the page offers (its spots and buttons) at random until the confirm button
works, then confirming; the page is then waited for until it shows the next version of the game.
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from playwright.async_api import Browser, Page, async_playwright

PHONE = {"width": 390, "height": 844}  # a phone's viewport in CSS pixels
# Chromium as root and on a closed network (the machine's notes): no sandbox, no calls home
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MAX_TAPS = 12  # taps a move may take before the driver calls the page stuck


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError("no chromium on PATH: apt-get install chromium (.ci/run does)")
    return found


@asynccontextmanager
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


async def open_page(browser: Browser, url: str, width: int = PHONE["width"]) -> Page:
    """A new browser context (a person's phone) on ``url``, once the page has drawn its board."""
    context = await browser.new_context(viewport={"width": width, "height": PHONE["height"]}, device_scale_factor=2)
    page = await context.new_page()
    page.on("pageerror", _fail_loudly)
    await page.goto(url)
    await page.wait_for_function(
        "document.querySelector('#board').dataset.version || document.querySelector('#notice:not([hidden])')"
    )
    return page


def _fail_loudly(error: Exception) -> None:
    """A script error on the page is a bug of the page: it shows in the test's output."""
    print(f"the page's script failed: {error}")


async def shown_version(page: Page) -> int:
    return int(await page.eval_on_selector("#board", "image => image.dataset.version || 0"))


async def wait_version(page: Page, version: int, timeout: float) -> float:
    """Seconds until the page shows ``version`` (or a newer one) of the game, its board drawn."""
    start = time.perf_counter()
    await page.wait_for_function(
        "version => Number(document.querySelector('#board').dataset.version) >= version",
        arg=version,
        timeout=timeout * 1000,
    )
    return time.perf_counter() - start


async def acting(page: Page) -> bool:
    """Whether the page offers its viewer moves (the move bar is up)."""
    return bool(await page.eval_on_selector("#bar", "bar => !bar.hidden"))


async def choices(page: Page) -> list[str]:
    """The selectors of what can be tapped now, once the page has drawn the last tap's pictures: the offered
    spots not chosen yet, and the choice buttons."""
    await page.wait_for_function("!Number(document.body.dataset.drawing || 0)")
    spots: list[str] = await page.eval_on_selector_all("svg .spot:not(.chosen)", "all => all.map(s => s.dataset.tap)")
    named: list[str] = await page.eval_on_selector_all("#choices button", "all => all.map(b => b.dataset.tap)")
    return [f'svg .spot[data-tap="{tap}"]' for tap in spots] + [f'#choices button[data-tap="{tap}"]' for tap in named]


# A point of the element that a thumb there would hit (not one covered by another spot drawn over it), after
# scrolling it to the middle of the screen; when no point of it can be hit, what covers its middle.
_OPEN_POINT = """element => {
    element.scrollIntoView({block: "center", inline: "center"});
    const box = element.getBoundingClientRect();
    for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
        for (const fx of [0.5, 0.3, 0.7, 0.15, 0.85]) {
            const x = box.left + box.width * fx, y = box.top + box.height * fy;
            const hit = document.elementFromPoint(x, y);
            if (hit === element || element.contains(hit)) return [x, y];
        }
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit ? (hit.outerHTML || hit.tagName).slice(0, 160) + ` at ${JSON.stringify(box)}` : "nothing";
}"""


async def tap(page: Page, selector: str) -> None:
    """Tap what ``selector`` names where it shows: a spot partly under another is tapped where it is not."""
    point = await page.eval_on_selector(selector, _OPEN_POINT)
    if isinstance(point, str):
        raise AssertionError(f"{selector} cannot be tapped anywhere: {point} covers it")
    await page.mouse.click(*point)


async def make_move(page: Page, rng: random.Random) -> dict[str, Any]:
    """Tap a random legal move together and confirm it; returns the confirmed code, the version before, and
    when confirm was pressed (``time.perf_counter``)."""
    version = await shown_version(page)
    for _ in range(MAX_TAPS):
        offered = await choices(page)
        ready = await page.is_enabled("#confirm")
        if ready and (not offered or rng.random() < 0.5):
            code = await page.get_attribute("#confirm", "data-code")
            confirmed = time.perf_counter()
            await page.click("#confirm")
            return {"code": code, "version": version, "confirmed": confirmed}
        if not offered:
            raise AssertionError(f"the page offers nothing and cannot confirm at version {version}")
        if await page.is_visible("#turn") and rng.random() < 0.3:
            await page.click("#turn")
            continue
        await tap(page, rng.choice(offered))
    raise AssertionError(f"no move after {MAX_TAPS} taps at version {version}")
