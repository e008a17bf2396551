"""A loop that keeps failing the same way (Redis away) logs it once, and once more when it works again, not
every round: an outage of a minute must not bury the log under hundreds of identical tracebacks."""

from __future__ import annotations

import logging


class RepeatedFailure:
    """The state of one recurring task: ``failed`` logs only the first failure of a run of them."""

    def __init__(self, log: logging.Logger, what: str) -> None:
        self.log = log
        self.what = what
        self.failing = False

    def failed(self, error: BaseException) -> None:
        if not self.failing:
            self.failing = True
            self.log.warning("%s failed (%r); not logged again until it works", self.what, error)

    def worked(self) -> None:
        if self.failing:
            self.failing = False
            self.log.warning("%s works again", self.what)
