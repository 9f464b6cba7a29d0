"""The page of one ruleset (issue 41): what a ruleset decides, as the site shows a named ruleset
(docs/_build/docsgen/pages.py `ruleset_page`) and `gostop-conformance ruleset page FILE` shows a
ruleset file.

`RulesetView` is the content both render: the ruleset and every ruleset it inherits from, each
difference from its parent (and from its named base or root, further up) with what the option
decides and both values in plain words (OptionSpec.plain), every option value with who sets it, and
the bonus cards its deck adds (R-BONUS-DECK). `page_html` renders it as one self-contained HTML
page, to be mailed or put anywhere: no script, no stylesheet or picture to fetch, every text
escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from gostop_conformance.reference import deck_indices, engine_version
from gostop_conformance.spec import (
    Card,
    Ruleset,
    RulesetFile,
    counted,
    deck,
    load_yaml,
    named_chain,
    option_registry,
    show_value,
    spec_dir,
)

Json = dict[str, Any]

#: the deck without bonus cards: the 48 cards of the twelve months (R-DECK)
MONTH_CARDS: Final = 48


@dataclass(frozen=True, slots=True)
class Difference:
    """One option whose value differs between two rulesets: what it decides, and both values with
    their plain words."""

    option: str
    decides: str
    before: Any
    after: Any
    before_words: str
    after_words: str


@dataclass(frozen=True, slots=True)
class ValueRow:
    """One option of a ruleset: its value in plain words, the registry default, and the ruleset of
    the chain that sets it (None: nobody, it is the default)."""

    option: str
    value: Any
    words: str
    default: Any
    set_by: str | None

    @property
    def is_default(self) -> bool:
        return show_value(self.value) == show_value(self.default)


@dataclass(frozen=True, slots=True)
class RulesetView:
    """A ruleset with every ruleset it inherits from (`chain`: itself first, the root last), and,
    for a ruleset file, the named ruleset it is based on (`base`)."""

    chain: tuple[Ruleset, ...]
    base: str | None = None

    @property
    def ruleset(self) -> Ruleset:
        return self.chain[0]

    @property
    def parent(self) -> Ruleset | None:
        return self.chain[1] if len(self.chain) > 1 else None

    def differences(self, other: Ruleset | None = None) -> list[Difference]:
        """Every option whose value differs from `other`'s (default: its parent's), in registry order."""
        against = other or self.parent
        if against is None:
            return []
        return differences(against.options.as_json(), self.ruleset.options.as_json())

    def same_as_parent(self) -> list[str]:
        """The options the ruleset sets itself to the value it inherits anyway."""
        parent = self.parent
        if parent is None:
            return []
        before = parent.options.as_json()
        values = self.ruleset.options.as_json()
        return [name for name in self.ruleset.own if values[name] == before[name]]

    def values(self) -> list[ValueRow]:
        """Every option, in registry order, with its value's plain words and who sets it."""
        registry = option_registry()
        out = []
        for name, value in self.ruleset.options.as_json().items():
            spec = registry[name]
            setter = next((rs.id for rs in self.chain if name in rs.own), None)
            out.append(ValueRow(name, value, spec.plain(value), _json(spec.default), setter))
        return out

    def added_cards(self) -> list[Card]:
        """The bonus cards the ruleset's deck adds to the 48 month cards (R-BONUS-DECK), in deck order."""
        cards = deck().cards
        return [cards[i] for i in deck_indices(self.ruleset.options) if i >= MONTH_CARDS]


def differences(before: Json, after: Json) -> list[Difference]:
    """The options whose value differs from `before` to `after` (both resolved options as JSON)."""
    registry = option_registry()
    return [
        Difference(name, registry[name].description, before[name], value, registry[name].plain(before[name]), registry[name].plain(value))
        for name, value in after.items()
        if before[name] != value
    ]


def view_of_named(ruleset_id: str) -> RulesetView:
    return RulesetView(named_chain(ruleset_id))


def view_of_file(rules: RulesetFile) -> RulesetView:
    return RulesetView((rules.ruleset, *rules.parents), rules.base)


def _json(value: Any) -> Any:
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


# ---------------------------------------------------------------- the self-contained page

STYLE: Final = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans KR", sans-serif;
  max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid #e5e5e5; }
th { background: #f6f6f6; } code { font-size: .9em; background: #f3f3f3; padding: 0 .2em; border-radius: 3px; }
.words { color: #555; } .changed { background: #fff3e0; } .meta li { margin: .15rem 0; }
footer { margin-top: 2.5rem; font-size: .8rem; color: #666; }
"""


def page_html(view: RulesetView) -> str:
    """The ruleset's page as one self-contained HTML document."""
    rs = view.ruleset
    sources = _source_titles()
    chain = " → ".join(_name(r) for r in reversed(view.chain))
    meta = [
        ("Parent", _code(rs.parent) if rs.parent else "none: every option starts at its registry default"),
        ("Inheritance", chain),
    ]
    if view.base is not None:
        meta.append(("Sent to engines as", f"{_code(view.base)} with every option value below (the protocol's ruleset object)"))
    meta += [
        ("Sources", "; ".join(f"{_code(s)} {html.escape(sources.get(s, ''))}" for s in rs.sources)),
        ("Options hash", f"{_code(rs.hash)} (the hash reports record for these rules)"),
        ("File", _code(rs.file)),
    ]
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(rs.id)} — {html.escape(rs.title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(rs.id)} — {html.escape(rs.title)}</h1>",
        f"<p>{html.escape(rs.description)}</p>",
        '<ul class="meta">' + "".join(f"<li><strong>{k}:</strong> {v}</li>" for k, v in meta) + "</ul>",
        '<h2 id="differences">Differences from its parent</h2>',
    ]
    parent = view.parent
    if parent is None:
        out.append("<p>None: it has no parent; every option it does not set is at its registry default.</p>")
    else:
        out.append(_differences_table(view.differences(), parent.id, rs.id))
        same = view.same_as_parent()
        if same:
            out.append("<p>Set again to the parent's value (no difference): " + ", ".join(_code(k) for k in same) + ".</p>")
    further = _further(view)
    if further is not None:
        out.append(f'<h2 id="differences-base">Differences from {html.escape(further.id)}</h2>')
        out.append(_differences_table(view.differences(further), further.id, rs.id))
    out.append('<h2 id="cards">Cards it adds</h2>')
    added = view.added_cards()
    if added:
        items = "".join(
            f"<li>{_code(c.id)}: a bonus card worth {counted(c.units, 'junk unit')} ({html.escape(c.picture)})</li>" for c in added
        )
        out.append(
            f"<p>The deck is the {MONTH_CARDS} month cards and {counted(len(added), 'bonus card')} (R-BONUS-DECK):</p><ul>{items}</ul>"
        )
    else:
        out.append(f"<p>None: the deck is the {MONTH_CARDS} month cards.</p>")
    out.append('<h2 id="options">Every option value</h2>')
    rows = []
    for row in view.values():
        setter = "this ruleset" if row.set_by == rs.id else (html.escape(row.set_by) if row.set_by else "default")
        cls = "" if row.is_default else ' class="changed"'
        rows.append(
            f"<tr{cls}><td>{_code(row.option)}</td><td>{_code(show_value(row.value))}</td><td>{_code(show_value(row.default))}</td>"
            f'<td>{setter}</td><td class="words">{html.escape(row.words)}</td></tr>'
        )
    out.append(
        "<table><thead><tr><th>option</th><th>value</th><th>default</th><th>set by</th><th>in plain words</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    out.append(
        f"<footer>Written by <code>gostop-conformance ruleset page</code> (gostop-conformance {html.escape(engine_version())}). "
        "Shaded rows differ from the registry default. Check the file with "
        f"<code>gostop-conformance ruleset check {html.escape(rs.file)}</code>.</footer>"
    )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _further(view: RulesetView) -> Ruleset | None:
    """The ruleset a second table compares with, when the parent alone does not say it all: the
    named base of a file whose parent is another file, else the root of a chain of three or more."""
    if view.base is not None and view.parent is not None and view.parent.id != view.base:
        return next((r for r in view.chain if r.id == view.base), None) or _named(view.base)
    if len(view.chain) > 2:
        return view.chain[-1]
    return None


def _named(ruleset_id: str) -> Ruleset:
    return named_chain(ruleset_id)[0]


def _differences_table(found: Sequence[Difference], before: str, after: str) -> str:
    if not found:
        return "<p>None: it plays exactly as its parent.</p>"
    rows = "".join(
        f"<tr><td>{_code(d.option)}</td><td>{html.escape(d.decides)}</td>"
        f'<td>{_code(show_value(d.before))}<br><span class="words">{html.escape(d.before_words)}</span></td>'
        f'<td class="changed"><strong>{_code(show_value(d.after))}</strong><br>'
        f'<span class="words">{html.escape(d.after_words)}</span></td></tr>'
        for d in found
    )
    return (
        f"<table><thead><tr><th>option</th><th>what it decides</th><th>{html.escape(before)}</th><th>{html.escape(after)}</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _name(rs: Ruleset) -> str:
    return _code(rs.id) + (f" ({html.escape(rs.file)})" if not rs.file.startswith("spec/") else "")


def _code(text: str) -> str:
    return f"<code>{html.escape(text)}</code>"


def _source_titles() -> dict[str, str]:
    data = load_yaml(spec_dir() / "sources.yaml", "spec/sources.yaml").data
    return {str(k): str(v.get("title", "")) for k, v in (data.get("sources") or {}).items()}
