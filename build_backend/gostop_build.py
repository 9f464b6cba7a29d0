"""The build backend: setuptools, with the compiled engine as an opt-in build flag.

`GOSTOP_USE_MYPYC=1 pip wheel .` builds the hot modules of the reference engine with mypyc into C
extensions (the way tomli builds its compiled wheel); without the flag the wheel is pure Python.
This module only adds mypy to the build requirements when the flag asks for it; setup.py says
which modules are compiled.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]

#: mypyc ships with mypy; the compiled build needs it only while building
MYPYC_REQUIREMENT = "mypy>=1.10"
FLAG = "GOSTOP_USE_MYPYC"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    compiled = os.environ.get(FLAG) == "1"
    # setuptools runs setup.py to collect its requirements, before mypy is installed: that run
    # must not ask for mypyc
    saved = os.environ.pop(FLAG, None)
    try:
        requires: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    finally:
        if saved is not None:
            os.environ[FLAG] = saved
    return [*requires, MYPYC_REQUIREMENT] if compiled else requires
