"""The Go-Stop specification as data: deck, deal layouts, options, rulesets, rules prose and
JSON Schemas. Importable so that installed code finds the one source of truth as package data."""
