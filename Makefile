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

# The main program. Until the web app lands it analyses a sample hand.
run: $(BIN)/.installed
	$(BIN)/ginrummy analyze "As 2s 3s 7h 7d 7c Kd Qd 5c 9h 8h" --layoff "5s6s7s KhKdKc"

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
