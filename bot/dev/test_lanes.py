"""A pytest plugin (``addopts`` in pyproject.toml) that lays the tests out over pytest-xdist's workers for ``make
test`` (``-n 2 --dist loadfile``): whole modules to each worker, as pytest-xdist's loadfile does, except that every
end-to-end module that shares the session's system (``tests/e2e/conftest.py: harness``) is one unit. One worker runs
them all, in a serial run's order, so that system starts once and its chats, and so the deals they get
(``DEAL_SEED``), are the same on every run; the modules below run systems of their own and may go anywhere.

The queue is ordered longest first: that unit, then the end-to-end modules with systems of their own, then the
rest by size, so that no long unit starts last and leaves one worker alone at the end. Without ``-n`` (or with
another ``--dist``) nothing here applies.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest
from xdist.scheduler import LoadFileScheduling

E2E = "tests/e2e/"
# end-to-end modules whose tests each use a system of their own (a module fixture), never the session's; a module
# listed here that uses the session's after all fails its collection (tests/e2e/conftest.py)
OWN_SYSTEMS = frozenset(
    f"test_e2e_{name}.py" for name in ("cluster", "fleet", "forged_data", "metrics", "page", "sentinel", "workers")
)
SESSION_SYSTEM = "tests/e2e (the session's system)"


def unit_of(nodeid: str) -> str:
    """The work unit of a test: its module, or ``SESSION_SYSTEM``."""
    module = nodeid.split("::", 1)[0]
    shared = module.startswith(E2E) and module.removeprefix(E2E) not in OWN_SYSTEMS
    return SESSION_SYSTEM if shared else module


def rank(unit: str, size: int) -> tuple[int, int]:
    """Where a unit of ``size`` tests goes in the queue: smaller first."""
    return 0 if unit == SESSION_SYSTEM else 1 if unit.startswith(E2E) else 2, -size


class SessionSystemFirst(LoadFileScheduling):  # type: ignore[misc]
    """pytest-xdist's loadfile, with ``unit_of``'s units queued by ``rank``."""

    ordered = False

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)

    def _assign_work_unit(self, node: Any) -> None:
        if not self.ordered:  # the queue is whole at the first assignment
            queue: dict[str, dict[str, bool]] = self.workqueue  # type: ignore[has-type]
            self.workqueue = OrderedDict((u, queue[u]) for u in sorted(queue, key=lambda u: rank(u, len(queue[u]))))
            self.ordered = True
        super()._assign_work_unit(node)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> SessionSystemFirst | None:
    return SessionSystemFirst(config, log) if config.getvalue("dist") == "loadfile" else None
