# The two commands of README.md, each self-sufficient on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the compiled engine (make compiled): these modules of reference_impl, built by mypyc in a copy of the tree
COMPILED_MODULES := _cards _deal _events _match _perft _round _rulesets _scoring _settlement
COMPILED := build/compiled
COMPILED_FROM := reference_impl conformance spec scenarios tests benchmarks docs pyproject.toml setup.cfg mkdocs.yml

.PHONY: suite test lint corpus-lint typecheck check bench bench-quick docs clean mutation-syntactic compiled test-compiled

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

## the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest

## the corpus: every clause cited and traced, every option value exercised, every scenario passing
corpus-lint: $(STAMP)
	$(BIN)/gostop-conformance lint
	mkdir -p reports
	$(BIN)/gostop-conformance coverage > reports/coverage.txt || (cat reports/coverage.txt; exit 1)
	tail -1 reports/coverage.txt

lint: $(STAMP)
	$(BIN)/ruff check reference_impl conformance tests benchmarks docs/_build
	$(BIN)/ruff format --check reference_impl conformance tests benchmarks docs/_build

typecheck: $(STAMP)
	$(BIN)/mypy

check: lint typecheck test

## every benchmark, medians of 5 runs (see README.md, Benchmarks), on the interpreted engine and
## then on the compiled one (build=); bench-quick only checks they run
bench: $(STAMP) $(COMPILED)/.built
	$(BIN)/python benchmarks/run.py
	cd $(COMPILED) && PYTHONPATH=$(abspath $(COMPILED)) $(abspath $(BIN))/python benchmarks/run.py

bench-quick: $(STAMP) $(COMPILED)/.built
	$(BIN)/python benchmarks/run.py --quick
	cd $(COMPILED) && PYTHONPATH=$(abspath $(COMPILED)) $(abspath $(BIN))/python benchmarks/run.py --quick

## the same engine compiled with mypyc (README, "The compiled engine"): a copy of the tree in
## build/compiled whose hot modules are C extensions built from the unchanged sources; it is
## rebuilt whenever a file it copies has changed
$(COMPILED)/.built: $(STAMP) $(shell find $(COMPILED_FROM) -type f ! -path '*/__pycache__/*' 2>/dev/null)
	rm -rf $(COMPILED) && mkdir -p $(COMPILED)
	cp -r $(COMPILED_FROM) $(COMPILED)/
	find $(COMPILED) -name __pycache__ -prune -exec rm -rf {} +
	cd $(COMPILED) && $(abspath $(BIN))/mypyc $(COMPILED_MODULES:%=reference_impl/%.py) > mypyc.log 2>&1 || (tail -30 mypyc.log; exit 1)
	touch $@

compiled: $(COMPILED)/.built

## the engine's tests and the corpus on the compiled build (the mutant tests skip: compiled code cannot be patched)
test-compiled: $(COMPILED)/.built
	cd $(COMPILED) && GOSTOP_EXPECT_BUILD=compiled PYTHONPATH=$(abspath $(COMPILED)) $(abspath $(BIN))/python -m pytest tests/reference_impl tests/conformance tests/spec

## syntactic mutation testing of the scoring and capture modules against the corpus (slow: ~15 min)
mutation-syntactic: $(STAMP)
	$(BIN)/python -m pip install --quiet 'mutmut>=3.3'
	$(BIN)/mutmut run --max-children 2
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

## the documentation site: every page about the rules, cards, options, rulesets, scenarios and the
## protocol is generated at build time from spec/ and scenarios/ (mkdocs hook docs/_build/hooks.py)
.PHONY: docs-serve
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve
