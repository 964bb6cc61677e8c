# Two commands do all the set-up on a fresh machine:
#   make run        the simulated table on the embedded default configuration (mock hardware)
#   make test       the test suite
# and two more check the code (CI runs all three):
#   make lint       ruff, with the rule set stated in pyproject.toml
#   make typecheck  mypy: strict on engine/, the normal configuration on hardware/ and pi_app/
# Each creates (or reuses) the virtual environment in .venv by itself.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck bench clean

# The Pi's locked versions (systemd/requirements.lock, without its hashes) constrain the
# test environment, so CI tests what the Pi installs.
$(STAMP): pyproject.toml systemd/requirements.lock
	@echo "Setting up $(VENV): installing the dependencies (a minute or two, once)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	grep -E '^[A-Za-z0-9]' systemd/requirements.lock | sed -e 's/[ \\]*$$//' > $(VENV)/constraints.txt
	$(PY) -m pip install --quiet -e '.[dev]' -c $(VENV)/constraints.txt
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/pokertable run $(ARGS)

# The tests run on every core of the machine, one pytest-xdist worker each (TEST_WORKERS=0:
# all in one process), a whole file to a worker (its tests in their order; the servers the
# tests start take their ports from the worker's own block: tests/ports.py).
# pytest's exit status 5 means it collected no tests: a failure, said in words.
TEST_WORKERS ?= auto
test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q -n $(TEST_WORKERS) \
	  --dist loadfile $(PYTEST_ARGS) || { \
	  st=$$?; [ $$st -ne 5 ] || echo "make test: no tests were collected" >&2; exit $$st; }

lint: $(STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/mypy hardware pi_app

bench: $(STAMP)
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
