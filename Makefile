# Two commands a new user needs: `make demo` and `make test`. Both build .venv themselves.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench board mutate clean

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
