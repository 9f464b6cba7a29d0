"""Only for the compiled engine: everything else about the package is in pyproject.toml.

With GOSTOP_USE_MYPYC=1 (build_backend/gostop_build.py), the modules below are compiled by mypyc
from the unchanged sources; the interpreted engine stays the reference and both builds must pass
the same tests and the whole corpus (make test-compiled)."""

import os
import sys

from setuptools import setup

#: the reference engine's hot path: dealing, matching, turn resolution, scoring and settlement, and
#: the spec model's cards and options that it reads at every step
COMPILED_MODULES = [
    *(f"src/gostop_conformance/spec/{name}.py" for name in ("_cards", "_rulesets")),
    *(
        f"src/gostop_conformance/reference/{name}.py"
        for name in (
            "_rng",
            "_deal",
            "_events",
            "_match",
            "_perft",
            "_tally",
            "_scoring",
            "_settlement",
            "_pointcount",
            "_seat",
            "_cards",
            "_state",
            "_dealtime",
            "_legal",
            "_actions",
            "_steals",
            "_turns",
            "_round",
        )
    ),
]

#: The engine's native functions are global symbols of one shared object. Under -fPIC the compiler
#: must assume any of them may be replaced at load time (ELF interposition), so it calls each
#: through the PLT and never inlines one into another; nothing interposes them. -fno-plt calls
#: libpython through the GOT without the PLT's extra jump. Together: 396,680 -> 382,147
#: instructions a random matgo-2p round (benchmarks/instructions.py). benchmarks/floor.py compiles
#: its floor with the same flags.
NATIVE_CFLAGS = ("-fno-semantic-interposition", "-fno-plt")

if os.environ.get("GOSTOP_USE_MYPYC") == "1":
    from mypyc.build import mypycify

    extensions = mypycify(COMPILED_MODULES, opt_level="3")
    native = NATIVE_CFLAGS if sys.platform != "win32" else ()  # GCC and clang: MSVC knows neither flag
    # more flags for this build only (make compiled-pgo's profile): not CFLAGS, which replaces
    # Python's own compile flags (-DNDEBUG, -fwrapv) rather than adding to them
    more_cflags = os.environ.get("GOSTOP_MYPYC_CFLAGS", "").split()
    more_ldflags = os.environ.get("GOSTOP_MYPYC_LDFLAGS", "").split()
    for ext in extensions:  # new lists: mypyc's are shared by every extension
        ext.extra_compile_args = [*ext.extra_compile_args, *native, *more_cflags]
        ext.extra_link_args = [*ext.extra_link_args, *more_ldflags]
    setup(ext_modules=extensions)
else:
    setup()
