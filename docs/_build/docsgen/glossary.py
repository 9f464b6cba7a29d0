"""The glossary page, generated from spec/glossary.yaml (`glossary()` of the spec package).

Each term is a section whose heading carries its three forms, hangul, romanisation and English
(`피 pi — junk`), so that the site search finds the term by any of them (the heading is the
section's search title); the page has a search boost so that a term's own section comes before the
pages that merely use the word. The card pictures of a term and its clause links follow. The clause
sections of the rules pages list their terms back (`terms_of_clause`).
"""

from __future__ import annotations

from typing import Any

from docsgen.links import Ctx, esc, md_escape
from docsgen.model import Model

SRC = "glossary.md"
#: front matter: a term's section outranks the pages that only use the word
FRONT = "---\nsearch:\n  boost: 5\n---\n\n"
GENERATED = "<!-- Generated at build time by docs/_build (mkdocs hook) from spec/glossary.yaml. Do not edit. -->\n\n"


def english(m: Model, term: Any) -> str:
    return f"{term.english} (month {term.month})" if term.month else term.english


def heading_text(m: Model, term: Any) -> str:
    return f"{term.hangul} *{term.romanisation}* — {md_escape(english(m, term), start=False)}"


def glossary_page(m: Model) -> str:
    ctx = Ctx(SRC, m)
    g = m.glossary
    out = [
        FRONT + GENERATED,
        "# Glossary of Korean terms\n",
        "The words players use at a Go-Stop table, in hangul, in romanisation (as this site spells them) and "
        "in English, with what each means here and the clauses that specify it. The site search finds a "
        "term by any of the three: try 피, *ppeok* or *sweep*. New to the game? "
        f"[Learn to play in five minutes]({ctx.md('learn.md')}).\n",
        "Generated from `spec/glossary.yaml`.\n",
    ]
    rows = []
    for gid, _title in g.groups:
        for t in g.in_group(gid):
            link = f"[{t.hangul}](#{t.id})"
            rows.append(
                f"| {link} | {md_escape(t.romanisation, start=False)} | {md_escape(english(m, t), start=False)} | "
                + ", ".join(ctx.clause_md(c) for c in t.clauses[:2])
                + " |"
            )
    out.append(ctx.heading(2, "Every term at a glance", "at-a-glance"))
    out.append("| 한글 hangul | romanisation | English | clauses |\n| --- | --- | --- | --- |\n" + "\n".join(rows) + "\n")
    for gid, title in g.groups:
        out.append(ctx.heading(2, md_escape(title), f"group-{gid}"))
        for t in g.in_group(gid):
            out.append(ctx.heading(3, heading_text(m, t), t.id))
            cards = list(t.cards) or ([c.id for c in m.cards if c.month == t.month] if t.month else [])
            if cards:
                out.append(ctx.slot(f'<div class="gs-term-cards">{ctx.cards(cards, "m")}</div>') + "\n")
            out.append(ctx.inline(t.meaning) + "\n")
            meta = []
            if t.also:
                meta.append("- **Also:** " + ", ".join(md_escape(a, start=False) for a in t.also))
            meta.append(
                "- **Clauses:** " + ", ".join(f"{ctx.clause_md(c)} ({md_escape(m.clauses[c].title, start=False)})" for c in t.clauses)
            )
            out.append("\n".join(meta) + "\n")
    return "\n".join(out)


def terms_of_clause(m: Model, ctx: Ctx, cid: str) -> str:
    """The glossary terms that cite a clause, linked (for the clause's section of its rules page)."""
    terms = [t for t in m.glossary.terms if cid in t.clauses and t.month is None]
    if not terms:
        return ""
    return "- **Korean terms:** " + ", ".join(
        f"[{t.hangul} {esc(t.romanisation)}]({ctx.md(SRC, t.id)}) ({md_escape(t.english, start=False)})" for t in terms
    )
