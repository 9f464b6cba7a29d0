"""A perfect engine behind the kit passes the corpus: the reference engine with its own events and
rejections thrown away (docs/adapters/kit_reference.py), so that every rejection comes from
kit.check_action and every event from kit.derive_events, over stdio as any engine is run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.kit.example import EXAMPLE

CLI = str(Path(sys.executable).with_name("gostop-conformance"))


def test_the_reference_engine_behind_the_kit_passes_every_scenario() -> None:
    done = subprocess.run(
        [CLI, "run", "--engine", f"{sys.executable} {EXAMPLE}", "--no-reports", "-q"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    found = re.fullmatch(r"(\d+) passed, 0 failed \((\d+) of (\d+) checked\)", summary)
    assert found is not None, summary
    passed, checked, total = map(int, found.groups())
    assert passed == checked == total > 1000, summary
