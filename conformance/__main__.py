"""`python -m gostop_conformance.harness`: the same as the `gostop-conformance` command (replay scripts use it)."""

import sys

from gostop_conformance.harness._entry import main

sys.exit(main())
