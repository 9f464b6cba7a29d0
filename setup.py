"""Only for the compiled engine: everything else about the package is in pyproject.toml.

With GOSTOP_USE_MYPYC=1 (build_backend/gostop_build.py), the modules below are compiled by mypyc
from the unchanged sources; the interpreted engine stays the reference and both builds must pass
the same tests and the whole corpus (make test-compiled)."""

import os

from setuptools import setup

#: the reference engine's hot path: dealing, matching, turn resolution, scoring and settlement, and
#: the spec model's cards and options that it reads at every step
COMPILED_MODULES = [
    *(f"spec/{name}.py" for name in ("_cards", "_rulesets")),
    *(
        f"reference_impl/{name}.py"
        for name in (
            "_deal",
            "_events",
            "_match",
            "_perft",
            "_scoring",
            "_settlement",
            "_seat",
            "_state",
            "_dealtime",
            "_legal",
            "_steals",
            "_turns",
            "_round",
        )
    ),
]

if os.environ.get("GOSTOP_USE_MYPYC") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED_MODULES, opt_level="3"))
else:
    setup()
