# Everything runs from a local virtual environment in .venv, made on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean wheel-check

$(BIN)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip "setuptools>=77"
	GINRUMMY_PURE=1 $(BIN)/python -m pip install -q -e '.[all,test,dev]'
	touch $@

# The hot modules setup.py compiles (mypyc) are built in place here, not by the install above,
# and rebuilt whenever their source changes: Python prefers a compiled module to the .py beside
# it. GINRUMMY_PURE=1 skips compiling.
COMPILED := $(shell $(PYTHON) -c "exec(open('src/ginrummy/speedups.py').read()); print(*SOURCES)")
$(BIN)/.compiled: $(BIN)/.installed $(COMPILED)
	$(BIN)/python setup.py -q build_ext --inplace
	touch $@

# The main program: the web app on http://127.0.0.1:8000 (SQLite in your data directory).
run: $(BIN)/.compiled
	$(BIN)/ginrummy serve

test: $(BIN)/.compiled
	$(BIN)/python -m pytest -q -n 2

# The built wheel holds every file of the package, installs with its web extra into a fresh
# virtual environment, and serves from there (tests/wheel_check.sh).
wheel-check: $(BIN)/.installed
	PYTHON=$(BIN)/python bash tests/wheel_check.sh

# The web pages' JavaScript is checked by Biome (package.json, biome.json): nothing is built.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: $(BIN)/.installed node_modules/.installed
	node_modules/.bin/biome check --error-on-warnings src/ginrummy/web/static/js
	$(BIN)/ruff check src tests benchmarks examples setup.py conftest.py
	$(BIN)/ruff format --check src tests benchmarks examples setup.py conftest.py
	$(BIN)/mypy --strict

bench: $(BIN)/.compiled
	$(BIN)/python benchmarks/melds.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info node_modules
	find src -name "*.so" -delete
