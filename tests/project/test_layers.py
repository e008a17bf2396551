"""Imports point one way: bot → ai and rendering → rules; sandbox imports nothing of ours.

Each package may import only the packages of ours named here and the third-party libraries listed; the pure
layers (rules, ai) and the pictures (rendering) also stay off the standard library's clock, global random,
logging, files and network. Every module is checked, in every sub-package, so a new package is covered the
day it is added; a top-level package with no entry here fails the test.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB = frozenset(sys.stdlib_module_names)
IO_AND_CLOCK = frozenset(
    {"asyncio", "datetime", "http", "logging", "os", "random", "secrets", "shutil", "socket", "subprocess",
     "sys", "threading", "time", "urllib"}
)  # fmt: skip


@dataclass(frozen=True)
class Layer:
    ours: frozenset[str]  # our packages it may import (itself included)
    third_party: frozenset[str] | None  # None: any installed library
    stdlib_forbidden: frozenset[str] = frozenset()


LAYERS: dict[str, Layer] = {
    "rules": Layer(frozenset({"rules"}), frozenset({"pydantic"}), IO_AND_CLOCK),
    "ai": Layer(frozenset({"rules", "ai"}), frozenset({"pydantic"}), IO_AND_CLOCK),
    # random.Random(seed) instances for textures and logging of the text fallback only; no clock, files, network
    "rendering": Layer(
        frozenset({"rendering", "rules"}),
        frozenset({"PIL", "arabic_reshaper", "bidi"}),
        IO_AND_CLOCK - {"random", "logging"},
    ),
    "sandbox": Layer(frozenset({"sandbox"}), None),
    "bot": Layer(frozenset({"bot", "rendering", "rules", "ai"}), None),
    "bot.dev": Layer(frozenset({"bot", "rendering", "rules", "ai", "sandbox"}), None),
}
OURS = frozenset(name for name in LAYERS if "." not in name)
PACKAGES = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").exists())


def imported(path: Path) -> set[str]:
    """Absolute module names a file imports (relative imports stay in their package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def layer_of(module: str) -> Layer:
    """The most specific layer: ``bot.dev.harness`` is in ``bot.dev``, ``bot.app`` in ``bot``."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        if (name := ".".join(parts[:end])) in LAYERS:
            return LAYERS[name]
    raise AssertionError(f"{module} is in no layer of tests/project/test_layers.py")


def test_every_package_has_a_layer() -> None:
    assert set(PACKAGES) <= OURS, f"add a layer for {set(PACKAGES) - OURS}"
    assert {"rules", "rendering", "bot", "sandbox"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_point_one_way(package: str) -> None:
    wrong: list[str] = []
    for path in sorted((ROOT / package).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        layer = layer_of(module)
        for name in imported(path):
            top = name.split(".")[0]
            if top == "__future__":
                continue
            if top in OURS:
                ok = top in layer.ours
            elif top in STDLIB:
                ok = top not in layer.stdlib_forbidden
            else:
                ok = layer.third_party is None or top in layer.third_party
            if not ok:
                wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    """The walk itself works: a rules module importing the bot or the clock is caught."""
    bad = tmp_path / "engine.py"
    bad.write_text("import time\nfrom bot.runtime.store import Store\nfrom . import model\n", encoding="utf-8")
    assert imported(bad) == {"time", "bot.runtime.store"}
    assert layer_of("bot.dev.harness") is LAYERS["bot.dev"]
    assert layer_of("rules.splendor.engine") is LAYERS["rules"]


def test_no_test_module_sits_at_the_top_of_tests() -> None:
    """pytest puts the folder of a test module without ``__init__.py`` first on ``sys.path``; for ``tests/``
    itself its folders ``tests/ai``, ``tests/bot``, … would then be found as namespace packages before ours in
    every process the tests spawn (the computer players' pool: ``cannot import name 'choose' from 'ai'``)."""
    assert not sorted(p.name for p in (ROOT / "tests").glob("*.py"))  # a conftest.py there does the same
