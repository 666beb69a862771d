# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint browser web

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/companion

# The browser tests drive Debian's Chromium; install it when it is missing.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The browser tests mostly wait on Chromium: three workers, each file whole on one
# (its server and browser are shared within the file). Every worker must name
# the tests alike, and some are named from sets: one hash seed for all. Run after
# them on their own: a thumb's two taps 350 ms apart, which mean what they mean
# only on a machine that is not starved by other tests, and the phone build's
# tests, which build one folder.
ALONE := tests/screens/test_second_tap.py tests/web
test: $(STAMP) browser
	PYTHONHASHSEED=0 $(PY) -m pytest -q -n 3 --dist loadfile $(ALONE:%=--ignore=%)
	$(PY) -m pytest -q $(ALONE)

bench: $(STAMP) browser
	@$(PY) -m benchmarks

# The phone build: the whole app as static files in build/web (see README).
web: $(STAMP)
	$(PY) -m web.build

lint: $(STAMP)
	$(VENV)/bin/ruff check .
