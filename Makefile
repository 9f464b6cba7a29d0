# The two commands of README.md, each self-sufficient on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: suite test lint corpus-lint typecheck check bench bench-quick docs clean mutation-syntactic

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

## every benchmark, medians of 5 runs (see README.md, Benchmarks); bench-quick only checks they run
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

bench-quick: $(STAMP)
	$(BIN)/python benchmarks/run.py --quick

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
