# Two commands a new user needs: `make demo` and `make test`. Both build .venv themselves.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test test-random lint bench board mutate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/threadgm demo

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -q -n auto

# The suite in a random order (one shuffle of every test; the seed is printed: pass SEED=N to replay it).
# xdist needs the same order on each worker, hence one seed for all.
SEED ?= $(shell od -An -N2 -tu2 /dev/urandom | tr -d ' ')
test-random: $(STAMP)
	$(PY) -m pytest -q -n auto --random-order-bucket=global --random-order-seed=$(SEED)

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP)
	$(PY) -m bench

# Mutation testing of the modules in [tool.mutmut] (not part of `make test`: it takes minutes).
mutate: $(STAMP)
	$(PY) -m pip install --quiet -e '.[mutate]'
	$(VENV)/bin/mutmut run || true
	$(PY) -m tests.mutation_score

board: $(STAMP)
	$(VENV)/bin/threadgm board

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache mutants
