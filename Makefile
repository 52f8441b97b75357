# Each target bootstraps what it needs in .venv: `make lab` what a student
# needs (requirements.txt), `make test` what testing and building add
# (requirements-dev.txt), `make student` only nbformat and nbconvert. A fresh
# machine needs Python 3.11 to 3.14 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# one stamp per layer, touched only when its install succeeded
MADE    := $(VENV)/.made
STAMP   := $(VENV)/.installed
DEV     := $(VENV)/.installed-dev
NBTOOLS := $(VENV)/.installed-nbconvert
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
# the Portuguese edition, generated from the English (tools/portuguese/)
NOTEBOOKS_PT := $(sort $(wildcard notebooks/pt_BR/*.ipynb))
# JupyterLab's settings for `make lab-pt` only: its interface in Portuguese
LAB_PT := build/lab-pt
STUDENT := build/student
HANDOUT := build/handout
CODE   := d2l_attention tests tools bench conftest.py
# JupyterLab refuses to start as root (containers) unless told to
LAB_FLAGS ?= $(if $(filter 0,$(shell id -u)),--allow-root)
# seconds a cell may take before its wait fails, naming it: the longest
# take 30 to 60 s on 2 cores (tools/execute.py's CELL_TIMEOUT, tested)
CELL_TIMEOUT := 300
NBVAL  := $(BIN)/python -m pytest --nbval-lax --nbval-current-env \
          --nbval-cell-timeout=$(CELL_TIMEOUT) --durations=10
# CPU kernels of other machines, emulated: the notebooks must pass under each
KERNELS_AVX2 := ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 \
                MKL_ENABLE_INSTRUCTIONS=AVX2
KERNELS_BASE := ATEN_CPU_CAPABILITY=default ONEDNN_MAX_CPU_ISA=SSE41 \
                MKL_ENABLE_INSTRUCTIONS=SSE4_2
# requirements.txt's pins of the packages named: $(call pins,a|b)
pins = $(shell grep -E '^($(1))==' requirements.txt)
# an interpreter that no longer starts (moved or removed Python) forces a
# rebuild even when the stamps look up to date
VENV_RUNS := $(shell $(BIN)/python -c 'import sys' 2>/dev/null && echo yes)

.PHONY: setup setup-dev lab lab-pt test check test-kernels test-browser \
        test-setup execute lib lint bench po pt student handout \
        clean FORCE

setup: $(STAMP)
setup-dev: $(DEV)

# A virtual environment with a working pip. A half-made .venv (no stamp: a
# venv cut short or made without python3-venv, no pip, a broken
# interpreter) is removed and made afresh.
$(MADE): $(if $(VENV_RUNS),,FORCE)
	@$(PYTHON) -c 'import sys; sys.exit(not (3, 11) <= sys.version_info \
	    < (3, 15))' || { \
	    echo "make: needs Python 3.11 to 3.14 as $(PYTHON) (the pins" \
	         "have wheels for those); run e.g." \
	         "make PYTHON=python3.12 $(MAKECMDGOALS)" >&2; exit 1; }
	@echo "creating a fresh $(VENV)"; rm -rf $(VENV); \
	$(PYTHON) -m venv $(VENV) \
	    && $(BIN)/python -m pip --version >/dev/null 2>&1 || { \
	    rm -rf $(VENV); \
	    echo "make: $(PYTHON) -m venv made no working pip. On" \
	         "Debian/Ubuntu run: sudo apt install python3-venv" \
	         "(or python3.X-venv for your version), then make" \
	         "again." >&2; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	touch $@

# What a student needs. Installs again, into the same .venv, when a
# requirements file or pyproject.toml changed or an install failed. With
# TORCH_INDEX=https://download.pytorch.org/whl/cpu, the pinned torch comes
# first from that index (the CPU build, without CUDA's libraries).
$(STAMP): $(MADE) requirements.txt pyproject.toml
	$(if $(TORCH_INDEX),$(BIN)/python -m pip install --quiet \
	    $(call pins,torch) --index-url $(TORCH_INDEX))
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

# What testing and building add, and the reference implementation for the
# tests and benches: its pinned deps are too old for this environment, so
# none of them is installed (requirements-dev.txt has what it imports)
$(DEV): $(STAMP) requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --no-deps d2l==0.17.6
	touch $@

# make student's two packages alone: no torch, no JupyterLab
$(NBTOOLS): $(MADE) requirements.txt
	$(BIN)/python -m pip install --quiet $(call pins,nbformat|nbconvert)
	touch $@

# Trusting the notebooks lets JupyterLab show their saved widgets.
lab: setup
	@$(BIN)/jupyter trust $(NOTEBOOKS) $(wildcard notebooks/*/*.ipynb) \
	    >/dev/null || echo "make lab: warning: could not trust the" \
	    "notebooks; their widgets show after Run All" >&2
	$(BIN)/jupyter lab --notebook-dir=notebooks $(LAB_FLAGS)

# The Portuguese notebooks, with JupyterLab's menus in Portuguese: the
# locale is set in a settings folder of this target's own (under build/),
# so `make lab` keeps the user's settings and language.
lab-pt: setup
	@$(BIN)/jupyter trust $(NOTEBOOKS_PT) >/dev/null || true
	mkdir -p $(LAB_PT)/workspaces
	cp -R locale/pt_BR/jupyterlab-settings/. $(LAB_PT)/user-settings
	JUPYTERLAB_SETTINGS_DIR=$(LAB_PT)/user-settings \
	JUPYTERLAB_WORKSPACES_DIR=$(LAB_PT)/workspaces \
	    $(BIN)/jupyter lab --notebook-dir=notebooks/pt_BR $(LAB_FLAGS)

test: setup-dev
	$(NBVAL) $(NOTEBOOKS) $(NOTEBOOKS_PT) tests

# The fast loop, in a few minutes: ruff, the tests that start no kernel
# (package, cross-checks, translations, library sync, student edition),
# and nbval on the notebooks of either edition changed since the branch
# left main (committed or not; on main, since its last commit). `make
# test` stays the whole suite.
BASE    = $(shell git merge-base main HEAD 2>/dev/null || echo HEAD)
CHANGED = $(wildcard $(filter %.ipynb,$(shell git diff --name-only \
          $(BASE) -- notebooks; git ls-files --others --exclude-standard \
          notebooks)))
check: lint
	$(NBVAL) -m "not kernel and not browser and not setup_route" \
	    $(CHANGED) tests

# The notebooks under each emulated CPU kernel set; reports every failing one.
test-kernels: setup-dev
	@failed=""; \
	for kernels in "$(KERNELS_AVX2)" "$(KERNELS_BASE)"; do \
	    echo "== nbval with $$kernels"; \
	    env $$kernels $(NBVAL) $(NOTEBOOKS) || failed="$$failed; $$kernels"; \
	done; \
	if [ -n "$$failed" ]; then \
	    echo "make test-kernels: failed with$${failed#;}" >&2; exit 1; \
	fi

# The README's set-up without make, as written: its POSIX commands in a
# fresh copy of the project with a new virtual environment, then notebooks
# 01 and 05 top to bottom in that environment (tests/test_setup_route.py)
test-setup: setup-dev
	$(BIN)/python -m pytest -m setup_route tests/test_setup_route.py -rP \
	    --tb=short

# Each notebook of both editions in JupyterLab in the system Chromium
# (Debian: chromium), the Portuguese ones with JupyterLab in Portuguese,
# driven by pytest-playwright (tests/browser/): Run All, then its explorer
# worked with mouse and keyboard, its labels checked to show whole. What
# each test saw is printed (-rP); screenshots go to build/browser/.
test-browser: setup-dev
	$(BIN)/python -m pytest -m browser tests/browser -rP --tb=short \
	    --durations=0 --output=build/browser --screenshot=only-on-failure

# Every notebook run again in place, top to bottom, in a fresh kernel
# (tools/execute.py: nbclient with every wait bounded)
execute: lib
	$(BIN)/python -m tools.portuguese build >/dev/null
	$(BIN)/python -m tools.execute --inplace $(NOTEBOOKS) $(NOTEBOOKS_PT)

# The English text into the PO files of locale/pt_BR/, and the package's
# messages into d2l_attention.po (a changed block turns fuzzy, with its old
# English kept); start a new one with
#   .venv/bin/python -m tools.portuguese update notebooks/NN_name.ipynb
po: setup-dev
	$(BIN)/python -m tools.portuguese update

# The Portuguese notebooks from the PO files; those whose code changed run
pt: lib
	@stale=$$($(BIN)/python -m tools.portuguese build) || exit 1; \
	$(BIN)/python -m tools.execute --inplace $$stale

lib: setup-dev
	$(BIN)/python -m tools.export

# The student edition, to hand out: both editions without the cells tagged
# `solution` (a line says the solution is in the full notebook), written to
# $(STUDENT)/ and $(STUDENT)/pt_BR/ (git-ignored)
student: $(NBTOOLS)
	$(BIN)/python -m tools.student $(STUDENT) $(NOTEBOOKS) $(NOTEBOOKS_PT)

# The handouts a teacher gives the students (tools/handout.py): for each
# edition a folder and its zip in $(HANDOUT)/, with the student notebooks,
# the helper package, the corpus excerpt, the pinned requirements and a
# README in the edition's language. EDITION=en or EDITION=pt_BR builds one.
handout: $(NBTOOLS)
	$(BIN)/python -m tools.handout $(HANDOUT) $(EDITION)

# one code style: ruff's checks everywhere, and its formatter on the
# Python files (the notebooks keep their layout, see pyproject.toml)
lint: setup-dev
	$(BIN)/ruff check $(CODE) notebooks
	$(BIN)/ruff format --check $(CODE)

# each bench from the project root, as a module of the package bench
bench: setup-dev
	@for name in attention seq2seq_extras seq2seq; do \
	    echo "== bench/bench_$$name.py"; \
	    $(BIN)/python -m bench.bench_$$name || exit 1; \
	done

clean:
	rm -rf $(VENV) $(LAB_PT) $(STUDENT) $(HANDOUT)
