# Each target bootstraps what it needs: `make lab` and `make test` work on a
# fresh machine with Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
CODE   := d2l_attention tests tools bench
# JupyterLab refuses to start as root (containers) unless told to
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: setup lab test execute lib lint bench data clean

setup: $(STAMP)

# Re-installs only when requirements.txt or pyproject.toml changed.
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	# reference implementation for the tests only: its pinned deps are
	# too old for this environment, so none of them is installed
	$(BIN)/python -m pip install --quiet --no-deps d2l==0.17.6
	touch $@

data: $(STAMP)
	$(BIN)/python tools/fetch_data.py

lab: setup data
	$(BIN)/jupyter lab --notebook-dir=notebooks $(LAB_FLAGS)

test: setup data
	$(BIN)/python -m pytest --nbval-lax --nbval-current-env \
	    --nbval-cell-timeout=900 --durations=10 $(NOTEBOOKS) tests

execute: lib data
	for nb in $(NOTEBOOKS); do \
	    $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	        --ExecutePreprocessor.timeout=1200 "$$nb" || exit 1; \
	done

lib: setup
	$(BIN)/python tools/export.py

lint: setup
	$(BIN)/ruff check $(CODE) notebooks

bench: setup data
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) data/fra-eng data/fra-eng.zip
