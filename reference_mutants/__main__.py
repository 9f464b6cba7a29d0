"""`python -m gostop_conformance.mutants` is `gostop-mutant`."""

import sys

from gostop_conformance.mutants._cli import main

sys.exit(main())
