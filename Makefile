# Two commands for a newcomer on a fresh Debian machine (see README):
#   make run   - set everything up and start the development server on 127.0.0.1:5000
#   make test  - set everything up and run ruff, mypy and the whole pytest suite (browser tests too)
# Both are safe to run twice: each step is skipped when its result is already there.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run serve test lint typecheck pytest chromium system-deps bench bench-quick loadtest clean

$(STAMP): pyproject.toml
	@# Debian's python3 imports venv without python3-venv, but cannot create one without ensurepip.
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y python3-venv; }
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@rm -f $(VENV)/.installed-*
	@touch $@

# Debian's Chromium drives the browser tests; `playwright install` cannot download browsers here.
chromium:
	@command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

# nginx (nginx -t and a live proxy test) and systemd-analyze (unit check) for tests/test_deploy.py,
# so a clean CI machine runs the deploy tests instead of skipping them. Installed only if missing.
system-deps: chromium
	@{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } && \
	 { command -v systemd-analyze >/dev/null 2>&1; } || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y --no-install-recommends nginx-light systemd; }

run: $(STAMP)
	$(BIN)/flask --app sudoku_web run --host $(HOST) --port $(PORT)

serve: $(STAMP)
	$(BIN)/sudoku-web serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) system-deps
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

bench-quick: $(STAMP)
	$(BIN)/python -m benchmarks.run --quick

# gunicorn on 127.0.0.1 under wrk (about a minute); figures go in benchmarks/RESULTS.md.
loadtest: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }
	$(BIN)/python -m benchmarks.loadtest

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache test-results
