# Folio: `make run` starts the app, `make test` runs the whole suite; both set up .venv and models/ first.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.folio-setup
LLAMA_STAMP := $(VENV)/.folio-llama-variants
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup llama-cpp system-libs run test lint models fonts translations package screenshots clean bench

setup: $(STAMP) system-libs models fonts translations

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# torch first and pinned: a looser requirement pulls a multi-GB CUDA build. Then llama-cpp-python
# (llama-cpp below), so that installing Folio finds it in place and builds no other.
$(STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/pip install --quiet torch==2.13.0
	$(MAKE) llama-cpp
	$(BIN)/pip install --quiet -e '.[dev,package]'
	touch $(STAMP)

# llama-cpp-python 0.3.36 built from source with three loadable sets of CPU kernels (x64, haswell
# for AVX2, zen4 for AVX-512 with VNNI and BF16) in llama_cpp/lib; app/core/generate/cpu_kernels.py
# loads the best one this CPU runs. Never -march=native, never AMX (a native build's AMX kernels crashed
# here), so one build runs on other people's laptops (packaging/llama_variants.py). 47 minutes here
# from nothing, niced, on 2 cores shared with other jobs (benchmarks/README.md).
llama-cpp: $(LLAMA_STAMP)

$(LLAMA_STAMP): packaging/llama_variants.py | $(BIN)/python
	$(BIN)/python packaging/llama_variants.py
	touch $(LLAMA_STAMP)

# The system libraries of Qt's xcb plugin (the window): apt-get installs what is missing as root or
# with sudo; otherwise one line gives the exact apt-get command and set-up stops.
system-libs: $(STAMP)
	$(BIN)/python -m app.platform_check --install

# The defaults: the chat models, the multilingual embedder of new libraries and the English-only
# one that libraries written before it recorded (packaging/install_models.py --list).
models: $(STAMP)
	$(BIN)/python packaging/install_models.py models

# The Chinese font the window falls back to when the system has none (fonts/README.md): from the
# system's fonts-wqy-microhei or `apt-get download` (no root); a warning, not a stop, when neither works.
fonts: $(STAMP)
	$(BIN)/python packaging/cjk_font.py fonts

# The interface translations: resources/i18n/folio_<lang>.qm built from the .ts sources in the repo
# (pyside6-lrelease of the venv). After adding strings, `$(BIN)/python packaging/translations.py update`
# puts them into the .ts to translate (README, "Chinese interface").
translations: $(STAMP)
	$(BIN)/python packaging/translations.py release

run: setup
	$(BIN)/python -m app

lint: setup
	$(BIN)/ruff check app tests benchmarks packaging
	$(BIN)/ruff format --check app tests benchmarks packaging
	$(BIN)/mypy
	$(BIN)/lint-imports

test: setup lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

# Answer-quality and retrieval eval (benchmarks/eval/questions.json); e.g. EVAL_ARGS="--retrieval-only".
.PHONY: eval
eval: setup
	$(BIN)/python benchmarks/eval_answers.py $(EVAL_ARGS)

# The benchmark set that fits in ~15 min on 2 cores, one table (benchmarks/README.md); never part of
# `make test`. BENCH_FLAGS=--full runs bigger; BENCH_FLAGS="--only cli" runs one part.
bench: setup
	$(BIN)/python benchmarks/run_all.py $(BENCH_FLAGS)

# The Linux bundle (PyInstaller, packaging/folio.spec) and dist/folio_<version>_amd64.deb.
package: setup
	packaging/build_deb.sh

screenshots: setup
	xvfb-run -a -s "-screen 0 1400x900x24" $(BIN)/python -m tests.gui.screenshots docs

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
