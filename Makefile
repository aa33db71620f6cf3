# The README's two commands: `make run` and `make test`.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Websocket keepalive (daphne flags): a silently dropped connection is closed,
# and its seat turns away, within WS_PING_INTERVAL + 2 + WS_PING_TIMEOUT seconds.
WS_PING_INTERVAL ?= 15
WS_PING_TIMEOUT ?= 10

.PHONY: run test check install lint format bench screenshots messages audit

$(BIN)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	touch $@

install: $(BIN)/.installed

# Static files as deployed (hashed, compressed), collected into var/static so a
# checkout's own tests keep serving straight from static/. DEBUG stays off, as
# deployed: the club's own 404/500 pages, and {% static %} names the hashed files
# (Django's storage hands out unhashed names under DEBUG); the default
# ALLOWED_HOSTS already takes 127.0.0.1 and localhost (`DJANGO_DEBUG=1 make run`
# for the debug pages).
run: export STATIC_ROOT := $(CURDIR)/var/static
run: export DJANGO_DEBUG ?= 0
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_data
	$(BIN)/python manage.py collectstatic --noinput --clear -v0
	@echo "Serving on http://127.0.0.1:$(PORT)/ (and the worker beside it: analysis, its search at the lowest priority, mail, pushes)"
	$(BIN)/python manage.py worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python -m club.server -b 127.0.0.1 -p $(PORT) \
		--ping-interval $(WS_PING_INTERVAL) --ping-timeout $(WS_PING_TIMEOUT) club.asgi:application

# lint-imports: the apps' layers (pyproject.toml, [tool.importlinter]); an upward
# import or a cycle between layers fails here.
# makemigrations --check: a model change comes with its migration, and a game
# needs none (it also runs the system checks, the registry entries' included:
# games/checks.py); tests/integration/test_no_migration.py does the same with the
# tests' throwaway game registered.
test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest

# The quick inner loop: ruff, and every test that starts no server and no
# browser, on two workers (tests/README.md). `make test` stays the whole
# suite, as CI runs it.
CHECK_WORKERS ?= 2
check: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest -m "not browser and not server" -q -n $(CHECK_WORKERS)

lint:
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The quick benchmarks; bots (tests/bench/bench_bots.py, ~50 min) and the
# live load tool (python -m tools.loadtest, against a running server) are in
# docs/PERFORMANCE.md.
bench: install
	$(BIN)/python tests/bench/bench_devyatka.py
	$(BIN)/python tests/bench/bench_standings.py
	$(BIN)/python tests/bench/bench_moves.py
	$(BIN)/python tests/bench/bench_golf.py

# docs/screenshots/: the demo club (home, a Devyatka and a Golf table, a replay, a
# series) at 1366x768 and 390x844, photographed by Chromium (tests/e2e/screenshots.py).
screenshots: install
	$(BIN)/python -m pytest tests/e2e/screenshots.py -q -p no:cacheprovider

# Lighthouse 12.2.3 (npm, into the git-ignored var/audit/) with Debian's Chromium on
# every kind of page of the demo club, desktop and phone (tests/bench/audit.py;
# figures in docs/PERFORMANCE.md). Needs Node.js and npm.
audit: install var/audit/node_modules/.bin/lighthouse
	$(BIN)/python tests/bench/audit.py

var/audit/node_modules/.bin/lighthouse:
	mkdir -p var/audit
	cd var/audit && npm install --no-audit --no-fund --loglevel=error lighthouse@12.2.3

# Regenerate the lock after editing pyproject.toml (needs `pip install uv`).
lock:
	uv pip compile pyproject.toml --extra dev --python-version 3.11 -o requirements.lock

# The translation catalogs (README, "Adding a string / a language"): collect
# every marked string into locale/<lang>/LC_MESSAGES/{django,djangojs}.po,
# compile the .mo files and the static JavaScript catalogs (all committed, so
# `make run` and `make test` need no gettext). Needs GNU gettext. Running it
# twice leaves the tree unchanged. Run `make install` first on a fresh machine.
LANGS := it fr ru es ro
MESSAGE_FLAGS := $(addprefix -l ,$(LANGS)) --no-location --no-obsolete --no-wrap \
	-i .venv -i tests -i staticfiles -i var -i docs -i 'static/jsi18n'
messages:
	$(BIN)/python manage.py makemessages -d django $(MESSAGE_FLAGS)
	$(BIN)/python manage.py makemessages -d djangojs $(MESSAGE_FLAGS)
	$(BIN)/python manage.py compilemessages -i .venv -i staticfiles -i var
	$(BIN)/python manage.py compilejsi18n
