"""The site's hangul webfont: Noto Sans KR cut down to the hangul the built pages hold.

The theme uses system fonts (mkdocs.yml `font: false`: no request to a font service). A reader
whose machine has no Korean font would see every hangul word as empty boxes, so the site ships a
fallback of its own: after the build, every page is read for the hangul it shows (its text and its
attributes, entities decoded, and the search index, whose snippets the search box shows), and Noto
Sans KR Regular (SIL Open Font License 1.1, from the `pylopdf-fonts-ko` package of the docs extra)
is cut down to exactly those characters with fontTools and written as WOFF2 beside the font's
licence. docs/assets/hangul.css declares it last in the font stacks, after the Korean fonts the
common systems have, with a unicode-range, so a browser downloads it only when no earlier font
draws the hangul of the page.
"""

from __future__ import annotations

import html
import importlib.metadata
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gostop_conformance.spec import counted

#: the font file and its licence, under the site (docs/assets/hangul.css names the font at this path)
WOFF2: Final = "assets/fonts/hangul.woff2"
LICENCE: Final = "assets/fonts/OFL.txt"
#: the package of the docs extra that holds the source font, and the font's file in it
PACKAGE: Final = "pylopdf-fonts-ko"
SOURCE: Final = "pylopdf_fonts_ko/NotoSansKR-Regular.otf"
#: the blocks of hangul: jamo, compatibility jamo, jamo extended A, syllables, jamo extended B (the
#: @font-face unicode-range of docs/assets/hangul.css is the same)
HANGUL: Final = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7A3), (0xD7B0, 0xD7FF))
SEARCH_INDEX: Final = "search/search_index.json"


class FontError(Exception):
    """The source font is missing or is not the font the licence file says."""


#: one character of HANGUL (a regular expression scans the pages' megabytes in C, not character by character)
HANGUL_CHAR: Final = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in HANGUL) + "]")


def hangul_in(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(ch for text in texts for ch in set(HANGUL_CHAR.findall(text)))


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def site_hangul(site_dir: Path) -> frozenset[str]:
    """Every hangul character of the built site's pages and of its search index."""

    def texts() -> Iterable[str]:
        for page in sorted(site_dir.rglob("*.html")):
            yield html.unescape(page.read_text(encoding="utf-8"))
        index = site_dir / SEARCH_INDEX
        if index.is_file():  # the index escapes non-ASCII (\uXXXX): read it as JSON, not as text
            yield from _strings(json.loads(index.read_text(encoding="utf-8")))

    return hangul_in(texts())


def source_font() -> Path:
    try:
        dist = importlib.metadata.distribution(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise FontError(f"the site's hangul font comes from the package {PACKAGE} of the docs extra: pip install -e '.[docs]'") from None
    path = Path(str(dist.locate_file(SOURCE)))
    if not path.is_file():
        raise FontError(f"{PACKAGE} {dist.version} holds no {SOURCE}")
    return path


def licence_text() -> str:
    text = importlib.metadata.distribution(PACKAGE).read_text("licenses/LICENSE")
    if not text or "SIL OPEN FONT LICENSE Version 1.1" not in text:
        raise FontError(f"{PACKAGE}: its licence file is not the SIL Open Font License 1.1")
    return text


@dataclass(frozen=True)
class Shipped:
    characters: int
    size: int  # bytes of the WOFF2 file
    family: str
    version: str


def write(site_dir: Path) -> Shipped:
    """Write the font cut down to the site's hangul, and its licence, into the built site."""
    # the docs extra's, needed only when the site is built
    from fontTools import subset
    from fontTools.ttLib import TTFont

    chars = site_hangul(site_dir)
    font = TTFont(source_font(), recalcTimestamp=False)  # the source's own date: the same bytes every build
    names = font["name"]
    family, version, copyright_, licence = (names.getDebugName(i) or "" for i in (1, 5, 0, 13))
    version = version.split(";", 1)[0]  # "Version 2.004", without the tools that made it
    if family != "Noto Sans KR" or "Open Font License, Version 1.1" not in licence:
        raise FontError(f"{source_font()}: expected Noto Sans KR under the SIL Open Font License 1.1, got {family!r}: {licence[:80]!r}")
    options = subset.Options()
    options.flavor = "woff2"
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in chars))
    subsetter.subset(font)
    out = site_dir / WOFF2
    out.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff2"
    font.save(out)
    (site_dir / LICENCE).write_text(
        f"{WOFF2.rsplit('/', 1)[1]}: {family} ({version}), cut down to the {counted(len(chars), 'hangul character')} this site shows.\n"
        f"Copyright {copyright_.removeprefix('©').strip()}\n\n{licence_text()}",
        encoding="utf-8",
    )
    return Shipped(len(chars), out.stat().st_size, family, version)
