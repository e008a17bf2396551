"""Pictures rendered before the chat's lock is taken, so that a press never waits behind a render.

The chat's drawer (``bot/flow/redraw.py``) renders the board and the hands that are behind while it holds
no lock, then draws under the lock with them; anything not rendered beforehand (the game moved on meanwhile,
a menu level) is rendered then, off the event loop as always.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Picture = tuple[bytes, str]  # the encoded image and its file name
Key = tuple[str, int, int | None, str]  # game, version, seat (None: the group's board), menu prefix

_READY: ContextVar[dict[Key, Picture] | None] = ContextVar("dorehami_pictures", default=None)


async def render(key: Key, draw: Callable[[], Picture]) -> Picture:
    """The picture for ``key``: rendered beforehand if it was, else now in a thread."""
    ready = _READY.get()
    if ready is not None and key in ready:
        return ready[key]
    picture = await asyncio.to_thread(draw)
    if ready is not None:
        ready[key] = picture
    return picture


@contextlib.contextmanager
def rendered(pictures: dict[Key, Picture]) -> Iterator[None]:
    """Within this block, ``render`` takes its pictures from (and adds new ones to) ``pictures``."""
    token = _READY.set(pictures)
    try:
        yield
    finally:
        _READY.reset(token)
