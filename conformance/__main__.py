"""`python -m conformance`: the same as the `gostop-conformance` command (replay scripts use it)."""

import sys

from conformance._cli import main

sys.exit(main())
