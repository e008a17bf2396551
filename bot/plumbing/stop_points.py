"""Named moments at which a test can stop the bot, to kill it exactly there: a crash at a chosen line.

With ``DOREHAMI_STOP_AT=<name>`` (or ``<name>@<chat id>``, for that chat only) in its environment the process
stops itself (SIGSTOP) the first time it reaches that point; the test sees it stopped, then kills it
(SIGKILL) or breaks something and lets it go on (SIGCONT). Unset, as always outside tests, a point costs one
look-up. Points:

- ``board-drawn``: the group's board shows the new version, the private hands do not yet.
- ``result-due``: a finished game's last board and hands are drawn, its result is not yet sent.
- ``move-saved``: a press's move is written, its press not yet answered nor its board redrawn (a test makes
  the answer late, or stops the bot there).
- ``computer-to-move``: a computer player's deadline is claimed, its move not yet thought of.
- ``drawer-start``: a chat's drawer is due to draw, it has not yet read the game (another worker may write a
  newer version meanwhile).
"""

from __future__ import annotations

import os
import signal

STOP_AT = "DOREHAMI_STOP_AT"


def stop_point(name: str, chat_id: int | None = None) -> None:
    if os.environ.get(STOP_AT) in (name, f"{name}@{chat_id}"):
        del os.environ[STOP_AT]  # once: a process let go on does not stop again
        os.kill(os.getpid(), signal.SIGSTOP)
