# The two commands of README.md, each self-sufficient on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the compiled engine (make compiled): the wheel built with GOSTOP_USE_MYPYC=1 (setup.py names the
# modules mypyc compiles), installed in a virtual environment of its own
COMPILED_VENV := build/venv-compiled
COMPILED_BIN := $(abspath $(COMPILED_VENV))/bin
PACKAGE_SOURCES := $(shell find src/gostop_conformance/ kit reference_impl reference_mutants conformance spec scenarios build_backend -type f ! -path '*/__pycache__/*' 2>/dev/null) setup.py pyproject.toml

.PHONY: suite test test-slow lint corpus-lint typecheck check bench bench-quick docs clean mutation-syntactic compiled compiled-pgo test-compiled wheel wheel-check fuzz-server

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## main job: the conformance suite against the bundled reference engine (over stdio, as any engine
## is run), then the reference engine's own invariant check over random rounds of every ruleset
suite: $(STAMP)
	$(BIN)/gostop-conformance run --engine "$(BIN)/gostop-reference --stdio" --quiet --report-dir reports
	$(BIN)/gostop-reference check --rounds 200 --seed 1

## the whole test suite, on every core (pytest-xdist; a test file stays in one process, so that
## its module fixtures are built once); PYTEST_JOBS=0 runs it in this process alone
PYTEST_JOBS ?= auto
XDIST := -n $(PYTEST_JOBS) --dist loadfile
test: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m "not slow"

## the JavaScript kit's own unit tests (kit-js/test/, Node's test runner: no install, no dependency);
## its property and corpus tests against the Python side are in `make test` (tests/kit/test_js_kit.py)
.PHONY: test-js kit-js-data
test-js:
	@if command -v node >/dev/null 2>&1; then node --test kit-js/test/; \
	else echo "test-js: node is not installed: the JavaScript kit's tests are skipped"; fi

## kit-js/spec-data.json (and package.json's version) generated again from spec/; a test fails when stale
kit-js-data: $(STAMP)
	$(BIN)/python kit-js/generate.py

## the long checks `make test` leaves out (marked slow): properties, fuzz, the mutants, the docs built twice
test-slow: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m slow

## the corpus: every clause cited and traced, every option value exercised, every scenario passing
corpus-lint: $(STAMP)
	$(BIN)/gostop-conformance lint
	mkdir -p reports
	$(BIN)/gostop-conformance coverage > reports/coverage.txt || (cat reports/coverage.txt; exit 1)
	tail -1 reports/coverage.txt

## the real folders, not their links under src/ (which would lint every file twice)
LINTED := src/gostop_conformance/__init__.py spec kit kit-js/generate.py reference_impl reference_mutants conformance tests benchmarks docs/_build build_backend setup.py peers tools
lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: $(STAMP)
	$(BIN)/mypy

## the peers' saved runs (peers/<peer>/report/, which the site's compatibility page shows) and the
## verdicts of their READMEs, made again from checkouts of the engines (peers/README.md says how to
## get them): GOSTOP_TS=/path/to/gostop-ts GO_STOP_PYTHON=/path/to/go-stop-python
.PHONY: peer-reports
peer-reports: $(STAMP)
	@test -n "$(GOSTOP_TS)" && test -n "$(GO_STOP_PYTHON)" || \
	  (echo "peer-reports: set GOSTOP_TS and GO_STOP_PYTHON to checkouts of the engines (peers/README.md)"; exit 2)
	$(BIN)/python peers/verdict.py gostop-ts "$(GOSTOP_TS)"
	$(BIN)/python peers/verdict.py go-stop-python "$(GO_STOP_PYTHON)"

## a mutational fuzz of the reference engine's protocol server (tests/reference_impl/server_fuzz.py):
## recorded requests and FUZZ_MUTANTS mutants of them, from seed FUZZ_SEED, over pipes to one
## `gostop-reference --stdio` process; every line must get one valid reply, never `internal`, and
## the process must serve on (the test suite runs 1,500 of them)
FUZZ_MUTANTS ?= 12000
FUZZ_SEED ?= 1
fuzz-server: $(STAMP)
	$(BIN)/python -m tests.reference_impl.server_fuzz --mutants $(FUZZ_MUTANTS) --seed $(FUZZ_SEED)

check: lint typecheck test

## every benchmark, medians of 5 runs (see README.md, Benchmarks), on the interpreted engine and
## then on the compiled one (build=); bench-quick only checks they run. The compiled run starts in
## build/, where no source tree shadows the installed compiled wheel.
bench: $(STAMP) $(COMPILED_VENV)/.installed
	$(BIN)/python benchmarks/run.py
	cd build && $(COMPILED_BIN)/python ../benchmarks/run.py

bench-quick: $(STAMP) $(COMPILED_VENV)/.installed
	$(BIN)/python benchmarks/run.py --quick
	cd build && $(COMPILED_BIN)/python ../benchmarks/run.py --quick

## the pure-Python wheel in dist/ (the corpus and the spec inside, as package data)
wheel: $(STAMP)
	rm -rf dist/*.whl build/lib* build/bdist* build/temp*
	$(BIN)/python -m pip wheel --quiet --no-deps -w dist .

## the corpus as plain JSON (docs/export.md), the release artifact beside the wheel:
## dist/gostop-corpus-<version>.json, every scenario's requests and the checks of their replies
.PHONY: export
export: $(STAMP)
	$(BIN)/gostop-conformance export --format json --out dist/gostop-corpus-$$($(BIN)/python -c 'import gostop_conformance.reference as r; print(r.engine_version())').json

## the wheel installed in a fresh virtual environment outside the checkout: run, lint, coverage and
## the pytest plugin must each find the whole corpus there (.ci/check-wheel)
wheel-check: wheel
	.ci/check-wheel dist/gostop_conformance-*-py3-none-any.whl

## the same engine compiled with mypyc (README, "The compiled engine"): the wheel built with the
## opt-in flag of the build backend, installed in build/venv-compiled; rebuilt when a source changes
$(COMPILED_VENV)/.installed: $(STAMP) $(PACKAGE_SOURCES)
	rm -rf $(COMPILED_VENV) dist/compiled build/lib* build/bdist* build/temp* && mkdir -p build
	GOSTOP_MYPYC_CFLAGS="$(COMPILED_CFLAGS)" GOSTOP_MYPYC_LDFLAGS="$(COMPILED_LDFLAGS)" GOSTOP_USE_MYPYC=1 \
	  $(BIN)/python -m pip wheel --quiet --no-deps -w dist/compiled . > build/mypyc.log 2>&1 || (tail -30 build/mypyc.log; exit 1)
	$(PYTHON) -m venv $(COMPILED_VENV)
	$(COMPILED_BIN)/python -m pip install --quiet "$$(ls dist/compiled/*.whl)[test]"
	touch $@

compiled: $(COMPILED_VENV)/.installed

## the compiled engine with GCC's profile-guided optimisation (README, "The compiled engine"): built
## instrumented, trained on random rounds of every ruleset (build_backend/pgo_train.py), then built
## again from the profile, into build/venv-compiled; a later `make compiled` after a source change
## rebuilds it without
PGO_DIR := $(abspath build/pgo)
compiled-pgo: $(STAMP)
	rm -rf $(PGO_DIR) $(COMPILED_VENV)/.installed && mkdir -p $(PGO_DIR)
	$(MAKE) $(COMPILED_VENV)/.installed COMPILED_CFLAGS="-fprofile-generate=$(PGO_DIR) -fprofile-update=single" \
	  COMPILED_LDFLAGS="-fprofile-generate=$(PGO_DIR)"
	cd build && PYTHONHASHSEED=0 $(COMPILED_BIN)/python ../build_backend/pgo_train.py
	@test -n "$$(ls $(PGO_DIR)/*.gcda 2>/dev/null)" || (echo "compiled-pgo: the training wrote no profile (GCC is needed)"; exit 1)
	rm -f $(COMPILED_VENV)/.installed
	$(MAKE) $(COMPILED_VENV)/.installed \
	  COMPILED_CFLAGS="-fprofile-use=$(PGO_DIR) -fprofile-correction -Wno-missing-profile -Wno-coverage-mismatch"

## the harness tests that exercise the engine itself (the rest test the harness, which is not compiled)
COMPILED_TESTS := tests/conformance/test_corpus.py tests/conformance/test_dependencies.py tests/conformance/test_mutation.py \
	tests/conformance/test_perft.py tests/conformance/test_declaration.py tests/conformance/test_compare.py

## the engine's tests and the whole corpus against the installed compiled wheel, run in place: the
## sources are only importable through src/ (the editable install's path), which the compiled
## environment does not have, so gostop_conformance is the wheel's (the mutant tests skip: compiled
## code cannot be patched; GOSTOP_EXPECT_BUILD fails the run if the engine imported is not compiled)
test-compiled: $(COMPILED_VENV)/.installed
	GOSTOP_EXPECT_BUILD=compiled $(COMPILED_BIN)/python -m pytest $(XDIST) -p no:cacheprovider \
	  tests/reference_impl tests/spec $(COMPILED_TESTS)

## syntactic mutation testing of every engine module (setup.cfg) against the corpus and the engine's unit
## tests (slow: hours on 2 cores), the differential replay of the survivors, then the ledger tests/mutation/ledger.yaml
mutation-syntactic: $(STAMP)
	$(BIN)/python -m pip install --quiet 'mutmut>=3.3'
	$(BIN)/mutmut run --max-children 2
	$(BIN)/python tests/mutation/recheck.py --jobs 2
	$(BIN)/python tests/mutation/differential.py --jobs 2
	$(BIN)/python tests/mutation/build_ledger.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

## the documentation site: every page about the rules, cards, options, rulesets, scenarios and the
## protocol is generated at build time from spec/ and scenarios/ (mkdocs hook docs/_build/hooks.py); the
## compatibility report's worked examples are run then too (the reference engine and three mutants
## over stdio, about 20 s: docs/_build/docsgen/compat.py)
.PHONY: docs-serve docs-generated
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

## the generated files committed under docs/ so that the repository reads without a build (the
## recorded protocol sessions of docs/protocol-examples/); a test fails when one is stale
docs-generated: $(STAMP)
	$(BIN)/python docs/_build/generate.py

## a mutational fuzz of the harness against engine replies (tests/conformance/reply_fuzz.py): `run`
## over the corpus against the reference engine with REPLY_FUZZ_REPLIES of its replies mutated (seed
## REPLY_FUZZ_SEED); every run must exit 0 or 1 without a traceback, with every report written and
## read back (the test suite serves 1,000). A run that breaks this is minimised to its mutation
.PHONY: fuzz-harness
REPLY_FUZZ_REPLIES ?= 10000
REPLY_FUZZ_SEED ?= 1
fuzz-harness: $(STAMP)
	$(BIN)/python -m tests.conformance.reply_fuzz --replies $(REPLY_FUZZ_REPLIES) --seed $(REPLY_FUZZ_SEED)
