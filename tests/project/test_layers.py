"""Imports point one way: bot → ai and rendering → rules; sandbox imports nothing of ours; inside bot/, each
floor imports only the floors below it.

Each package may import only the packages of ours named here and the third-party libraries listed; the pure
layers (rules, ai) and the pictures (rendering) also stay off the standard library's clock, global random,
logging, files and network. Inside bot/ the rooms stand on floors (``BOT_FLOORS``, drawn in bot/README.md).
Every module is checked, in every sub-package, so a new package is covered the day it is added; a top-level
package with no entry here, or a module of bot/ on no floor, fails the test. No two files import each other,
even through others, and no import hides in a function to dodge such a circle.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
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
    "ai": Layer(frozenset({"rules", "ai"}), frozenset({"pydantic", "numpy"}), IO_AND_CLOCK),
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

# bot/'s floors, bottom first: a module imports modules of its own floor and of the floors below, never above.
BOT_FLOORS: tuple[tuple[str, ...], ...] = (
    ("bot.config",),  # settings from the environment
    ("bot.plumbing",),  # Redis and Telegram's budgets, deadlines, locks: no game, no words
    ("bot.games", "bot.messages"),  # what players see: presenters, boards, hands, menus, texts, notices
    ("bot.flow",),  # the game over time: writes, timers, absence, computer turns, the drawer, recovery, results
    ("bot.handlers",),  # Telegram's updates: commands and presses
    ("bot.__init__", "bot.__main__", "bot.app", "bot.cli", "bot.dev"),  # wiring, and the local harness
)
# Imports in a function that are not there to dodge a circle: `dorehami health` must start without loading
# the bot, and only `dorehami sandbox` needs the emulator.
LAZY = {("bot.cli", "bot.app"), ("bot.cli", "bot.dev.local")}


def imported(path: Path) -> set[str]:
    """Absolute module names a file imports (relative imports stay in their package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def our_modules() -> dict[str, Path]:
    """Every module of our packages by its dotted name (a package by its own name, not ``__init__``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = module_name(path)
            found[name.removesuffix(".__init__")] = path
    return found


def file_imports(path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The modules of ours a file imports when it loads (not under ``TYPE_CHECKING``): ``from bot.flow import
    redraw`` is ``bot.flow.redraw``, ``from bot.flow.redraw import redraw`` is ``bot.flow.redraw``."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                names.update(alias.name for alias in child.names if alias.name in modules)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    full = f"{child.module}.{alias.name}"
                    names.add(full if full in modules else child.module)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {name for name in names if name in modules}


def imports_in_functions(path: Path) -> list[tuple[int, str]]:
    """The line and module of every import made inside a function."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if in_function and isinstance(child, ast.Import):
                found.extend((child.lineno, alias.name) for alias in child.names)
            elif in_function and isinstance(child, ast.ImportFrom):
                found.append((child.lineno, "." * child.level + (child.module or "")))
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def floor_of(module: str) -> int:
    """The floor of a module of bot/ (its most specific entry in ``BOT_FLOORS``)."""
    best: tuple[int, int] | None = None  # (length of the entry, floor)
    for floor, entries in enumerate(BOT_FLOORS):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and (best is None or len(entry) > best[0]):
                best = (len(entry), floor)
    if best is None:
        raise AssertionError(f"{module} is on no floor of bot/: add it to BOT_FLOORS in tests/project/test_layers.py")
    return best[1]


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


def test_every_module_of_bot_stands_on_a_floor() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        floor_of(module_name(path))


def test_inside_bot_each_floor_imports_only_the_floors_below() -> None:
    wrong: list[str] = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        module = module_name(path)
        for name in imported(path):
            if name.split(".")[0] == "bot" and floor_of(name) > floor_of(module):
                wrong.append(f"{module} (floor {floor_of(module)}) imports {name} (floor {floor_of(name)})")
    assert not wrong, "\n".join(wrong)


def test_no_circle_between_files() -> None:
    """Modules import each other in one direction only, even through others (a circle found by a depth-first
    walk over what each module imports when it loads)."""
    modules = our_modules()
    graph = {name: file_imports(path, modules) - {name} for name, path in modules.items()}
    state: dict[str, int] = {}  # 1: on the walk's path, 2: done
    path: list[str] = []
    circles: list[str] = []

    def walk(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circles.append(" → ".join([*path[path.index(target) :], target]))
            elif target not in state:
                walk(target)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name)
    assert not circles, "\n".join(circles)


def test_no_import_hides_in_a_function() -> None:
    """An import in a function is how a circle is dodged; the project has none but ``LAZY``'s."""
    found: list[str] = []
    for folder in [*PACKAGES, "tests", "bench"]:
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = module_name(path)
            found += [
                f"{path.relative_to(ROOT)}:{line} imports {name}"
                for line, name in imports_in_functions(path)
                if (module, name) not in LAZY
            ]
    assert not found, "\n".join(found)


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    """The walk itself works: a rules module importing the bot or the clock is caught."""
    bad = tmp_path / "engine.py"
    bad.write_text("import time\nfrom bot.plumbing.store import Store\nfrom . import model\n", encoding="utf-8")
    assert imported(bad) == {"time", "bot.plumbing.store"}
    assert layer_of("bot.dev.harness") is LAYERS["bot.dev"]
    assert layer_of("rules.splendor.engine") is LAYERS["rules"]


def test_no_test_module_sits_at_the_top_of_tests() -> None:
    """pytest puts the folder of a test module without ``__init__.py`` first on ``sys.path``; for ``tests/``
    itself its folders ``tests/ai``, ``tests/bot``, … would then be found as namespace packages before ours in
    every process the tests spawn (the computer players' pool: ``cannot import name 'choose' from 'ai'``)."""
    assert not sorted(p.name for p in (ROOT / "tests").glob("*.py"))  # a conftest.py there does the same
