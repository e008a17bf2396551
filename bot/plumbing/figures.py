"""Every figure the bot exports on ``/metrics`` (Prometheus), defined in one place.

Names start with ``dorehami_`` and carry their unit (``_seconds``, ``_total``); labels are few and bounded: a
Bot API method, an outcome, a game, a phase, a handler, a kind, never a chat or a user. Each process has its
own figures (a webhook worker is a process: Prometheus scrapes each); the gauges read from Redis at a scrape
(``bot/plumbing/metrics.py``) say the same in every worker. The client's default collectors add the process's
memory, CPU and open files (``process_*``) and Python's garbage collector (``python_gc_*``).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Buckets, in seconds, for each kind of wait.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)  # a Redis command
REQUEST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)  # a Bot API call, a handler
PATIENT = (0.01, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)  # a budget's wait, a deadline's delay

# What the bot has in hand (bot/plumbing/activity.py) and its long-running tasks (bot/plumbing/supervise.py).
IN_HAND_METRIC = "dorehami_work_in_hand"  # the end-to-end tests wait for it to be 0 (bot/dev/harness.py)
IN_HAND = Gauge(
    IN_HAND_METRIC,
    "Updates taken in and not yet handled, and tasks they or the clock set off that have not ended",
    ["kind"],
)
TASK_DOWN = Gauge("dorehami_task_down", "1 while a long-running task is failing and being restarted", ["task"])

# Updates and their handlers (bot/plumbing/activity.py; each handler timed as wired in bot/app.py).
UPDATES = Counter("dorehami_updates_total", "Updates taken in, by type", ["type"])
HANDLER_SECONDS = Histogram(
    "dorehami_handler_seconds", "Seconds a handler took for one update", ["handler"], buckets=REQUEST
)
HANDLER_ERRORS = Counter("dorehami_handler_errors_total", "Handlers that ended with an exception", ["handler"])

# The Bot API (bot/plumbing/bot_api.py: every request the bot makes passes there).
TELEGRAM_REQUESTS = Counter(
    "dorehami_telegram_requests_total",
    "Bot API requests by method and outcome (ok, 400, 401, 403, 404, 409, 429, 4xx, 5xx, timeout, network)",
    ["method", "outcome"],
)
TELEGRAM_SECONDS = Histogram(
    "dorehami_telegram_request_seconds",
    "Seconds from a Bot API request's start to its answer (getUpdates: a long poll)",
    ["method"],
    buckets=REQUEST,
)
RETRY_AFTER_SECONDS = Counter(
    "dorehami_telegram_retry_after_seconds_total",
    "Seconds Telegram's 429 answers told the bot to wait (the pacer holds the chat that long)",
    ["method"],
)

# Pacing to Telegram's flood budgets (bot/plumbing/pacing.py) and the drawers (bot/flow/redraw.py).
PACING_QUEUED = Gauge("dorehami_pacing_queued", "Messages and edits waiting in the pacer's lanes", ["lane"])
PACING_WAIT = Histogram(
    "dorehami_pacing_wait_seconds",
    "Seconds a message or an edit waited for its budgets before it was sent",
    ["lane"],
    buckets=PATIENT,
)
EDITS_MERGED = Counter(
    "dorehami_edits_merged_total",
    "Edits never sent because a newer one took their place: in the pacer's lane, or versions a drawer skipped",
    ["by"],
)

# Games (bot/flow/moves.py, bot/handlers/play.py, bot/handlers/page.py; the active set, read at a scrape).
MOVES = Counter(
    "dorehami_moves_total",
    "Moves written, by game and by whom (person, computer, timeout: a default move)",
    ["game", "by"],
)
PRESSES_REFUSED = Counter(
    "dorehami_presses_refused_total",
    "Moves refused, by game and why (stale, not_a_player, not_your_turn, illegal, topic_closed)",
    ["game", "reason"],
)
ACTIVE_GAMES = Gauge(
    "dorehami_active_games",
    "Lobbies, running games and results not yet out, by game and phase",
    [
        "game",
        "phase",
    ],
)

# Deadlines (bot/plumbing/deadlines.py).
DEADLINE_LATENESS = Histogram(
    "dorehami_deadline_lateness_seconds",
    "Seconds between a deadline's time and the moment a worker claimed it",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)

# Computer players (bot/plumbing/thinking.py).
THINKING_SECONDS = Histogram(
    "dorehami_thinking_seconds",
    "Seconds a computer player's search took in the pool's process",
    ["game", "level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0),
)
THINKING_WAIT = Histogram(
    "dorehami_thinking_wait_seconds",
    "Seconds a computer player's move waited for a free process of the pool (and crossed to it and back)",
    buckets=(*FAST, 2.5, 5.0, 10.0, 30.0),
)
THINKING_IN_POOL = Gauge("dorehami_thinking_in_pool", "Computer players' moves asked of the pool and not yet back")

# Redis (bot/plumbing/metrics.py at each scrape; bot/plumbing/store.py, deadlines.py).
REDIS_UP = Gauge("dorehami_redis_up", "1 if Redis answered this scrape's PING in time, else 0")
REDIS_SECONDS = Histogram(
    "dorehami_redis_seconds",
    "Seconds of the bot's Redis operations: ping (each scrape), load and save (a game), claim (the deadline poll)",
    ["operation"],
    buckets=FAST,
)
