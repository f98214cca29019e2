# Everything runs from a local virtual environment in .venv, made on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[all,test,dev]'
	touch $@

# The main program: the web app on http://127.0.0.1:8000 (SQLite in your data directory).
run: $(BIN)/.installed
	$(BIN)/ginrummy serve

test: $(BIN)/.installed
	$(BIN)/python -m pytest -q -n 2

lint: $(BIN)/.installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy --strict

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/melds.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
