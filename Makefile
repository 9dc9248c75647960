# The two commands of the README:
#   make run   sets up the kiosk (no torch) and starts it; no camera -> the bundled demo hand
#   make test  sets up everything (training extras included) and runs every check
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test setup setup-dev system lint card-art clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

system:
	./scripts/install-system-packages.sh

$(VENV)/.runtime: pyproject.toml | $(BIN)/python
	@echo 'Installing the kiosk into $(VENV) (log: $(VENV)/install.log)'
	@$(BIN)/pip install -q -e . > $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	@echo 'Installing the kiosk with its training and test tools into $(VENV) (log: $(VENV)/install.log)'
	@$(BIN)/pip install -q -e '.[train,dev]' > $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)
	touch $@

setup: system $(VENV)/.runtime

setup-dev: system $(VENV)/.dev

run: setup
	$(BIN)/kiosk run

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/mypy --strict kiosk devtools

# the training decks drawn once a machine (~/.cache/kiosk; about a minute the first time)
card-art: setup-dev
	$(BIN)/python -m datasets.cards_art

# three workers on two cores, each test module kept on one of them (tests/conftest.py)
test: lint card-art
	$(BIN)/python -m pytest -n 3 --dist loadfile --no-loadscope-reorder tests kiosk/rules devtools scripts/tests

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
