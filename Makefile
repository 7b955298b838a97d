# Two commands for a newcomer on a fresh Debian machine (see README.md):
#   make run   - set everything up and start the development server on 127.0.0.1:5000
#   make test  - set everything up and run ruff, mypy and the whole pytest suite (browser tests too)
# Both are safe to run twice: each step is skipped when its result is already there.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# One stamp per extra, named for pyproject.toml's checksum: `make run` installs the app alone,
# `make test` adds the test tools, `make bench` the benchmark tools; each is redone
# only when pyproject.toml changes.
DEPS   := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
RUN_STAMP   := $(VENV)/.installed-run-$(DEPS)
TEST_STAMP  := $(VENV)/.installed-test-$(DEPS)
BENCH_STAMP := $(VENV)/.installed-bench-$(DEPS)
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST   ?= 127.0.0.1
PORT   ?= 5000

# Server packages the tests run themselves (from their own config, on a free loopback port,
# stopped by the test), as PACKAGE:SERVICE; installed by .ci/install-servers with the packaged
# service never started and left disabled. A test needing another server adds it here, e.g.
#   TEST_SERVERS += memcached:memcached
# systemd is here for systemd-analyze (tests/test_deploy.py), not for a service.
TEST_SERVERS := nginx-light:nginx redis-server:redis-server systemd

.PHONY: run serve test lint typecheck pytest chromium jre system-deps test-servers bench bench-quick \
	loadtest loadtest-compare loadtest-hostile clean messages translations

$(BIN)/python:
	@# Debian's python3 imports venv without python3-venv, but cannot create one without ensurepip.
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y python3-venv; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# $(call install,EXTRAS,KIND): pip install the package with EXTRAS, then replace KIND's stamp.
define install
	$(BIN)/python -m pip install --quiet -e '.$(1)'
	@rm -f $(VENV)/.installed-$(2)-* $(VENV)/.installed-[0-9]*
	@touch $@
endef

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(call install,,run)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(call install,[test],test)

$(BENCH_STAMP): pyproject.toml | $(BIN)/python
	$(call install,[bench],bench)

# Debian's Chromium drives the browser tests (`playwright install` cannot download browsers
# here). Without recommended packages: 19 packages instead of 107 on a Debian 12 base, and no
# avahi-daemon, pulseaudio or desktop tools.
chromium:
	@command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y --no-install-recommends chromium; }

# The TEST_SERVERS packages that are missing, without starting or enabling their services.
test-servers:
	@$(SUDO) .ci/install-servers $(TEST_SERVERS)

# Java for the Nu HTML Checker (tests/test_html_checker.py runs vnu.jar): Debian's headless
# runtime, without recommended packages.
jre:
	@command -v java >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y --no-install-recommends default-jre-headless; }

system-deps: chromium jre test-servers

run: $(RUN_STAMP)
	$(BIN)/flask --app sudoku_web run --host $(HOST) --port $(PORT)

serve: $(RUN_STAMP)
	$(BIN)/sudoku-web serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

# One pytest worker per core (pytest-xdist; addopts in pyproject.toml), each with its own
# Chromium and live server.
pytest: $(TEST_STAMP) system-deps
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.killer_bench

bench-quick: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks.run --quick
	$(BIN)/python -m benchmarks.killer_bench --quick

# gunicorn on 127.0.0.1 under wrk (about a minute); figures go in benchmarks/RESULTS.md.
loadtest: $(RUN_STAMP)
	@command -v wrk >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y wrk; }
	$(BIN)/python -m benchmarks.loadtest

# The previous release (ef0b313; BASE=<rev> for another) and this tree back to back, alternating:
# the cold mixed load under gunicorn as shipped and the server CPU per route, with the ratio
# (a few minutes). Figures go in benchmarks/RESULTS.md.
BASE ?= ef0b313
loadtest-compare: $(RUN_STAMP)
	$(BIN)/python -m benchmarks.release_compare --base $(BASE)

# The hostile load test: the most expensive requests with fresh inputs while a probe
# times /healthz, then the worst memory mix; a few minutes. Figures go in benchmarks/RESULTS.md.
loadtest-hostile: $(RUN_STAMP)
	$(BIN)/python -m benchmarks.loadtest --hostile --worst-memory

# Translations (docs/development.md, "Adding a language"): `make messages` extracts every
# string (babel.cfg) into messages.pot and merges it into each language's messages.po; after
# translating, `make translations` compiles the .mo files, which are committed beside their .po
# (so `make run` and the wheel need no build step; tests/test_translations.py checks they match).
CATALOGS := sudoku_web/translations
messages: $(RUN_STAMP)
	$(BIN)/pybabel extract --mapping-file babel.cfg --no-location --sort-output --keywords _l --keywords Np_:1,2 \
	  --add-comments "Translators:" --project sudoku-web --output-file $(CATALOGS)/messages.pot .
	$(BIN)/pybabel update --input-file $(CATALOGS)/messages.pot --output-dir $(CATALOGS) \
	  --no-fuzzy-matching --ignore-obsolete

translations: $(RUN_STAMP)
	$(BIN)/pybabel compile --directory $(CATALOGS) --statistics

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache test-results
