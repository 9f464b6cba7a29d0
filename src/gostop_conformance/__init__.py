"""gostop-conformance: the executable rulebook of Go-Stop (고스톱; Matgo with two players).

One namespace, in parts that each say what they are (every one a folder of the repository, linked
here; the wheel holds them as ordinary subpackages):

- `gostop_conformance.spec` (`spec/`): the rules as data (deck, deal layouts, options, rulesets,
  clauses, vocabulary, the protocol's schemas) and the model every other part reads them through.
- `gostop_conformance.scenarios` (`scenarios/`): the corpus, as package data.
- `gostop_conformance.reference` (`reference_impl/`): the reference engine, the rules and nothing
  else (`gostop-reference`).
- `gostop_conformance.mutants` (`reference_mutants/`): deliberately broken variants of the
  reference engine, the only code that reaches into its internals (`gostop-mutant`).
- `gostop_conformance.harness` (`conformance/`): the harness that runs the corpus against any
  engine, and its tools (`gostop-conformance`, the pytest plugin).

Importing this package loads nothing else.
"""
