"""`python -m gostop_conformance.reference` is `gostop-reference`."""

import sys

from gostop_conformance.reference._cli import main

sys.exit(main())
