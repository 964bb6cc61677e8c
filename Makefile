# Two commands do all the set-up on a fresh machine:
#   make run    the simulated table on the embedded default configuration (mock hardware)
#   make test   the test suite
# Both create (or reuse) the virtual environment in .venv by themselves.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/pokertable run $(ARGS)

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
