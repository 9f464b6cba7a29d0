"""The site search (mkdocs.yml `plugins: search: separator`, docs/_build/docsgen/search.py), read
from the built site/search/search_index.json:

- the configured separator keeps every clause id whole in the index (R-JJOK is one token of its
  clause's section title) while hyphenated words still split (go-bak is two tokens);
- every page names the site's search worker, and that worker exists beside the theme's;
- ranked by the theme's own search code behind the site's worker (run in Node, as a browser runs
  it; skipped without node): every clause id, typed as it is written or in lower case, ranks its
  clause's section first (R-TURN before R-TURN-ORDER); a hyphenated word still finds its pages;
  a glossary term is found by its hangul (first), its romanisation and its English (in the first ten,
  and first for most terms).
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gostop_conformance.spec import clauses, glossary
from tests.docs.conftest import SITE_PATH

HERE = Path(__file__).resolve().parent
CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)


def index(site: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return loaded


def tokens(separator: str, text: str) -> list[str]:
    """The index's tokens of a text, as the theme's tokenizer makes them (split, then lower-cased);
    the separator uses only what JavaScript and Python regular expressions share."""
    plain = re.sub(r"<[^>]+>", " ", text)
    return [t.lower() for t in re.split(separator, plain) if t]


def test_clause_ids_are_whole_tokens_and_words_still_split(site: Path) -> None:
    data = index(site)
    separator = data["config"]["separator"]
    titles = {doc["location"]: doc["title"] for doc in data["docs"]}
    for c in clauses().values():
        location = f"rules/{c.area}/#{c.id}"
        assert location in titles, f"no search entry for the section {location}"
        assert c.id.lower() in tokens(separator, titles[location]), f"{c.id} is not one token of {titles[location]!r}"
    assert tokens(separator, "Go-bak, pi-bak and m01-bright.") == ["go", "bak", "pi", "bak", "and", "m01", "bright"]
    assert tokens(separator, "R-JJOK and R-PI-BAK (see R-GO-BAK).") == ["r-jjok", "and", "r-pi-bak", "see", "r-go-bak"]


def worker_of(site: Path, page: str) -> Path:
    found = CONFIG.search((site / page).read_text(encoding="utf-8"))
    assert found, f"{page}: no page configuration"
    url = json.loads(found.group(1))["search"]
    base = (site / page).parent
    path = (site / url.removeprefix(SITE_PATH)) if url.startswith("/") else (base / url)
    return path.resolve()


def test_every_page_names_the_site_search_worker(site: Path) -> None:
    pages = ["index.html", "404.html", "rules/events/index.html"]
    workers = {worker_of(site, p) for p in pages}
    assert len(workers) == 1
    worker = workers.pop()
    assert worker.name.startswith("gostop-search.") and worker.is_file(), worker
    text = worker.read_text(encoding="utf-8")
    theme = re.search(r'importScripts\("([^"]+)"\)', text)
    assert theme and (worker.parent / theme.group(1)).is_file(), "the wrapper does not load the theme's worker"


@functools.cache
def _node() -> str | None:
    return shutil.which("node")


def ranked(site: Path, queries: list[str]) -> dict[str, list[str]]:
    """Each query's result locations, best first, by the theme's search code behind the site's worker."""
    node = _node()
    if node is None:
        pytest.skip("node is not installed: the ranking of the theme's search cannot be run")
    proc = subprocess.run(
        [node, str(HERE / "search_worker.js"), str(worker_of(site, "index.html")), str(site / "search" / "search_index.json")],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return dict(zip(queries, json.loads(proc.stdout), strict=True))


def test_every_clause_id_ranks_its_section_first(site: Path) -> None:
    ids = list(clauses())
    results = ranked(site, ids + [cid.lower() for cid in ids])
    wrong = []
    for c in clauses().values():
        for query in (c.id, c.id.lower()):
            got = results[query][:1]
            if got != [f"rules/{c.area}/#{c.id}"]:
                wrong.append(f"{query}: first {got}")
    assert not wrong, "\n".join(wrong)


def test_a_hyphenated_word_still_finds_its_pages(site: Path) -> None:
    results = ranked(site, ["go-bak", "gwang-bak"])
    assert "rules/settlement/#R-GO-BAK" in results["go-bak"][:10]
    assert "rules/settlement/#R-GWANG-BAK" in results["gwang-bak"][:10]


def test_a_glossary_term_is_found_by_hangul_romanisation_and_english(site: Path) -> None:
    terms = glossary().terms
    results = ranked(site, [q for t in terms for q in (t.hangul, t.romanisation, t.english)])
    wrong = []
    for t in terms:
        where = f"glossary/#{t.id}"
        if results[t.hangul][:1] != [where]:
            wrong.append(f"{t.hangul}: first {results[t.hangul][:1]}")
        for query in (t.romanisation, t.english):
            if where not in results[query][:10]:
                wrong.append(f"{query}: {where} not in the first ten {results[query][:10]}")
    assert not wrong, "\n".join(wrong)
    first = sum(1 for t in terms for q in (t.romanisation, t.english) if results[q][:1] == [f"glossary/#{t.id}"])
    assert first >= 0.85 * 2 * len(terms), f"only {first} of {2 * len(terms)} romanised and English queries find their term first"
    named = {"피": "pi", "junk": "pi", "쪽": "jjok", "kiss": "jjok", "나가리": "nagari", "sweep": "sseul"}
    again = ranked(site, list(named))
    for query, term in named.items():
        assert f"glossary/#{term}" in again[query][:3], f"{query}: {again[query][:3]}"
