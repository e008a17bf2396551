"""Make the checkout's own packages importable however pytest is started.

The venv's editable install of ``dorehami`` maps ``rules`` to a namespace path, which hides
``rules/__init__.py`` (and so ``rules.GAMES``) when pytest is run as ``venv/bin/pytest`` rather than
``python -m pytest``. Putting the repository root first on ``sys.path`` makes the real package win.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
