"""Pictures rendered once: before the chat's lock is taken, so that a press never waits behind a render, and
once for everyone who asks for the same one (the group's board and the Mini App's pages of a move).

The chat's drawer (``bot/flow/redraw.py``) renders the board and the hands that are behind while it holds
no lock, then draws under the lock with them; anything not rendered beforehand (the game moved on meanwhile,
a menu level) is rendered then, off the event loop as always. The latest pictures stay in hand a little
longer (``KEPT``): the Mini App's pages ask for a move's board while the drawer renders it, and wait for that
rendering rather than making their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Picture = tuple[bytes, str]  # the encoded image and its file name
Key = tuple[str, int, int | None, str]  # chat tag, version, seat (None: the group's board), menu prefix
KEPT = 32  # the pictures kept in hand, newest used last: a few moves' boards and hands (~150 KB each)

_READY: ContextVar[dict[Key, Picture] | None] = ContextVar("dorehami_pictures", default=None)
_RECENT: OrderedDict[Key, tuple[asyncio.AbstractEventLoop, asyncio.Task[Picture]]] = OrderedDict()


async def render(key: Key, draw: Callable[[], Picture]) -> Picture:
    """The picture for ``key``: rendered beforehand if it was, being rendered or rendered lately for someone
    else, else now in a thread."""
    ready = _READY.get()
    if ready is not None and key in ready:
        return ready[key]
    picture = await asyncio.shield(_rendering(key, draw))  # a caller that gives up leaves it to the others
    if ready is not None:
        ready[key] = picture
    return picture


def _rendering(key: Key, draw: Callable[[], Picture]) -> asyncio.Task[Picture]:
    loop = asyncio.get_running_loop()
    kept = _RECENT.get(key)
    if kept is not None and kept[0] is loop and not (kept[1].done() and kept[1].exception() is not None):
        _RECENT.move_to_end(key)
        return kept[1]
    task = loop.create_task(asyncio.to_thread(draw))
    _RECENT[key] = (loop, task)
    while len(_RECENT) > KEPT:
        _RECENT.popitem(last=False)
    return task


@contextlib.contextmanager
def rendered(pictures: dict[Key, Picture]) -> Iterator[None]:
    """Within this block, ``render`` takes its pictures from (and adds new ones to) ``pictures``."""
    token = _READY.set(pictures)
    try:
        yield
    finally:
        _READY.reset(token)
