"""The documentation site generator (used by the mkdocs hook docs/_build/hooks.py).

model: everything loaded once through the project's loaders; cards: the card pictures (SVG);
links: links, card pictures in pages and spec prose as markdown; examples: worked examples from the
reference engine's transcripts; pages and protocol: the generated pages; site: the page list and
the navigation.
"""
