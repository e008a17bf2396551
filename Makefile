# One-command set-up: each target creates .venv and installs the project first when needed: the bot's own
# dependencies for running it (sandbox, run), with the test tools as well (pytest, ruff, mypy) for the rest.
# A stamp file per kind keeps either from being installed again until pyproject.toml or the lock changes; both
# install the versions requirements-test.lock pins (make lock).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: sandbox run test test-busy check lint bench clean browser lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml requirements-test.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements-test.lock -e .
	touch $(STAMP)

# the test tools come with everything the bot needs, so the bot's stamp is made too; pinned, so a release on the
# registry cannot change what the tests and lint run on
$(TEST_STAMP): pyproject.toml requirements-test.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements-test.lock -e '.[test]'
	touch $(TEST_STAMP) $(STAMP)

sandbox: $(STAMP)  ## run the bot against the local sandbox (web chat on http://127.0.0.1:8080/)
	$(BIN)/dorehami sandbox

run: $(STAMP)  ## run the bot for real (needs BOT_TOKEN)
	$(BIN)/dorehami run

# Debian's Chromium, which the Mini App's browser tests drive with Playwright (its own download is unreachable)
browser:
	@command -v chromium >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) || \
	  echo "could not install chromium: the Mini App's browser tests will fail"

# two pytest-xdist workers (WORKERS=N for more, WORKERS=0 for one process): whole modules to each, all the modules
# that share the end-to-end session's system to one of them (tests/e2e/conftest.py: pytest_xdist_make_scheduler)
WORKERS ?= 2
PYTEST := $(BIN)/pytest -q -n $(WORKERS) --dist loadfile

test: $(TEST_STAMP) browser  ## every test: rules, rendering, sandbox, end to end (PYTEST_ARGS to pass pytest options)
	$(PYTEST) $(PYTEST_ARGS)

BUSY ?= 2
test-busy: $(TEST_STAMP) browser  ## every test on a busy machine: $(BUSY) CPU-bound processes of the same priority beside it
	@hogs=""; for i in $$(seq $(BUSY)); do $(PYTHON) -c 'while True: pass' & hogs="$$hogs $$!"; done; \
	trap "kill $$hogs" EXIT INT TERM; \
	$(PYTEST) $(PYTEST_ARGS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

check: lint test  ## what CI runs

bench: $(TEST_STAMP) browser
	$(BIN)/python bench/engine_games.py
	$(BIN)/python bench/render_coin_age.py
	$(BIN)/python bench/press_latency.py

# The image's dependencies pinned with their hashes, for Linux x86_64 and aarch64 alike (one universal lock for
# the Python of the Dockerfile's base image): requirements.lock, what the bot runs on, and requirements-build.lock,
# what builds its wheel (pyproject.toml's build-system). uv is installed into .venv for this alone: nothing else
# needs it; tests/project/test_deploy.py checks the locks still satisfy pyproject.toml. requirements-test.lock is
# what make test and CI install (as pip constraints, with the test tools, for the oldest Python we support), its
# runtime pins those of requirements.lock.
LOCK_PYTHON := 3.12
TEST_LOCK_PYTHON := 3.11
COMPILE := $(BIN)/uv pip compile --universal --quiet --custom-compile-command "make lock"
LOCK := $(COMPILE) --python-version $(LOCK_PYTHON) --generate-hashes
lock: | $(BIN)/python
	$(BIN)/pip install --quiet uv
	$(LOCK) pyproject.toml -o requirements.lock
	$(COMPILE) --python-version $(TEST_LOCK_PYTHON) --extra test -c requirements.lock pyproject.toml -o requirements-test.lock
	$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')" \
	  | $(LOCK) - -o requirements-build.lock

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
