"""The conformance corpus: scenario files by rule area, the retired ids and the perft tables.

A package only so that the corpus ships as package data and installed code finds it through
`importlib.resources` (`conformance.default_root()`); it holds no code."""
