"""Computer players think in other processes, so that a search never holds up the bot's event loop.

``ai.choose`` is pure CPU work (up to a couple of seconds at the hardest level): in the bot's process it would
stop every chat for that long, and in a thread it would still hold the GIL. So it runs in a small process
pool (``COMPUTER_WORKERS`` processes, made at start-up, shut down at stop), started with ``spawn`` (a fork
of a process with an event loop and threads is not safe) and at a lower priority, so that on a busy machine
the bot's own work (answers, redraws) comes first; a worker ends itself when the bot is gone, even killed. The
state crosses as its JSON and the move comes back as its action code, both plain strings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ai import choose
from bot.plumbing.figures import THINKING_IN_POOL, THINKING_SECONDS, THINKING_WAIT
from rules import GAMES

log = logging.getLogger(__name__)

# The thinkers' priority (os.nice): below the bot's, so that its answers and redraws go first when both want a
# core (CPU shares about 9 to 1), but not the lowest (19: about 70 to 1), at which any other busy process on the
# machine left a computer player a second or more for a move of a tenth of one.
NICENESS = 10
ORPHAN_CHECK_SECONDS = 1.0


def _start_worker(parent: int) -> None:
    """The pool's initializer: a lower priority, so the bot's process goes first when both want a core, and
    a watch on the bot. A spawned worker holds both ends of its task queue, so it never sees the bot die: the
    bot killed (kill -9) would leave it waiting for work forever. It ends itself once the bot is gone."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    threading.Thread(target=_exit_with, args=(parent,), name="orphan-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(0)


def think(game_id: str, state_json: str, seat: int, level: str, seed: int) -> str:
    """In a pool process: the code of the move ``ai.choose`` makes for ``seat``."""
    game = GAMES[game_id]
    state = game.state_model.model_validate_json(state_json)
    return game.encode(choose(game_id, state, seat, level, seed))


def _think_timed(game_id: str, state_json: str, seat: int, level: str, seed: int) -> tuple[str, float]:
    """In a pool process: ``think``'s move and the seconds it took there (for /metrics)."""
    started = time.perf_counter()
    code = think(game_id, state_json, seat, level, seed)
    return code, time.perf_counter() - started


def _ready() -> bool:
    return True


class Thinker:
    """The process pool of the computer players; ``choose`` awaits a move without blocking the loop."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )

    async def warm_up(self) -> None:
        """Start every worker process now (each imports the engines and the search once) rather than at the
        first computer move."""
        loop = asyncio.get_running_loop()
        pool = self._started()
        await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.workers)))

    async def choose(self, game_id: str, state_json: str, seat: int, level: str, seed: int) -> str:
        """The computer's move as an action code. A pool whose process died (killed, out of memory) is made
        anew and the error raised, so the caller tries again later."""
        loop = asyncio.get_running_loop()
        pool = self._started()
        asked = time.perf_counter()
        THINKING_IN_POOL.inc()
        try:
            code, seconds = await loop.run_in_executor(pool, _think_timed, game_id, state_json, seat, level, seed)
        except BrokenProcessPool:
            log.warning("a computer player's process died; starting the pool again")
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            THINKING_IN_POOL.dec()
        THINKING_SECONDS.labels(game_id, level).observe(seconds)
        THINKING_WAIT.observe(max(0.0, time.perf_counter() - asked - seconds))
        return code

    def stop(self) -> None:
        """Cancel what waits and let the processes end (a search under way finishes first, in its process)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _started(self) -> ProcessPoolExecutor:
        self.start()
        assert self._pool is not None
        return self._pool
