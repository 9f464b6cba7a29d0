"""The reference engine behind the kit (docs/adapters/kit_reference.py), imported by path: docs/ is
no package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "adapters" / "kit_reference.py"
_spec = importlib.util.spec_from_file_location("kit_reference", EXAMPLE)
assert _spec is not None and _spec.loader is not None
_module = importlib.util.module_from_spec(_spec)
sys.modules["kit_reference"] = _module
_spec.loader.exec_module(_module)
ReferenceBehindKit = _module.ReferenceBehindKit
