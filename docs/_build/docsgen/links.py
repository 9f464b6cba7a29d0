"""Links between generated pages, card pictures, and the prose of spec/ turned into markdown.

Markdown links point at source files (`../options.md#jjok_steal`) so that `mkdocs build --strict`
checks them; links inside raw HTML blocks use the built URLs (directory URLs), computed here.

A page has two renderings: the site's, and the portable one committed to the repository
(`Ctx(..., portable=True)`, docs/_build/generate.py), which GitHub renders: anchors are `<a id>`
elements (GitHub shows `{#id}` as text), there are no card pictures and no raw HTML blocks, and
what only the site has (options, rulesets, scenarios) is linked in spec/ and scenarios/ instead.
"""

from __future__ import annotations

import html
import posixpath
import re
import textwrap
from typing import TYPE_CHECKING, Any

from docsgen.cards import describe

if TYPE_CHECKING:
    from docsgen.model import Model

CARD_SIZES = {"s": (24, 38), "m": (36, 58), "l": (64, 102)}
CLAUSE_RE = re.compile(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def page_url(src: str) -> str:
    """The URL of a page or asset relative to the site root, as mkdocs builds it (directory URLs)."""
    if not src.endswith(".md"):
        return src
    if src == "index.md":
        return ""
    if src.endswith("/index.md"):
        return src[: -len("index.md")]
    return src[: -len(".md")] + "/"


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def md_escape(text: str, start: bool = True) -> str:
    """Plain text into markdown text: no accidental emphasis, links or HTML (nor a heading, quote
    or list when `start`: the text begins a block); braces as entities, so that a title with a
    set such as `{junk, junk}` is not read as a heading's attribute list (`{#anchor}`)."""
    out = text.replace("\\", "\\\\").replace("*", "\\*").replace("[", "\\[").replace("]", "\\]").replace("<", "&lt;")
    out = out.replace("{", "&#123;").replace("}", "&#125;")
    return "\\" + out if start and out.startswith(("#", ">", "+ ", "- ")) else out


def fmt_value(value: Any) -> str:
    """An option value as the spec writes it (sets sorted)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset | set):
        return "[" + ", ".join(str(v) for v in sorted(value, key=str)) + "]"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(fmt_value(v) for v in value) + "]"
    return str(value)


class Ctx:
    """Link helpers for one page (`src` is its path under docs/)."""

    def __init__(self, src: str, model: Model, portable: bool = False) -> None:
        self.src = src
        self.m = model
        self.portable = portable
        self._dir = posixpath.dirname(src)
        self._cards: dict[tuple[str, str], str] = {}
        url = page_url(src)
        self._url_dir = url[: url.rfind("/")] if "/" in url else ""

    # -- raw HTML that markdown never sees ---------------------------------------------------------

    def slot(self, html_text: str) -> str:
        """A placeholder for a block of raw HTML, put back into the built page by the hook's
        on_post_page. Neither Python-Markdown nor the search index parse these blocks (card
        pictures and worked examples): the build stays fast and search finds headings and prose.
        A portable page has none."""
        if self.portable:
            return ""
        slots = self.m.slots.setdefault(self.src, [])
        slots.append(html_text)
        return f'<div class="gs-slot" data-slot="{len(slots) - 1}"></div>'

    # -- markdown links (checked by mkdocs) ---------------------------------------------------

    def heading(self, level: int, text: str, anchor: str) -> str:
        """A heading others link to as `page.md#anchor`."""
        if self.portable:
            return f'<a id="{esc(anchor)}"></a>\n\n{"#" * level} {text}\n'
        return f"{'#' * level} {text} {{#{anchor}}}\n"

    def repo(self, path: str) -> str:
        """A relative link to a file of the repository outside docs/ (portable pages only: the site
        has no such files)."""
        return posixpath.relpath(posixpath.join("..", path), self._dir or ".")

    def md(self, target: str, anchor: str | None = None) -> str:
        rel = posixpath.relpath(target, self._dir or ".")
        return rel + (f"#{anchor}" if anchor else "")

    # -- raw HTML links ---------------------------------------------------------------------------

    def href(self, target: str, anchor: str | None = None, query: str = "") -> str:
        url = page_url(target)
        if url.endswith("/") or url == "":
            rel = posixpath.relpath(url.rstrip("/") or ".", self._url_dir or ".")
            rel = "./" if rel == "." else rel + "/"
        else:
            rel = posixpath.relpath(url, self._url_dir or ".")
        return rel + query + (f"#{anchor}" if anchor else "")

    # -- things that are linked everywhere -----------------------------------------------------------

    def clause_page(self, cid: str) -> str:
        return f"rules/{self.m.area_of_clause[cid]}.md"

    def clause_md(self, cid: str, text: str | None = None) -> str:
        if cid not in self.m.area_of_clause:
            return f"`{cid}`"
        return f"[{text or cid}]({self.md(self.clause_page(cid), cid)})"

    def clause_a(self, cid: str, cls: str = "gs-clause") -> str:
        if cid not in self.m.area_of_clause:
            return f'<code class="{cls}">{esc(cid)}</code>'
        title = esc(self.m.clauses[cid].title)
        return f'<a class="{cls}" href="{self.href(self.clause_page(cid), cid)}" title="{title}">{esc(cid)}</a>'

    def option_md(self, oid: str, text: str | None = None) -> str:
        if self.portable:
            return f"[`{text or oid}`]({self.repo('spec/options.yaml')})"
        return f"[`{text or oid}`]({self.md('options.md', oid)})"

    def option_a(self, oid: str, text: str | None = None) -> str:
        return f'<a href="{self.href("options.md", oid)}"><code>{esc(text or oid)}</code></a>'

    def ruleset_md(self, rid: str) -> str:
        if self.portable:
            return f"[{rid}]({self.repo(f'spec/rulesets/{rid}.yaml')})"
        return f"[{rid}]({self.md(f'rulesets/{rid}.md')})"

    def ruleset_a(self, rid: str) -> str:
        return f'<a href="{self.href(f"rulesets/{rid}.md")}">{esc(rid)}</a>'

    def scenario_md(self, sid: str, text: str | None = None) -> str:
        if self.portable:
            return f"[{md_escape(text or sid)}]({self.repo(self.m.scenario_file[sid])})"
        return f"[{md_escape(text or sid)}]({self.md(self.m.scenario_page[sid], sid)})"

    def scenario_a(self, sid: str, text: str | None = None) -> str:
        return f'<a href="{self.href(self.m.scenario_page[sid], sid)}">{esc(text or sid)}</a>'

    def source(self, key: str) -> str:
        entry = self.m.sources.get(key)
        if not entry:
            return f"`{key}`"
        title = md_escape(str(entry["title"]))
        loc = str(entry.get("locator", ""))
        if loc.startswith("https://"):
            return f"[{title}]({loc}) (`{key}`)"
        return f"{title} (`{key}`)"

    def sources_md(self, keys: Any) -> str:
        return "; ".join(self.source(k) for k in keys)

    # -- cards ----------------------------------------------------------------------------------

    def card(self, cid: str, size: str = "m") -> str:
        """The card's picture (nothing on a portable page: the pictures exist only in the site)."""
        if self.portable:
            return ""
        key = (cid, size)
        if key not in self._cards:
            self._cards[key] = self._card(cid, size)
        return self._cards[key]

    def _card(self, cid: str, size: str) -> str:
        card = self.m.deck.by_id.get(cid)
        if card is None:
            return f"<code>{esc(cid)}</code>"
        w, h = CARD_SIZES[size]
        text = esc(describe(card, self.m.deck.month_names))
        return (
            f'<img class="gs-card gs-card-{size}" src="{self.href(f"cards/{cid}.svg")}" '
            f'width="{w}" height="{h}" alt="{esc(cid)}" title="{text}">'
        )

    def cards(self, ids: Any, size: str = "m", empty: str = "—") -> str:
        ids = list(ids or [])
        if not ids:
            return f'<span class="gs-none">{empty}</span>'
        return '<span class="gs-cards">' + "".join(self.card(c, size) for c in ids) + "</span>"

    def is_card(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.m.deck.by_id

    # -- prose --------------------------------------------------------------------------------------

    def prose(self, text: str) -> str:
        """Spec prose (paragraphs; indented lines are preformatted tables) as markdown."""
        out: list[str] = []
        for para in re.split(r"\n[ \t]*\n", text.strip("\n")):
            lines = para.split("\n")
            block: list[str] = []
            pre: list[str] = []
            for line in lines:
                if line.startswith((" ", "\t")) and line.strip():
                    if block:
                        out.append(self.inline(" ".join(x.strip() for x in block)))
                        block = []
                    pre.append(line)
                else:
                    if pre:
                        out.append("```text\n" + textwrap.dedent("\n".join(pre)) + "\n```")
                        pre = []
                    block.append(line)
            if block:
                out.append(self.inline(" ".join(x.strip() for x in block)))
            if pre:
                out.append("```text\n" + textwrap.dedent("\n".join(pre)) + "\n```")
        return "\n\n".join(out)

    def inline(self, text: str) -> str:
        """One paragraph: clause ids linked, `option = value` linked, `card ids` pictured."""
        parts = text.split("`")
        out = []
        for i, part in enumerate(parts):
            if i % 2 == 0:
                escaped = md_escape(part, start=i == 0)
                out.append(CLAUSE_RE.sub(lambda m: self.clause_md(m.group(0)), escaped))
            elif i == len(parts) - 1:  # an unmatched backtick
                out.append("\\`" + md_escape(part))
            else:
                out.append(self.code_span(part))
        return "".join(out)

    def code_span(self, code: str) -> str:
        word = code.split(" ", 1)[0]
        if self.is_card(code):
            return self.card(code, "s") + f"`{code}`"
        if word in self.m.options:
            return self.option_md(word, code)
        return f"`{code}`"
