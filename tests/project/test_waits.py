"""End-to-end tests wait for events, never for time: a test that sleeps, or waits for a quiet moment, until the
bot has done something passes on a quiet machine and fails on a busy one. They wait for what they expect to see
(``ControlClient.wait_for``, ``bot.dev.simulate.bot_says``, a version on the board, a line in the bot's log) or
for the whole system to have nothing left in hand (``bot.dev.simulate.settled``). Only the few helpers named here
may sleep: a poll for a state that no sandbox change announces, and a scenario's step that needs Telegram's
clock itself to move on (a flood budget filling again).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = [*sorted((ROOT / "tests" / "e2e").glob("*.py")), ROOT / "bot" / "dev" / "simulate.py"]
MAY_SLEEP = {
    ("bot/dev/simulate.py", "eventually"),  # polls a bot process's state or Redis, which the sandbox cannot see
    ("bot/dev/simulate.py", "let_time_pass"),  # a scenario's step on Telegram's clock, never a wait for the bot
    ("bot/dev/simulate.py", "until"),  # polls, gently, many chats at once (benchmarks' paced tables)
    ("tests/e2e/test_e2e_redis_refusals.py", "_refusing"),  # how long Redis refuses: the scenario, not a wait
}
TIMED = {"sleep", "idle"}  # asyncio.sleep / time.sleep, and the sandbox's quiet-moment wait


def timed_waits(path: Path) -> list[tuple[str, int, str]]:
    """(enclosing function, line, call) of every sleep or idle call in the file."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) and child.func.attr in TIMED:
                found.append((function, child.lineno, ast.unparse(child.func)))
            visit(child, name)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_end_to_end_tests_never_wait_for_time() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} {call} in {function or 'the module'}"
        for path in CHECKED
        for function, line, call in timed_waits(path)
        if (str(path.relative_to(ROOT)), function) not in MAY_SLEEP
    ]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_sleep(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("async def f(s):\n    await asyncio.sleep(1)\n    await s.idle(quiet=0.5)\n", encoding="utf-8")
    assert timed_waits(sample) == [("f", 2, "asyncio.sleep"), ("f", 3, "s.idle")]
