"""The harness's defaults, in a module that imports nothing, so that the command line's --help and
the pytest plugin (loaded by every pytest run where the package is installed) state them without
loading the harness."""

from __future__ import annotations

from typing import Final

#: seconds to wait for each reply (`--timeout`)
DEFAULT_TIMEOUT: Final = 10.0
#: seconds to wait for the engine's hello (`--startup-timeout`): an engine may load a runtime first
DEFAULT_STARTUP_TIMEOUT: Final = 20.0
#: planned requests sent before their replies are read (`--pipeline`): enough for most rounds of
#: the corpus to go out at once, so a round costs one wait for the engine, not one per message
DEFAULT_PIPELINE: Final = 32
#: the longest wait for one reply, or for the hello, that makes sense (a day)
MAX_SECONDS: Final = 86_400.0
#: requests in flight at most (the bytes in flight are bounded anyway; more gains nothing)
MAX_PIPELINE: Final = 4096
