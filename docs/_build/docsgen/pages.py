"""The generated pages: rules, cards, options, rulesets, the scenario catalogue, conformance."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from typing import Any

from docsgen import examples
from docsgen.cards import MONTH_NAMES, RIBBON_CLASS_TEXT, kind_text
from docsgen.links import CLAUSE_RE, Ctx, esc, fmt_value, md_escape
from docsgen.model import Model

SCENARIO_IN_CODE = re.compile(r"`([a-z0-9][a-z0-9-]*)`")
WIDE = "---\nhide:\n  - navigation\n  - toc\n---\n\n"  # front matter: a page with a wide table
GENERATED = (
    "<!-- Generated at build time by docs/_build (mkdocs hook) from spec/ and scenarios/. "
    "Do not edit: change the spec or the scenarios instead. -->\n\n"
)


def indent(text: str, n: int = 4) -> str:
    return "\n".join((" " * n + line) if line.strip() else "" for line in text.split("\n"))


def table(header: list[str], rows: list[list[str]]) -> str:
    def cell(x: str) -> str:
        return x.replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def option_label(spec: Any) -> str:
    t = spec.type
    if t == "bool":
        return "true or false"
    if t == "int":
        return f"integer {spec.minimum} to {spec.maximum}"
    if t == "enum":
        return "one of " + ", ".join(f"`{v}`" for v in spec.values)
    if t == "int_or_enum":
        return f"integer {spec.minimum} to {spec.maximum}, or " + ", ".join(f"`{v}`" for v in spec.symbols)
    if t == "subset":
        return "a subset of " + ", ".join(f"`{v}`" for v in spec.values)
    if t == "int_list":
        return f"a list of at most {spec.max_items} of " + ", ".join(f"`{v}`" for v in spec.values)
    return "a set of card ids from " + ", ".join(f"`{v}`" for v in spec.values)


def value_code(value: Any) -> str:
    return f"`{fmt_value(value)}`"


# ------------------------------------------------------------------------------------- home


def home_stats(m: Model, src: str) -> str:
    ctx = Ctx(src, m)
    files = len(m.scenario_files)
    rows = [
        ["Rule clauses", f"{len(m.clauses)} in {len(m.areas)} areas", f"[The rules]({ctx.md('rules/index.md')})"],
        [
            "Cards",
            f"{sum(1 for c in m.cards if c.kind != 'bonus')} cards and {sum(1 for c in m.cards if c.kind == 'bonus')} bonus cards",
            f"[Card gallery]({ctx.md('cards.md')})",
        ],
        ["House-rule options", str(len(m.options)), f"[Options reference]({ctx.md('options.md')})"],
        ["Named rulesets", str(len(m.ruleset_ids)), f"[Rulesets]({ctx.md('rulesets/index.md')})"],
        ["Scenarios", f"{len(m.corpus)} in {files} files", f"[Scenario catalogue]({ctx.md('scenarios/index.md')})"],
    ]
    return table(["", "how many", "where"], rows)


# ------------------------------------------------------------------------------------- rules


def rules_index(m: Model) -> str:
    src = "rules/index.md"
    ctx = Ctx(src, m)
    rows = []
    for area in m.areas:
        cited = sum(len(m.by_clause.get(c.id, [])) for c in area.clauses)
        options = sum(1 for c in area.clauses if c.control == "option")
        rows.append(
            [
                str(area.order),
                f"[{md_escape(area.title)}]({ctx.md(f'rules/{area.id}.md')})",
                str(len(area.clauses)),
                str(options),
                str(cited),
            ]
        )
    clause_rows = []
    for area in m.areas:
        for c in area.clauses:
            clause_rows.append(
                [
                    ctx.clause_md(c.id),
                    md_escape(c.title),
                    f"[{area.id}]({ctx.md(f'rules/{area.id}.md')})",
                    c.control,
                    str(len(m.by_clause.get(c.id, []))),
                ]
            )
    return (
        GENERATED + "# The rules\n\n" + "The rules of Go-Stop as this project specifies them, one page per area in reading order. "
        "Every clause has a stable id (such as `R-JJOK`) that the reference engine's rule-hit trace, "
        "the scenarios and the tests use; link to a clause as `rules/<area>/#<id>`.\n\n"
        "A clause is **fixed** when every ruleset plays it the same way, **option** when a house-rule "
        "option chooses between variants (the options are listed under the clause and in the "
        f"[options reference]({ctx.md('options.md')})). Under every clause, the scenarios that cite it "
        "are shown as short worked examples played by the reference engine.\n\n"
        + table(["order", "area", "clauses", "with options", "scenario citations"], rows)
        + "\n\n## Every clause {#every-clause}\n\n"
        + table(["clause", "title", "area", "control", "scenarios"], clause_rows)
        + "\n"
    )


def rules_area(m: Model, area: Any) -> str:
    src = f"rules/{area.id}.md"
    ctx = Ctx(src, m)
    out = [GENERATED, f"# {md_escape(area.title)}\n", ctx.prose(area.intro) + "\n"]
    rows = []
    for c in area.clauses:
        n = len(m.by_clause.get(c.id, []))
        rows.append([ctx.clause_md(c.id), md_escape(c.title), c.control, str(n)])
    out.append(table(["clause", "title", "control", "scenarios"], rows) + "\n")
    for c in area.clauses:
        out.append(f"## {c.id} — {md_escape(c.title)} {{#{c.id}}}\n")
        options = list(c.options) + [o for o in m.options_by_clause.get(c.id, []) if o not in c.options]
        meta = []
        if c.control == "option":
            meta.append("- **Control:** option — the house-rule options below choose the variant")
        else:
            meta.append("- **Control:** fixed — every ruleset plays it this way")
        if options:
            meta.append("- **Options:** " + ", ".join(ctx.option_md(o) for o in options))
        meta.append("- **Sources:** " + ctx.sources_md(c.sources))
        cited = m.by_clause.get(c.id, [])
        if cited:
            pos = sum(1 for s in cited if s.polarity == "positive")
            link = ctx.href("scenarios/index.md", query=f"?clause={c.id}")
            meta.append(
                f"- **Scenarios:** {len(cited)} cite it ({pos} positive, {len(cited) - pos} negative) — "
                f'<a href="{link}">filter the catalogue</a>'
            )
        else:
            meta.append("- **Scenarios:** none cites this clause yet")
        out.append("\n".join(meta) + "\n")
        out.append(ctx.prose(c.text) + "\n")
        if c.decision:
            out.append('!!! note "Decision"\n\n' + indent(ctx.prose(c.decision)) + "\n")
        if cited:
            # the most telling first (opened): the clause is the scenario's first, a positive scenario
            ordered = sorted(cited, key=lambda s: (s.clauses[0] != c.id, s.polarity != "positive"))
            body = "".join(examples.compact(ctx, m.runs[s.id], open_=i == 0) for i, s in enumerate(ordered))
            out.append(
                ctx.slot(
                    f'<div class="gs-examples"><div class="gs-sub">Scenarios citing {c.id}, played by the reference engine</div>'
                    f"{body}</div>"
                )
                + "\n"
            )
    return "\n".join(out)


# ------------------------------------------------------------------------------------- cards


def cards_page(m: Model) -> str:
    src = "cards.md"
    ctx = Ctx(src, m)
    out = [
        GENERATED,
        "# The cards\n",
        "The 48 cards of the hwatu deck, four for each month, and the extra bonus cards some rulesets add "
        f"({ctx.clause_md('R-DECK')}, {ctx.clause_md('R-CARD-IDS')}, {ctx.clause_md('R-BONUS-DECK')}). "
        "The pictures are drawn by this site's own code from `spec/deck.yaml`: the month's colour and a "
        "simple flower motif, with the kind marked on top:\n",
        "- **bright**: 光 in a red circle;\n- **animal**: the animal of the month;\n"
        "- **ribbon**: a ribbon in the colour of its class: hong-dan red with writing, cheong-dan blue, "
        "cho-dan plain red, and the December ribbon plain red;\n- **junk**: the plant only;\n"
        "- **double junk**: a “2” in a circle;\n- **bonus**: a star with the card's junk units.\n",
        "The canonical index (shown under each card) orders the deck month-major, then bright, animal, "
        "ribbon, double junk, junk 1, junk 2; every tie-break in the rules uses it.\n",
    ]
    for month in sorted(m.deck.month_names):
        cards = [c for c in m.cards if c.month == month]
        out.append(f"## {month}. {MONTH_NAMES[month]} — {md_escape(m.deck.month_names[month])} {{#month-{month}}}\n")
        out.append(ctx.slot('<div class="gs-gallery">' + "".join(gallery_item(ctx, c) for c in cards) + "</div>") + "\n")
    bonus = [c for c in m.cards if c.kind == "bonus"]
    out.append("## Bonus cards {#bonus}\n")
    users = [rid for rid in m.ruleset_ids if m.rulesets[rid].options.bonus_cards]
    out.append(
        f"Bonus cards have no month and never match; a ruleset's {ctx.option_md('bonus_cards')} option lists their "
        "unit values. Rulesets that use them: "
        + (", ".join(f"{ctx.ruleset_md(r)} (`{fmt_value(m.rulesets[r].options.bonus_cards)}`)" for r in users) or "none")
        + ".\n"
    )
    out.append(ctx.slot('<div class="gs-gallery">' + "".join(gallery_item(ctx, c) for c in bonus) + "</div>") + "\n")
    rows = []
    for c in m.cards:
        roles = ", ".join(sorted(c.roles))
        rows.append(
            [
                str(c.index),
                ctx.card(c.id, "s") + f" `{c.id}`",
                str(c.month or "—"),
                kind_text(c),
                str(c.units),
                roles,
                md_escape(c.picture),
            ]
        )
    out.append("## Every card {#every-card}\n\n" + table(["index", "card", "month", "kind", "junk units", "roles", "picture"], rows) + "\n")
    out.append("## Ribbon classes {#ribbon-classes}\n\n" + "\n".join(f"- `{k}`: {v}" for k, v in RIBBON_CLASS_TEXT.items()) + "\n")
    return "\n".join(out)


def gallery_item(ctx: Ctx, card: Any) -> str:
    roles = f'<br><span class="gs-mini">roles: {esc(", ".join(sorted(card.roles)))}</span>' if card.roles else ""
    return (
        f'<figure class="gs-figure" id="{esc(card.id)}">{ctx.card(card.id, "l")}'
        f"<figcaption><code>{esc(card.id)}</code><br>{esc(kind_text(card))}<br>"
        f'<span class="gs-mini">index {card.index} · {esc(card.picture)}</span>{roles}</figcaption></figure>'
    )


# ------------------------------------------------------------------------------------- options


def options_page(m: Model) -> str:
    src = "options.md"
    ctx = Ctx(src, m)
    root = [rid for rid in m.ruleset_ids if m.rulesets[rid].parent is None]
    out = [
        GENERATED,
        "# Options reference\n",
        f"Every house-rule option of `spec/options.yaml` ({len(m.options)} options). An option that is not "
        "listed here does not exist: engines reject it. The **default** is the value of the root ruleset "
        + ", ".join(ctx.ruleset_md(r) for r in root)
        + "; other rulesets override some options "
        f"(see the [comparison of all rulesets]({ctx.md('rulesets/compare.md')})). A scenario may override "
        "options too (its `options:`).\n",
    ]
    # group the options by the area of their first clause, in reading order
    groups: dict[str, list[str]] = {a.id: [] for a in m.areas}
    for oid, spec in m.options.items():
        area = m.area_of_clause.get(spec.clauses[0], m.areas[-1].id) if spec.clauses else m.areas[-1].id
        groups[area].append(oid)
    rows = []
    for area in m.areas:
        for oid in groups[area.id]:
            spec = m.options[oid]
            differ = [rid for rid in m.ruleset_ids if m.rulesets[rid].options.as_json()[oid] != _json_default(spec)]
            rows.append(
                [
                    ctx.option_md(oid),
                    spec.type,
                    value_code(spec.default),
                    ", ".join(ctx.clause_md(c) for c in spec.clauses),
                    str(len(differ)),
                ]
            )
    out.append(table(["option", "type", "default", "clauses", "rulesets that differ"], rows) + "\n")
    set_by_scenarios: dict[str, list[str]] = {}
    for sc in m.corpus:
        for key in sc.options:
            set_by_scenarios.setdefault(key, []).append(sc.id)
    for area in m.areas:
        if not groups[area.id]:
            continue
        out.append(f"## {md_escape(area.title)} {{#area-{area.id}}}\n")
        for oid in groups[area.id]:
            out.append(option_section(ctx, m, oid, set_by_scenarios.get(oid, [])))
    return "\n".join(out)


def _json_default(spec: Any) -> Any:
    v = spec.default
    if isinstance(v, frozenset):
        return sorted(v)
    if isinstance(v, tuple):
        return list(v)
    return v


def option_section(ctx: Ctx, m: Model, oid: str, scenarios: list[str]) -> str:
    spec = m.options[oid]
    default = _json_default(spec)
    out = [f"### `{oid}` {{#{oid}}}\n", ctx.inline(spec.description) + "\n"]
    meta = [
        f"- **Type:** `{spec.type}` — {option_label(spec)}",
        f"- **Default:** {value_code(spec.default)}",
        "- **Clauses:** "
        + ", ".join(f"{ctx.clause_md(c)} ({md_escape(m.clauses[c].title)})" if c in m.clauses else f"`{c}`" for c in spec.clauses),
        "- **Sources:** " + ctx.sources_md(spec.sources),
    ]
    out.append("\n".join(meta) + "\n")
    values_of: dict[str, list[str]] = {}
    for rid in m.ruleset_ids:
        values_of.setdefault(fmt_value(m.rulesets[rid].options.as_json()[oid]), []).append(rid)
    if spec.value_docs or spec.type in ("enum", "bool"):
        keys: list[Any] = list(spec.values) + [s for s in spec.symbols if s not in spec.values]
        if spec.type == "bool":
            keys = [False, True]
        rows = []
        for v in keys:
            doc = spec.value_docs.get(str(v), "")
            if spec.type == "subset":
                users = [rid for rid in m.ruleset_ids if v in m.rulesets[rid].options.as_json()[oid]]
                shown = f"`{v}` (member)"
            else:
                users = values_of.get(fmt_value(v), [])
                shown = value_code(v) + (" (default)" if fmt_value(v) == fmt_value(default) else "")
            rows.append([shown, ctx.inline(doc) if doc else "", ", ".join(ctx.ruleset_md(r) for r in users)])
        out.append(table(["value", "meaning", "rulesets"], rows) + "\n")
    if spec.type in ("int", "int_or_enum", "int_list", "card_set", "subset"):
        rows = []
        for value in sorted(values_of, key=lambda v: (v != fmt_value(default), v)):
            shown = f"`{value}`"
            if spec.type == "card_set":
                ids = [x.strip() for x in value.strip("[]").split(",") if x.strip()]
                shown += " " + "".join(ctx.card(i, "s") for i in ids)
            rows.append(
                [shown + (" (default)" if value == fmt_value(default) else ""), ", ".join(ctx.ruleset_md(r) for r in values_of[value])]
            )
        out.append("Values the named rulesets use:\n\n" + table(["value", "rulesets"], rows) + "\n")
    if scenarios:
        links = ", ".join(ctx.scenario_md(s) for s in scenarios)
        out.append(f'??? info "Scenarios that set `{oid}` ({len(scenarios)})"\n\n' + indent(links) + "\n")
    return "\n".join(out)


# ------------------------------------------------------------------------------------- rulesets


def rulesets_index(m: Model) -> str:
    src = "rulesets/index.md"
    ctx = Ctx(src, m)
    counts = Counter(sc.ruleset for sc in m.corpus)
    rows = []
    for rid in m.ruleset_ids:
        rs = m.rulesets[rid]
        rows.append(
            [
                ctx.ruleset_md(rid),
                md_escape(rs.title),
                ctx.ruleset_md(rs.parent) if rs.parent else "— (root)",
                str(len(rs.own)),
                str(counts.get(rid, 0)),
                f"`{rs.hash}`",
            ]
        )

    def tree(rid: str, depth: int) -> list[str]:
        line = "    " * depth + f"- {ctx.ruleset_md(rid)} — {md_escape(m.rulesets[rid].title)}"
        return [line] + [x for child in m.children(rid) for x in tree(child, depth + 1)]

    roots = [rid for rid in m.ruleset_ids if m.rulesets[rid].parent is None]
    return (
        GENERATED + "# Rulesets\n\n" + "A ruleset is a named set of option values (`spec/rulesets/`). Each ruleset names a parent and "
        "overrides some of its options; the root takes every option at its registry default. The hash is "
        "the content hash of the resolved options that reports record.\n\n"
        + table(["ruleset", "title", "parent", "options set", "scenarios", "hash"], rows)
        + "\n\n## Inheritance {#inheritance}\n\n"
        + "\n".join(x for r in roots for x in tree(r, 0))
        + f"\n\nEvery ruleset against every option: the [comparison matrix]({ctx.md('rulesets/compare.md')}).\n"
    )


def rulesets_compare(m: Model) -> str:
    src = "rulesets/compare.md"
    ctx = Ctx(src, m)
    head = "".join(f'<th class="gs-rot"><a href="{ctx.href(f"rulesets/{rid}.md")}">{esc(rid)}</a></th>' for rid in m.ruleset_ids)
    rows = []
    for oid, spec in m.options.items():
        default = fmt_value(_json_default(spec))
        cells = []
        for rid in m.ruleset_ids:
            value = fmt_value(m.rulesets[rid].options.as_json()[oid])
            cls = []
            if value != default:
                cls.append("gs-diff")
            if oid in m.rulesets[rid].own:
                cls.append("gs-own")
            title = f"{rid}: {oid} = {value}" + (" (set by this ruleset)" if oid in m.rulesets[rid].own else "")
            cells.append(f'<td class="{" ".join(cls)}" title="{esc(title)}">{esc(value)}</td>')
        rows.append(
            f'<tr><th><a href="{ctx.href("options.md", oid)}"><code>{esc(oid)}</code></a></th>'
            f'<td class="gs-default">{esc(default)}</td>{"".join(cells)}</tr>'
        )
    return (
        WIDE
        + GENERATED
        + "# Rulesets compared\n\n"
        + "Every named ruleset (columns) against every option (rows). A shaded cell differs from the "
        "option's default; a **bold** cell is set by the ruleset itself (the others are inherited).\n\n"
        + ctx.slot(
            f'<div class="gs-matrix-wrap"><table class="gs-matrix"><thead><tr><th>option</th><th>default</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
        + "\n"
    )


def ruleset_page(m: Model, rid: str) -> str:
    src = f"rulesets/{rid}.md"
    ctx = Ctx(src, m)
    rs = m.rulesets[rid]
    values = rs.options.as_json()
    chain = m.chain(rid)
    out = [GENERATED, f"# {rid} — {md_escape(rs.title)}\n", ctx.inline(rs.description) + "\n"]
    meta = [
        "- **Parent:** " + (ctx.ruleset_md(rs.parent) if rs.parent else "none: the root ruleset, every option at its registry default"),
        "- **Inheritance:** " + " → ".join(ctx.ruleset_md(r) for r in reversed(chain)),
        "- **Children:** " + (", ".join(ctx.ruleset_md(c) for c in m.children(rid)) or "none"),
        "- **Sources:** " + ctx.sources_md(rs.sources),
        f"- **Options hash:** `{rs.hash}` · file `{rs.file}`",
    ]
    scenarios = [sc for sc in m.corpus if sc.ruleset == rid]
    link = ctx.href("scenarios/index.md", query=f"?ruleset={rid}")
    meta.append(f'- **Scenarios:** {len(scenarios)} run under it — <a href="{link}">filter the catalogue</a>')
    out.append("\n".join(meta) + "\n")
    out.append("## Differences from its parent {#differences}\n")
    if rs.parent:
        parent = m.rulesets[rs.parent].options.as_json()
        diff = [k for k in m.options if values[k] != parent[k]]
        if diff:
            rows = [
                [ctx.option_md(k), value_code(parent[k]), f"**{fmt_value(values[k])}**", ctx.inline(m.options[k].description)] for k in diff
            ]
            out.append(table(["option", f"{rs.parent}", rid, "what it decides"], rows) + "\n")
        else:
            out.append("None: it plays exactly as its parent.\n")
        same = [k for k in rs.own if values[k] == parent[k]]
        if same:
            out.append("Set again to the parent's value (no difference): " + ", ".join(ctx.option_md(k) for k in same) + ".\n")
    else:
        out.append("None: this is the root ruleset.\n")
    if len(chain) > 2:
        root = chain[-1]
        rootv = m.rulesets[root].options.as_json()
        diff = [k for k in m.options if values[k] != rootv[k]]
        out.append(f"## Differences from the root, {root} {{#differences-root}}\n")
        rows = [[ctx.option_md(k), value_code(rootv[k]), f"**{fmt_value(values[k])}**"] for k in diff]
        out.append(table(["option", root, rid], rows) + "\n")
    out.append("## Every option value {#options}\n")
    rows = []
    for k, spec in m.options.items():
        by = m.set_by(rid, k)
        origin = "this ruleset" if by == rid else (ctx.ruleset_md(by) if by else "default")
        v = fmt_value(values[k])
        shown = f"**{v}**" if v != fmt_value(_json_default(spec)) else v
        rows.append([ctx.option_md(k), shown, value_code(spec.default), origin])
    out.append(table(["option", "value", "default", "set by"], rows) + "\n")
    return "\n".join(out)


# ------------------------------------------------------------------------------------- scenarios


def scenario_index(m: Model) -> str:
    src = "scenarios/index.md"
    ctx = Ctx(src, m)
    cited = sorted({c for sc in m.corpus for c in sc.clauses}, key=lambda c: (list(m.clauses).index(c) if c in m.clauses else 10_000, c))
    opts_clause = "".join(
        f'<option value="{esc(c)}">{esc(c)} — {esc(m.clauses[c].title) if c in m.clauses else ""}</option>' for c in cited
    )
    used_rulesets = sorted({sc.ruleset for sc in m.corpus})
    opts_rs = "".join(f'<option value="{esc(r)}">{esc(r)}</option>' for r in used_rulesets)
    opts_area = "".join(f'<option value="{esc(a)}">{esc(a)}</option>' for a in m.scenario_areas)
    filters = (
        '<form class="gs-filter" id="gs-filter" hidden onsubmit="return false">'
        f'<label>Clause <select name="clause"><option value="">any</option>{opts_clause}</select></label>'
        f'<label>Ruleset <select name="ruleset"><option value="">any</option>{opts_rs}</select></label>'
        f'<label>Area <select name="area"><option value="">any</option>{opts_area}</select></label>'
        '<label>Polarity <select name="polarity"><option value="">any</option>'
        "<option>positive</option><option>negative</option></select></label>"
        '<label>Text <input name="q" type="search" placeholder="id or title"></label>'
        '<button type="reset">clear</button> <output class="gs-count" name="count"></output></form>'
    )
    out = [
        GENERATED,
        "# Scenario catalogue\n",
        f"The conformance corpus: {len(m.corpus)} scenarios in {len(m.scenario_files)} files under `scenarios/`, "
        "grouped by area (the first directory). Each scenario is shown as a worked example played by the "
        "reference engine: the deal as card pictures, every step with what was played, captured and "
        "stolen, the events with the clauses that produced them, the scores, and the settlement. "
        f"The format is described in [the scenario format]({ctx.md('scenario-format.md')}).\n",
        "Filter by clause, ruleset, area or text below (links such as `scenarios/?clause=R-JJOK` preset "
        "the filter), or use the site search, which also finds scenarios by id, clause and ruleset.\n",
        ctx.slot(filters) + "\n",
    ]
    by_area: dict[str, list[Any]] = {}
    for sc in m.corpus:
        by_area.setdefault(sc.area, []).append(sc)
    for area in m.scenario_areas:
        scs = by_area[area]
        files = sorted({sc.file for sc in scs})
        out.append(f"## {area} {{#area-{area}}}\n")
        out.append(
            f"{len(scs)} scenarios in " + ", ".join(f"[{posixpath.basename(f)}]({ctx.md(m.page_of_file(f))})" for f in files) + ".\n"
        )
        rows = []
        for sc in scs:
            clauses = " ".join(ctx.clause_a(c) for c in sc.clauses)
            text = f"{sc.id} {sc.title}".lower()
            rows.append(
                f'<tr data-area="{esc(sc.area)}" data-ruleset="{esc(sc.ruleset)}" data-clauses="{esc(" ".join(sc.clauses))}" '
                f'data-polarity="{esc(sc.polarity)}" data-text="{esc(text)}">'
                f'<td>{ctx.scenario_a(sc.id, sc.title)}<br><code class="gs-mini">{esc(sc.id)}</code></td>'
                f"<td>{ctx.ruleset_a(sc.ruleset)}</td><td>{clauses}</td><td>{esc(sc.polarity)}</td></tr>"
            )
        out.append(
            ctx.slot(
                '<table class="gs-scenario-table"><thead><tr><th>scenario</th><th>ruleset</th>'
                "<th>clauses</th><th>polarity</th></tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>"
            )
            + "\n"
        )
    return "\n".join(out)


def scenario_file_page(m: Model, file: str) -> str:
    src = m.page_of_file(file)
    ctx = Ctx(src, m)
    scs = m.scenario_files[file]
    area = scs[0].area
    stem = posixpath.splitext(posixpath.basename(file))[0]
    out = [GENERATED, f"# {area} / {stem}\n"]
    gen = " It is generated (see the file's `generated:` note)." if any(sc.generated for sc in scs) else ""
    out.append(
        f"The {len(scs)} scenarios of `{file}`, each played by the reference engine.{gen} Use the step buttons "
        "to walk through an example; cards just captured are outlined. Back to the "
        f"[catalogue]({ctx.md('scenarios/index.md')}).\n"
    )
    for sc in scs:
        run = m.runs[sc.id]
        out.append(f"## {md_escape(sc.title)} {{#{sc.id}}}\n")
        meta = [
            f"`{sc.id}`",
            f"ruleset {ctx.ruleset_md(sc.ruleset)}",
            f"**{sc.polarity}**",
            "clauses " + ", ".join(ctx.clause_md(c) for c in sc.clauses),
            f"area `{sc.area}`",
        ]
        if sc.options:
            meta.append("options " + ", ".join(ctx.option_md(k, f"{k} = {examples.yaml_flow(v)}") for k, v in sc.options.items()))
        if sc.ambiguities:
            meta.append("ambiguities " + ", ".join(f"`{a}`" for a in sc.ambiguities))
        if sc.requires:
            meta.append("requires " + ", ".join(f"`{r}`" for r in sc.requires))
        if sc.tags:
            meta.append("tags " + ", ".join(f"`{t}`" for t in sc.tags))
        meta.append(f"`{sc.file}:{sc.line}`")
        out.append(" · ".join(meta) + "\n")
        out.append(ctx.slot(examples.full(ctx, run)) + "\n")
    return "\n".join(out)


# ------------------------------------------------------------------------------------- conformance


def conformance_page(m: Model) -> str:
    from conformance._harness import engine_factory, run
    from conformance._lint import UNTRACED, coverage, coverage_markdown

    src = "conformance.md"
    ctx = Ctx(src, m)
    report = run(m.corpus, engine_factory(None, 10, 20), label="gostop-reference (in process)")
    counts = report.counts()
    outcomes = sorted(counts)
    out = [
        WIDE + GENERATED,
        "# Conformance of the reference engine\n",
        "Generated when the site is built: the whole corpus run against the bundled reference engine, in "
        "process (`conformance._harness.run` with the in-process engine factory), exactly what "
        "`gostop-conformance run` does without `--engine`.\n",
        f"**{counts.get('PASS', 0)} passed, {report.failed()} failed** of {len(report.records)} scenarios "
        f"(engine `{esc(report.hello.get('engine', {}).get('name', '?'))}` "
        f"{esc(report.hello.get('engine', {}).get('version', ''))}, protocol {esc(report.hello.get('protocol'))}).\n",
        "## Results per area {#per-area}\n",
    ]
    rows = []
    for area, c in report.by_area().items():
        rows.append(
            [f"[{area}]({ctx.md('scenarios/index.md', f'area-{area}')})"] + [str(c.get(o, 0)) for o in outcomes] + [str(sum(c.values()))]
        )
    rows.append(["**all**"] + [f"**{counts.get(o, 0)}**" for o in outcomes] + [f"**{len(report.records)}**"])
    out.append(table(["area", *outcomes, "total"], rows) + "\n")
    bad = [r for r in report.records if r.outcome != "PASS"]
    if bad:
        out.append("## Scenarios that did not pass {#not-passing}\n")
        for r in bad:
            text = r.result.text() if r.result else (r.reason or "")
            out.append(f"- {ctx.scenario_md(r.scenario.id)}: **{r.outcome}**\n\n```text\n{text}\n```\n")
    else:
        out.append("Every scenario passes on the reference engine.\n")
    cov = coverage(m.corpus)
    out.append("## Coverage matrix {#coverage}\n")
    out.append(
        "Clause × ruleset: each cell is *positive/negative*, the number of scenarios citing the clause "
        "under that ruleset that check it applies (positive) or that it does not (negative). Produced by "
        "`conformance._lint.coverage_markdown`, as `gostop-conformance coverage --markdown` writes it.\n"
    )
    lines = coverage_markdown(cov)
    header = lines[0]
    for rid in m.ruleset_ids:
        header = header.replace(f" {rid} ", f" [{rid}]({ctx.md(f'rulesets/{rid}.md')}) ", 1)
    linked = [header, lines[1]]
    for line in lines[2:]:
        cid = line.split("`")[1] if "`" in line else ""
        linked.append(line.replace(f"`{cid}`", ctx.clause_md(cid), 1) if cid else line)
    out.append('<div class="gs-matrix-wrap gs-coverage" markdown="1">\n\n' + "\n".join(linked) + "\n\n</div>\n")
    uncovered = [cid for cid in m.clauses if not any(k[0] == cid for k in cov.declared)]
    out.append("## Declared against observed {#traced}\n")
    out.append(
        "A clause a scenario cites is *declared*; it is *observed* when the reference engine's rule-hit "
        "trace names it while running that scenario. Clauses that no event, score or settlement names "
        "(legality, the deck and deal shape, the match) are not traced.\n"
    )
    rows = []
    for cid in m.clauses:
        declared = sorted({s for k, v in cov.declared.items() if k[0] == cid for s in v})
        observed = sorted({s for k, v in cov.observed.items() if k[0] == cid for s in v})
        traced = "not traced" if cid in UNTRACED else f"{len(observed)} of {len(declared)}"
        rows.append([ctx.clause_md(cid), str(len(declared)), traced])
    out.append(table(["clause", "scenarios citing it", "observed in the trace"], rows) + "\n")
    out.append("### Clauses no scenario cites {#uncovered}\n")
    out.append((", ".join(ctx.clause_md(c) for c in uncovered) if uncovered else "None: every clause is cited.") + "\n")
    out.append("### Silent citations {#silent}\n")
    if cov.silent:
        out.append(
            "A scenario cites the clause as positive, but the trace never reports it for that scenario:\n\n"
            + "\n".join(f"- {ctx.scenario_md(sid)} cites {ctx.clause_md(cid)}" for sid, cid in cov.silent)
            + "\n"
        )
    else:
        out.append("None.\n")
    out.append("## Mutation kill rate {#mutation}\n")
    out.append(mutation_md(m, ctx))
    return "\n".join(out)


def mutation_md(m: Model, ctx: Ctx) -> str:
    """The corpus against the semantic mutants of the reference engine, when the suite has them."""
    try:
        from conformance._mutation import kill_rate, report_markdown, run_mutants
    except ImportError:
        return (
            "**Mutation kill rate: not measured yet.** The mutation suite, which would change the reference "
            "engine rule by rule and count how many of those changes the corpus detects, does not exist "
            "yet. Until it does, the coverage matrix above is the only measure of how well the scenarios "
            "pin the rules.\n"
        )
    results = run_mutants(m.corpus)
    lines = report_markdown(results)
    for i, line in enumerate(lines):
        for cid in sorted(set(CLAUSE_RE.findall(line)), key=len, reverse=True):
            if cid in m.clauses:
                line = line.replace(f"| {cid} |", f"| {ctx.clause_md(cid)} |")
        for sid in sorted(set(SCENARIO_IN_CODE.findall(line)), key=len, reverse=True):
            if sid in m.scenario_page:
                line = line.replace(f"`{sid}`", ctx.scenario_md(sid))
        lines[i] = line
    return (
        "Each semantic mutant is the reference engine with one rule deliberately broken "
        "(`reference_impl._mutants`); the corpus kills a mutant when at least one scenario fails on it. "
        "Measured when the site was built with `conformance._mutation.run_mutants`, as "
        f"`gostop-conformance mutants` does ({kill_rate(results):.1%}; the first killing scenario is shown).\n\n" + "\n".join(lines) + "\n"
    )
