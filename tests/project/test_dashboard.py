"""The Grafana dashboard beside compose.yaml (grafana/dorehami.json) asks only for figures the bot exports:
every metric an expression names is one of ``bot/plumbing/figures.py``'s (or the client's process figures),
with labels it has. A renamed figure or label fails here, not on an operator's blank panel."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.metrics import MetricWrapperBase

from bot.plumbing import figures

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "grafana" / "dorehami.json"
TARGET_LABELS = frozenset({"job", "instance"})  # Prometheus adds them to every series it scrapes
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
SELECTOR = re.compile(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}")
MATCHER = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)")
GROUPING = re.compile(r"\b(?:by|without|on|ignoring)\s*\(([^)]*)\)")
METRIC = re.compile(r"\b((?:dorehami|process|python)_[a-zA-Z0-9_:]*)")


def exported() -> dict[str, frozenset[str]]:
    """Every series name the bot's process exports, with its labels."""
    found: dict[str, frozenset[str]] = {}
    for family in REGISTRY.collect():  # what has samples already, the client's process figures among them
        for sample in family.samples:
            found[sample.name] = found.get(sample.name, frozenset()) | frozenset(sample.labels)
    for metric in vars(figures).values():  # and every figure, whether or not it has been set yet
        if not isinstance(metric, MetricWrapperBase):
            continue
        labels = frozenset(metric._labelnames)
        if isinstance(metric, Counter):
            found[f"{metric._name}_total"] = labels
        elif isinstance(metric, Histogram):
            found[f"{metric._name}_bucket"] = labels | {"le"}
            found[f"{metric._name}_count"] = found[f"{metric._name}_sum"] = labels
        elif isinstance(metric, Gauge):
            found[metric._name] = labels
    return found


def problems(expr: str, known: dict[str, frozenset[str]]) -> list[str]:
    """What in ``expr`` the bot does not export: a metric, or a label of the metrics it names."""
    bare = STRING.sub('""', expr)
    names = METRIC.findall(re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", bare))
    found = [f"no metric {name}" for name in names if name not in known]
    labels = frozenset().union(*(known.get(name, frozenset()) for name in names)) | TARGET_LABELS
    for name, matchers in SELECTOR.findall(bare):
        for label in MATCHER.findall(matchers):
            if label not in known.get(name, frozenset()) | TARGET_LABELS:
                found.append(f"{name} has no label {label}")
    for grouping in GROUPING.findall(bare):
        for label in filter(None, (part.strip() for part in grouping.split(","))):
            if label not in labels:
                found.append(f"no metric of the expression has a label {label}")
    if not names:
        found.append("names no metric of the bot")
    return found


def expressions() -> list[tuple[str, str]]:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return [(panel["title"], target["expr"]) for panel in dashboard["panels"] for target in panel["targets"]]


def test_every_expression_names_figures_the_bot_exports() -> None:
    known = exported()
    wrong = {f"{title}: {expr}": problems(expr, known) for title, expr in expressions()}
    assert not {where: found for where, found in wrong.items() if found}


def test_the_dashboard_shows_the_figures_that_matter() -> None:
    named = {name for _, expr in expressions() for name in METRIC.findall(expr)}
    wanted = {
        "dorehami_moves_total",
        "dorehami_presses_refused_total",
        "dorehami_telegram_requests_total",
        "dorehami_telegram_request_seconds_bucket",
        "dorehami_telegram_retry_after_seconds_total",
        "dorehami_handler_seconds_bucket",
        "dorehami_pacing_queued",
        "dorehami_pacing_wait_seconds_bucket",
        "dorehami_edits_merged_total",
        "dorehami_active_games",
        "dorehami_deadline_lateness_seconds_bucket",
        "dorehami_thinking_seconds_bucket",
        "dorehami_thinking_in_pool",
        "dorehami_redis_up",
        "dorehami_redis_seconds_bucket",
        "dorehami_task_down",
        "process_resident_memory_bytes",
    }
    assert wanted <= named, wanted - named


def test_the_check_finds_what_is_not_exported() -> None:
    known = exported()
    assert problems("sum by (game) (rate(dorehami_moves_total[5m]))", known) == []
    assert problems("rate(dorehami_moves[5m])", known) == ["no metric dorehami_moves"]
    assert problems('dorehami_moves_total{chat="1"}', known) == ["dorehami_moves_total has no label chat"]
    assert problems("sum by (user) (dorehami_active_games)", known) == ["no metric of the expression has a label user"]
    assert problems("vector(1)", known) == ["names no metric of the bot"]
