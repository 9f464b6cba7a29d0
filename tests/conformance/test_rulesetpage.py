"""The page of one ruleset (conformance._rulesetpage, issue 41): what each difference decides in
plain words, the cards its deck adds, every value with who sets it, as one self-contained HTML
page (`gostop-conformance ruleset page FILE`)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gostop_conformance.harness._cli import main
from gostop_conformance.harness._rulesetpage import page_html, view_of_file, view_of_named
from gostop_conformance.spec import load_ruleset, load_ruleset_file, option_registry, ruleset_ids, show_value

HOUSE = """\
id: our-house-3p
title: "Our house <b>rules</b> & more"
parent: standard-3p
description: "Two jokers, three ppeoks win 7, a Go-caller who loses pays for all."
sources: [seed-002, seed-003]
options:
  bonus_cards: [2, 2]
  three_ppeok_win: 7
  go_bak_mode: pay_for_all
"""
TWO = """\
id: our-house-2p
title: "Our house, two players"
parent: ./our-house-3p.yaml
description: "The same for two."
sources: [seed-002]
options:
  players: 2
  deal_layout: "10-8"
  go_threshold: 7
  go_bak_mode: pay_for_all
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "our-house-3p.yaml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "our-house-2p.yaml").write_text(TWO, encoding="utf-8")
    return tmp_path


def test_the_view_of_a_named_ruleset_is_its_differences_values_and_cards() -> None:
    view = view_of_named("matgo-online")
    assert [r.id for r in view.chain] == ["matgo-online", "matgo-2p", "standard-3p"]
    before, after = load_ruleset("matgo-2p").options.as_json(), load_ruleset("matgo-online").options.as_json()
    diffs = view.differences()
    assert [d.option for d in diffs] == [k for k in after if before[k] != after[k]]
    registry = option_registry()
    for d in diffs:
        assert d.before_words == registry[d.option].plain(before[d.option]) and d.after_words == registry[d.option].plain(after[d.option])
        assert d.decides == registry[d.option].description
    assert [c.units for c in view.added_cards()] == [2, 3]  # its bonus_cards, as the deck holds them (R-BONUS-DECK)
    rows = {r.option: r for r in view.values()}
    assert rows["bonus_cards"].set_by == "matgo-online" and rows["go_threshold"].set_by == "matgo-2p"
    assert rows["scoring_system"].set_by is None and rows["scoring_system"].is_default
    assert view_of_named("standard-3p").differences() == [] and view_of_named("standard-3p").added_cards() == []


def test_every_named_rulesets_view_says_every_value_in_words() -> None:
    for rid in ruleset_ids():
        for row in view_of_named(rid).values():
            assert row.words and "{" not in row.words, (rid, row.option)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("name", ["our-house-3p.yaml", "our-house-2p.yaml"])
def test_the_page_of_a_file_holds_its_content_and_nothing_to_fetch(folder: Path, name: str) -> None:
    rules = load_ruleset_file(folder / name, name)
    text = page_html(view_of_file(rules))
    page = _Page()
    page.feed(text)
    shown = " ".join(" ".join(page.text).split())  # the page's text, a space between any two elements
    # self-contained: nothing to fetch, no script; the file's own text is escaped, never markup
    assert not [t for t, a in page.tags if t in ("script", "img", "link", "iframe") or a.get("src")]
    assert not [a["href"] for t, a in page.tags if t == "a" and a.get("href")]
    if name == "our-house-3p.yaml":
        assert "<b>rules</b>" not in text and html.escape("Our house <b>rules</b> & more") in text
    view = view_of_file(rules)
    assert f"Parent: {rules.ruleset.parent}" in shown and f"Options hash: {rules.hash}" in shown
    assert f"Sent to engines as: {rules.base}" in shown
    for d in view.differences():
        assert " ".join(d.after_words.split()) in shown and " ".join(d.decides.split()) in shown
    if view.parent is not None and view.parent.id != rules.base:  # a file on a file: its differences from its base too
        assert f"Differences from {rules.base}" in shown
        section = shown.split(f"Differences from {rules.base}", 1)[1].split("Cards it adds", 1)[0]
        for d in view.differences(load_ruleset(rules.base)):
            assert f"{d.option} {d.decides} {show_value(d.before)} {d.before_words} {show_value(d.after)} {d.after_words}" in section
    assert "Cards it adds" in shown and "bonus-2a : a bonus card worth 2 junk units" in shown
    rows = re.findall(r"<tr(?: class=\"changed\")?><td><code>([a-z0-9_]+)</code></td><td><code>([^<]*)</code></td>", text)
    values = dict(rows[-len(option_registry()) :])
    assert values == {k: html.escape(show_value(v)) for k, v in rules.ruleset.options.as_json().items()}
    if name == "our-house-2p.yaml":
        assert "Set again to the parent's value (no difference): <code>go_bak_mode</code>" in text


def test_ruleset_page_writes_the_page(folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    assert main(["ruleset", "page", "our-house-2p.yaml"]) == 0
    rules = load_ruleset_file(Path("our-house-2p.yaml"))
    assert capsys.readouterr().out == f"wrote our-house-2p.html: the page of our-house-2p (our-house-2p.yaml), {rules.hash}\n"
    assert (folder / "our-house-2p.html").read_text(encoding="utf-8") == page_html(view_of_file(rules))
    assert main(["ruleset", "page", "our-house-2p.yaml", "--out", "shared/ours.html"]) == 0  # its folder made
    assert (folder / "shared" / "ours.html").is_file()
    capsys.readouterr()
    assert main(["ruleset", "page", "our-house-2p.yaml", "--out", "shared"]) == 2
    assert "--out: shared is a folder, not a file" in capsys.readouterr().err
