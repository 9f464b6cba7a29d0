"""The "Seed traceability" page: every statement of the four seed texts (spec/traceability.yaml),
the clauses and option values that implement it, the rulesets named after its seed and the
scenarios of those rulesets that cite those clauses; a coverage line per seed."""

from __future__ import annotations

from typing import Any

from docsgen.links import Ctx, md_escape
from docsgen.model import Model
from docsgen.pages import table
from gostop_conformance.spec import TRACE_STATUSES, counted

SRC = "traceability.md"
#: scenario links shown per statement; the rest are counted
SHOWN = 4
STATUS_TEXT = {
    "implemented": "implemented",
    "option-value": "option value",
    "departs": "**departs**",
    "not-a-rule": "not a rule",
}
#: each status counted: (one, several)
STATUS_NOUN = {
    "implemented": ("implemented", "implemented"),
    "option-value": ("option value", "option values"),
    "departs": ("departure", "departures"),
    "not-a-rule": ("not a rule", "not rules"),
}


def _count(n: int, status: str) -> str:
    one, several = STATUS_NOUN[status]
    return f"{n} {one if n == 1 else several}"


def _anchor(ctx: Ctx, sid: str) -> str:
    """The statement's id as a link to itself, carrying the id others link to (attr_list: an id in
    the markdown tree, which the strict build's anchor check sees)."""
    return f"[`{sid}`]({ctx.md(SRC, sid)}){{#{sid}}}"


def _scenarios_of(m: Model, st: Any) -> tuple[list[str], int]:
    """Scenarios citing the statement's clauses (its own, or else its options' clauses): those of
    the statement's rulesets first (returned), and how many cite them in the whole corpus."""
    wanted = set(st.named_clauses or st.clause_ids)
    citing = {sc.id: sc for cid in sorted(wanted) for sc in m.by_clause.get(cid, [])}
    own = sorted(sid for sid, sc in citing.items() if sc.ruleset in st.rulesets)
    return own, len(citing)


def _links(ctx: Ctx, st: Any) -> str:
    parts = []
    for link in st.links:
        if link.clause is not None:
            parts.append(ctx.clause_md(link.clause))
        else:
            parts.append(ctx.option_md(link.option, link.text()))
    return ", ".join(parts)


def _scenarios_cell(ctx: Ctx, m: Model, st: Any) -> str:
    if st.status == "not-a-rule":
        return ""
    own, total = _scenarios_of(m, st)
    if not own:
        return f"none in these rulesets ({total} in others)" if total else "none"
    shown = ", ".join(ctx.scenario_md(sid) for sid in own[:SHOWN])
    more = f" and {len(own) - SHOWN} more" if len(own) > SHOWN else ""
    return f"{shown}{more} ({len(own)} of {total})"


def _statement_cell(ctx: Ctx, st: Any) -> str:
    text = f"{_anchor(ctx, st.id)} · {md_escape(st.section, start=False)}<br>“{md_escape(st.quote, start=False)}”"
    if st.reason:
        label = "Departs" if st.status == "departs" else "Why not"
        text += f"<br>*{label}:* {md_escape(st.reason, start=False)}"
    if st.seed_reading is not None:
        text += f"<br>*The seed as written:* {ctx.option_md(st.seed_reading.option, st.seed_reading.text())}"
    if st.note:
        text += f"<br>*Note:* {md_escape(st.note, start=False)}"
    return text


def coverage_line(m: Model, seed: str) -> str:
    """One seed in one sentence: its statements by status, and how many rule statements name a
    clause and are cited by a scenario of the seed's own rulesets."""
    trace = m.traceability
    counts = trace.counts(seed)
    statements = trace.of_seed(seed)
    rules = [st for st in statements if st.status != "not-a-rule"]
    named = sum(1 for st in rules if st.clause_ids)
    pinned = sum(1 for st in rules if _scenarios_of(m, st)[0])
    by_status = ", ".join(_count(counts[s], s) for s in TRACE_STATUSES)
    return (
        f"**{seed}**: {counted(len(statements), 'statement')} ({by_status}); "
        f"{named} of {counted(len(rules), 'rule statement')} name a clause, "
        f"{pinned} of {len(rules)} are cited by a scenario of {', '.join(trace.seeds[seed].rulesets)}."
    )


def traceability_page(m: Model) -> str:
    ctx = Ctx(SRC, m)
    trace = m.traceability
    out = [
        "---\nhide:\n  - navigation\n---\n\n"
        "<!-- Generated at build time by docs/_build (mkdocs hook) from spec/traceability.yaml, spec/ and "
        "scenarios/. Do not edit: change the spec or the scenarios instead. -->\n",
        "# Seed traceability\n",
        "Every statement of the four seed texts the rules were written from, with the clauses and option "
        "values that implement it in the rulesets named after its seed, and the scenarios of those "
        "rulesets that cite those clauses. The table is `spec/traceability.yaml`; "
        "`gostop-conformance lint` fails when a rule statement names no clause or option, when a cited "
        "clause, option, value or ruleset does not exist, when an *implemented* value is not what each "
        "listed ruleset plays, when a departure's seed reading has come to be played, and when a quote "
        "is not found word for word in its seed.\n",
        "- **implemented**: the listed rulesets play it, by a fixed clause or by the option values shown.\n"
        "- **option value**: a variant the seed offers; a party chooses it with the option value shown.\n"
        "- **departs**: the listed rulesets do something else, for the reason given; where an option "
        "value plays the seed as written, it is shown.\n"
        "- **not a rule**: narrative, history, stakes, site features or advice; one entry per kind of "
        "passage, so that what was left out is on record.\n",
        ctx.heading(2, "Coverage", "coverage"),
    ]
    rows = []
    for seed in sorted(trace.seeds):
        counts = trace.counts(seed)
        rows.append(
            [
                f"[{seed}]({ctx.md(SRC, seed)})",
                md_escape(m.source_title(seed), start=False),
                ", ".join(ctx.ruleset_md(r) for r in trace.seeds[seed].rulesets),
                str(len(trace.of_seed(seed))),
                *(str(counts[s]) for s in TRACE_STATUSES),
            ]
        )
    out.append(table(["seed", "text", "rulesets named after it", "statements", *(STATUS_NOUN[s][1] for s in TRACE_STATUSES)], rows) + "\n")
    out.append("\n".join(f"- {coverage_line(m, seed)}" for seed in sorted(trace.seeds)) + "\n")
    departures = [st for st in trace.statements if st.status == "departs"]
    out.append(ctx.heading(2, "Departures", "departures"))
    out.append(
        "Where a ruleset named after a seed does not do what the seed says:\n\n"
        + "\n".join(f"- [`{st.id}`]({ctx.md(SRC, st.id)}): {md_escape(st.reason or '', start=False)}" for st in departures)
        + "\n"
        if departures
        else "None: every ruleset named after a seed plays what the seed says.\n"
    )
    for seed in sorted(trace.seeds):
        out.append(ctx.heading(2, f"{seed} — {md_escape(m.source_title(seed), start=False)}", seed))
        out.append(coverage_line(m, seed) + "\n")
        rows = [
            [
                _statement_cell(ctx, st),
                STATUS_TEXT[st.status],
                _links(ctx, st),
                ", ".join(ctx.ruleset_md(r) for r in st.rulesets),
                _scenarios_cell(ctx, m, st),
            ]
            for st in trace.of_seed(seed)
        ]
        out.append(table(["statement", "status", "clauses and options", "rulesets", "scenarios"], rows) + "\n")
    return "\n".join(out)
