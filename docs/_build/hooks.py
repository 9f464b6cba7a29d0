"""mkdocs hooks (listed under `hooks:` in mkdocs.yml): generate the site from the spec and the corpus.

- on_config: load everything once (docsgen.model.Model) and set the navigation;
- on_files: add every generated page and card picture as a virtual file
  (`File.generated(config, src_uri, content=...)`); a generated file committed under docs/ so that
  the repository reads without a build (docs/_build/generate.py) is replaced by the site's own
  rendering of that page, or by a fresh recording;
- on_page_markdown: expand the `gostop:` markers of the hand-written pages;
- on_post_page, on_post_template: put back the raw HTML blocks, and point every page (the 404 page
  too) at the site's search worker (docsgen.search: clause ids stay whole search terms);
- on_post_build: write the hangul webfont cut down to the hangul of the built pages (docsgen.fonts).

The hook writes nothing into docs/.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Any

sys.dont_write_bytecode = True  # no __pycache__ under docs/ (mkdocs serve would see it change)
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
for entry in (str(HERE), str(REPO)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from mkdocs.structure.files import File, Files  # noqa: E402

from docsgen import fonts as _fonts  # noqa: E402
from docsgen import model as _model  # noqa: E402
from docsgen import search as _search  # noqa: E402
from docsgen import site as _site  # noqa: E402
from gostop_conformance.spec import counted  # noqa: E402

_STATE: dict[str, Any] = {}
LOG = logging.getLogger("mkdocs.hooks.gostop")


def on_config(config: Any) -> Any:
    if not config.get("use_directory_urls", True):
        raise ValueError("the generated pages assume use_directory_urls: true")
    m = _model.Model()
    _STATE["model"] = m
    config["nav"] = _site.nav(m)
    return config


def on_files(files: Files, config: Any) -> Files:
    m = _STATE["model"]
    generated = _site.generated_files(m)
    committed = _site.repository_files(m)
    for src, content in [*generated.items(), *((s, c) for s, c in committed.items() if s not in generated)]:
        existing = files.get_file_from_path(src)
        if existing is not None:
            if src not in committed:
                raise ValueError(f"docs/{src} exists but is generated: remove it from docs/")
            files.remove(existing)  # the site's own rendering (or a fresh recording), never the committed copy
        files.append(File.generated(config, src, content=content))
    patch = _search.find_worker([f.src_uri for f in files])
    _STATE["search"] = patch
    files.append(File.generated(config, patch.src, content=patch.script()))
    return files


SLOT = re.compile(r'<div class="gs-slot" data-slot="(\d+)"></div>')


def on_post_page(output: str, page: Any, config: Any) -> str:
    output = _STATE["search"].rewrite(output, page.file.src_uri)
    slots = _STATE["model"].slots.get(page.file.src_uri)
    if not slots:
        return output
    return SLOT.sub(lambda m: slots[int(m.group(1))], output)


def on_post_template(output: str, template_name: str, config: Any) -> str:
    if template_name.endswith(".html"):  # the 404 page; the sitemap names no worker
        return _STATE["search"].rewrite(output, template_name)
    return output


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.generated_by is not None:
        return markdown
    return _site.expand_markers(markdown, page.file.src_uri, _STATE["model"], Path(config["docs_dir"]))


def on_post_build(config: Any) -> None:
    shipped = _fonts.write(Path(config["site_dir"]))
    LOG.info(
        f"{_fonts.WOFF2}: {shipped.family} {shipped.version}, {counted(shipped.characters, 'hangul character')}, {shipped.size:,} bytes"
    )
