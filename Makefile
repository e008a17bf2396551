# One-command set-up: each target creates .venv and installs the project first when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: sandbox run test test-busy check lint bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

sandbox: $(STAMP)  ## run the bot against the local sandbox (web chat on http://127.0.0.1:8080/)
	$(BIN)/dorehami sandbox

run: $(STAMP)  ## run the bot for real (needs BOT_TOKEN)
	$(BIN)/dorehami run

test: $(STAMP)  ## every test: rules, rendering, sandbox, end to end
	$(BIN)/pytest -q

BUSY ?= 2
test-busy: $(STAMP)  ## every test on a busy machine: $(BUSY) CPU-bound processes of the same priority beside it
	@hogs=""; for i in $$(seq $(BUSY)); do $(PYTHON) -c 'while True: pass' & hogs="$$hogs $$!"; done; \
	trap "kill $$hogs" EXIT INT TERM; \
	$(BIN)/pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

check: lint test  ## what CI runs

bench: $(STAMP)
	$(BIN)/python bench/engine_games.py
	$(BIN)/python bench/render_coin_age.py
	$(BIN)/python bench/press_latency.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
