"""Writes the generated files that are committed under docs/ so that the repository can be read
without building the site: the recorded protocol sessions of docs/protocol-examples/ and the portable
rendering of the pages the tutorial and README link to (protocol.md, cards.md, rules/,
scenarios/index.md); and, outside docs/, the site's stepper and card pictures as the package
carries them for the harness's replay.html (conformance/_stepper_assets.json).

    python docs/_build/generate.py           # (re)write them (make docs-generated)
    python docs/_build/generate.py --check   # list the stale ones and exit 1 (tests/docs/test_repository_docs.py)

The site build (the mkdocs hook) uses the same generator (`docsgen.site.repository_files`, and the
site's rendering of the same pages), never the committed copies, so the site never shows a stale one.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ under docs/
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DOCS = REPO / "docs"
for entry in (str(HERE), str(REPO)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from docsgen import site  # noqa: E402
from docsgen.model import Model  # noqa: E402


def stale_files(files: dict[str, str]) -> list[str]:
    """Generated files whose committed copy differs or is missing, and committed files in a
    generated folder that the generator no longer makes."""
    out = [src for src, content in files.items() if not (DOCS / src).is_file() or (DOCS / src).read_text(encoding="utf-8") != content]
    for folder, pattern in site.GENERATED_FOLDERS:
        for path in sorted((DOCS / folder).glob(pattern)):
            src = path.relative_to(DOCS).as_posix()
            if path.is_file() and src not in files:
                out.append(src)
    return out


def main(argv: list[str]) -> int:
    m = Model()
    files = site.repository_files(m)
    stale = stale_files(files)
    package = site.package_files(m, DOCS)
    stale_package = [
        path for path, content in package.items() if not (REPO / path).is_file() or (REPO / path).read_text(encoding="utf-8") != content
    ]
    if "--check" in argv:
        for src in stale:
            print(f"docs/{src} is stale: run make docs-generated (python docs/_build/generate.py)")
        for path in stale_package:
            print(f"{path} is stale: run make docs-generated (python docs/_build/generate.py)")
        return 1 if stale or stale_package else 0
    for path in stale_package:
        (REPO / path).write_text(package[path], encoding="utf-8")
        print(f"wrote {path}")
    for src in stale:
        path = DOCS / src
        if src in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(files[src], encoding="utf-8")
            print(f"wrote docs/{src}")
        else:
            path.unlink()
            print(f"removed docs/{src}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
