"""Text an engine controls (its hello's name, version and language, its error messages, its
stderr, anything in its replies), made safe for where the harness shows it: a terminal acts on
escape sequences (clear the screen, set the window title, write the clipboard with OSC 52, draw
hyperlinks) and a newline lets an engine forge a line of the harness's own ("874 passed")."""

from __future__ import annotations

import re
from typing import Final

#: what a terminal would act on or reorder: C0 and C1 controls but newline and tab, DEL, the
#: bidirectional overrides and isolates, the line and paragraph separators, and lone surrogates
#: (which no file can encode)
_CONTROL: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: what XML 1.0 cannot hold at all, even escaped (junit.xml would not parse)
_NOT_XML: Final = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _visible(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}" if ord(match.group()) < 0x100 else f"\\u{ord(match.group()):04x}"


def terminal_safe(text: str) -> str:
    """Text as the console may print it: controls shown as \\xNN, never acted on (the harness's
    own newlines kept: use engine_text for one value from an engine)."""
    return _CONTROL.sub(_visible, text)


def engine_text(value: object) -> str:
    """One value from an engine, on one line: controls shown as \\xNN and newlines as \\n, so
    that it can neither act on the terminal nor start a line that looks like the harness's."""
    return terminal_safe(str(value)).replace("\n", "\\n").replace("\t", "\\t")


def xml_safe(text: str) -> str:
    """Text junit.xml can hold: controls and what XML forbids shown as \\xNN (ElementTree escapes the rest)."""
    return _NOT_XML.sub(_visible, _CONTROL.sub(_visible, text))
